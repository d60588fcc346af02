package api

//go:generate go run ./internal/methodgen/gen methods_gen.go guard_gen.go

import (
	"slices"
	"strings"
	"time"

	"github.com/palink/palink/model"
)

// Method is the one declaration of an API method, written beside the
// method in its interface as a //palink:api line (internal/methodgen says
// its form) and gathered by `go generate ./core/api` into methods_gen.go:
// what the agent's role check, its server and its client, the CLI's
// --read-only and the tests that walk every method all read. A method
// without the line does not generate; a role lowered shows in review as
// a change to the role table's golden file (testdata/roles.txt).
type Method struct {
	// Name is the Go method's name.
	Name string
	// Role is the least role that may call it.
	Role model.Role
	// Writes: it changes what palink keeps or does (a command, a job, a
	// definition), so --read-only refuses it whatever the role. A method
	// that only reads may still need more than a viewer (a bulk copy of
	// the store).
	Writes bool
	// What names the action in a refusal: "remove function: user bob is an
	// operator on this agent; it needs an admin".
	What string
	// Local: it runs in the caller's own process (a debug run, saving a log
	// to the caller's file), so the agent serves no such call.
	Local bool
	// Caller is the field of the method's last argument that the agent
	// fills with the user at the other end of its socket ("Issuer",
	// "UDF.Author"), whatever the client put there: who acted is the
	// socket's word, never the client's. Every method that writes has one.
	Caller string
	// Custom: the agent's side of it is written by hand (core/agent), not
	// generated from this declaration: a call answered in rounds
	// (WaitCommand, Watch), a result that is a stream (Backup), an
	// argument that cannot cross the socket (BuildRequest's Log).
	Custom bool
	// Timeout bounds the agent's work on one call (default one minute).
	Timeout time.Duration
	// On is what a call acts on, for teams: the role that counts is the
	// caller's in the team that owns it (Scope).
	On Scope
	// Self: the guard answers it from the caller itself (WhoAmI).
	Self bool
}

// Scope is what a method acts on, which decides whose role counts once
// palink has teams (docs/ssh.md): the declaration's on= word.
type Scope int

// Scopes.
const (
	// ScopeAny: nothing of one team (a read of shared definitions, a
	// build of a shared project): the caller's best role anywhere.
	ScopeAny Scope = iota
	// ScopeGlobal: what belongs to no team (defining projects and UDFs,
	// the store as a whole, the teams themselves): the caller's role of
	// palink's own. A method that writes without an on= word is global.
	ScopeGlobal
	// ScopeJob: one job, by a ref; ScopeCommand: one command's job.
	ScopeJob
	ScopeCommand
	// ScopeCluster: a cluster's shared parts (its catalog, its variables,
	// its applications): any of its teams' roles to read, the least of
	// them to write, since a change there reaches every team on it.
	ScopeCluster
	// ScopeQueue: a new job in a cluster's queue: the role in the team
	// that will own it.
	ScopeQueue
	// ScopeTeam: a team itself (its members).
	ScopeTeam
	// ScopeList: a list, of which the caller sees what belongs to their
	// teams (all of it with a role of palink's own).
	ScopeList
)

var scopeNames = map[Scope]string{ScopeAny: "any", ScopeGlobal: "global", ScopeJob: "job", ScopeCommand: "command",
	ScopeCluster: "cluster", ScopeQueue: "queue", ScopeTeam: "team", ScopeList: "list"}

func (s Scope) String() string {
	if n, ok := scopeNames[s]; ok {
		return n
	}
	return "scope?"
}

// DefaultTimeout bounds an agent call whose declaration sets none.
const DefaultTimeout = time.Minute

// Methods lists every declared API method.
func Methods() []Method { return slices.Clone(methods) }

// MethodOf is the declaration of the method called name.
func MethodOf(name string) (Method, bool) {
	for _, m := range methods {
		if m.Name == name {
			if m.Timeout == 0 {
				m.Timeout = DefaultTimeout
			}
			return m, true
		}
	}
	return Method{}, false
}

// Refusal says why a caller of role may not call m (nil when it may):
// ErrReadOnly for a write by a viewer or under --read-only, ErrForbidden for
// a call its role does not reach otherwise. who names the caller and where
// the role holds, for the message ("user bob", " on this agent"); readOnly
// is --read-only (the caller's or the agent's).
func (m Method) Refusal(role model.Role, readOnly bool, who, where string) error {
	switch {
	case m.Writes && readOnly:
		return ReadOnly(m.What)
	case role.Allows(m.Role):
		return nil
	case m.Writes && role == model.Viewer:
		return &refusal{what: m.What, who: who, where: where, role: role, need: m.Role, is: model.ErrReadOnly}
	}
	return &refusal{what: m.What, who: who, where: where, role: role, need: m.Role, is: model.ErrForbidden}
}

// refusal is a call refused for the caller's role.
type refusal struct {
	what, who, where string
	role, need       model.Role
	is               error
}

func (r *refusal) Error() string {
	msg := r.what + ": " + r.who + " is a" + article(r.role) + " " + r.role.String() + r.where
	switch {
	case strings.HasPrefix(r.where, " in team "):
		// A team's own roles: its admins grant them.
		return msg + "; it needs a" + article(r.need) + " " + r.need.String() + r.where
	case r.need == model.Admin:
		return msg + "; it needs an admin (admins: in the config)"
	case r.is == model.ErrReadOnly:
		return msg
	}
	return msg + "; ask an operator"
}

func (r *refusal) Unwrap() error { return r.is }

func article(r model.Role) string {
	if r == model.Admin || r == model.Operator {
		return "n"
	}
	return ""
}
