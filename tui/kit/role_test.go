package kit

import (
	"errors"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// TestRoleMayFollowsTheRoleTable: a key is offered as core/api's
// declarations say: by the role of palink's own or a team's, never before
// palink said who the user is, never to a read-only one; and the reason
// names what and why.
func TestRoleMayFollowsTheRoleTable(t *testing.T) {
	admin := api.Identity{Role: model.Admin}
	for _, c := range []struct {
		name   string
		role   Role
		method string
		ok     bool
		why    string
	}{
		{"admin sets", Role{Known: true, ID: admin}, "SetVar", true, ""},
		{"operator may not", Role{Known: true, ID: api.Identity{Role: model.Operator}}, "SetVar", false, "set a variable: you are an operator; it needs an admin"},
		{"viewer reads", Role{Known: true, ID: api.Identity{Role: model.Viewer}}, "Vars", true, ""},
		{"a team's admin", Role{Known: true, ID: api.Identity{Role: model.NoRole, Teams: []api.TeamRole{{Team: "t", Role: model.Admin}}}}, "PutTable", true, ""},
		{"no role", Role{Known: true, ID: api.Identity{Role: model.NoRole}}, "RemoveVar", false, "remove a variable: you have no role here; it needs an admin"},
		{"read-only admin", Role{Known: true, ID: api.Identity{Role: model.Admin, ReadOnly: true}}, "SetVar", false, "read-only: set a variable is disabled"},
		{"not asked yet", Role{}, "SetVar", false, "set a variable: asking palink who you are…"},
		{"no answer", Role{Err: errors.New("agent gone")}, "SetVar", false, "set a variable: palink could not say who you are: agent gone"},
		{"no such method", Role{Known: true, ID: admin}, "Nope", false, "Nope: no such API method"},
	} {
		ok, why := c.role.May(c.method)
		if ok != c.ok || why != c.why {
			t.Errorf("%s: May(%s) = %v %q, want %v %q", c.name, c.method, ok, why, c.ok, c.why)
		}
	}
}
