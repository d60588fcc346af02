// Package sshserve serves palink's TUI to SSH clients (`palink serve
// --ssh`): an on-call engineer types `ssh -p 2222 ops-host` and gets
// palink without installing it. Each session is a TUI of its own over
// the one shared service, behind api.Guard with the session's user: the
// key's user, from the authorized keys file (docs/ssh.md).
//
// The chain of wish middleware follows charm's soft-serve: recover →
// bubbletea → logging → authentication, the last run first. The key
// callback alone does not prove which key a session authenticated with,
// so the authentication middleware checks the session's key again, and
// looks it up afresh. It imports the TUI and the API, never core: it is
// a door, as the agent's socket is.
package sshserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	bm "charm.land/wish/v2/bubbletea"
	"charm.land/wish/v2/logging"
	rm "charm.land/wish/v2/recover"
	gossh "golang.org/x/crypto/ssh"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
)

// Options configure a Server.
type Options struct {
	// HostKey is the server's private key file, made once when missing.
	HostKey string
	// AuthorizedKeys is the file of the keys that may connect, one per
	// line with the key's user as its comment, and the option read-only
	// for a key that may change nothing.
	AuthorizedKeys string
	// Service is the shared service every session uses through its guard.
	Service api.Service
	// Caller is the guard's caller for a key's user.
	Caller func(user string, readOnly bool) api.Caller
	// TUI are the options of every session's TUI; User and ReadOnly are
	// the session's.
	TUI tui.Options
	// IdleTimeout ends a session whose user typed nothing for that long
	// (a TUI redraws on its own, so the connection's traffic proves no
	// one is there); default 30m. MaxTimeout ends any session after that
	// long; default 12h.
	IdleTimeout, MaxTimeout time.Duration
	// Recheck is how often a session's key is looked for again in the
	// authorized keys, so that removing it ends the session; default 2s.
	Recheck time.Duration
	Log     *slog.Logger
}

// Server is palink served over SSH.
type Server struct {
	o   Options
	srv *ssh.Server
}

// fingerprint is the permissions extension that carries the key the key
// callback accepted, for the authentication middleware to compare.
const fingerprint = "pubkey-fp"

// New makes the server: its host key (made if missing), the authorized
// keys (checked readable), and the middleware chain. It listens on nothing
// yet (Serve).
func New(o Options) (*Server, error) {
	switch {
	case o.Service == nil || o.Caller == nil:
		return nil, errors.New("ssh: a service and its callers are required")
	case o.HostKey == "" || o.AuthorizedKeys == "":
		return nil, errors.New("ssh: --host-key and --authorized-keys are required")
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	if o.MaxTimeout == 0 {
		o.MaxTimeout = 12 * time.Hour
	}
	if o.Recheck == 0 {
		o.Recheck = 2 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	pem, err := hostKey(o.HostKey)
	if err != nil {
		return nil, err
	}
	keys, skipped, err := readAuthorized(o.AuthorizedKeys)
	if err != nil {
		return nil, err
	}
	for _, msg := range skipped {
		o.Log.Warn("ssh: authorized keys: line skipped", "why", msg)
	}
	o.Log.Info("ssh: authorized keys", "file", o.AuthorizedKeys, "keys", len(keys))
	s := &Server{o: o}
	logger := printfLogger{o.Log}
	s.srv, err = wish.NewServer(
		wish.WithHostKeyPEM(pem),
		wish.WithPublicKeyAuth(s.allowKey),
		ssh.EmulatePty(),
		wish.WithMiddleware(rm.MiddlewareWithLogger(logger,
			bm.MiddlewareWithProgramHandler(s.program),
			logging.MiddlewareWithLogger(logger),
			s.authenticate,
		)),
	)
	if err != nil {
		return nil, fmt.Errorf("ssh: %w", err)
	}
	// The connection's own bound, past the session's: a client that
	// never opens a session, or stops reading, is dropped too.
	s.srv.MaxTimeout = o.MaxTimeout + time.Minute
	return s, nil
}

// Serve answers SSH clients on ln until ctx is done.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.srv.Shutdown(sctx)
		_ = s.srv.Close()
	}()
	err := s.srv.Serve(ln)
	if errors.Is(err, ssh.ErrServerClosed) || ctx.Err() != nil {
		return nil
	}
	return err
}

// allowKey is the key callback: a key of the authorized keys may try;
// every other key is refused here, before any session or screen.
func (s *Server) allowKey(ctx ssh.Context, key ssh.PublicKey) bool {
	h, ok, skipped, err := authorized(s.o.AuthorizedKeys, key)
	for _, msg := range skipped {
		s.o.Log.Warn("ssh: authorized keys: line skipped", "why", msg)
	}
	if err != nil || !ok {
		s.o.Log.Warn("ssh: key refused", "key", gossh.FingerprintSHA256(key), "remote", ctx.RemoteAddr().String(), "err", err)
		return false
	}
	perms := ctx.Permissions()
	if perms.Extensions == nil {
		perms.Extensions = map[string]string{}
	}
	perms.Extensions[fingerprint] = gossh.FingerprintSHA256(key)
	s.o.Log.Info("ssh: key accepted", "user", h.user, "key", gossh.FingerprintSHA256(key))
	return true
}

// sessionKey holds a session's state in its context.
type sessionKey struct{}

// session is one SSH session: whose, and why it ended when palink ended it.
type session struct {
	holder
	key       gossh.PublicKey
	started   time.Time
	lastInput atomic.Int64 // unix nanoseconds of the user's last key
	mu        sync.Mutex
	ended     string
	quit      func() // the TUI's, once it runs
	cancel    context.CancelFunc
}

// end ends the session's TUI the way its user would, for why.
func (ss *session) end(why string) {
	ss.mu.Lock()
	if ss.ended == "" {
		ss.ended = why
	}
	quit, cancel := ss.quit, ss.cancel
	ss.mu.Unlock()
	switch {
	case quit != nil:
		quit()
	case cancel != nil:
		cancel()
	}
}

// stop ends what the session runs: its calls, its watch.
func (ss *session) stop() {
	ss.mu.Lock()
	cancel := ss.cancel
	ss.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (ss *session) reason() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.ended
}

// authenticate runs first: the session's key must be the one the key
// callback accepted, and still authorized; the session is its user's.
// When the TUI is over it says why palink ended it, if palink did.
func (s *Server) authenticate(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		key := sess.PublicKey()
		if key == nil || sess.Permissions().Extensions[fingerprint] != gossh.FingerprintSHA256(key) {
			wish.Fatalln(sess, "palink: permission denied: no authorized key")
			return
		}
		h, ok, _, err := authorized(s.o.AuthorizedKeys, key)
		if err != nil || !ok {
			wish.Fatalln(sess, "palink: permission denied: the key is not in the authorized keys")
			return
		}
		ss := &session{holder: h, key: key, started: time.Now()}
		ss.lastInput.Store(time.Now().UnixNano())
		sess.Context().SetValue(sessionKey{}, ss)
		next(sess)
		ss.stop()
		if why := ss.reason(); why != "" {
			wish.Fatalln(sess, "\r\npalink: the session ended: "+why)
		}
	}
}

// program is the session's TUI over the shared service, behind a guard
// with the session's user.
func (s *Server) program(sess ssh.Session) *tea.Program {
	ss, ok := sess.Context().Value(sessionKey{}).(*session)
	if !ok {
		return nil
	}
	pty, _, ok := sess.Pty()
	if !ok {
		wish.Fatalln(sess, "palink: no terminal: connect with `ssh -t`")
		return nil
	}
	ctx, cancel := context.WithCancel(sess.Context())
	ss.mu.Lock()
	ss.cancel = cancel
	ss.mu.Unlock()
	go s.watch(ctx, ss)
	svc := api.Guard(s.o.Service, s.o.Caller(ss.user, ss.readOnly))
	o := s.o.TUI
	o.User, o.ReadOnly = ss.user, o.ReadOnly || ss.readOnly
	opts := append(bm.MakeOptions(sess), tea.WithContext(ctx), tea.WithInput(&typing{r: sess, ss: ss}))
	if nc := tui.NoColorProfile(sess.Environ()); nc != nil {
		opts = append(opts, nc)
	}
	if pty.Window.Width <= 0 || pty.Window.Height <= 0 {
		// A client without a terminal of its own (ssh -tt from a script)
		// tells no size: the classic one, until it says otherwise.
		opts = append(opts, tea.WithWindowSize(80, 24))
	}
	p := tea.NewProgram(tui.New(ctx, svc, o), opts...)
	ss.mu.Lock()
	ss.quit = p.Quit
	ss.mu.Unlock()
	return p
}

// watch ends the session when its key leaves the authorized keys, when
// its user has typed nothing for IdleTimeout, or after MaxTimeout.
func (s *Server) watch(ctx context.Context, ss *session) {
	t := time.NewTicker(s.o.Recheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			h, ok, _, err := authorized(s.o.AuthorizedKeys, ss.key)
			switch {
			case err != nil || !ok:
				s.o.Log.Info("ssh: key removed, session ended", "user", ss.user)
				ss.end("the key of " + ss.user + " is no longer in the authorized keys")
				return
			case h != ss.holder:
				ss.end("the authorized keys changed the line of this key (its user or read-only); connect again")
				return
			case now.Sub(time.Unix(0, ss.lastInput.Load())) > s.o.IdleTimeout:
				ss.end(fmt.Sprintf("idle for %s", s.o.IdleTimeout))
				return
			case now.Sub(ss.started) > s.o.MaxTimeout:
				ss.end(fmt.Sprintf("sessions last at most %s", s.o.MaxTimeout))
				return
			}
		}
	}
}

// typing is the session's input, noting when the user last typed.
type typing struct {
	r  io.Reader
	ss *session
}

func (t *typing) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.ss.lastInput.Store(time.Now().UnixNano())
	}
	return n, err
}

// printfLogger is wish's logger over slog.
type printfLogger struct{ l *slog.Logger }

func (p printfLogger) Printf(format string, v ...any) { p.l.Info(fmt.Sprintf(format, v...)) }
