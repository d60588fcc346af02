package core_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// gitRepo is a bare repository and a clone to commit in; its build.sh
// writes out/dedup.jar (a zip with the manifest, by git archive).
type gitRepo struct {
	t          *testing.T
	bare, work string
}

func (r gitRepo) git(dir string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r gitRepo) commit(msg, mainClass string) string {
	r.t.Helper()
	_ = os.WriteFile(filepath.Join(r.work, "META-INF", "MANIFEST.MF"), []byte("Manifest-Version: 1.0\nMain-Class: "+mainClass+"\n"), 0o644)
	r.git(r.work, "add", "-A")
	r.git(r.work, "commit", "--quiet", "-m", msg)
	r.git(r.work, "push", "--quiet", r.bare, "main")
	return r.git(r.work, "rev-parse", "HEAD")
}

func newGitRepo(t *testing.T) gitRepo {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	r := gitRepo{t: t, bare: filepath.Join(root, "dedup.git"), work: filepath.Join(root, "work")}
	_ = os.MkdirAll(filepath.Join(r.work, "META-INF"), 0o755)
	_ = os.WriteFile(filepath.Join(r.work, "build.sh"), []byte("#!/bin/sh\nset -e\nmkdir -p out\ngit archive --format=zip -o out/dedup.jar HEAD META-INF\n"), 0o755)
	r.git(root, "init", "--quiet", "--bare", "--initial-branch=main", r.bare)
	r.git(r.work, "init", "--quiet", "--initial-branch=main")
	return r
}

// TestProjectBuildToJarJob: a project built from a local git repository
// gives an artifact; a JAR job pinned to it is submitted with its file and
// restarts with the same one; a rebuild at a new commit is pinned by a new
// spec version and resubmitted from the savepoint, and the first artifact
// stays on disk for the spec version that names it.
func TestProjectBuildToJarJob(t *testing.T) {
	fake, _ := filepath.Abs("testdata/fake-flink")
	repo := newGitRepo(t)
	first := repo.commit("dedup by event id", "com.acme.Dedup")
	e := coretest.NewWith(t, sim.Options{}, func(c *clusters.Spec) {
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = fake + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
	}, func(o *core.Options) { o.ProjectCache = filepath.Join(t.TempDir(), "projects") })
	if _, err := e.Svc.AddProject(e.Ctx, model.Project{Name: "dedup", Repo: repo.bare, Ref: "main", Build: "./build.sh", Artifact: "out/*.jar"}); err != nil {
		t.Fatal(err)
	}
	a1, err := e.Svc.BuildProject(e.Ctx, api.BuildRequest{Project: "dedup"})
	if err != nil || a1.Version != 1 || a1.Commit != first {
		t.Fatalf("build 1: %+v %v", a1, err)
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "dedup", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{Project: "dedup", EntryClass: "com.acme.Dedup"}}); err != nil {
		t.Fatal(err)
	}
	d, _ := e.Svc.Job(e.Ctx, "dedup")
	if d.Spec.JarPath != a1.Path || d.Spec.ArtifactVersion != 1 || d.Spec.ArtifactCommit != first {
		t.Fatalf("spec v1 pins %+v", d.Spec)
	}
	c := e.Act("dedup", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded || !strings.Contains(strings.Join(coretest.LogTexts(c), "\n"), a1.Path) {
		t.Fatalf("submit with artifact v1: %s %s\n%v", c.State, c.Error, c.Log)
	}
	e.SyncUntil("dedup", "RUNNING", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" })

	second := repo.commit("dedup within 10 minutes", "com.acme.Dedup2")
	a2, err := e.Svc.BuildProject(e.Ctx, api.BuildRequest{Project: "dedup"})
	if err != nil || a2.Version != 2 || a2.Commit != second || a2.Path == a1.Path {
		t.Fatalf("build 2: %+v %v", a2, err)
	}
	s2, err := e.Svc.SaveSpec(e.Ctx, "dedup", model.Spec{Project: "dedup", EntryClass: "com.acme.Dedup2", Note: "v2 of the jar"})
	if err != nil || s2.ArtifactVersion != 2 || s2.JarPath != a2.Path {
		t.Fatalf("spec v2: %+v %v", s2, err)
	}
	if c := e.Act("dedup", model.CmdPause, 0); c.State != model.CmdSucceeded {
		t.Fatalf("pause: %s %s", c.State, c.Error)
	}
	sp := e.Job("dedup").LatestSavepoint
	// The resubmit's plan and command say what changes in the jar: the
	// commits from v1's to v2's, as git log --oneline gives them.
	wantCommit := repo.git(repo.work, "log", "--oneline", "--no-decorate", "-1")
	plan, err := e.Svc.Plan(e.Ctx, api.ActionRequest{JobRef: "dedup", Kind: model.CmdResubmit, Restore: model.RestoreSavepoint})
	if err != nil || plan.Artifact == nil || plan.Artifact.From != 1 || plan.Artifact.To != 2 || plan.Artifact.FromCommit != first ||
		len(plan.Artifact.Commits) != 1 || plan.Artifact.Commits[0] != wantCommit {
		t.Fatalf("resubmit plan's artifact change: %+v %v", plan.Artifact, err)
	}
	c = e.Act("dedup", model.CmdResubmit, model.RestoreSavepoint)
	if c.State != model.CmdSucceeded || !strings.Contains(strings.Join(coretest.LogTexts(c), "\n"), a2.Path) {
		t.Fatalf("resubmit with artifact v2: %s %s\n%v", c.State, c.Error, c.Log)
	}
	if ch := c.Params.Artifact; ch == nil || ch.To != 2 || len(ch.Commits) != 1 || ch.Commits[0] != wantCommit {
		t.Errorf("the resubmit command records the change %+v", ch)
	}
	// Once v2 runs, another deploy changes nothing in the jar.
	if p, err := e.Svc.Plan(e.Ctx, api.ActionRequest{JobRef: "dedup", Kind: model.CmdResubmit, Restore: model.RestoreNone}); err != nil || p.Artifact != nil {
		t.Errorf("a second resubmit of v2 shows a change: %+v %v", p.Artifact, err)
	}
	j := e.SyncUntil("dedup", "RUNNING on v2", coretest.Running)
	app, err := e.Sim.App(j.AppID)
	if err != nil || len(app.Jobs) == 0 || app.Jobs[0].RestoredFrom != sp.Path || app.Jobs[0].EntryClass != "com.acme.Dedup2" {
		t.Errorf("resubmitted job: %+v %v", app.Jobs, err)
	}
	if _, err := os.Stat(a1.Path); err != nil {
		t.Errorf("artifact v1 is gone: %v", err)
	}
	if _, err := e.Svc.SaveSpec(e.Ctx, "dedup", model.Spec{Project: "dedup", ArtifactVersion: 9, EntryClass: "X"}); err == nil || !strings.Contains(err.Error(), "no artifact v9") {
		t.Errorf("pinning a missing version: %v", err)
	}
}
