package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/rpc"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Where the agent of a store answers, and whom a client trusts there.
//
// A store's agent listens on a socket named after the store's absolute
// path, so that two stores never share one (DefaultSocket). It lies in a
// private directory, $XDG_RUNTIME_DIR/palink or else /tmp/palink-UID, which
// must be the user's own with mode 0700: the agent creates it, and the agent
// and its clients refuse it otherwise. A team names its socket in the config
// (socket:); that name is for the config's store only.
//
// Before it sends a byte, a client checks
//
//   - the socket's directory: owned by the client, root, or the store's
//     owner (whose agent the client is about to trust anyway), and writable by
//     nobody else, so that no one else can put a socket of theirs in the
//     agent's place. A configured socket may also lie in a root-owned sticky
//     directory such as /tmp: there only a file's owner (and root) may remove
//     or rename it, and the agent's socket is the agent's;
//   - the process that listens (its peer credentials): it must run as the
//     store file's owner, or as root (who can read every store and bind every
//     path already). When the store cannot be stat'ed (it does not exist yet,
//     or lies in a directory the client may not search), the agent must run
//     as the client's own user, or as root.
//
// A socket that fails a check is refused with an *UntrustedSocketError, and
// the client must not open the store itself instead. ErrNoAgent (no socket,
// or nobody listening on it) is the only answer that lets a client open the
// store directly.

// ErrNoAgent is Dial's error when no agent answers: there is no socket, or
// nobody listens on it. The caller may open the store itself.
var ErrNoAgent = errors.New("no agent answers")

// UntrustedSocketError is Dial's (and Listen's) refusal of a socket that a
// stranger could have put there or that a stranger serves. Nothing was sent.
type UntrustedSocketError struct {
	Socket string
	Reason string
}

func (e *UntrustedSocketError) Error() string {
	return "refusing the agent socket " + e.Socket + ": " + e.Reason
}

// AgentSocket is the socket of one store's agent.
type AgentSocket struct {
	// Path is the socket file.
	Path string
	// Store is the store's path. Clients trust only an agent that runs as
	// the store's owner (or root). Empty: only an agent of this user or root.
	Store string
	// Configured marks a socket the config names (socket:, a team's). A
	// default socket lies in a private directory and is held to its rules.
	Configured bool
	// Token, when set, is presented first: the session is its user's
	// (Tokens), not the OS user's.
	Token string
}

// DefaultSocket is the socket of store's agent: agent-HASH.sock, HASH
// naming the store's absolute path (a store on etcd: its URL), in
// $XDG_RUNTIME_DIR/palink, else in /tmp/palink-UID. A store on etcd has
// an agent on each host that serves it; the palinks of a host meet theirs.
func DefaultSocket(store string) string {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("palink-%d", os.Getuid()))
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		dir = filepath.Join(d, "palink")
	}
	sum := sha256.Sum256([]byte(absPath(store)))
	return filepath.Join(dir, "agent-"+hex.EncodeToString(sum[:6])+".sock")
}

// absPath is p made absolute and clean: one store, one name. A store on
// etcd is named by its URL, which the CLI gives in its canonical form.
func absPath(p string) string {
	if strings.Contains(p, "://") {
		return p
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// SameStore reports whether two store paths name the same store file.
func SameStore(a, b string) bool { return absPath(a) == absPath(b) }

func (s AgentSocket) untrusted(format string, args ...any) error {
	return &UntrustedSocketError{Socket: s.Path, Reason: fmt.Sprintf(format, args...)}
}

// Dial connects to the agent on s after checking that it may be trusted
// (see above); it sends nothing before. It returns an error wrapping
// ErrNoAgent when no agent answers, an *UntrustedSocketError when the socket
// is refused.
func Dial(ctx context.Context, s AgentSocket) (*Client, error) {
	if _, err := os.Lstat(s.Path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w on %s", ErrNoAgent, s.Path)
		}
		return nil, fmt.Errorf("agent socket %s: %w", s.Path, unwrapPath(err))
	}
	owner, ownerErr := s.storeOwner()
	me := myUID()
	dirOwners := []int{me, 0}
	if ownerErr == nil {
		dirOwners = append(dirOwners, owner)
	}
	if err := s.checkDir(dirOwners); err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", s.Path)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w on %s (nothing listens on it)", ErrNoAgent, s.Path)
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("agent socket %s: permission denied: only the agent's user and the members of its agent.group may connect", s.Path)
	case err != nil:
		return nil, fmt.Errorf("agent socket %s: %w", s.Path, err)
	}
	if err := s.checkPeer(conn, owner, ownerErr); err != nil {
		conn.Close()
		return nil, err
	}
	rc := rpc.NewClient(conn)
	w := &wire{rc: rc}
	r := &Client{w: w}
	if s.Token != "" {
		if err := presentToken(ctx, w, s.Token); err != nil {
			rc.Close()
			return nil, fmt.Errorf("agent at %s: %w", s.Path, err)
		}
	}
	info, err := do[none, Info](ctx, w, "Info", none{})
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("agent at %s: %w", s.Path, err)
	}
	r.info = info
	if s.Store != "" && r.info.Store != "" && !SameStore(r.info.Store, s.Store) {
		rc.Close()
		return nil, fmt.Errorf("the agent at %s serves the store %s, not %s: two configs name that socket; give each store its own", s.Path, r.info.Store, absPath(s.Store))
	}
	return r, nil
}

// storeOwner is the uid that owns the store file.
func (s AgentSocket) storeOwner() (int, error) {
	if s.Store == "" {
		return -1, errors.New("no store named")
	}
	fi, err := os.Stat(s.Store)
	if err != nil {
		return -1, err
	}
	uid, ok := fileOwner(fi)
	if !ok {
		return -1, errors.New("this platform does not tell a file's owner")
	}
	return uid, nil
}

// checkPeer checks who listens on the other end of conn.
func (s AgentSocket) checkPeer(conn net.Conn, owner int, ownerErr error) error {
	uid, err := peerUID(conn)
	if err != nil {
		return s.untrusted("cannot tell who serves it: %v", err)
	}
	if uid == 0 {
		return nil
	}
	if ownerErr == nil {
		if uid == owner {
			return nil
		}
		return s.untrusted("it is served by %s, but the store %s belongs to %s: only an agent running as the store's owner, or as root, is trusted",
			userName(uid), absPath(s.Store), userName(owner))
	}
	me := myUID()
	if uid == me {
		return nil
	}
	why := "no store is named"
	if s.Store != "" {
		why = fmt.Sprintf("the store %s cannot be checked (%v)", absPath(s.Store), unwrapPath(ownerErr))
	}
	trusted := "as root"
	if me != 0 {
		trusted = "as you (" + loginName(me) + ") or as root"
	}
	return s.untrusted("it is served by %s, and %s: only an agent running %s is trusted", userName(uid), why, trusted)
}

// unwrapPath drops the path of a *fs.PathError, which the message names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkDir checks the socket's directory for a client (owners: itself, root
// and the store's owner) or for the agent (itself, and root for a
// configured socket).
func (s AgentSocket) checkDir(owners []int) error {
	dir := filepath.Dir(s.Path)
	stat := os.Stat // a configured directory may be reached through a link
	if !s.Configured {
		stat = os.Lstat
	}
	fi, err := stat(dir)
	if err != nil {
		return fmt.Errorf("agent socket %s: %w", s.Path, err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return s.untrusted("its directory %s is a symbolic link: a private socket directory must be a directory of its own", dir)
	case !fi.IsDir():
		return s.untrusted("%s is not a directory", dir)
	}
	uid, ok := fileOwner(fi)
	if !ok {
		return s.untrusted("this platform does not tell who owns its directory %s", dir)
	}
	if !slices.Contains(owners, uid) {
		return s.untrusted("its directory %s belongs to %s, not to %s", dir, userName(uid), ownerNames(owners))
	}
	mode := fi.Mode().Perm()
	sticky := fi.Mode()&fs.ModeSticky != 0
	if sticky {
		mode |= 0o1000
	}
	switch {
	case !s.Configured && fi.Mode().Perm()&0o077 != 0:
		return s.untrusted("its directory %s has mode %04o, but a private socket directory must be 0700 (chmod 700 %s)", dir, mode, dir)
	case s.Configured && fi.Mode().Perm()&0o022 != 0 && (uid != 0 || !sticky):
		return s.untrusted("its directory %s (mode %04o, owner %s) lets others remove or rename the agent's socket and put theirs in its place: use a directory only the agent's user may write to, or a root-owned sticky one like /tmp",
			dir, mode, userName(uid))
	}
	return nil
}

// ownerNames lists the accepted owners of a socket directory for a message.
func ownerNames(uids []int) string {
	me := myUID()
	var names []string
	for _, u := range uids {
		n := "the store's owner " + userName(u)
		switch {
		case u == me:
			n = "you (" + loginName(u) + ")"
		case u == 0:
			n = "root"
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return strings.Join(names, " or ")
}

// Listen makes the agent's socket and listens on it: a private socket's
// directory is created if missing; the directory is checked as clients
// check it; the agent's user must own the store (or be root), since
// clients trust no other. The socket is 0600, or with group (agent.group)
// owned by that group and 0660. It is made in a private temporary directory
// and renamed into place, so that its mode is set before anyone can
// connect and a stale socket is replaced at once. Closing the listener
// removes the socket if it is still this one.
func (s AgentSocket) Listen(group string) (net.Listener, error) {
	me := myUID()
	if me != 0 {
		if owner, err := s.storeOwner(); err == nil && owner != me {
			return nil, fmt.Errorf("agent socket %s: the store %s belongs to %s: clients trust only an agent running as the store's owner or as root", s.Path, absPath(s.Store), userName(owner))
		}
	}
	dir := filepath.Dir(s.Path)
	owners := []int{me}
	if s.Configured {
		owners = append(owners, 0)
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("agent socket: %w", err)
	}
	if err := s.checkDir(owners); err != nil {
		return nil, err
	}
	mode, gid := fs.FileMode(0o600), -1
	if group != "" {
		var err error
		if gid, err = groupID(group); err != nil {
			return nil, fmt.Errorf("agent.group %q: %w", group, err)
		}
		mode = 0o660
	}
	tmp, err := os.MkdirTemp(dir, ".palink-")
	if err != nil {
		return nil, fmt.Errorf("agent socket: %w", err)
	}
	defer os.RemoveAll(tmp)
	p := filepath.Join(tmp, "s")
	ln, err := net.Listen("unix", p)
	if err != nil {
		return nil, fmt.Errorf("agent socket: %w", err)
	}
	ul := ln.(*net.UnixListener)
	ul.SetUnlinkOnClose(false)
	fail := func(err error) (net.Listener, error) {
		ul.Close()
		return nil, fmt.Errorf("agent socket %s: %w", s.Path, err)
	}
	if gid >= 0 {
		if err := os.Lchown(p, -1, gid); err != nil {
			return fail(err)
		}
	}
	if err := os.Chmod(p, mode); err != nil {
		return fail(err)
	}
	if err := os.Rename(p, s.Path); err != nil {
		return fail(err)
	}
	fi, err := os.Lstat(s.Path)
	if err != nil {
		return fail(err)
	}
	return &agentListener{UnixListener: ul, path: s.Path, fi: fi}, nil
}

// agentListener removes its socket file when it closes.
type agentListener struct {
	*net.UnixListener
	path string
	fi   fs.FileInfo
	once sync.Once
}

// Addr is the socket's final path.
func (l *agentListener) Addr() net.Addr { return &net.UnixAddr{Name: l.path, Net: "unix"} }

// Close stops listening and removes the socket if nobody replaced it.
func (l *agentListener) Close() error {
	err := l.UnixListener.Close()
	l.once.Do(func() {
		if cur, serr := os.Lstat(l.path); serr == nil && os.SameFile(cur, l.fi) {
			os.Remove(l.path)
		}
	})
	return err
}
