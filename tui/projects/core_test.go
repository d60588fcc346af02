package projects_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/projects"
)

// TestBuildFromTheTUIWithCore: the build view over the real core builds a
// project from a local git repository: the phases pass, the script's own
// output streams into the view, and back in :projects the artifact is
// listed. (The TUI never imports core; only this test does, to drive it.)
func TestBuildFromTheTUIWithCore(t *testing.T) {
	svc := coreWithProject(t, "")
	h := tuitest.Drive(t, nil, 120, 40, func(ctx context.Context) tea.Model {
		return tui.New(ctx, svc, tui.Options{Context: "test", Theme: tui.ThemeDark, RequestTimeout: time.Minute})
	})
	startBuild(h)
	waitBuild(h)
	h.MustShow("succeeded", "✓ fetch  ✓ checkout  ✓ build  ✓ collect", "✓ v1 out/dedup.jar", "compiling com.acme.Dedup", "BUILD SUCCESS")
	h.Press("esc")
	if _, ok := h.Top().(*projects.Screen); !ok {
		t.Fatalf("esc left %T on top", h.Top())
	}
	h.MustShow("Artifacts of dedup", "v1", "tester", "dedup by event id")
	if !strings.Contains(h.Screen(), "1 project") {
		t.Errorf("the list: %s", h.Screen())
	}
}

// coreWithProject is core over a store of its own with project dedup: a
// local git repository whose build.sh prints, waits for the file hold
// while it exists (when hold is not ""), and zips a jar.
func coreWithProject(t *testing.T, hold string) *core.Local {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	work, bare := filepath.Join(root, "work"), filepath.Join(root, "dedup.git")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	_ = os.MkdirAll(filepath.Join(work, "META-INF"), 0o755)
	_ = os.WriteFile(filepath.Join(work, "META-INF", "MANIFEST.MF"), []byte("Manifest-Version: 1.0\nMain-Class: com.acme.Dedup\n"), 0o644)
	_ = os.WriteFile(filepath.Join(work, "build.sh"), []byte("#!/bin/sh\nset -e\necho compiling com.acme.Dedup\n"+waitFor(hold)+"mkdir -p out\ngit archive --format=zip -o out/dedup.jar HEAD META-INF\necho BUILD SUCCESS\n"), 0o755)
	run(root, "init", "--quiet", "--bare", "--initial-branch=main", bare)
	run(work, "init", "--quiet", "--initial-branch=main")
	run(work, "add", "-A")
	run(work, "commit", "--quiet", "-m", "dedup by event id")
	run(work, "push", "--quiet", bare, "main")

	st, err := store.Open(filepath.Join(root, "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// palink refuses to build as root: where the tests run as root (CI
	// does), the build runs as nobody.
	var build core.BuildPolicy
	if os.Geteuid() == 0 {
		build.User = "nobody"
	}
	svc, err := core.NewLocal(core.Options{Store: st, User: "tester", ProjectCache: filepath.Join(root, "cache"), Build: build})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddProject(context.Background(), model.Project{Name: "dedup", Repo: bare, Ref: "main", Build: "./build.sh", Artifact: "out/*.jar"}); err != nil {
		t.Fatal(err)
	}
	return svc
}

// waitFor is the shell that waits while the file hold exists (at most
// 30 s), or nothing.
// visibleDir is a directory the build user (nobody, where the tests run
// as root) can see into, for the file that holds a build.
func visibleDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "palink-hold-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

func waitFor(hold string) string {
	if hold == "" {
		return ""
	}
	return "i=0; while [ -f " + hold + " ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done\n"
}

// TestBuildThroughTheAgent: with the build running in an agent, whose log
// does not cross the socket as it comes, the build view asks the agent how
// the build stands: the phase and the log so far show while it runs, and
// the artifact once it ends.
func TestBuildThroughTheAgent(t *testing.T) {
	hold := filepath.Join(visibleDir(t), "hold")
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	svc := coreWithProject(t, hold)
	sock := filepath.Join(t.TempDir(), "a.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = agent.Serve(ctx, ln, svc, agent.ServeOptions{}) }()
	client, err := agent.Dial(ctx, agent.AgentSocket{Path: sock, Configured: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(hold); client.Close(); cancel(); <-done })

	h := tuitest.Drive(t, nil, 120, 40, func(ctx context.Context) tea.Model {
		return tui.New(ctx, client, tui.Options{Context: "test", Theme: tui.ThemeDark, RequestTimeout: time.Minute})
	})
	startBuild(h)
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(h.Screen(), "compiling com.acme.Dedup"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the agent's build log never showed:\n%s", h.Screen())
		}
		h.Fire(projects.TickMsg)
	}
	h.MustShow("running", "● build", "in the agent")
	_ = os.Remove(hold)
	waitBuild(h)
	h.MustShow("succeeded", "✓ v1 out/dedup.jar", "BUILD SUCCESS")
}
