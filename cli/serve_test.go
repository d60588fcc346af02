package cli

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/palink/palink/config"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// sshFixture is `palink serve --ssh` on a palink with a team that owns the
// simulator, alice an operator of it, and a RUNNING job of the team.
type sshFixture struct {
	e          *cliEnv
	addr       string
	hostKey    string
	authorized string
	alice      gossh.Signer // in the authorized keys
	alicePriv  ed25519.PrivateKey
	dir        string
}

func newSigner(t *testing.T) (gossh.Signer, ed25519.PrivateKey) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s, priv
}

func authorizedLine(s gossh.Signer, user string) string {
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey()))) + " " + user + "\n"
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func newSSHFixture(t *testing.T, job string, flags ...string) *sshFixture {
	t.Helper()
	f := &sshFixture{dir: t.TempDir()}
	f.alice, f.alicePriv = newSigner(t)
	f.hostKey = filepath.Join(f.dir, "host_key")
	f.authorized = filepath.Join(f.dir, "authorized_keys")
	if err := os.WriteFile(f.authorized, []byte("# the on-call rota\n"+authorizedLine(f.alice, "alice")), 0o600); err != nil {
		t.Fatal(err)
	}
	// Each job runs in its own queue (yarn.application.queue), which the
	// cluster does not fix: the queue decides whose a job is.
	f.e = newCLIEnv(t, sim.Options{}, func(c *config.Config) { c.Clusters[0].Deploy.Queue = "" })
	f.e.createJob(job)
	// Another team's job, in another queue: never on alice's screens.
	sqlFile := filepath.Join(f.dir, "other.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	f.e.mustRun("job", "create", "--name", "other-team-job", "--sql", sqlFile, "--set", model.QueueProperty+"=dev")
	f.e.mustRun("team", "add", "streaming", "--owns", "sim/default")
	f.e.mustRun("team", "add", "others", "--owns", "sim/dev")
	f.e.mustRun("team", "grant", "streaming", "alice", "operator")

	f.addr = freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := f.e.run(ctx, append([]string{"serve", "--ssh", f.addr, "--host-key", f.hostKey, "--authorized-keys", f.authorized}, flags...)...)
		done <- err
	}()
	t.Cleanup(func() { cancel(); <-done })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", f.addr); err == nil {
			c.Close()
			break
		}
		select {
		case err := <-done:
			t.Fatalf("palink serve --ssh: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("palink serve --ssh never listened")
		}
	}
	// Through the agent palink serve is: the store's owner submits.
	f.e.mustRun("job", "submit", job)
	f.waitJob(job, "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })
	return f
}

func (f *sshFixture) waitJob(name, what string, cond func(model.Job) bool) {
	f.e.t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		j := f.e.job(name).Job
		if cond(j) {
			return
		}
		if time.Now().After(deadline) {
			f.e.t.Fatalf("%s never %s; it is %s", name, what, j.State)
		}
	}
}

func (f *sshFixture) dial(s gossh.Signer) (*gossh.Client, error) {
	return gossh.Dial("tcp", f.addr, &gossh.ClientConfig{
		User: "whoever", Auth: []gossh.AuthMethod{gossh.PublicKeys(s)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
	})
}

// screen is what a session has shown so far.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
	eof bool
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.buf.String() }

func (s *screen) ended() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.eof }

// waitFor waits until the screen shows text.
func (s *screen) waitFor(t *testing.T, text string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(s.String(), text); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the session never showed %q; it showed:\n%q", text, tail(s.String(), 2000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// session opens a terminal session with the TUI and its screen, with
// the environment variables env ("K=V") set.
func (f *sshFixture) session(t *testing.T, c *gossh.Client, env ...string) (*screen, io.Writer) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if err := sess.Setenv(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.RequestPty("xterm-256color", 40, 160, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	scr := &screen{}
	sess.Stdout, sess.Stderr = scr, scr
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = sess.Wait()
		scr.mu.Lock()
		scr.eof = true
		scr.mu.Unlock()
	}()
	return scr, in
}

// TestSSHSessionWithoutColour: a session whose client sets NO_COLOR to
// any non-empty value (no-color.org; the terminal library takes only
// booleans) gets no colour.
func TestSSHSessionWithoutColour(t *testing.T) {
	f := newSSHFixture(t, "ssh-job")
	c, err := f.dial(f.alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	scr, _ := f.session(t, c, "NO_COLOR=yes")
	scr.waitFor(t, "ssh-job")
	scr.waitFor(t, "1/1")
	if out := scr.String(); colourSGR(out) != "" {
		t.Errorf("NO_COLOR=yes: the session still draws in colour (%q):\n%q", colourSGR(out), tail(out, 1500))
	}
}

// sgr is a Select Graphic Rendition sequence and its parameters.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourSGR is the first SGR sequence of out that sets a foreground or
// background colour (30–38, 40–48, 90–97, 100–107), or "". Other escape
// sequences (erase 96 characters is ESC[96X) are not colour.
func colourSGR(out string) string {
	for _, m := range sgr.FindAllStringSubmatch(out, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, _ := strconv.Atoi(p)
			if n >= 30 && n <= 38 || n >= 40 && n <= 48 || n >= 90 && n <= 97 || n >= 100 && n <= 107 {
				return m[0]
			}
		}
	}
	return ""
}

// TestSSHSessionIsItsKeysUser: an unknown key is refused before any
// screen; alice's key gets the jobs view of her team, pauses the team's
// job, and the audit log names alice. The host key was made once, 0600,
// and is kept.
func TestSSHSessionIsItsKeysUser(t *testing.T) {
	f := newSSHFixture(t, "ssh-job")
	fi, err := os.Stat(f.hostKey)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("host key: %v, mode %v; want made, 0600", err, fi.Mode().Perm())
	}

	stranger, _ := newSigner(t)
	if c, err := f.dial(stranger); err == nil {
		c.Close()
		t.Fatal("an unknown key was let in")
	} else if !strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("an unknown key: %v, want refused at authentication", err)
	}

	c, err := f.dial(f.alice)
	if err != nil {
		t.Fatalf("alice's key: %v", err)
	}
	defer c.Close()
	scr, in := f.session(t, c)
	scr.waitFor(t, "ssh-job")
	scr.waitFor(t, "alice")
	scr.waitFor(t, "1/1") // the jobs view's count: her team's one job
	if strings.Contains(scr.String(), "other-team-job") {
		t.Error("alice's jobs view shows another team's job")
	}
	fmt.Fprint(in, "p")
	scr.waitFor(t, "Pause ssh-job?")
	fmt.Fprint(in, "\t")
	time.Sleep(100 * time.Millisecond)
	fmt.Fprint(in, "\r")
	f.waitJob("ssh-job", "paused", func(j model.Job) bool { return j.State == model.StateFinished })

	var es []model.AuditEntry
	if err := decodeWire([]byte(f.e.mustRun("audit", "--user", "alice", "-o", "json")), &es); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(es, func(a model.AuditEntry) bool { return strings.Contains(a.Action, "pause") }) {
		t.Errorf("the audit log does not name alice's pause: %+v", es)
	}
	key, err := os.ReadFile(f.hostKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gossh.ParsePrivateKey(key); err != nil {
		t.Errorf("the host key kept is no key: %v", err)
	}
}

// TestSSHKeyRemovedEndsItsSession: removing a key from the authorized
// keys ends the session it opened, saying why.
func TestSSHKeyRemovedEndsItsSession(t *testing.T) {
	f := newSSHFixture(t, "ssh-job-2")
	c, err := f.dial(f.alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	scr, _ := f.session(t, c)
	scr.waitFor(t, "ssh-job-2")
	if err := os.WriteFile(f.authorized, []byte("# nobody on call\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	scr.waitFor(t, "no longer in the authorized keys")
	for deadline := time.Now().Add(10 * time.Second); !scr.ended(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the session of a removed key goes on")
		}
	}
	if c, err := f.dial(f.alice); err == nil {
		c.Close()
		t.Error("a removed key was let in again")
	}
}

// TestSSHReadOnlyKeyViewerAndIdleSession: a key marked read-only gets a
// session that may change nothing, whatever its user's role, and so does
// a viewer of the team; a session whose user types nothing for
// --idle-timeout ends, saying why.
func TestSSHReadOnlyKeyViewerAndIdleSession(t *testing.T) {
	f := newSSHFixture(t, "ro-job", "--idle-timeout", "3s")
	victor, _ := newSigner(t)
	f.e.mustRun("team", "grant", "streaming", "victor", "viewer")
	if err := os.WriteFile(f.authorized, []byte("read-only "+authorizedLine(f.alice, "alice")+authorizedLine(victor, "victor")), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, key := range []gossh.Signer{f.alice, victor} {
		c, err := f.dial(key)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		scr, in := f.session(t, c)
		scr.waitFor(t, "ro-job")
		fmt.Fprint(in, "p")
		scr.waitFor(t, "read-only")
		fmt.Fprint(in, "\t\r")
		scr.waitFor(t, "idle for 3s")
		if j := f.e.job("ro-job").Job; j.State != model.StateRunning {
			t.Errorf("a read-only session paused the job: %s", j.State)
		}
	}
}

// TestSSHWithOpenSSH: OpenSSH's own client, as the on-call engineer types
// it: a known key sees the jobs view and pauses its team's job, which the
// audit log names its user for; an unknown key is refused before any
// screen.
func TestSSHWithOpenSSH(t *testing.T) {
	sshBin, err := exec.LookPath("ssh")
	switch {
	case err != nil && os.Getenv("PALINK_REQUIRE_OPENSSH") != "":
		t.Fatal("PALINK_REQUIRE_OPENSSH is set, and OpenSSH's client (ssh) is not installed")
	case err != nil:
		t.Skip("OpenSSH's client (ssh) is not installed: apt-get install -y openssh-client")
	}
	f := newSSHFixture(t, "openssh-job")
	_, port, _ := net.SplitHostPort(f.addr)
	keyFile := func(name string, priv ed25519.PrivateKey) string {
		block, err := gossh.MarshalPrivateKey(priv, name)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(f.dir, name)
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ssh := func(key string) *exec.Cmd {
		return exec.Command(sshBin, "-F", "/dev/null", "-i", key, "-p", port, "-tt",
			"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes",
			"-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "alice@127.0.0.1")
	}

	_, strangerPriv := newSigner(t)
	refused := ssh(keyFile("stranger", strangerPriv))
	refused.Stdin = strings.NewReader("")
	out, err := refused.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Permission denied (publickey)") || strings.Contains(string(out), "openssh-job") {
		t.Errorf("ssh with an unknown key: %v\n%s\nwant refused before any screen", err, out)
	}

	cmd := ssh(keyFile("alice", f.alicePriv))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	scr := &screen{}
	cmd.Stdout, cmd.Stderr = scr, scr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	scr.waitFor(t, "openssh-job")
	scr.waitFor(t, "1/1")
	if strings.Contains(scr.String(), "other-team-job") {
		t.Error("alice's jobs view shows another team's job")
	}
	fmt.Fprint(in, "p")
	scr.waitFor(t, "Pause openssh-job?")
	fmt.Fprint(in, "\t")
	time.Sleep(100 * time.Millisecond)
	fmt.Fprint(in, "\r")
	f.waitJob("openssh-job", "paused", func(j model.Job) bool { return j.State == model.StateFinished })
	var es []model.AuditEntry
	if err := decodeWire([]byte(f.e.mustRun("audit", "--user", "alice", "-o", "json")), &es); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(es, func(a model.AuditEntry) bool { return strings.Contains(a.Action, "pause") }) {
		t.Errorf("the audit log does not name alice's pause over OpenSSH: %+v", es)
	}
	fmt.Fprint(in, "q")
}

// TestSSHSessionDroppedMidAction: a session that drops while its action
// runs leaves the action to the scheduler: the pause completes, once.
func TestSSHSessionDroppedMidAction(t *testing.T) {
	f := newSSHFixture(t, "drop-job")
	c, err := f.dial(f.alice)
	if err != nil {
		t.Fatal(err)
	}
	scr, in := f.session(t, c)
	scr.waitFor(t, "drop-job")
	fmt.Fprint(in, "p")
	scr.waitFor(t, "Pause drop-job?")
	fmt.Fprint(in, "\t")
	time.Sleep(100 * time.Millisecond)
	fmt.Fprint(in, "\r")
	// The moment the pause is recorded, the connection drops.
	pauses := func() []model.Command {
		var cs []model.Command
		if err := decodeWire([]byte(f.e.mustRun("commands", "-o", "json")), &cs); err != nil {
			t.Fatal(err)
		}
		return slices.DeleteFunc(cs, func(c model.Command) bool { return c.Kind != model.CmdPause })
	}
	for deadline := time.Now().Add(30 * time.Second); len(pauses()) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the pause was never recorded")
		}
	}
	c.Close()
	f.waitJob("drop-job", "paused", func(j model.Job) bool { return j.State == model.StateFinished })
	if ps := pauses(); len(ps) != 1 || ps[0].State != model.CmdSucceeded || ps[0].Issuer != "alice" {
		t.Errorf("pauses after the drop: %+v, want one, alice's, succeeded", ps)
	}
}

// TestColourSGR: what counts as colour in a session's bytes, and what does
// not (bold, reverse, an erase of 96 characters).
func TestColourSGR(t *testing.T) {
	for in, colour := range map[string]bool{"\x1b[38;5;196mX": true, "\x1b[1;31mX": true, "\x1b[48;2;1;2;3mX": true, "\x1b[94mX": true,
		"\x1b[96X": false, "\x1b[1;4mX\x1b[m": false, "\x1b[7m▸\x1b[22;1m": false, "\x1b[39;68H": false} {
		if got := colourSGR(in) != ""; got != colour {
			t.Errorf("colourSGR(%q) = %v, want %v", in, got, colour)
		}
	}
}
