package config

import (
	"strings"
	"testing"
	"time"
)

// TestEtcdStore: a store on etcd with TLS and a password from the
// environment; the problems of its URL and options at their lines.
func TestEtcdStore(t *testing.T) {
	t.Setenv("PALINK_TEST_ETCD_PW", "hunter2")
	dir := t.TempDir()
	base := "clusters:\n  - name: a\n    rm: [http://x:1]\n    sql_gateway: http://g:1\n"
	c, warns, err := Parse("c.yaml", []byte("store: etcd://10.0.0.1:2379,10.0.0.2/palink\netcd:\n  tls:\n    ca_file: "+dir+
		"\n  auth:\n    user: palink\n    password_env: PALINK_TEST_ETCD_PW\n  dial_timeout: 2s\n"+base))
	if err != nil || len(warns) != 0 {
		t.Fatalf("%v %v", err, warns)
	}
	if !c.IsEtcd() || c.Store != "etcd://10.0.0.1:2379,10.0.0.2/palink" || c.Etcd.DialTimeout.D() != 2*time.Second {
		t.Errorf("store %q, etcd %+v", c.Store, c.Etcd)
	}
	if pw, err := c.Etcd.Auth.Password(); err != nil || pw != "hunter2" {
		t.Errorf("etcd password %q, %v", pw, err)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"store: etcd://10.0.0.1:2379\n", "c.yaml:1: error: store \"etcd://10.0.0.1:2379\": no key prefix"},
		{"store: \"etcd://u:secret@h:2379/p\"\n", "c.yaml:1: error: store \"etcd://xxxxx@h:2379/p\": no user, query or fragment"},
		{"store: etcd://h1,,h2/p\n", "c.yaml:1: error: store \"etcd://h1,,h2/p\": an empty host"},
		{"store: etcd://h/p\netcd:\n  tls:\n    cert_file: " + dir + "\n", "c.yaml:3: error: etcd.tls: give both cert_file and key_file"},
		{"store: etcd://h/p\netcd:\n  tls:\n    ca_file: /nonexistent/ca.pem\n", "c.yaml:4: error: etcd.tls.ca_file: stat /nonexistent/ca.pem"},
		{"store: etcd://h/p\netcd:\n  auth:\n    user: palink\n", "c.yaml:3: error: etcd.auth.user needs password_env or password_file"},
		{"store: etcd://h/p\netcd:\n  auth:\n    user: palink\n    password_env: PALINK_TEST_UNSET_PW\n", "c.yaml:5: error: environment variable PALINK_TEST_UNSET_PW (etcd.auth.password_env) is empty"},
	} {
		_, _, err := Parse("c.yaml", []byte(tc.yaml+base))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("%q: error %v, want %q", tc.yaml, err, tc.want)
		}
	}
	_, warns, err = Parse("c.yaml", []byte("store: /tmp/p.db\netcd:\n  dial_timeout: 1s\n"+base))
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].Error(), "c.yaml:2: warning: etcd: is set, but the store is the file") {
		t.Errorf("etcd options for a file store: %v, %v", warns, err)
	}
}
