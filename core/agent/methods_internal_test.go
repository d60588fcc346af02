package agent

import (
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// TestTheAgentServesWhatIsDeclared: the agent answers each declared method
// that does not run in the caller's process, and nothing undeclared (a
// handler without a declaration would have no role to check).
func TestTheAgentServesWhatIsDeclared(t *testing.T) {
	served := map[string]bool{}
	for call := range methods {
		name := call
		if n, ok := wireNames[call]; ok {
			name = n
		}
		served[name] = true
	}
	for _, m := range api.Methods() {
		if ok := served[m.Name]; ok == m.Local {
			t.Errorf("%s: declared local %v, served by the agent %v", m.Name, m.Local, ok)
		}
	}
	for name := range methods {
		if _, ok := declaration(name); !ok {
			t.Errorf("the agent serves %s, which nothing declares", name)
		}
	}
}

// TestRolesOf: the agent's own user and the users named in admins are
// admins; operators the ones named (everyone when none is); the rest
// viewers.
func TestRolesOf(t *testing.T) {
	for _, c := range []struct {
		roles Roles
		user  string
		want  model.Role
	}{
		{Roles{Self: "palink"}, "palink", model.Admin},
		{Roles{Self: "palink"}, "bob", model.Operator},
		{Roles{Self: "palink", Operators: []string{"ana"}}, "bob", model.Viewer},
		{Roles{Self: "palink", Operators: []string{"ana"}}, "ana", model.Operator},
		{Roles{Self: "palink", Operators: []string{"ana"}, Admins: []string{"bob"}}, "bob", model.Admin},
		{Roles{Self: "palink", Admins: []string{"bob"}}, "ana", model.Operator},
		{Roles{Operators: []string{"ana"}}, "", model.Viewer},
	} {
		if got := c.roles.Of(c.user); got != c.want {
			t.Errorf("%+v: %q is %s, want %s", c.roles, c.user, got, c.want)
		}
	}
}
