package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/internal/krbtest"
)

// TestSimKerberosCommand runs `palink sim --tls --kerberos DIR --config-out
// CFG`: a real KDC in DIR, an RM on HTTPS that requires SPNEGO, and a
// config that trusts its CA and logs in as ops from its keytab, with which `config check --connect` reports each
// endpoint's auth and `jobs` works; the same cluster without Kerberos in
// the config is told what to add.
func TestSimKerberosCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	krbtest.Require(t)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "secure.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"sim", "--addr", "127.0.0.1:0", "--jobs", "3", "--seed", "5", "--tls", "--kerberos", filepath.Join(dir, "realm"), "--config-out", cfgPath})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	var cfg *config.Config
	for deadline := time.Now().Add(20 * time.Second); cfg == nil; {
		if c, _, err := config.Load(cfgPath); err == nil {
			cfg = c
		} else if time.Now().After(deadline) {
			t.Fatalf("no config written: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	k := cfg.Clusters[0].Auth.Kerberos
	if k == nil || k.Principal != "ops@PALINK.TEST" || !strings.HasPrefix(k.Keytab, dir) {
		t.Fatalf("config authenticates with %+v", k)
	}
	e := &cliEnv{t: t, config: cfgPath}
	got := e.mustRun("config", "check", "--connect")
	for _, want := range []string{"sim  rm            https://localhost:", "auth kerberos ops@PALINK.TEST  tls verified  ok", "sim  sql gateway"} {
		if !strings.Contains(got, want) {
			t.Errorf("config check --connect lacks %q:\n%s", want, got)
		}
	}
	var checks []struct {
		Endpoint, Auth, TLS string
		OK                  bool
	}
	if err := json.Unmarshal([]byte(e.mustRun("config", "check", "--connect", "-o", "json")), &checks); err != nil || len(checks) < 2 {
		t.Fatalf("-o json: %v %+v", err, checks)
	}
	if checks[0].Endpoint != "rm" || checks[0].Auth != "kerberos ops@PALINK.TEST" || !checks[0].OK {
		t.Errorf("first endpoint %+v", checks[0])
	}
	e.mustRun("jobs")

	// A team with a principal of its own: the RM is tried as it too.
	text, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	teams := string(text)
	at := strings.Index(teams, "        krb5_conf: ")
	eol := at + strings.Index(teams[at:], "\n") + 1
	teams = teams[:eol] + "      teams:\n        payments:\n          principal: viewer@PALINK.TEST\n          keytab: " +
		filepath.Join(dir, "realm", "viewer.keytab") + "\n" + teams[eol:]
	got = (&cliEnv{t: t, config: writeTemp(t, "teams.yaml", teams)}).mustRun("config", "check", "--connect")
	if want := "auth kerberos viewer@PALINK.TEST  tls verified  ok"; !strings.Contains(got, "sim  rm as team payments") || !strings.Contains(got, want) {
		t.Errorf("config check --connect with a team's principal lacks its line (%q):\n%s", want, got)
	}

	// The same cluster, configured for simple authentication.
	s := string(text)
	i, j := strings.Index(s, "    # The RM and its web proxy"), strings.Index(s, "    # The RMs serve HTTPS")
	plain := &cliEnv{t: t, config: writeTemp(t, "plain.yaml", s[:i]+"    user: ops\n"+s[j:])}
	out2, err := plain.run(context.Background(), "config", "check", "--connect")
	if err == nil || exitCode(err) != 1 {
		t.Fatalf("config check --connect on the plain config: %v\n%s", err, out2)
	}
	if want := "auth simple ops  tls verified  FAILED: GET /ws/v1/cluster/info on localhost:"; !strings.Contains(out2, want) ||
		!strings.Contains(out2, "this cluster requires Kerberos; add auth.kerberos") {
		t.Errorf("plain config's check:\n%s", out2)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("palink sim: %v", err)
	}
}

// TestSimKerberosWithoutKDC: without krb5kdc, `palink sim --kerberos`
// says what to install and fails.
func TestSimKerberosWithoutKDC(t *testing.T) {
	t.Setenv(krbtest.EnvPath, t.TempDir())
	_, _, err := runCLI(t, "sim", "--addr", "127.0.0.1:0", "--kerberos", t.TempDir())
	if err == nil || exitCode(err) == 0 {
		t.Fatalf("palink sim --kerberos without a KDC: %v", err)
	}
	if want := "not installed: apt-get install krb5-kdc krb5-admin-server"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
}
