package catalog

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/internal/sandbox"
	"github.com/palink/palink/model"
)

// commands is the policy secret commands run under in these tests: as
// nobody where the tests run as root (CI), else as the tester.
func commands() Sources {
	if os.Geteuid() == 0 {
		return Sources{Commands: sandbox.Policy{User: "nobody"}}
	}
	return Sources{}
}

// TestSecretCmd: a secret's command gives its output (trailing newlines
// dropped); one that fails, prints nothing or hangs is an error naming the
// variable and the program, never what it printed.
func TestSecretCmd(t *testing.T) {
	defer func(d time.Duration) { secretCmdTimeout = d }(secretCmdTimeout)
	secretCmdTimeout = 300 * time.Millisecond
	r, err := Resolve([]model.Variable{{Name: "pw", SecretCmd: "printf 'h4sh\\n\\n'"}}, commands())
	if err != nil || r.Values["pw"] != "h4sh" || r.Mask("x h4sh") != "x "+model.Masked {
		t.Fatalf("resolve: %v %q", err, r.Values["pw"])
	}
	for _, tc := range []struct{ cmd, want string }{
		{"echo half-s3cret; exit 2", "secret variable pw: command echo failed (exit status 2)"},
		{"true", "secret variable pw: command true printed nothing"},
		{"sleep 5", "secret variable pw: command sleep did not finish within 300ms"},
	} {
		began := time.Now()
		_, err := Resolve([]model.Variable{{Name: "pw", SecretCmd: tc.cmd}}, commands())
		if err == nil || err.Error() != tc.want || strings.Contains(err.Error(), "s3cret") || time.Since(began) > 3*time.Second {
			t.Errorf("%s: %v (after %s), want %q", tc.cmd, err, time.Since(began), tc.want)
		}
	}
}

// TestSecretCmdRunsClean: a secret's command sees none of palink's
// environment (its cluster passwords, its tokens), has a HOME of its
// own, and where palink is root runs as the build user, never as root.
func TestSecretCmdRunsClean(t *testing.T) {
	t.Setenv("PALINK_PROD_PASSWORD", "x-prod-pass")
	t.Setenv("GIT_TOK", "y-git-tok")
	r, err := Resolve([]model.Variable{{Name: "pw", SecretCmd: "env; echo uid=$(id -u)"}}, commands())
	if err != nil {
		t.Fatal(err)
	}
	out := r.Values["pw"]
	if strings.Contains(out, "x-prod-pass") || strings.Contains(out, "y-git-tok") {
		t.Errorf("the secret command saw palink's environment:\n%s", out)
	}
	if home, _ := os.UserHomeDir(); strings.Contains(out, "HOME="+home+"\n") || !strings.Contains(out, "PATH="+sandbox.DefaultPath+"\n") {
		t.Errorf("the secret command's HOME or PATH is palink's:\n%s", out)
	}
	if strings.Contains(out, "uid=0") {
		t.Errorf("the secret command ran as root:\n%s", out)
	}
}

// TestSecretCmdRefusedAsRootWithoutBuildUser: palink as root runs no
// secret command when build.user is not set, and says so.
func TestSecretCmdRefusedAsRootWithoutBuildUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("palink is not root here: the refusal is for root")
	}
	_, err := Resolve([]model.Variable{{Name: "pw", SecretCmd: "echo x"}}, Sources{})
	if err == nil || !strings.Contains(err.Error(), "secret variable pw: command echo: palink runs as root and build.user is not set") {
		t.Errorf("a secret command as root without build.user: %v", err)
	}
}
