// Package krbtest starts a real MIT Kerberos KDC for tests: a throwaway
// realm in a temporary directory (kdb5_util create -s), principals and
// keytabs made with kadmin.local, and krb5kdc serving it on a free
// loopback port with its own krb5.conf, stopped when the test ends. The
// programs are Debian's (`apt-get install krb5-kdc krb5-admin-server
// krb5-user`). Where they are missing the test is skipped with a message,
// unless PALINK_REQUIRE_KERBEROS=1 (CI sets it) makes that a failure.
//
// It is for tests (and `palink sim --kerberos`, through StartIn) and
// imports nothing of palink's, nor the testing package.
package krbtest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// TB is the part of TB the helpers use; the package does not
// import testing, so that `palink sim --kerberos` can start a realm too.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Skip(args ...any)
	TempDir() string
	Cleanup(func())
}

// Environment variables of the realm's programs.
const (
	// EnvRequire set to 1 turns a missing KDC from a skip into a failure.
	EnvRequire = "PALINK_REQUIRE_KERBEROS"
	// EnvPath, when set, is where the KDC's programs are looked for (a
	// list of directories like PATH), instead of PATH and the sbin
	// directories Debian installs them in: for a KDC built elsewhere.
	EnvPath = "PALINK_KRB5_PATH"
)

// DefaultRealm is the realm Start creates unless told otherwise.
const DefaultRealm = "PALINK.TEST"

// programs are what a realm needs, by the package that ships them.
var programs = []struct{ name, pkg string }{
	{"krb5kdc", "krb5-kdc"},
	{"kdb5_util", "krb5-kdc"},
	{"kadmin.local", "krb5-admin-server"},
}

// Missing says which programs are absent and what to install, or "".
func Missing() string {
	var miss []string
	pkgs := map[string]bool{}
	for _, p := range programs {
		if _, err := lookPath(p.name); err != nil {
			miss = append(miss, p.name)
			pkgs[p.pkg] = true
		}
	}
	if len(miss) == 0 {
		return ""
	}
	var ps []string
	for _, p := range []string{"krb5-kdc", "krb5-admin-server"} {
		if pkgs[p] {
			ps = append(ps, p)
		}
	}
	return fmt.Sprintf("%s not installed: apt-get install %s", strings.Join(miss, ", "), strings.Join(ps, " "))
}

// lookPath finds a program on PATH or in the sbin directories Debian puts
// the KDC in (not on a user's PATH).
func lookPath(name string) (string, error) {
	dirs := []string{"/usr/sbin", "/sbin", "/usr/local/sbin"}
	if env := os.Getenv(EnvPath); env != "" {
		dirs = filepath.SplitList(env)
	} else if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found", name)
}

// Require skips t (fails it under PALINK_REQUIRE_KERBEROS=1) when the KDC
// programs are missing.
func Require(t TB) {
	t.Helper()
	msg := Missing()
	if msg == "" {
		return
	}
	msg = "Kerberos KDC " + msg + " to run the Kerberos tests"
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("%s (%s=1)", msg, EnvRequire)
	}
	t.Skip(msg)
}

// Options tune the realm.
type Options struct {
	// Realm is the realm's name; default DefaultRealm.
	Realm string
	// ClockOffset runs the KDC's clock that far from the machine's
	// (krb5kdc -T), to show what clock skew does.
	ClockOffset time.Duration
	// MaxLife caps every ticket's lifetime (the realm's max_life);
	// default 10h.
	MaxLife time.Duration
}

// Realm is a running KDC and its files.
type Realm struct {
	Name string
	// Dir holds the database, the configuration and the keytabs.
	Dir string
	// Krb5Conf is the clients' configuration: the realm and its KDC.
	Krb5Conf string
	// KDC is the KDC's host:port (UDP and TCP).
	KDC string

	kdcConf string
	log     string
	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{}
}

// Start creates a realm in a temporary directory of t and starts its KDC;
// it stops when t ends.
func Start(t TB, o Options) *Realm {
	t.Helper()
	Require(t)
	r, err := StartIn(t.TempDir(), o)
	if err != nil {
		t.Fatalf("start a Kerberos KDC: %v", err)
	}
	t.Cleanup(r.Stop)
	return r
}

// StartIn creates a realm in dir and starts its KDC, for callers that are
// not tests (palink sim --kerberos); the caller stops it.
func StartIn(dir string, o Options) (*Realm, error) {
	if msg := Missing(); msg != "" {
		return nil, errors.New("Kerberos KDC " + msg)
	}
	if o.Realm == "" {
		o.Realm = DefaultRealm
	}
	if o.MaxLife <= 0 {
		o.MaxLife = 10 * time.Hour
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var last error
	for range 3 { // a port picked free may be taken before krb5kdc binds it
		r, err := start(dir, o)
		if err == nil {
			return r, nil
		}
		last = err
	}
	return nil, last
}

func start(dir string, o Options) (*Realm, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	return startOn(dir, o, port)
}

func startOn(dir string, o Options, port int) (*Realm, error) {
	r := &Realm{Name: o.Realm, Dir: dir, KDC: "127.0.0.1:" + strconv.Itoa(port),
		Krb5Conf: filepath.Join(dir, "krb5.conf"), kdcConf: filepath.Join(dir, "kdc.conf"),
		log: filepath.Join(dir, "kdc.log")}
	db := filepath.Join(dir, "principal")
	for _, f := range []string{db, db + ".ok", db + ".kadm5", db + ".kadm5.lock", filepath.Join(dir, "stash")} {
		_ = os.Remove(f)
	}
	krb5 := fmt.Sprintf(`[libdefaults]
	default_realm = %[1]s
	dns_lookup_kdc = false
	dns_lookup_realm = false
	rdns = false
	ticket_lifetime = 10h
	udp_preference_limit = 1
	default_tkt_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
	default_tgs_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96
	permitted_enctypes = aes256-cts-hmac-sha1-96 aes128-cts-hmac-sha1-96

[realms]
	%[1]s = {
		kdc = %[2]s
	}

[domain_realm]
	localhost = %[1]s
	127.0.0.1 = %[1]s
`, o.Realm, r.KDC)
	// Loopback only: the KDC's default, every address, collides with more.
	kdc := fmt.Sprintf(`[kdcdefaults]
	kdc_listen = 127.0.0.1:%[2]d
	kdc_tcp_listen = 127.0.0.1:%[2]d

[realms]
	%[1]s = {
		database_name = %[3]s
		key_stash_file = %[4]s
		acl_file = %[5]s
		max_life = %[6]ds
		max_renewable_life = %[6]ds
		master_key_type = aes256-cts-hmac-sha1-96
		default_principal_flags = +preauth
		supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
	}

[logging]
	kdc = FILE:%[7]s
	admin_server = FILE:%[7]s
	default = FILE:%[7]s
`, o.Realm, port, db, filepath.Join(dir, "stash"), filepath.Join(dir, "kadm5.acl"), int(o.MaxLife.Seconds()), r.log)
	for f, s := range map[string]string{r.Krb5Conf: krb5, r.kdcConf: kdc, filepath.Join(dir, "kadm5.acl"): ""} {
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			return nil, err
		}
	}
	if err := r.run("kdb5_util", "-r", o.Realm, "create", "-s", "-P", "palink-test-master"); err != nil {
		return nil, err
	}
	args := []string{"-n", "-r", o.Realm, "-P", filepath.Join(dir, "kdc.pid")}
	if o.ClockOffset != 0 {
		args = append(args, "-T", strconv.Itoa(int(o.ClockOffset.Seconds())))
	}
	bin, err := lookPath("krb5kdc")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = r.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start krb5kdc: %w", err)
	}
	r.cmd, r.exited = cmd, make(chan struct{})
	go func() { _ = cmd.Wait(); close(r.exited) }()
	// Ready is when krb5kdc says it commenced operation, not when its port
	// answers: a port picked free may have been taken since by another
	// process, which would then answer for it (and never reply) while
	// krb5kdc, unable to bind, exits.
	deadline := time.Now().Add(15 * time.Second)
	for {
		select {
		case <-r.exited:
			log, _ := os.ReadFile(r.log)
			return nil, fmt.Errorf("krb5kdc exited: %s %s", strings.TrimSpace(out.String()), lastLines(string(log), 5))
		default:
		}
		if log, _ := os.ReadFile(r.log); commenced(string(log), cmd.Process.Pid) {
			return r, nil
		}
		if time.Now().After(deadline) {
			r.Stop()
			return nil, fmt.Errorf("krb5kdc did not start serving on %s within 15s", r.KDC)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// commenced reports whether the KDC log holds krb5kdc[pid]'s line that it
// set up its sockets and serves.
func commenced(log string, pid int) bool {
	me := fmt.Sprintf("krb5kdc[%d]", pid)
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, me) && strings.Contains(l, "commencing operation") {
			return true
		}
	}
	return false
}

// env is the environment of the realm's programs: its own configuration,
// never the machine's.
func (r *Realm) env() []string {
	return append(os.Environ(), "KRB5_CONFIG="+r.Krb5Conf, "KRB5_KDC_PROFILE="+r.kdcConf)
}

func (r *Realm) run(name string, args ...string) error {
	bin, err := lookPath(name)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = r.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Kadmin runs one kadmin.local query on the realm's database.
func (r *Realm) Kadmin(query string) error {
	return r.run("kadmin.local", "-r", r.Name, "-q", query)
}

// Principal is name@REALM.
func (r *Realm) Principal(name string) string { return name + "@" + r.Name }

// AddPrincipal creates a principal (user or service/host) with a random
// key and writes its keytab (mode 0600) to Dir/<name>.keytab, with any
// "/" in name as "_"; it returns the keytab's path. maxLife, when not 0,
// caps the principal's tickets.
func (r *Realm) AddPrincipal(name string, maxLife time.Duration) (string, error) {
	q := "addprinc -randkey"
	if maxLife > 0 {
		q += fmt.Sprintf(` -maxlife "%d seconds" -maxrenewlife "%d seconds"`, int(maxLife.Seconds()), int(maxLife.Seconds()))
	}
	if err := r.Kadmin(q + " " + r.Principal(name)); err != nil {
		return "", err
	}
	kt := filepath.Join(r.Dir, strings.ReplaceAll(name, "/", "_")+".keytab")
	_ = os.Remove(kt)
	if err := r.Kadmin("ktadd -k " + kt + " -norandkey " + r.Principal(name)); err != nil {
		return "", err
	}
	return kt, os.Chmod(kt, 0o600)
}

// MustAddPrincipal is AddPrincipal that fails t.
func (r *Realm) MustAddPrincipal(t TB, name string, maxLife time.Duration) string {
	t.Helper()
	kt, err := r.AddPrincipal(name, maxLife)
	if err != nil {
		t.Fatal(err)
	}
	return kt
}

// Kinit fills the credential cache ccache with a ticket of principal
// from its keytab, as a user's `kinit -kt` would.
func (r *Realm) Kinit(t TB, name, keytab, ccache string) {
	t.Helper()
	if _, err := lookPath("kinit"); err != nil {
		msg := "kinit not installed: apt-get install krb5-user"
		if os.Getenv(EnvRequire) == "1" {
			t.Fatalf("%s (%s=1)", msg, EnvRequire)
		}
		t.Skip(msg)
	}
	if err := r.run("kinit", "-c", "FILE:"+ccache, "-kt", keytab, r.Principal(name)); err != nil {
		t.Fatal(err)
	}
}

// Log is the KDC's log so far (one line per AS and TGS request).
func (r *Realm) Log() string {
	b, _ := os.ReadFile(r.log)
	return string(b)
}

// Stop kills the KDC; the files stay until their directory goes.
func (r *Realm) Stop() {
	r.mu.Lock()
	cmd, exited := r.cmd, r.exited
	r.cmd = nil
	r.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-exited
}

func freePort() (int, error) {
	// The KDC binds UDP and TCP on one port: find one free for both.
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		u, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(port))
		l.Close()
		if err != nil {
			continue
		}
		u.Close()
		return port, nil
	}
	return 0, errors.New("no port free for both TCP and UDP")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
