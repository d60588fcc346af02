package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestTyposFailWithSuggestions: a mistyped command exits non-zero and says
// what was probably meant, at every level; a group given nothing shows its
// help.
func TestTyposFailWithSuggestions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for success
	}{
		{[]string{"jbos"}, "Did you mean this?\n\tjob\n\tjobs"},
		{[]string{"job", "subimt", "orders"}, `unknown command "subimt" for "palink job"` + "\n\nDid you mean this?\n\tsubmit"},
		{[]string{"stroe", "backup", "x"}, "Did you mean this?\n\tserve\n\tstore"},
		{[]string{"sql", "chekc", "x.sql"}, "Did you mean this?\n\tcheck"},
		{[]string{"job"}, ""},
	} {
		root := newRootCmd()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(tc.args)
		err := root.Execute()
		if tc.want == "" {
			if err != nil || !strings.Contains(out.String(), "Available Commands") {
				t.Errorf("palink %s: %v\n%s", strings.Join(tc.args, " "), err, out.String())
			}
			continue
		}
		var ec exitCoder
		if !errors.As(err, &ec) || ec.ExitCode() == 0 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("palink %s: %v, want a non-zero exit saying %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}
