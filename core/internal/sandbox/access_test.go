package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// needRoot skips t where palink's tests do not run as root: handing
// files over and switching users need it.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("switching users needs root")
	}
}

// nobody is the build user the tests run commands as.
func nobody(t *testing.T) *user.User {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil || u.Uid != "65534" {
		t.Skipf("no user nobody with uid 65534: %v", err)
	}
	return u
}

// owner is the uid and gid of path itself (a symlink's own).
func owner(t *testing.T, path string) (uint32, uint32) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid
}

// searchableTemp is a fresh directory in the system's /tmp that every
// user may search, so that only what a test puts under it decides
// whether the build user reaches a path.
func searchableTemp(t *testing.T) string {
	t.Helper()
	t.Setenv("TMPDIR", "")
	dir, err := os.MkdirTemp("", "palink-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o711); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReaches: the build user reaches a directory when it may search it
// and every directory above it, as others, as its owner, or through its
// primary or a supplementary group; where it may not, the refusal names
// the directory and its mode.
func TestReaches(t *testing.T) {
	needRoot(t)
	base := searchableTemp(t)
	const them, theirs, other = 65534, 65534, 4242
	as := func(gid uint32, groups ...uint32) runAs {
		return runAs{name: "nobody", cred: &syscall.Credential{Uid: them, Gid: gid, Groups: groups}}
	}
	mkdir := func(path string, mode os.FileMode, uid, gid int) {
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(path, uid, gid); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name     string
		mode     os.FileMode
		uid, gid int
		as       runAs
		refused  bool
	}{
		{"others may search", 0o711, 0, 0, as(theirs), false},
		{"its own with u+x", 0o700, them, 0, as(theirs), false},
		{"its own without u+x", 0o600, them, 0, as(theirs), true},
		{"its primary group's with g+x", 0o710, 0, theirs, as(theirs), false},
		{"a supplementary group's with g+x", 0o710, 0, other, as(theirs, other), false},
		{"another group's with g+x", 0o710, 0, other, as(theirs, theirs), true},
		{"its group's without g+x", 0o700, 0, theirs, as(theirs, theirs), true},
		{"root's private", 0o700, 0, 0, as(theirs, theirs), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(base, strings.ReplaceAll(c.name, " ", "-"))
			mkdir(dir, c.mode, c.uid, c.gid)
			err := c.as.reaches(dir)
			switch {
			case !c.refused && err != nil:
				t.Errorf("refused: %v", err)
			case c.refused && (err == nil || !strings.Contains(err.Error(),
				"build.user nobody cannot reach "+dir+" (mode "+c.mode.String()+"): give palink a TMPDIR every user may reach")):
				t.Errorf("%v, want a refusal naming %s", err, dir)
			}
		})
	}

	// Every directory on the way counts, not only the last.
	parent := filepath.Join(base, "private-parent")
	mkdir(parent, 0o700, 0, 0)
	child := filepath.Join(parent, "open")
	mkdir(child, 0o711, 0, 0)
	if err := as(theirs).reaches(child); err == nil || !strings.Contains(err.Error(), "cannot reach "+parent+" (mode -rwx------)") {
		t.Errorf("an open directory under a private one: %v", err)
	}
	if err := as(theirs).reaches(filepath.Join(base, "gone")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a directory that does not exist: %v", err)
	}
	// palink's own user reaches whatever palink reaches.
	if err := (runAs{name: "root"}).reaches(parent); err != nil {
		t.Errorf("palink's own user: %v", err)
	}
}

// TestWhoAsRoot: as root, build.user names whom commands run as, with
// that user's groups; root and unknown users are refused. (Where palink
// is not root, TestAsAnUnprivilegedUser runs.)
func TestWhoAsRoot(t *testing.T) {
	needRoot(t)
	u := nobody(t)
	as, err := Policy{User: "nobody"}.who()
	if err != nil {
		t.Fatal(err)
	}
	if as.name != "nobody" || as.cred == nil || as.cred.Uid != 65534 || strconv.Itoa(int(as.cred.Gid)) != u.Gid {
		t.Fatalf("build.user nobody runs as %+v %+v", as, as.cred)
	}
	ids, err := u.GroupIds()
	if err != nil || !slices.Contains(ids, u.Gid) {
		t.Fatalf("nobody's groups %v: %v", ids, err)
	}
	var want []uint32
	for _, id := range ids {
		g, _ := strconv.ParseUint(id, 10, 32)
		want = append(want, uint32(g))
	}
	if got := slices.Sorted(slices.Values(as.cred.Groups)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("nobody's groups: %v, want %v", got, want)
	}
	for user, want := range map[string]string{
		"root":                "build.user root is root (uid 0): give an unprivileged user",
		"no-such-user-palink": "build.user no-such-user-palink: no such user on this host",
	} {
		if _, err := (Policy{User: user}).who(); err == nil || err.Error() != want {
			t.Errorf("build.user %s: %v, want %q", user, err, want)
		}
	}
}

// TestCommandsKeepTheBuildUsersGroups: a command runs with the build
// user's supplementary groups (a group that grants a shared cache), not
// with none and not with root's.
func TestCommandsKeepTheBuildUsersGroups(t *testing.T) {
	needRoot(t)
	u := nobody(t)
	t.Setenv("TMPDIR", "")
	w, err := Policy{User: "nobody"}.NewWorkspace("palink-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Remove()
	if err := w.Own(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd, err := w.Command(t.Context(), Cmd{Args: []string{"/bin/sh", "-c", "grep ^Groups: /proc/self/status"}, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	ids, _ := u.GroupIds()
	got := strings.Fields(strings.TrimPrefix(out.String(), "Groups:"))
	slices.Sort(got)
	slices.Sort(ids)
	if !slices.Equal(got, ids) {
		t.Errorf("the command's groups %v, want nobody's %v", got, ids)
	}
}

// TestAsAnUnprivilegedUser: where palink is not root, commands run as
// palink's own user, who may be named as build.user, and naming another
// is refused. As root the test runs itself (and TestPolicyCheck's
// unprivileged half) again as the user daemon.
func TestAsAnUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		me, err := user.LookupId(strconv.Itoa(os.Geteuid()))
		if err != nil {
			t.Skipf("palink's own uid has no name here: %v", err)
		}
		as, err := Policy{}.who()
		if err != nil || as.name != me.Username || as.cred != nil {
			t.Errorf("no build.user: runs as %+v (%v), want %s as itself", as, err, me.Username)
		}
		as, err = Policy{User: me.Username}.who()
		if err != nil || as.name != me.Username || as.cred != nil {
			t.Errorf("build.user %s, palink's own: runs as %+v (%v), want itself", me.Username, as, err)
		}
		return
	}
	if os.Getenv("PALINK_SANDBOX_TEST_AS") != "" {
		t.Fatal("the test runs as root again")
	}
	d, err := user.Lookup("daemon")
	if err != nil || d.Uid == "0" {
		t.Skipf("no unprivileged user daemon to run as: %v", err)
	}
	uid, _ := strconv.Atoi(d.Uid)
	gid, _ := strconv.Atoi(d.Gid)
	// The test binary lies where daemon may not read it: a copy it may.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := searchableTemp(t)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sandbox.test")
	raw, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), bin, "-test.run", "^(TestAsAnUnprivilegedUser|TestPolicyCheck)$", "-test.count=1", "-test.v")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + DefaultPath, "PALINK_SANDBOX_TEST_AS=daemon", "TMPDIR=/tmp"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "SKIP") || strings.Count(string(out), "--- PASS") != 2 {
		t.Errorf("as daemon: %v\n%s", err, out)
	}
}

// TestNewWorkspaceRefusals: a policy Check refuses, a TMPDIR that does
// not exist, and one the build user cannot reach make no workspace, and
// the last leaves nothing behind in it.
func TestNewWorkspaceRefusals(t *testing.T) {
	needRoot(t)
	nobody(t)
	if _, err := (Policy{User: "nobody", Sandbox: "docker"}).NewWorkspace("palink-test-"); err == nil || !strings.Contains(err.Error(), `build.sandbox "docker"`) {
		t.Errorf("an unknown sandbox: %v", err)
	}

	// Should the refusal break, the workspace's parts land here, not in
	// the source tree.
	t.Chdir(t.TempDir())
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "gone"))
	if _, err := (Policy{User: "nobody"}).NewWorkspace("palink-test-"); err == nil || !strings.HasPrefix(err.Error(), "make a workspace: ") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a TMPDIR that does not exist: %v", err)
	}

	private := t.TempDir()
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", private)
	if _, err := (Policy{User: "nobody"}).NewWorkspace("palink-test-"); err == nil || !strings.Contains(err.Error(), "cannot reach "+private) {
		t.Fatalf("a private TMPDIR: %v", err)
	}
	if left, _ := os.ReadDir(private); len(left) != 0 {
		t.Errorf("the refused workspace was left behind in %s: %v", private, left)
	}
}

// TestOwnHandsOverEveryPath: Own hands every file, directory and symlink
// in the workspace to the build user, changing a symlink itself and never
// what it points to outside the workspace.
func TestOwnHandsOverEveryPath(t *testing.T) {
	needRoot(t)
	nobody(t)
	t.Setenv("TMPDIR", "")
	w, err := Policy{User: "nobody"}.NewWorkspace("palink-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Remove()
	target := filepath.Join(t.TempDir(), "palink-secret")
	if err := os.WriteFile(target, []byte("palink's"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(w.Dir, "src")
	for _, err := range []error{
		os.MkdirAll(filepath.Join(src, "a", "b"), 0o755),
		os.WriteFile(filepath.Join(src, "a", "b", "pom.xml"), []byte("<project/>"), 0o644),
		os.WriteFile(filepath.Join(w.Home(), ".gitconfig"), nil, 0o600),
		os.Symlink(target, filepath.Join(src, "link")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Own(); err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(w.Dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n++
		if uid, gid := owner(t, path); uid != 65534 || gid != 65534 {
			t.Errorf("%s is %d:%d after Own, want nobody's", path, uid, gid)
		}
		return nil
	})
	if err != nil || n != 9 {
		t.Errorf("walked %d paths of the workspace (%v), want 9", n, err)
	}
	if uid, gid := owner(t, target); uid != 0 || gid != 0 {
		t.Errorf("Own followed a symlink out of the workspace: %s is %d:%d", target, uid, gid)
	}
}

// TestOwnWithoutABuildUserChangesNothing: where commands run as palink's
// own user, Own leaves every owner as it was.
func TestOwnWithoutABuildUserChangesNothing(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, file} {
		if err := os.Chown(p, 4242, 4343); err != nil {
			t.Fatal(err)
		}
	}
	w := &Workspace{Dir: dir, as: runAs{name: "palink"}}
	if err := w.Own(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, file} {
		if uid, gid := owner(t, p); uid != 4242 || gid != 4343 {
			t.Errorf("%s is %d:%d after Own without a build user, want 4242:4343", p, uid, gid)
		}
	}
}

// TestOwnStopsWhereItCannotWalk: a workspace Own cannot walk whole (a
// checkout nested deeper than a path may be long) is not handed over at
// all, and Own says so: half of it the build user's, the directories
// above still palink's, is never reported as done.
func TestOwnStopsWhereItCannotWalk(t *testing.T) {
	needRoot(t)
	nobody(t)
	t.Setenv("TMPDIR", "")
	w, err := Policy{User: "nobody"}.NewWorkspace("palink-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Remove()
	// Made a directory at a time, relative to its parent: the whole
	// path is past PATH_MAX (4096).
	r, err := os.OpenRoot(w.Dir)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("d", 250)
	for range 20 {
		if err := r.Mkdir(name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := r.OpenRoot(name)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		r = next
	}
	r.Close()
	err = w.Own()
	if err == nil || !strings.HasPrefix(err.Error(), "hand the workspace to nobody: ") || !strings.Contains(err.Error(), "file name too long") {
		t.Errorf("Own of a workspace it cannot walk: %v", err)
	}
	if uid, _ := owner(t, w.Dir); uid != 0 {
		t.Errorf("the workspace went to uid %d although Own failed", uid)
	}
}
