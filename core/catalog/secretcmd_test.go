package catalog

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

// TestSecretCmd: a secret's command gives its output (trailing newlines
// dropped); one that fails, prints nothing or hangs is an error naming the
// variable and the program, never what it printed.
func TestSecretCmd(t *testing.T) {
	defer func(d time.Duration) { secretCmdTimeout = d }(secretCmdTimeout)
	secretCmdTimeout = 300 * time.Millisecond
	r, err := Resolve([]model.Variable{{Name: "pw", SecretCmd: "printf 'h4sh\\n\\n'"}}, nil)
	if err != nil || r.Values["pw"] != "h4sh" || r.Mask("x h4sh") != "x "+model.Masked {
		t.Fatalf("resolve: %v %q", err, r.Values["pw"])
	}
	for _, tc := range []struct{ cmd, want string }{
		{"echo half-s3cret; exit 2", "secret variable pw: command echo failed (exit status 2)"},
		{"true", "secret variable pw: command true printed nothing"},
		{"sleep 5", "secret variable pw: command sleep did not finish within 300ms"},
	} {
		began := time.Now()
		_, err := Resolve([]model.Variable{{Name: "pw", SecretCmd: tc.cmd}}, nil)
		if err == nil || err.Error() != tc.want || strings.Contains(err.Error(), "s3cret") || time.Since(began) > 3*time.Second {
			t.Errorf("%s: %v (after %s), want %q", tc.cmd, err, time.Since(began), tc.want)
		}
	}
}
