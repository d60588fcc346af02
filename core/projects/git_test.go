package projects

// Git as palink runs it: reaching an ssh repository with the user's agent
// and known hosts, saying why it failed, stopping when the build is
// cancelled.

import (
	"context"
	"errors"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palink/palink/core/internal/sandbox"
	"github.com/palink/palink/store"
)

// fakeSSH is an ssh that serves the repository the command names from
// this host, as a git server would, but only to a client that would never
// prompt (BatchMode), knows the server's host key (in $HOME/.ssh/known_hosts)
// and offers the key of the ssh agent at $SSH_AUTH_SOCK.
const fakeSSH = `#!/bin/sh
for a; do last=$a; done
case " $* " in *" BatchMode=yes "*) ;; *) echo "ssh: BatchMode is off: it would prompt" >&2; exit 255 ;; esac
grep -q '^gitserver ' "$HOME/.ssh/known_hosts" 2>/dev/null || { echo "Host key verification failed." >&2; exit 255; }
[ "$SSH_AUTH_SOCK" = "$(cat "$HOME/.ssh/agent")" ] || { echo "git@gitserver: Permission denied (publickey)." >&2; exit 255; }
exec sh -c "$last"
`

// TestSSHRepositoryWithTheUsersAgentAndKnownHosts: a repository reached
// over ssh is fetched with palink's HOME (its known hosts) and its ssh
// agent; without the agent, git's own reason is the build's error.
func TestSSHRepositoryWithTheUsersAgentAndKnownHosts(t *testing.T) {
	f := newFixture(t)
	bin, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(fakeSSH), 0o755); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(t.TempDir(), "agent.sock")
	_ = os.Mkdir(filepath.Join(home, ".ssh"), 0o700)
	_ = os.WriteFile(filepath.Join(home, ".ssh", "known_hosts"), []byte("gitserver ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n"), 0o600)
	_ = os.WriteFile(filepath.Join(home, ".ssh", "agent"), []byte(agent), 0o600)
	t.Setenv("HOME", home)
	t.Setenv("SSH_AUTH_SOCK", "")

	st, err := store.Open(f.dbPath, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run := policy()
	run.Path = bin + ":" + sandbox.DefaultPath
	b := New(Options{Store: st, CacheDir: f.cache, Run: run})
	p := f.project(time.Minute)
	p.Repo = "git@gitserver:" + f.bare
	if _, err := b.Add(context.Background(), p, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(context.Background(), "dedup", "", "ana", nil); err == nil || !strings.Contains(err.Error(), "Permission denied (publickey)") {
		t.Errorf("a build without the ssh agent: %v", err)
	}
	t.Setenv("SSH_AUTH_SOCK", agent)
	a, err := b.Build(context.Background(), "dedup", "", "ana", nil)
	if head := git(t, f.work, "rev-parse", "HEAD"); err != nil || a.Commit != head {
		t.Errorf("a build with the ssh agent: %+v %v", a, err)
	}
}

// TestGitFailuresSayWhy: a clone that fails says git's reason; a git that
// cannot be run is named.
func TestGitFailuresSayWhy(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	p := f.project(time.Minute)
	missing := filepath.Join(t.TempDir(), "missing.git")
	p.Repo = missing
	if _, err := b.Add(context.Background(), p, "ana"); err != nil {
		t.Fatal(err)
	}
	_, err := b.Build(context.Background(), "dedup", "", "ana", nil)
	if want := "build dedup: clone " + missing + ": git clone: fatal: repository '" + missing + "' does not exist"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a repository that does not exist: %v, want %q", err, want)
	}

	b = New(Options{Store: st, CacheDir: f.cache, Git: "/nonexistent/git", Run: policy()})
	if _, err := b.Add(context.Background(), f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	_, err = b.Build(context.Background(), "dedup", "", "ana", nil)
	if want := "git clone: fork/exec /nonexistent/git: no such file or directory"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("git missing: %v, want %q", err, want)
	}
}

// TestCancelWhileGitFetches: a build cancelled while git waits on a
// server that does not answer ends at once as cancelled, audited so, and
// leaves no git process behind.
func TestCancelWhileGitFetches(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	addr := silentServer(t)
	p := f.project(time.Minute)
	p.Repo = "http://" + addr + "/x.git"
	if _, err := b.Add(context.Background(), p, "ana"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := b.Build(ctx, "dedup", "", "ana", nil); done <- err }()
	// Cancel once git talks to the server.
	for deadline := time.Now().Add(20 * time.Second); len(gitProcessesOf(addr)) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("git never reached the server")
		}
	}
	cancel()
	start := time.Now()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "git clone was stopped with its process group") || time.Since(start) > 5*time.Second {
			t.Errorf("a clone cancelled: %v after %s", err, time.Since(start))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a cancelled clone still runs after 30s")
	}
	if got := lastOutcome(t, st); got != "ana: cancelled" {
		t.Errorf("audit %q, want cancelled", got)
	}
	if left := gitProcessesOf(addr); len(left) > 0 {
		t.Errorf("git processes left:\n%s", strings.Join(left, "\n"))
	}
	if _, err := os.Stat(filepath.Join(f.cache, "dedup", "src")); err == nil {
		t.Error("the cancelled clone left half a repository")
	}
}

// TestProxyAProjectDeclaresReachesGit: a repository reachable only
// through a proxy is fetched through the one its project declares; the
// proxy of palink's own environment is not git's.
func TestProxyAProjectDeclaresReachesGit(t *testing.T) {
	f := newFixture(t)
	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git --exec-path:", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skip("no git-http-backend")
	}
	repos := &cgi.Handler{Path: backend, Root: "/", Env: []string{"GIT_PROJECT_ROOT=" + filepath.Dir(f.bare), "GIT_HTTP_EXPORT_ALL=1"}}
	var proxied atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Host != "gitserver.invalid" {
			http.Error(w, "no route to "+r.URL.Host, http.StatusBadGateway)
			return
		}
		proxied.Add(1)
		repos.ServeHTTP(w, r)
	}))
	defer proxy.Close()

	st, b := f.open()
	defer st.Close()
	t.Setenv("http_proxy", proxy.URL)
	p := f.project(time.Minute)
	p.Repo = "http://gitserver.invalid/" + filepath.Base(f.bare)
	if _, err := b.Add(context.Background(), p, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(context.Background(), "dedup", "", "ana", nil); err == nil || proxied.Load() != 0 {
		t.Errorf("git went through palink's own proxy: %v, %d requests", err, proxied.Load())
	}
	p.Env["http_proxy"] = proxy.URL
	if _, err := b.Add(context.Background(), p, "ana"); err != nil {
		t.Fatal(err)
	}
	a, err := b.Build(context.Background(), "dedup", "", "ana", nil)
	if head := git(t, f.work, "rev-parse", "HEAD"); err != nil || a.Commit != head || proxied.Load() == 0 {
		t.Errorf("a build through the project's proxy: %+v %v, %d requests", a, err, proxied.Load())
	}
}
