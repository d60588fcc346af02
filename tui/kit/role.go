package kit

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// Role is what the TUI knows of who uses it (WhoAmI's answer), to offer
// only the keys whose API method the user's role reaches. The guard
// behind the service still decides each call: with teams, the role that
// counts is the one in the team that owns what a call acts on, which the
// TUI cannot tell, so any team role that reaches the method offers it.
type Role struct {
	Known bool // WhoAmI answered
	ID    api.Identity
	Err   error // why WhoAmI did not answer
}

// May reports whether the user may call the API method name, as the role
// table (core/api's declarations) says; why says why not, for the flash
// and the view's note ("set variable: you are a viewer; it needs an
// admin"). Before WhoAmI answers nothing is offered.
func (r Role) May(name string) (ok bool, why string) {
	m, found := api.MethodOf(name)
	switch {
	case !found:
		return false, name + ": no such API method"
	case !r.Known && r.Err != nil:
		return false, m.What + ": palink could not say who you are: " + r.Err.Error()
	case !r.Known:
		return false, m.What + ": asking palink who you are…"
	case r.ID.Role.Allows(m.Role) || slices.ContainsFunc(r.ID.Teams, func(t api.TeamRole) bool { return t.Role.Allows(m.Role) }):
		if m.Writes && r.ID.ReadOnly {
			return false, "read-only: " + m.What + " is disabled"
		}
		return true, ""
	}
	is := "you have no role here"
	if r.ID.Role != model.NoRole {
		is = "you are a" + article(r.ID.Role.String()) + " " + r.ID.Role.String()
	}
	return false, m.What + ": " + is + "; it needs a" + article(m.Role.String()) + " " + m.Role.String()
}

// RoleMsg is WhoAmI's answer, for every screen that offers keys by role.
type RoleMsg struct {
	Role Role
	Err  error
}

// LoadRole asks who the user is (who: the screen's Service's WhoAmI); a
// failure leaves the role unknown, so nothing that needs one is offered.
func LoadRole[S any](c Call[S], who func(context.Context) (api.Identity, error)) tea.Cmd {
	return Get(c, "ask palink who you are", who, func(id api.Identity, err error) tea.Msg {
		return RoleMsg{Role: Role{Known: err == nil, ID: id, Err: err}, Err: err}
	})
}

func article(role string) string {
	if role != "" && (role[0] == 'a' || role[0] == 'o') {
		return "n"
	}
	return ""
}
