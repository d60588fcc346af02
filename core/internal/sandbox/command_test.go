package sandbox

import (
	"bytes"
	"context"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needBwrap skips t where bubblewrap is not installed.
func needBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("no bwrap (Debian: apt-get install bubblewrap)")
	}
}

// workspace is a fresh workspace under p in the system's /tmp, handed to
// the build user.
func workspace(t *testing.T, p Policy) *Workspace {
	t.Helper()
	t.Setenv("TMPDIR", "")
	w, err := p.NewWorkspace("palink-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Remove() })
	if err := w.Own(); err != nil {
		t.Fatal(err)
	}
	return w
}

// run runs a shell script in w and returns what it wrote.
func run(t *testing.T, w *Workspace, confine bool, script string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd, err := w.Command(t.Context(), Cmd{Args: []string{"/bin/sh", "-c", script}, Confine: confine, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Run()
	return out.String(), err
}

// hasSeq says whether seq occurs in args, in order and adjacent.
func hasSeq(args []string, seq ...string) bool {
	for i := range args {
		if len(args)-i >= len(seq) && slices.Equal(args[i:i+len(seq)], seq) {
			return true
		}
	}
	return false
}

// TestCommand: a command needs arguments; it runs inside bubblewrap only
// when confined under a bwrap policy (a secret command must reach the
// host); its PATH is the policy's; and bwrap gone since the policy was
// checked is an error that says what to install.
func TestCommand(t *testing.T) {
	needRoot(t)
	nobody(t)
	needBwrap(t)
	w := workspace(t, Policy{User: "nobody", Sandbox: Bwrap, Path: "/opt/palink/bin:/usr/bin"})
	if _, err := w.Command(t.Context(), Cmd{}); err == nil || err.Error() != "no command" {
		t.Errorf("no arguments: %v", err)
	}
	args := []string{"/bin/echo", "hi"}
	cmd, err := w.Command(t.Context(), Cmd{Args: args})
	if err != nil || !slices.Equal(cmd.Args, args) {
		t.Errorf("not confined under bwrap: %v %q, want %q", err, cmd.Args, args)
	}
	if !slices.Contains(cmd.Env, "PATH=/opt/palink/bin:/usr/bin") {
		t.Errorf("the policy's PATH: %q", cmd.Env)
	}
	cmd, err = w.Command(t.Context(), Cmd{Args: args, Confine: true})
	if err != nil || filepath.Base(cmd.Path) != "bwrap" || !hasSeq(cmd.Args, append([]string{"--"}, args...)...) {
		t.Errorf("confined under bwrap: %v %q", err, cmd.Args)
	}

	t.Setenv("PATH", t.TempDir())
	if _, err := w.Command(t.Context(), Cmd{Args: args, Confine: true}); err == nil || !strings.Contains(err.Error(), "bwrap is not on the PATH: install bubblewrap") {
		t.Errorf("bwrap gone: %v", err)
	}
}

// TestConfinedCommandSeesTheSystemReadOnly: inside bubblewrap a command
// reads /etc and /opt (where the host has it: JDKs live there), may write
// neither, and writes its workspace.
func TestConfinedCommandSeesTheSystemReadOnly(t *testing.T) {
	needRoot(t)
	nobody(t)
	needBwrap(t)
	w := workspace(t, Policy{User: "nobody", Sandbox: Bwrap})
	want := "etc\netc read-only\nworkspace written\n"
	if fi, err := os.Stat("/opt"); err == nil && fi.IsDir() {
		want += "opt\n"
	}
	out, err := run(t, w, true, `test -r /etc/passwd && echo etc
		touch /etc/palink-probe 2>/dev/null || echo etc read-only
		touch "$HOME/probe" && echo workspace written
		test -d /opt && echo opt; true`)
	if err != nil || out != want {
		t.Errorf("inside bwrap: %v\n%s\nwant\n%s", err, out, want)
	}
	if _, err := os.Stat("/etc/palink-probe"); err == nil {
		os.Remove("/etc/palink-probe")
		t.Error("a confined command wrote /etc")
	}
}

// TestOfflineTakesTheNetwork: a confined build reaches the network (here
// a listener on the host's loopback) by default, and not under an
// Offline policy.
func TestOfflineTakesTheNetwork(t *testing.T) {
	needRoot(t)
	nobody(t)
	needBwrap(t)
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no bash to connect with")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	script := `bash -c 'exec 3<>/dev/tcp/127.0.0.1/` + port + `' 2>/dev/null && echo connected || echo no network`
	for _, offline := range []bool{false, true} {
		w := workspace(t, Policy{User: "nobody", Sandbox: Bwrap, Offline: offline})
		want := map[bool]string{false: "connected\n", true: "no network\n"}[offline]
		if out, err := run(t, w, true, script); err != nil || out != want {
			t.Errorf("offline %v: %v %q, want %q", offline, err, out, want)
		}
	}
}

// TestBwrapKeepsTheHostsLayout: the merged-/usr symlinks (/bin -> usr/bin)
// are made as symlinks and real directories bound, as on the host; the
// resolver's file is bound on its own only where it lives outside /etc
// (systemd-resolved's stub), which /etc's bind does not carry.
func TestBwrapKeepsTheHostsLayout(t *testing.T) {
	needBwrap(t)
	w := &Workspace{Dir: t.TempDir(), p: Policy{Sandbox: Bwrap}}
	args, err := w.bwrap(w.Dir, []string{"make"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
			if slices.Contains(args, p) {
				t.Errorf("%s, absent on the host, is in %q", p, args)
			}
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			if !hasSeq(args, "--symlink", target, p) {
				t.Errorf("the host's symlink %s -> %s is not made in %q", p, target, args)
			}
		case fi.IsDir():
			if !hasSeq(args, "--ro-bind", p, p) {
				t.Errorf("the host's directory %s is not bound in %q", p, args)
			}
		}
	}
	resolv, err := filepath.EvalSymlinks("/etc/resolv.conf")
	switch {
	case err != nil:
	case strings.HasPrefix(resolv, "/etc/"):
		if slices.Contains(args, resolv) {
			t.Errorf("%s, in /etc, is bound again: %q", resolv, args)
		}
	default:
		if !hasSeq(args, "--ro-bind-try", resolv, resolv) {
			t.Errorf("the resolver %s outside /etc is not bound: %q", resolv, args)
		}
	}
}

// TestGroupBoundsTheWaitForAnEscapedChild: a child that left the group
// (setsid) survives the kill and holds the output pipe open; Wait still
// returns once waitDelay is over, as git's does although git-remote-http
// keeps its pipes.
func TestGroupBoundsTheWaitForAnEscapedChild(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", `setsid /bin/sh -c 'echo $$; exec sleep 30' & wait`)
	var out bytes.Buffer
	cmd.Stdout = &out
	Group(cmd)
	start := time.Now()
	_ = cmd.Run()
	took := time.Since(start)
	if pid, err := strconv.Atoi(strings.TrimSpace(out.String())); err == nil {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if took > waitDelay+5*time.Second {
		t.Errorf("Wait returned %s after the context ended, with a child out of the group", took)
	}
}
