package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// writeKeytab writes a keytab holding a key of principal (user@REALM).
func writeKeytab(t *testing.T, path, principal string, mode os.FileMode) {
	t.Helper()
	name, realm, _ := strings.Cut(principal, "@")
	kt := keytab.New()
	if err := kt.AddEntry(name, realm, "pw", time.Now(), 1, etypeID.AES256_CTS_HMAC_SHA1_96); err != nil {
		t.Fatal(err)
	}
	b, err := kt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestKerberosConfigProblems: each mistake in auth.kerberos is reported at
// its line with what to do, before palink tries to log in.
func TestKerberosConfigProblems(t *testing.T) {
	dir := t.TempDir()
	krb5 := filepath.Join(dir, "krb5.conf")
	if err := os.WriteFile(krb5, []byte("[libdefaults]\n default_realm = EXAMPLE.COM\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "ops.keytab")
	writeKeytab(t, good, "ops@EXAMPLE.COM", 0o600)
	open := filepath.Join(dir, "open.keytab")
	writeKeytab(t, open, "ops@EXAMPLE.COM", 0o644)
	junk := filepath.Join(dir, "junk.keytab")
	if err := os.WriteFile(junk, []byte("not a keytab"), 0o600); err != nil {
		t.Fatal(err)
	}
	cluster := func(kerberos string) string {
		return "clusters:\n  - name: a\n    rm: [http://x:1]\n    sql_gateway: http://g:1\n    auth:\n      kerberos:\n" + kerberos
	}
	cases := []struct {
		name, kerberos, want string
	}{
		{"missing krb5.conf", "        principal: ops@EXAMPLE.COM\n        keytab: " + good + "\n        krb5_conf: " + dir + "/nope.conf\n",
			"c.yaml:9: error: cluster \"a\": Kerberos configuration " + dir + "/nope.conf is missing"},
		{"keytab readable by others", "        principal: ops@EXAMPLE.COM\n        keytab: " + open + "\n        krb5_conf: " + krb5 + "\n",
			"c.yaml:8: error: cluster \"a\": keytab " + open + " is readable by others (mode 0644)"},
		{"keytab missing", "        principal: ops@EXAMPLE.COM\n        keytab: " + dir + "/none.keytab\n        krb5_conf: " + krb5 + "\n",
			"keytab " + dir + "/none.keytab: stat"},
		{"not a keytab", "        principal: ops@EXAMPLE.COM\n        keytab: " + junk + "\n        krb5_conf: " + krb5 + "\n",
			"keytab " + junk + ": cannot read it"},
		{"principal not in keytab", "        principal: viewer@EXAMPLE.COM\n        keytab: " + good + "\n        krb5_conf: " + krb5 + "\n",
			"c.yaml:8: error: cluster \"a\": keytab " + good + " has no key for viewer@EXAMPLE.COM (it has ops@EXAMPLE.COM)"},
		{"no principal", "        keytab: " + good + "\n        krb5_conf: " + krb5 + "\n",
			"auth.kerberos needs principal"},
		{"principal without realm", "        principal: ops\n        keytab: " + good + "\n        krb5_conf: " + krb5 + "\n",
			"c.yaml:7: error: cluster \"a\": auth.kerberos.principal \"ops\" has no realm"},
		{"keytab and ccache", "        principal: ops@EXAMPLE.COM\n        keytab: " + good + "\n        ccache: /tmp/cc\n        krb5_conf: " + krb5 + "\n",
			"give keytab or ccache, not both"},
		{"service with host", "        principal: ops@EXAMPLE.COM\n        keytab: " + good + "\n        krb5_conf: " + krb5 + "\n        service: HTTP/rm1\n",
			"auth.kerberos.service \"HTTP/rm1\""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(cluster(tc.kerberos)))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}

	t.Run("valid", func(t *testing.T) {
		c, _, err := Parse("c.yaml", []byte(cluster("        principal: ops@EXAMPLE.COM\n        keytab: "+good+"\n        krb5_conf: "+krb5+"\n")))
		if err != nil {
			t.Fatal(err)
		}
		k := c.Clusters[0].Auth.Kerberos
		if k.Service != "HTTP" || k.CCache != "" || k.Keytab != good {
			t.Errorf("defaults: %+v", k)
		}
	})
	t.Run("group-readable keytab", func(t *testing.T) {
		grp := filepath.Join(dir, "group.keytab")
		writeKeytab(t, grp, "ops@EXAMPLE.COM", 0o640)
		_, ps, err := Parse("c.yaml", []byte(cluster("        principal: ops@EXAMPLE.COM\n        keytab: "+grp+"\n        krb5_conf: "+krb5+"\n")))
		if err != nil {
			t.Fatal(err)
		}
		want := "c.yaml:8: warning: cluster \"a\": keytab " + grp + " is readable by its group (mode 0640)"
		found := false
		for _, p := range ps {
			found = found || strings.HasPrefix(p.Error(), want)
		}
		if !found {
			t.Errorf("warnings %v lack %q", ps, want)
		}
	})
	t.Run("ccache by default", func(t *testing.T) {
		t.Setenv("KRB5CCNAME", "FILE:"+dir+"/cc")
		c, _, err := Parse("c.yaml", []byte(cluster("        principal: ops@EXAMPLE.COM\n        krb5_conf: "+krb5+"\n")))
		if err != nil {
			t.Fatal(err)
		}
		if k := c.Clusters[0].Auth.Kerberos; k.CCache != dir+"/cc" {
			t.Errorf("ccache %q, want %s/cc from KRB5CCNAME", k.CCache, dir)
		}
	})
}

// TestKerberosTeamIdentities: auth.teams gives a team its own principal on
// a cluster; what is wrong with one is said at its line, in its words.
func TestKerberosTeamIdentities(t *testing.T) {
	dir := t.TempDir()
	krb5 := filepath.Join(dir, "krb5.conf")
	if err := os.WriteFile(krb5, []byte("[libdefaults]\n default_realm = EXAMPLE.COM\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ops, pay := filepath.Join(dir, "ops.keytab"), filepath.Join(dir, "pay.keytab")
	writeKeytab(t, ops, "ops@EXAMPLE.COM", 0o600)
	writeKeytab(t, pay, "payments@EXAMPLE.COM", 0o600)
	own := "      kerberos:\n        principal: ops@EXAMPLE.COM\n        keytab: " + ops + "\n        krb5_conf: " + krb5 + "\n"
	cluster := func(auth string) string {
		return "clusters:\n  - name: a\n    rm: [http://x:1]\n    auth:\n" + auth
	}
	cases := []struct{ name, auth, want string }{
		{"teams without the cluster's own", "      teams:\n        payments:\n          principal: payments@EXAMPLE.COM\n          keytab: " + pay + "\n",
			"c.yaml:5: error: cluster \"a\": auth.teams needs auth.kerberos"},
		{"neither keytab nor ccache", own + "      teams:\n        payments:\n          principal: payments@EXAMPLE.COM\n",
			"c.yaml:10: error: cluster \"a\": auth.teams.payments needs keytab or ccache"},
		{"principal not in the team's keytab", own + "      teams:\n        payments:\n          principal: pay@EXAMPLE.COM\n          keytab: " + pay + "\n",
			"c.yaml:12: error: cluster \"a\": keytab " + pay + " has no key for pay@EXAMPLE.COM (it has payments@EXAMPLE.COM)"},
		{"principal without realm", own + "      teams:\n        payments:\n          principal: payments\n          keytab: " + pay + "\n",
			"cluster \"a\": auth.teams.payments.principal \"payments\" has no realm"},
		{"no team name", own + "      teams:\n        \"pay ments\":\n          principal: payments@EXAMPLE.COM\n          keytab: " + pay + "\n",
			"auth.teams: \"pay ments\" is no team name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(cluster(tc.auth)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("valid, inheriting krb5.conf and service", func(t *testing.T) {
		c, _, err := Parse("c.yaml", []byte(cluster(own+"      teams:\n        payments:\n          principal: payments@EXAMPLE.COM\n          keytab: "+pay+"\n")))
		if err != nil {
			t.Fatal(err)
		}
		k := c.Clusters[0].Auth.Teams["payments"]
		if k.Krb5Conf != krb5 || k.Service != "HTTP" || k.Keytab != pay || k.CCache != "" {
			t.Errorf("team identity %+v", k)
		}
	})
}

// TestTLSClientCertNeedsKey: a client certificate without its key (or the
// reverse) is an error, not a TLS handshake failure later.
func TestTLSClientCertNeedsKey(t *testing.T) {
	dir := t.TempDir()
	cert := filepath.Join(dir, "c.pem")
	if err := os.WriteFile(cert, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := Parse("c.yaml", []byte("clusters:\n  - name: a\n    rm: [https://x:1]\n    tls:\n      cert_file: "+cert+"\n"))
	if err == nil || !strings.Contains(err.Error(), "c.yaml:4: error: cluster \"a\": tls.cert_file and tls.key_file go together") {
		t.Fatalf("err = %v", err)
	}
}
