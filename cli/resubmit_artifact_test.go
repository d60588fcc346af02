package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/config"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestResubmitPrintsTheCommitsOfTheNewArtifact: a JAR job built from a
// project and resubmitted after a rebuild at a new commit says, in its
// output, the artifact versions and the commit between them, and -o json
// carries them as the command's params.artifact.
func TestResubmitPrintsTheCommitsOfTheNewArtifact(t *testing.T) {
	fake, _ := filepath.Abs("../core/testdata/fake-flink")
	e := newCLIEnv(t, sim.Options{}, func(c *config.Config) {
		c.Clusters[0].Deploy.JarDeployer = "exec"
		c.Clusters[0].Deploy.Command = fake + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
		c.Clusters[0].Deploy.Env = map[string]string{"FAKE_FLINK_RM": c.Clusters[0].RM[0]}
	})
	bare := bareRepoWithBuild(t)
	e.mustRun("project", "add", "dedup", "--repo", bare, "--build", "./build.sh", "--artifact", "out/*.jar")
	e.mustRun("project", "build", "dedup", "-q")
	e.mustRun("job", "create", "--name", "dedup", "--cluster", "sim", "--project", "dedup", "--class", "com.acme.Dedup")
	e.mustRun("job", "submit", "dedup", "--wait")

	// A new commit, pushed and built: v2.
	work := filepath.Join(t.TempDir(), "work")
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(filepath.Dir(work), "clone", "--quiet", bare, work)
	git(work, "commit", "--quiet", "--allow-empty", "-m", "dedup within 10 minutes")
	git(work, "push", "--quiet", "origin", "HEAD:main")
	oneline := git(work, "log", "--oneline", "--no-decorate", "-1")
	e.mustRun("project", "build", "dedup", "-q")
	e.mustRun("job", "edit", "dedup", "--project", "dedup", "--class", "com.acme.Dedup")

	e.mustRun("job", "kill", "dedup", "--yes", "--wait")
	out := e.mustRun("job", "resubmit", "dedup", "--restore", "none", "--yes")
	if !strings.Contains(out, "artifact v1 → v2 of project dedup") || !strings.Contains(out, "1 commit\n    "+oneline+"\n") {
		t.Errorf("resubmit output:\n%s", out)
	}
	cmds, err := e.commandsJSON(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, c := range cmds {
		if c.Kind == model.CmdResubmit {
			found = true
			if a := c.Params.Artifact; a == nil || a.From != 1 || a.To != 2 || len(a.Commits) != 1 || a.Commits[0] != oneline {
				t.Errorf("params.artifact of the resubmit: %+v", a)
			}
		}
	}
	if !found {
		t.Errorf("no RESUBMIT in commands -o json: %+v", cmds)
	}
}
