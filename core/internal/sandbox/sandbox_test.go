package sandbox

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestPolicyCheck: an unknown sandbox, root or an unknown user as
// build.user, and root without build.user are refused, each saying what
// to set.
func TestPolicyCheck(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want string
	}{
		{Policy{Sandbox: "docker"}, `build.sandbox "docker": use bwrap or none`},
		{Policy{User: "root"}, "build.user root is root (uid 0): give an unprivileged user"},
		{Policy{User: "no-such-user-palink"}, "build.user no-such-user-palink: no such user on this host"},
	} {
		if err := c.p.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
	err := Policy{}.Check()
	switch {
	case os.Geteuid() == 0 && (err == nil || !strings.Contains(err.Error(), "set build.user")):
		t.Errorf("root without build.user: %v", err)
	case os.Geteuid() != 0 && err != nil:
		t.Errorf("palink's own user without build.user: %v", err)
	}
	if os.Geteuid() != 0 {
		if err := (Policy{User: "nobody"}).Check(); err == nil || !strings.Contains(err.Error(), "not root, and cannot run commands as another user") {
			t.Errorf("another user, not as root: %v", err)
		}
	}
}

// TestGroupIsKilledWhole: when its context ends, a command is killed with
// the children it started, and Wait returns although a child held its
// output pipe.
func TestGroupIsKilledWhole(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "sleep 60 & echo $!; wait")
	var out bytes.Buffer
	cmd.Stdout = &out
	Group(cmd)
	start := time.Now()
	_ = cmd.Run()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Wait returned %s after the context ended", took)
	}
	pid := strings.TrimSpace(out.String())
	time.Sleep(100 * time.Millisecond)
	if raw, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil && !strings.Contains(string(raw), ") Z ") {
		t.Errorf("the child %s outlived its group: %s", pid, raw)
	}
}

// TestWorkspaceTheBuildUserCannotReach: as root, a TMPDIR the build user
// cannot search is refused, naming the directory and what to do.
func TestWorkspaceTheBuildUserCannotReach(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("switching users needs root")
	}
	private := t.TempDir()
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", private)
	_, err := Policy{User: "nobody"}.NewWorkspace("palink-test-")
	if err == nil || !strings.Contains(err.Error(), "build.user nobody cannot reach "+private+" (mode -rwx------): give palink a TMPDIR every user may reach") {
		t.Errorf("a workspace under a private TMPDIR: %v", err)
	}
	t.Setenv("TMPDIR", "")
	w, err := Policy{User: "nobody"}.NewWorkspace("palink-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Remove()
	if err := w.Own(); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd, err := w.Command(context.Background(), Cmd{Args: []string{"/bin/sh", "-c", "id -un; pwd; touch $HOME/x $TMPDIR/y"}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Run(); err != nil || out.String() != "nobody\n"+w.Home()+"\n" {
		t.Errorf("a command in the workspace: %v %q", err, out.String())
	}
}
