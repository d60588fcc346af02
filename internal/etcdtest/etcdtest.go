// Package etcdtest starts real etcd members for tests: one, or a cluster
// of three, on loopback ports with temporary data directories, stopped
// when the test ends. The members are Debian's etcd (`apt-get install
// etcd-server`, /usr/bin/etcd), or the binary PALINK_ETCD names. Where
// there is none the test is skipped with a message, unless
// PALINK_REQUIRE_ETCD=1 (CI sets it) makes that a failure, so that CI
// cannot pass without having run them.
//
// It is for tests only and imports nothing of palink's.
package etcdtest

import (
	"bytes"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Environment variables of the tests that need etcd.
const (
	// EnvBinary names the etcd binary; default /usr/bin/etcd, else etcd
	// on PATH.
	EnvBinary = "PALINK_ETCD"
	// EnvRequire set to 1 turns a missing etcd from a skip into a failure.
	EnvRequire = "PALINK_REQUIRE_ETCD"
)

// Binary returns the etcd binary the tests run, or skips t (fails it
// under EnvRequire=1) when there is none.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(EnvBinary); p != "" {
		return p
	}
	for _, p := range []string{"/usr/bin/etcd"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("etcd"); err == nil {
		return p
	}
	msg := "etcd is not installed: apt-get install etcd-server (or set " + EnvBinary + ") to run the tests of the etcd store"
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("%s (%s=1)", msg, EnvRequire)
	}
	t.Skip(msg)
	return ""
}

// Options tune the members.
type Options struct {
	// MaxTxnOps and MaxRequestBytes are etcd's --max-txn-ops and
	// --max-request-bytes; 0 leaves etcd's defaults (128, 1.5 MiB).
	MaxTxnOps, MaxRequestBytes int
	// Args are more flags for every member.
	Args []string
	// TLS serves clients over TLS with these files (peers talk in clear
	// on loopback); with ClientCA set, etcd asks each client for a
	// certificate signed by it (--client-cert-auth).
	TLS *TLS
	// OnDisk keeps the members' data in the test's temporary directory
	// rather than on a tmpfs, so that every write waits for the disk, as
	// in production: for benchmarks.
	OnDisk bool
}

// TLS are the files of a member's TLS for clients.
type TLS struct {
	CertFile, KeyFile string
	// ClientCA, if set, is the CA client certificates must be signed by;
	// ClientCert and ClientKey are the certificate the helper itself
	// shows when it asks a member for its health.
	ClientCA, ClientCert, ClientKey string
}

// Cluster is the members one test started.
type Cluster struct {
	t       testing.TB
	members []*Member
	tls     *TLS
}

// Member is one etcd process of a Cluster.
type Member struct {
	Name   string
	Client string // host:port of its client URL
	peer   string
	dir    string
	log    string
	args   []string
	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// Start starts n members (1 or 3) and waits until they serve with a
// leader; they are killed and their data removed when t ends.
func Start(t testing.TB, n int, o Options) *Cluster {
	t.Helper()
	bin := Binary(t)
	var last error
	for range 3 { // a port picked free may be taken before etcd binds it
		c, err := start(t, bin, n, o)
		if err == nil {
			return c
		}
		last = err
	}
	t.Fatalf("start %d etcd members: %v", n, last)
	return nil
}

func start(t testing.TB, bin string, n int, o Options) (*Cluster, error) {
	dir := t.TempDir()
	if !o.OnDisk {
		dir = memDir(t)
	}
	ports, err := freePorts(2 * n)
	if err != nil {
		return nil, err
	}
	c := &Cluster{t: t, tls: o.TLS}
	scheme := "http://"
	if o.TLS != nil {
		scheme = "https://"
	}
	var initial []string
	for i := range n {
		m := &Member{Name: fmt.Sprintf("m%d", i+1), Client: "127.0.0.1:" + strconv.Itoa(ports[2*i]),
			peer: "127.0.0.1:" + strconv.Itoa(ports[2*i+1])}
		m.dir = filepath.Join(dir, m.Name)
		m.log = filepath.Join(dir, m.Name+".log")
		initial = append(initial, m.Name+"=http://"+m.peer)
		c.members = append(c.members, m)
	}
	token := randomToken()
	for _, m := range c.members {
		m.args = []string{"--name", m.Name, "--data-dir", m.dir,
			"--listen-client-urls", scheme + m.Client, "--advertise-client-urls", scheme + m.Client,
			"--listen-peer-urls", "http://" + m.peer, "--initial-advertise-peer-urls", "http://" + m.peer,
			"--initial-cluster", strings.Join(initial, ","), "--initial-cluster-state", "new",
			"--initial-cluster-token", token, "--logger", "zap", "--log-outputs", m.log}
		if o.MaxTxnOps > 0 {
			m.args = append(m.args, "--max-txn-ops", strconv.Itoa(o.MaxTxnOps))
		}
		if o.MaxRequestBytes > 0 {
			m.args = append(m.args, "--max-request-bytes", strconv.Itoa(o.MaxRequestBytes))
		}
		if o.TLS != nil {
			m.args = append(m.args, "--cert-file", o.TLS.CertFile, "--key-file", o.TLS.KeyFile)
			if o.TLS.ClientCA != "" {
				m.args = append(m.args, "--client-cert-auth", "--trusted-ca-file", o.TLS.ClientCA)
			}
		}
		m.args = append(m.args, o.Args...)
		if err := m.start(bin); err != nil {
			c.kill()
			return nil, err
		}
	}
	t.Cleanup(c.kill)
	if err := c.waitHealthy(30 * time.Second); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

// memDir is a new directory for the members' data, on a tmpfs where
// there is one: etcd fsyncs every write, which the tests need not wait for.
func memDir(t testing.TB) string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "palink-etcd-*"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}

func (m *Member) start(bin string) error {
	cmd := exec.Command(bin, m.args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start etcd %s: %w", m.Name, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	m.mu.Lock()
	m.cmd, m.exited = cmd, exited
	m.mu.Unlock()
	return nil
}

// Endpoints are the members' client addresses (host:port).
func (c *Cluster) Endpoints() []string {
	var out []string
	for _, m := range c.members {
		out = append(out, m.Client)
	}
	return out
}

// Members are the cluster's members, in the order started.
func (c *Cluster) Members() []*Member { return c.members }

// Kill stops a member at once (SIGKILL), as a crash would.
func (m *Member) Kill() {
	m.mu.Lock()
	cmd, exited := m.cmd, m.exited
	m.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGCONT) // a paused member dies too
	_ = cmd.Process.Kill()
	<-exited
}

// Pause stops the member's process (SIGSTOP) until Resume: it keeps its
// ports but answers nobody, as a partitioned member would.
func (m *Member) Pause() {
	m.signal(syscall.SIGSTOP)
	// kill(2) only queues the signal: wait until the kernel reports the
	// process stopped, so that no request sent after Pause is answered.
	m.mu.Lock()
	pid := 0
	if m.cmd != nil {
		pid = m.cmd.Process.Pid
	}
	m.mu.Unlock()
	for deadline := time.Now().Add(5 * time.Second); pid > 0 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err != nil || stoppedState(stat) {
			return
		}
	}
}

// stoppedState reads the state field of /proc/PID/stat (after the command
// name in parentheses): T is stopped by a signal.
func stoppedState(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'T'
}

// Resume continues a paused member.
func (m *Member) Resume() { m.signal(syscall.SIGCONT) }

func (m *Member) signal(s syscall.Signal) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cmd != nil {
		_ = m.cmd.Process.Signal(s)
	}
}

// Restart starts a killed member again on its data.
func (m *Member) Restart(t testing.TB) {
	t.Helper()
	m.Kill()
	args := make([]string, 0, len(m.args))
	for i := 0; i < len(m.args); i++ {
		if m.args[i] == "--initial-cluster-state" {
			args = append(args, m.args[i], "existing")
			i++
			continue
		}
		args = append(args, m.args[i])
	}
	m.args = args
	if err := m.start(Binary(t)); err != nil {
		t.Fatal(err)
	}
}

// Log is the member's log so far, for a failing test to show.
func (m *Member) Log() string {
	b, _ := os.ReadFile(m.log)
	return string(b)
}

func (c *Cluster) kill() {
	for _, m := range c.members {
		m.Kill()
	}
}

// waitHealthy waits until every member answers /health with a leader.
func (c *Cluster) waitHealthy(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	client := &http.Client{Timeout: time.Second}
	scheme := "http://"
	if c.tls != nil {
		tc, err := c.tls.clientConfig()
		if err != nil {
			return err
		}
		client.Transport = &http.Transport{TLSClientConfig: tc}
		scheme = "https://"
	}
	for _, m := range c.members {
		for {
			select {
			case <-m.exited:
				return fmt.Errorf("etcd %s exited at start:\n%s", m.Name, tail(m.Log(), 20))
			default:
			}
			resp, err := client.Get(scheme + m.Client + "/health")
			if err == nil {
				var body bytes.Buffer
				_, _ = body.ReadFrom(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK && strings.Contains(body.String(), `"true"`) {
					break
				}
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("etcd %s not healthy within %v (%v):\n%s", m.Name, limit, err, tail(m.Log(), 20))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nil
}

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

func randomToken() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "palink-test-" + hex.EncodeToString(b)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// clientConfig is TLS as the helper's health checks speak it: the
// member's certificate is not verified (the test under way verifies it),
// and the client certificate is shown where one is asked for.
func (t *TLS) clientConfig() (*tls.Config, error) {
	tc := &tls.Config{InsecureSkipVerify: true} //nolint:gosec // health checks of the test's own members
	if t.ClientCert != "" {
		pair, err := tls.LoadX509KeyPair(t.ClientCert, t.ClientKey)
		if err != nil {
			return nil, err
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	return tc, nil
}
