package yarn_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/palink/palink/internal/krbtest"
	"github.com/palink/palink/yarn"
	"github.com/palink/palink/yarn/sim"
)

// secureBed is a real KDC and a simulated cluster in secure mode: the RM
// requires SPNEGO for HTTP/localhost@PALINK.TEST and enforces ACLs; ops
// owns the applications, viewer owns none.
type secureBed struct {
	realm    *krbtest.Realm
	sim      *sim.Cluster
	rm       []string
	httpKT   string
	opsKT    string
	viewerKT string
	tls      *sim.TLS // the RMs' HTTPS, nil without
}

type bedOptions struct {
	opsLife      time.Duration // 0: the realm's
	maxClockSkew time.Duration
	proxyUsers   map[string][]string
	realm        krbtest.Options
	tls          bool // the RMs serve HTTPS
}

func startSecure(t *testing.T, o bedOptions) *secureBed {
	t.Helper()
	r := krbtest.Start(t, o.realm)
	b := &secureBed{realm: r}
	b.httpKT = r.MustAddPrincipal(t, "HTTP/localhost", 0)
	b.opsKT = r.MustAddPrincipal(t, "ops", o.opsLife)
	b.viewerKT = r.MustAddPrincipal(t, "viewer", 0)
	var tls *sim.TLS
	if o.tls {
		var err error
		if tls, err = sim.NewTLS(); err != nil {
			t.Fatal(err)
		}
		b.tls = tls
	}
	b.sim = startSim(t, sim.Options{Seed: 7, Speed: 20, User: "ops", TLS: tls,
		Kerberos: &sim.Kerberos{Keytab: b.httpKT, MaxClockSkew: o.maxClockSkew, ProxyUsers: o.proxyUsers}})
	b.rm = b.sim.RMURLs()
	return b
}

func (b *secureBed) login(t *testing.T, user, kt string) *yarn.Kerberos {
	t.Helper()
	k, err := yarn.NewKerberos(yarn.KerberosConfig{Principal: b.realm.Principal(user), Keytab: kt, Krb5Conf: b.realm.Krb5Conf})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func (b *secureBed) rmAs(t *testing.T, k *yarn.Kerberos) *yarn.ResourceManager {
	t.Helper()
	o := quickKerberos()
	o.Kerberos = k
	rm, err := yarn.NewResourceManager(b.rm, o)
	if err != nil {
		t.Fatal(err)
	}
	return rm
}

// runningApp submits a per-job application as ops and waits until it runs.
func (b *secureBed) runningApp(t *testing.T) string {
	t.Helper()
	s, err := b.sim.Submit(bounded(t), sim.SubmitRequest{Name: "orders-enrich", Mode: sim.ModePerJob})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		a, err := b.sim.App(s.AppID)
		if err != nil {
			t.Fatal(err)
		}
		if a.State == "RUNNING" && a.JMAddress != "" {
			return s.AppID
		}
		if time.Now().After(deadline) {
			t.Fatalf("application %s is %s after 10s", s.AppID, a.State)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestKerberosKeytabListsAndKills: with ops's keytab, palink lists the
// applications, reads the JobManager through the RM's web proxy, and kills
// an application of ops's; the RM answered every request signed.
func TestKerberosKeytabListsAndKills(t *testing.T) {
	b := startSecure(t, bedOptions{})
	app := b.runningApp(t)
	krb := b.login(t, "ops", b.opsKT)
	rm := b.rmAs(t, krb)
	apps, err := rm.Applications(bounded(t), yarn.AppFilter{})
	if err != nil {
		t.Fatalf("list applications as ops: %v", err)
	}
	if len(apps) == 0 {
		t.Fatal("no applications listed")
	}
	a, err := rm.Application(bounded(t), app)
	if err != nil {
		t.Fatal(err)
	}
	o := quickKerberos()
	o.Kerberos = krb
	root, err := yarn.NewFlink(rm.ProxyURL(""), "", o)
	if err != nil {
		t.Fatal(err)
	}
	jm, err := root.ForApplication(a, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(jm.ReadBase(), "localhost") {
		t.Fatalf("read base %s does not go through the RM's proxy at localhost", jm.ReadBase())
	}
	if _, err := jm.Jobs(bounded(t)); err != nil {
		t.Fatalf("list jobs through the RM's web proxy with Kerberos: %v", err)
	}
	final, err := rm.Kill(bounded(t), app)
	if err != nil {
		t.Fatalf("kill %s as ops: %v", app, err)
	}
	if final.State != "KILLED" {
		t.Errorf("state after kill %s", final.State)
	}
	if n := krb.Logins(); n != 1 {
		t.Errorf("%d logins for a few requests, want 1", n)
	}
}

// TestKerberosLearnsNegotiateFromA401: a client that did not know the host
// wants SPNEGO gets the 401 Negotiate, answers it with a ticket and signs
// every later request at once.
func TestKerberosLearnsNegotiateFromA401(t *testing.T) {
	b := startSecure(t, bedOptions{})
	o := quickKerberos()
	o.Kerberos = b.login(t, "ops", b.opsKT)
	// A Flink client alone: it never heard of the RM's hosts.
	f, err := yarn.NewFlink(b.rm[0]+"/proxy/"+b.runningApp(t)+"/", "", o)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := f.Jobs(bounded(t)); err != nil {
			t.Fatalf("jobs through the proxy: %v", err)
		}
	}
}

// TestKerberosRequiredWithoutConfig: a cluster configured without Kerberos
// gets a message that says to configure it, not a bare 401.
func TestKerberosRequiredWithoutConfig(t *testing.T) {
	b := startSecure(t, bedOptions{})
	o := quickKerberos()
	o.SimpleAuthUser = "ops"
	rm, err := yarn.NewResourceManager(b.rm, o)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rm.Applications(bounded(t), yarn.AppFilter{})
	if !errors.Is(err, yarn.ErrKerberosRequired) || !errors.Is(err, yarn.ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrKerberosRequired", err)
	}
	if want := "this cluster requires Kerberos; add auth.kerberos"; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q lacks %q", err, want)
	}
}

// TestKerberosACLRefusesKill: viewer may not modify ops's application: the
// kill fails with a message naming the user, the action and the
// application, and the application still runs.
func TestKerberosACLRefusesKill(t *testing.T) {
	b := startSecure(t, bedOptions{})
	app := b.runningApp(t)
	rm := b.rmAs(t, b.login(t, "viewer", b.viewerKT))
	_, err := rm.Kill(bounded(t), app)
	var acl *yarn.ACLError
	if !errors.As(err, &acl) || !errors.Is(err, yarn.ErrUnauthorized) {
		t.Fatalf("err = %v (%T), want an ACLError", err, err)
	}
	if want := "user viewer may not kill application " + app + ": YARN ACL"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want it to start %q", err, want)
	}
	a, err := b.sim.App(app)
	if err != nil || a.State != "RUNNING" {
		t.Errorf("after the refused kill: %+v, %v; want it RUNNING", a, err)
	}
}

// TestKerberosDoAs: the RM acts as the doAs user when palink's principal
// may proxy for it, and refuses a user it may not proxy for.
func TestKerberosDoAs(t *testing.T) {
	b := startSecure(t, bedOptions{proxyUsers: map[string][]string{"ops": {"viewer"}}})
	app := b.runningApp(t)
	rm := b.rmAs(t, b.login(t, "ops", b.opsKT))
	// Acting as viewer, ops loses its own right to kill.
	_, err := rm.As("viewer").Kill(bounded(t), app)
	if err == nil || !strings.HasPrefix(err.Error(), "user viewer may not kill application "+app) {
		t.Fatalf("kill as viewer through doAs: %v", err)
	}
	_, err = rm.As("mallory").Applications(bounded(t), yarn.AppFilter{})
	if !errors.Is(err, yarn.ErrUnauthorized) || !strings.Contains(err.Error(), "User: ops is not allowed to impersonate mallory") {
		t.Fatalf("doAs mallory: %v", err)
	}
	if a, _ := b.sim.App(app); a.State != "RUNNING" {
		t.Fatalf("application %s is %s", app, a.State)
	}
	if _, err := rm.Kill(bounded(t), app); err != nil {
		t.Fatalf("kill as ops itself: %v", err)
	}
}

// TestKerberosCCache: tickets from the user's kinit work; once they have
// expired the error says when and what to run.
func TestKerberosCCache(t *testing.T) {
	b := startSecure(t, bedOptions{opsLife: 4 * time.Second})
	cc := filepath.Join(t.TempDir(), "krb5cc_ops")
	b.realm.Kinit(t, "ops", b.opsKT, cc)
	krb, err := yarn.NewKerberos(yarn.KerberosConfig{Principal: b.realm.Principal("ops"), CCache: cc, Krb5Conf: b.realm.Krb5Conf})
	if err != nil {
		t.Fatal(err)
	}
	rm := b.rmAs(t, krb)
	if _, err := rm.Applications(bounded(t), yarn.AppFilter{}); err != nil {
		t.Fatalf("list with the ccache: %v", err)
	}
	time.Sleep(4500 * time.Millisecond)
	_, err = rm.Applications(bounded(t), yarn.AppFilter{})
	if !errors.Is(err, yarn.ErrTicketExpired) {
		t.Fatalf("err = %v, want ErrTicketExpired", err)
	}
	if !strings.Contains(err.Error(), "ticket expired at ") || !strings.Contains(err.Error(), "; run kinit ops@PALINK.TEST") {
		t.Errorf("message %q does not say when it expired and what to run", err)
	}
	// The user runs kinit again: palink picks the new ticket up.
	b.realm.Kinit(t, "ops", b.opsKT, cc)
	if _, err := rm.Applications(bounded(t), yarn.AppFilter{}); err != nil {
		t.Fatalf("after a new kinit: %v", err)
	}
}

// TestKerberosKeytabRenewsBeforeExpiry: tickets live 4s and the RM
// tolerates no skew past their end; requests every 100ms for 9s all
// succeed, because palink logs in again from the keytab before each
// ticket's 90 %.
func TestKerberosKeytabRenewsBeforeExpiry(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for tickets to expire")
	}
	b := startSecure(t, bedOptions{opsLife: 4 * time.Second, maxClockSkew: 500 * time.Millisecond})
	krb := b.login(t, "ops", b.opsKT)
	rm := b.rmAs(t, krb)
	end := time.Now().Add(9 * time.Second)
	n := 0
	for time.Now().Before(end) {
		if _, err := rm.ClusterInfo(bounded(t)); err != nil {
			t.Fatalf("request %d at %s: %v", n, time.Now().Format("15:04:05.000"), err)
		}
		n++
		time.Sleep(100 * time.Millisecond)
	}
	if l := krb.Logins(); l < 3 {
		t.Errorf("%d logins over 9s of 4s tickets, want at least 3", l)
	}
	if c := strings.Count(b.realm.Log(), "AS_REQ"); c < 3 {
		t.Errorf("the KDC saw %d AS_REQ, want at least 3", c)
	}
}

// TestKerberosErrors: each failure a person meets says what happened and
// what to do about it.
func TestKerberosErrors(t *testing.T) {
	krbtest.Require(t)
	cases := []struct {
		name string
		run  func(t *testing.T) error
		kind error
		want string
	}{
		{"clock skew", func(t *testing.T) error {
			b := startSecure(t, bedOptions{realm: krbtest.Options{ClockOffset: time.Hour}})
			_, err := b.rmAs(t, b.login(t, "ops", b.opsKT)).ClusterInfo(bounded(t))
			return err
		}, yarn.ErrClockSkew, "kerberos: log in as ops@PALINK.TEST: clock skew too great; this host's clock and the KDC's differ"},
		{"unknown principal", func(t *testing.T) error {
			b := startSecure(t, bedOptions{})
			kt := filepath.Join(t.TempDir(), "ghost.keytab")
			writeKeytab(t, kt, "ghost", "PALINK.TEST")
			_, err := b.rmAs(t, b.login(t, "ghost", kt)).ClusterInfo(bounded(t))
			return err
		}, yarn.ErrUnknownPrincipal, "the KDC of PALINK.TEST has no principal ghost@PALINK.TEST"},
		{"wrong keytab", func(t *testing.T) error {
			b := startSecure(t, bedOptions{})
			if err := b.realm.Kadmin("cpw -randkey " + b.realm.Principal("ops")); err != nil {
				t.Fatal(err)
			}
			_, err := b.rmAs(t, b.login(t, "ops", b.opsKT)).ClusterInfo(bounded(t))
			return err
		}, yarn.ErrWrongKey, "holds an old or another key of ops@PALINK.TEST"},
		{"principal not in keytab", func(t *testing.T) error {
			b := startSecure(t, bedOptions{})
			_, err := yarn.NewKerberos(yarn.KerberosConfig{Principal: b.realm.Principal("ops"), Keytab: b.viewerKT, Krb5Conf: b.realm.Krb5Conf})
			return err
		}, yarn.ErrWrongKey, "has no key for ops@PALINK.TEST"},
		{"keytab readable by others", func(t *testing.T) error {
			b := startSecure(t, bedOptions{})
			if err := os.Chmod(b.opsKT, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := yarn.NewKerberos(yarn.KerberosConfig{Principal: b.realm.Principal("ops"), Keytab: b.opsKT, Krb5Conf: b.realm.Krb5Conf})
			return err
		}, yarn.ErrKerberosConfig, "is readable by others (mode 0644): anyone who reads it can act as ops@PALINK.TEST; chmod 600 it"},
		{"missing krb5.conf", func(t *testing.T) error {
			_, err := yarn.NewKerberos(yarn.KerberosConfig{Principal: "ops@PALINK.TEST", CCache: "/tmp/none", Krb5Conf: "/nonexistent/krb5.conf"})
			return err
		}, yarn.ErrKerberosConfig, "Kerberos configuration /nonexistent/krb5.conf is missing: install the site's krb5.conf there or set auth.kerberos.krb5_conf"},
		{"no ticket in the ccache", func(t *testing.T) error {
			b := startSecure(t, bedOptions{})
			k, err := yarn.NewKerberos(yarn.KerberosConfig{Principal: "ops@PALINK.TEST", CCache: filepath.Join(t.TempDir(), "cc"), Krb5Conf: b.realm.Krb5Conf})
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.rmAs(t, k).ClusterInfo(bounded(t))
			return err
		}, yarn.ErrTicketExpired, "; run kinit ops@PALINK.TEST"},
		{"server by address, not by name", func(t *testing.T) error {
			b := startSecure(t, bedOptions{})
			o := quickKerberos()
			o.Kerberos = b.login(t, "ops", b.opsKT)
			rm, err := yarn.NewResourceManager([]string{strings.Replace(b.rm[0], "localhost", "127.0.0.1", 1)}, o)
			if err != nil {
				t.Fatal(err)
			}
			_, err = rm.ClusterInfo(bounded(t))
			return err
		}, yarn.ErrUnknownPrincipal, "get a ticket for HTTP/127.0.0.1@PALINK.TEST as ops@PALINK.TEST: principal unknown to the KDC"},
		{"RM's keytab out of date", func(t *testing.T) error {
			b := startSecure(t, bedOptions{})
			if err := b.realm.Kadmin("cpw -randkey HTTP/localhost@PALINK.TEST"); err != nil {
				t.Fatal(err)
			}
			_, err := b.rmAs(t, b.login(t, "ops", b.opsKT)).ClusterInfo(bounded(t))
			return err
		}, yarn.ErrKerberos, "the server refused the Kerberos ticket of ops@PALINK.TEST: GSSException"},
		{"KDC down", func(t *testing.T) error {
			b := startSecure(t, bedOptions{})
			b.realm.Stop()
			_, err := b.rmAs(t, b.login(t, "ops", b.opsKT)).ClusterInfo(bounded(t))
			return err
		}, yarn.ErrKDCUnreachable, "no KDC of PALINK.TEST answered"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(t)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("err = %v, want %v", err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("message %q lacks %q", err, tc.want)
			}
		})
	}
}

// writeKeytab writes a keytab with a key of user@realm that no KDC knows.
func writeKeytab(t *testing.T, path, user, realm string) {
	t.Helper()
	kt := keytab.New()
	if err := kt.AddEntry(user, realm, "pw", time.Now(), 1, etypeID.AES256_CTS_HMAC_SHA1_96); err != nil {
		t.Fatal(err)
	}
	b, err := kt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestKerberosOverTLS: an RM that serves HTTPS with the site's CA and
// requires SPNEGO: with the CA file, palink lists, reads through the web
// proxy and kills; without it, the error names the host and says to set
// tls.ca_file.
func TestKerberosOverTLS(t *testing.T) {
	b := startSecure(t, bedOptions{tls: true})
	if !strings.HasPrefix(b.rm[0], "https://localhost:") {
		t.Fatalf("RM at %s", b.rm[0])
	}
	app := b.runningApp(t)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, b.tls.CACertPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	krb := b.login(t, "ops", b.opsKT)
	o := quickKerberos()
	o.Kerberos = krb
	noCA, err := yarn.NewResourceManager(b.rm, o)
	if err != nil {
		t.Fatal(err)
	}
	_, err = noCA.Applications(bounded(t), yarn.AppFilter{})
	host := strings.TrimPrefix(b.rm[0], "https://")
	if !errors.Is(err, yarn.ErrTLS) || !strings.Contains(err.Error(), "the certificate of "+host+" is not signed by a CA palink trusts: set tls.ca_file") {
		t.Fatalf("without the CA file: %v", err)
	}
	o.CAFile = ca
	rm, err := yarn.NewResourceManager(b.rm, o)
	if err != nil {
		t.Fatal(err)
	}
	a, err := rm.Application(bounded(t), app)
	if err != nil {
		t.Fatalf("application over https with Kerberos: %v", err)
	}
	root, err := yarn.NewFlink(rm.ProxyURL(""), "", o)
	if err != nil {
		t.Fatal(err)
	}
	jm, err := root.ForApplication(a, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(jm.ReadBase(), "https://localhost:") {
		t.Fatalf("read base %s", jm.ReadBase())
	}
	if _, err := jm.Jobs(bounded(t)); err != nil {
		t.Fatalf("jobs through the https proxy: %v", err)
	}
	if _, err := rm.Kill(bounded(t), app); err != nil {
		t.Fatalf("kill over https: %v", err)
	}
}

// quickKerberos is quick with room for the Kerberos exchanges a request
// makes first (the KDC, a process of its own, answers slowly on a loaded
// machine): these tests are about what a failure says, not how fast.
func quickKerberos() yarn.Options {
	o := quick()
	o.Timeout = 5 * time.Second
	return o
}
