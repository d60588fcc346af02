package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DefaultPath is the commands' PATH when the policy names none.
const DefaultPath = "/usr/local/bin:/usr/bin:/bin"

// The sandboxes a Policy may name.
const (
	None  = "none"
	Bwrap = "bwrap"
)

// waitDelay bounds how long Wait waits, once a group was killed, for pipes
// that something outside it still holds open.
const waitDelay = 5 * time.Second

// Policy says how palink runs the commands it does not write: the
// config's build: section.
type Policy struct {
	// User is the OS user the commands run as where palink runs as root;
	// as root without one they are refused. Where palink is not root it
	// may only name palink's own user: switching needs root.
	User string
	// Sandbox is Bwrap (builds run inside bubblewrap) or None ("" too).
	Sandbox string
	// Path is the commands' PATH; default DefaultPath.
	Path string
	// Offline takes the network away from builds inside bubblewrap. By
	// default they keep it: a Maven or Gradle build fetches its
	// dependencies, and its HOME (~/.m2, ~/.gradle) starts empty.
	Offline bool
}

// runAs is who the commands run as: cred is nil for palink's own user.
type runAs struct {
	name string
	cred *syscall.Credential
}

// Check says whether commands can run under p on this host: a known
// sandbox, bwrap on the PATH when asked for, and a user that is not root.
func (p Policy) Check() error {
	switch p.Sandbox {
	case "", None:
	case Bwrap:
		if _, err := exec.LookPath("bwrap"); err != nil {
			return errors.New("build.sandbox is bwrap but bwrap is not on the PATH: install bubblewrap (Debian: apt-get install bubblewrap) or set build.sandbox: none")
		}
	default:
		return fmt.Errorf("build.sandbox %q: use bwrap or none", p.Sandbox)
	}
	_, err := p.who()
	return err
}

// who is the user the commands run as, refusing root.
func (p Policy) who() (runAs, error) {
	euid := os.Geteuid()
	if p.User == "" {
		if euid == 0 {
			return runAs{}, errors.New("palink runs as root and build.user is not set: builds and secret commands never run as root; " +
				"set build.user in the config to an unprivileged user (a dedicated one, such as palink-build)")
		}
		name := strconv.Itoa(euid)
		if u, err := user.LookupId(name); err == nil {
			name = u.Username
		}
		return runAs{name: name}, nil
	}
	u, err := user.Lookup(p.User)
	if err != nil {
		return runAs{}, fmt.Errorf("build.user %s: no such user on this host", p.User)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return runAs{}, fmt.Errorf("build.user %s: %w", p.User, err)
	}
	switch {
	case uid == 0:
		return runAs{}, fmt.Errorf("build.user %s is root (uid 0): give an unprivileged user", p.User)
	case int(uid) == euid:
		return runAs{name: u.Username}, nil
	case euid != 0:
		return runAs{}, fmt.Errorf("build.user %s: palink runs as uid %d, not root, and cannot run commands as another user: "+
			"run the agent as root, or leave build.user unset (commands then run as palink's own user)", p.User, euid)
	}
	cred := &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
	if ids, err := u.GroupIds(); err == nil {
		for _, id := range ids {
			if g, err := strconv.ParseUint(id, 10, 32); err == nil {
				cred.Groups = append(cred.Groups, uint32(g))
			}
		}
	}
	return runAs{name: u.Username, cred: cred}, nil
}

// SearchPath is the commands' PATH.
// reaches says why the user cannot reach dir, if it cannot: a directory
// on the way that it may not search (a TMPDIR under root's home).
func (a runAs) reaches(dir string) error {
	if a.cred == nil {
		return nil
	}
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		perm := fi.Mode().Perm()
		switch {
		case !ok, perm&0o001 != 0:
		case st.Uid == a.cred.Uid && perm&0o100 != 0:
		case perm&0o010 != 0 && (st.Gid == a.cred.Gid || slices.Contains(a.cred.Groups, st.Gid)):
		default:
			return fmt.Errorf("build.user %s cannot reach %s (mode %s): give palink a TMPDIR every user may reach, such as /tmp", a.name, d, perm)
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

func (p Policy) SearchPath() string {
	if p.Path != "" {
		return p.Path
	}
	return DefaultPath
}

// Workspace is a directory made fresh for commands to run in: HOME and
// TMPDIR lie in it, the caller puts what they work on (a checkout) in
// it, and under bubblewrap it is the only path they may write. It belongs
// to the user they run as; palink's own files are elsewhere.
type Workspace struct {
	// Dir is the workspace; Remove deletes it.
	Dir string
	p   Policy
	as  runAs
}

// NewWorkspace checks the policy and makes a workspace in the system's
// temporary directory (palink's TMPDIR), where any user may have one: a
// directory beside palink's store may lie where the build user cannot
// reach. It is palink's until Own hands it over: what palink writes into
// it, it writes where no other process of the build user can meddle.
func (p Policy) NewWorkspace(prefix string) (*Workspace, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	as, err := p.who()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, fmt.Errorf("make a workspace: %w", err)
	}
	w := &Workspace{Dir: dir, p: p, as: as}
	if err := as.reaches(filepath.Dir(dir)); err != nil {
		w.Remove()
		return nil, err
	}
	for _, sub := range []string{"home", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o700); err != nil {
			w.Remove()
			return nil, fmt.Errorf("make a workspace: %w", err)
		}
	}
	return w, nil
}

// Home is the commands' HOME.
func (w *Workspace) Home() string { return filepath.Join(w.Dir, "home") }

// User names the user the commands run as.
func (w *Workspace) User() string { return w.as.name }

// Own hands everything in the workspace to the user the commands run as,
// once palink has written into it. Symlinks are changed, never followed,
// and a directory is handed over only after all in it: until then it is
// palink's, so no process of that user can swap a path under it for a
// symlink while palink still walks it.
func (w *Workspace) Own() error {
	if w.as.cred == nil {
		return nil
	}
	var paths []string
	err := filepath.WalkDir(w.Dir, func(path string, _ fs.DirEntry, err error) error {
		paths = append(paths, path)
		return err
	})
	for i := len(paths) - 1; i >= 0 && err == nil; i-- {
		err = os.Lchown(paths[i], int(w.as.cred.Uid), int(w.as.cred.Gid))
	}
	if err != nil {
		return fmt.Errorf("hand the workspace to %s: %w", w.as.name, err)
	}
	return nil
}

// Remove deletes the workspace and all in it (never following a symlink
// out of it).
func (w *Workspace) Remove() error { return os.RemoveAll(w.Dir) }

// Cmd is one command to run in a workspace.
type Cmd struct {
	Args []string
	// Dir is the working directory, in the workspace; default its HOME.
	Dir string
	// Env are KEY=VALUE pairs the caller declares (a project's), after
	// the defaults, which they may override.
	Env []string
	// Confine runs the command inside the policy's sandbox. Builds are
	// confined; secret commands are not, as they must reach a vault or a
	// file of the host.
	Confine        bool
	Stdout, Stderr io.Writer
}

// Command prepares c: its environment built from nothing, run as the
// policy's user, confined when asked, in a process group of its own that
// is killed whole when ctx ends.
func (w *Workspace) Command(ctx context.Context, c Cmd) (*exec.Cmd, error) {
	if len(c.Args) == 0 {
		return nil, errors.New("no command")
	}
	dir := c.Dir
	if dir == "" {
		dir = w.Home()
	}
	args := c.Args
	if c.Confine && w.p.Sandbox == Bwrap {
		var err error
		if args, err = w.bwrap(dir, args); err != nil {
			return nil, err
		}
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(w.env(), c.Env...)
	cmd.Stdout, cmd.Stderr = c.Stdout, c.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: w.as.cred}
	Group(cmd)
	return cmd, nil
}

// env is the environment built from nothing.
func (w *Workspace) env() []string {
	return []string{
		"PATH=" + w.p.SearchPath(),
		"HOME=" + w.Home(),
		"TMPDIR=" + filepath.Join(w.Dir, "tmp"),
		"LANG=C.UTF-8",
		"USER=" + w.as.name,
		"LOGNAME=" + w.as.name,
	}
}

// bwrap wraps args in bubblewrap: the system's programs, libraries and
// /etc read-only, a private /tmp, /proc and /dev, and the workspace the
// only path written. Every namespace is unshared but the network, unless
// the policy is Offline (see Policy.Offline); the sandbox dies with
// palink and has a session of its own (no TIOCSTI into palink's
// terminal).
func (w *Workspace) bwrap(dir string, args []string) ([]string, error) {
	bw, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, errors.New("build.sandbox is bwrap but bwrap is not on the PATH: install bubblewrap (Debian: apt-get install bubblewrap) or set build.sandbox: none")
	}
	a := []string{bw, "--die-with-parent", "--new-session", "--unshare-all"}
	if !w.p.Offline {
		a = append(a, "--share-net")
	}
	a = append(a, "--ro-bind", "/usr", "/usr")
	// Merged /usr makes these symlinks (Debian 12): kept as symlinks.
	for _, p := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
		case fi.Mode()&fs.ModeSymlink != 0:
			if t, err := os.Readlink(p); err == nil {
				a = append(a, "--symlink", t, p)
			}
		case fi.IsDir():
			a = append(a, "--ro-bind", p, p)
		}
	}
	a = append(a, "--ro-bind", "/etc", "/etc", "--ro-bind-try", "/opt", "/opt")
	// A resolver's file may live outside /etc (systemd-resolved's stub).
	if t, err := filepath.EvalSymlinks("/etc/resolv.conf"); err == nil && !strings.HasPrefix(t, "/etc/") {
		a = append(a, "--ro-bind-try", t, t)
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
		"--bind", w.Dir, w.Dir, "--chdir", dir, "--")
	return append(a, args...), nil
}

// Group puts cmd in a process group of its own that is killed whole
// (SIGKILL) when its context ends, and bounds how long Wait then waits
// for the pipes a child escaped from the group may still hold. Git needs
// it as much as a build: git-remote-http keeps git's pipes open after
// git itself was killed.
func Group(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
}
