package krbtest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealm: a realm starts, issues a user a ticket from its keytab, and
// logs the request.
func TestRealm(t *testing.T) {
	r := Start(t, Options{})
	kt := r.MustAddPrincipal(t, "ops", 0)
	r.MustAddPrincipal(t, "HTTP/localhost", 0)
	cc := filepath.Join(t.TempDir(), "cc")
	r.Kinit(t, "ops", kt, cc)
	out, err := exec.Command("klist", "-c", cc).CombinedOutput()
	if err != nil {
		t.Fatalf("klist: %v: %s", err, out)
	}
	if !strings.Contains(string(out), "krbtgt/PALINK.TEST@PALINK.TEST") || !strings.Contains(string(out), "ops@PALINK.TEST") {
		t.Errorf("klist shows no TGT of ops:\n%s", out)
	}
	if !strings.Contains(r.Log(), "AS_REQ") {
		t.Errorf("KDC log has no AS_REQ:\n%s", r.Log())
	}
}

// TestMissingSaysWhatToInstall: without the programs, the message names
// them and Debian's packages.
func TestMissingSaysWhatToInstall(t *testing.T) {
	t.Setenv(EnvPath, t.TempDir())
	want := "krb5kdc, kdb5_util, kadmin.local not installed: apt-get install krb5-kdc krb5-admin-server"
	if got := Missing(); got != want {
		t.Errorf("Missing() = %q, want %q", got, want)
	}
	if _, err := StartIn(t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("StartIn without a KDC: %v", err)
	}
}
