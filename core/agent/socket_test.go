//go:build unix

package agent_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/yarn/sim"
)

// TestDefaultSocketIsPerStore: one store, one socket, whichever way its
// path is written; two stores, two sockets; in $XDG_RUNTIME_DIR/palink,
// else in the user's own directory under /tmp.
func TestDefaultSocketIsPerStore(t *testing.T) {
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	a := agent.DefaultSocket("a.db")
	if b := agent.DefaultSocket(filepath.Join(wd, "x", "..", "a.db")); a != b {
		t.Errorf("one store, two sockets: %s and %s", a, b)
	}
	if b := agent.DefaultSocket("b.db"); a == b {
		t.Errorf("two stores, one socket: %s", a)
	}
	if filepath.Dir(a) != filepath.Join(run, "palink") {
		t.Errorf("socket %s is not in $XDG_RUNTIME_DIR/palink", a)
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	if got, want := filepath.Dir(agent.DefaultSocket("a.db")), filepath.Join(os.TempDir(), fmt.Sprintf("palink-%d", os.Getuid())); got != want {
		t.Errorf("without XDG_RUNTIME_DIR the socket is in %s, want %s", got, want)
	}
}

// listenRaw listens on path the way an impostor would: no checks, no mode.
func listenRaw(t *testing.T, path string) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
}

func wantUntrusted(t *testing.T, what string, err error, text string) {
	t.Helper()
	var ue *agent.UntrustedSocketError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), text) {
		t.Errorf("%s: want a refusal saying %q, got %v", what, text, err)
	}
	if errors.Is(err, agent.ErrNoAgent) {
		t.Errorf("%s: a refused socket lets the client open the store itself", what)
	}
}

// TestPrivateSocketDirectory: the agent makes its private directory 0700
// and its socket 0600; a client and an agent refuse the directory when it
// is looser, someone else's, or a link; no socket, or a dead one, is "no
// agent"; closing the listener removes the socket.
func TestPrivateSocketDirectory(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to give a directory to another user")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	s := agent.AgentSocket{Path: agent.DefaultSocket(filepath.Join(t.TempDir(), "palink.db"))}
	dir := filepath.Dir(s.Path)

	if _, err := agent.Dial(ctx, s); !errors.Is(err, agent.ErrNoAgent) {
		t.Fatalf("no socket: %v, want ErrNoAgent", err)
	}
	ln, err := s.Listen("")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: os.ModeDir | 0o700, s.Path: os.ModeSocket | 0o600} {
		if fi, err := os.Lstat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v %v, want %v", path, fi.Mode(), err, want)
		}
	}
	ln.Close()
	if _, err := os.Lstat(s.Path); err == nil {
		t.Error("closing the listener left the socket")
	}
	// The socket file of an agent gone, as after a crash.
	dead := agent.AgentSocket{Path: s.Path + ".dead"}
	listenDead(t, dead.Path)
	if _, err := agent.Dial(ctx, dead); !errors.Is(err, agent.ErrNoAgent) {
		t.Errorf("a socket nobody listens on: %v, want ErrNoAgent", err)
	}
	if ln, err := dead.Listen(""); err != nil {
		t.Errorf("the agent does not replace a dead socket: %v", err)
	} else {
		ln.Close()
	}

	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	listenRaw(t, s.Path)
	_, err = agent.Dial(ctx, s)
	wantUntrusted(t, "client, directory 0755", err, "has mode 0755, but a private socket directory must be 0700")
	_, err = s.Listen("")
	wantUntrusted(t, "agent, directory 0755", err, "has mode 0755")

	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, err = agent.Dial(ctx, s)
	wantUntrusted(t, "client, someone else's directory", err, "belongs to nobody (uid 65534), not to you (root)")
	_, err = s.Listen("")
	wantUntrusted(t, "agent, someone else's directory", err, "belongs to nobody (uid 65534)")

	// A link in the directory's place, to a directory that would pass.
	real := filepath.Join(run, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, dir); err != nil {
		t.Fatal(err)
	}
	listenRaw(t, filepath.Join(real, filepath.Base(s.Path)))
	_, err = agent.Dial(ctx, s)
	wantUntrusted(t, "client, a link as the directory", err, "is a symbolic link")
	_, err = s.Listen("")
	wantUntrusted(t, "agent, a link as the directory", err, "is a symbolic link")
}

// listenDead leaves a socket file at path that nobody listens on.
func listenDead(t *testing.T, path string) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
}

// TestConfiguredSocketDirectory: a team's socket may lie in a directory
// only its user or root may write to, or in a root-owned sticky one; not in
// one anyone may write to, nor in another user's. agent.group makes the
// socket 0660 and that group's.
func TestConfiguredSocketDirectory(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to give a directory to another user")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	mkdir := func(mode os.FileMode, uid int) string {
		d := filepath.Join(t.TempDir(), "run")
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, uid, uid); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(d, "agent.sock")
	}

	open := agent.AgentSocket{Path: mkdir(0o777, 0), Configured: true}
	_, err := open.Listen("")
	wantUntrusted(t, "agent, directory 0777", err, "(mode 0777, owner root (uid 0)) lets others remove or rename the agent's socket")
	listenRaw(t, open.Path)
	_, err = agent.Dial(ctx, open)
	wantUntrusted(t, "client, directory 0777", err, "lets others remove or rename")

	theirs := agent.AgentSocket{Path: mkdir(0o755, 65534), Configured: true}
	_, err = theirs.Listen("")
	wantUntrusted(t, "agent, nobody's directory", err, "belongs to nobody (uid 65534)")

	sticky := agent.AgentSocket{Path: mkdir(0o777|os.ModeSticky, 0), Configured: true}
	ln, err := sticky.Listen("")
	if err != nil {
		t.Fatalf("a root-owned sticky directory: %v", err)
	}
	ln.Close()

	g, err := user.LookupGroupId("65534")
	if err != nil {
		t.Skip("no group 65534")
	}
	team := agent.AgentSocket{Path: mkdir(0o755, 0), Configured: true}
	ln, err = team.Listen(g.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	fi, err := os.Lstat(team.Path)
	if err != nil || fi.Mode().Perm() != 0o660 || fi.Sys().(*syscall.Stat_t).Gid != 65534 {
		t.Errorf("agent.group %s: the socket is %v, want 0660 and group %s", g.Name, fi.Mode(), g.Name)
	}
	if _, err := team.Listen("no-such-group-here"); err == nil || !strings.Contains(err.Error(), `agent.group "no-such-group-here"`) {
		t.Errorf("an unknown agent.group: %v", err)
	}
}

// TestDialChecksTheStore: a client that asks for one store does not talk
// to an agent that serves another (two configs naming one socket).
func TestDialChecksTheStore(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	r := serveAgent(t, e, agent.Roles{})
	sock := filepath.Join(t.TempDir(), "a.sock")
	ln, err := agent.AgentSocket{Path: sock, Configured: true}.Listen("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(e.Ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = agent.Serve(ctx, ln, e.Svc, agent.ServeOptions{Store: e.St.Path()}) }()
	defer func() { cancel(); <-done }()

	other := filepath.Join(t.TempDir(), "other.db")
	_, err = agent.Dial(e.Ctx, agent.AgentSocket{Path: sock, Store: other, Configured: true})
	if err == nil || !strings.Contains(err.Error(), "serves the store "+r.Info().Store+", not "+other) {
		t.Errorf("an agent of another store: %v", err)
	}
	same, err := agent.Dial(e.Ctx, agent.AgentSocket{Path: sock, Store: r.Info().Store, Configured: true})
	if err != nil {
		t.Fatalf("the agent of the store: %v", err)
	}
	same.Close()
}
