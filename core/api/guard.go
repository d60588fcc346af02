package api

import (
	"fmt"

	"github.com/palink/palink/model"
)

// Caller is who calls the API through a guard, and what they may do.
type Caller struct {
	// User names them in refusals and is what every method that writes
	// records as its issuer or author (the declaration's caller field),
	// whatever the request said.
	User string
	Role model.Role
	// ReadOnly refuses every method that writes, whatever the role
	// (--read-only, or a read-only service behind).
	ReadOnly bool
	// Where the role holds, for refusals: " on this agent", " over SSH".
	Where string
}

// Guard is s as caller c may use it: each method refuses a call the
// method's declaration does not allow c's role to make (Method.Refusal),
// and fills the field of its argument the declaration names as the
// caller (Method.Caller) with c.User before s sees it. Every way into a
// service that is not the user's own process goes through one: the
// agent's socket, an SSH session. The methods are generated from the
// declarations (guard_gen.go).
func Guard(s Service, c Caller) Service { return &guarded{s: s, c: c} }

type guarded struct {
	s Service
	c Caller
}

func (g *guarded) refuse(method string) error {
	m, ok := MethodOf(method)
	if !ok {
		return fmt.Errorf("%s: no such API method", method)
	}
	return m.Refusal(g.c.Role, g.c.ReadOnly, "user "+g.c.User, g.c.Where)
}

// readOnly says whether the caller may change nothing.
func (g *guarded) readOnly() bool { return g.c.ReadOnly || !g.c.Role.Allows(model.Operator) }

// planFor makes a plan tell the truth of the caller: an action their role
// may not take is not allowed, whatever the job's state would allow.
func (g *guarded) planFor(p *ActionPlan) {
	if g.refuse("Act") == nil {
		return
	}
	p.Allowed, p.Reason = false, "user "+g.c.User+" is a "+g.c.Role.String()+g.c.Where
	if g.c.ReadOnly {
		p.Reason = "palink is read-only"
	}
}
