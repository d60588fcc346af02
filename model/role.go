package model

// Role is what a user may do with palink: each API method declares the
// least role that may call it (core/api's method table), and the agent
// gives each user on its socket one role.
type Role int

// Roles, from the least.
const (
	// Viewer sees jobs, commands, logs and metrics, and may ask the
	// cluster for the truth (a sync), but changes nothing.
	Viewer Role = iota + 1
	// Operator acts on jobs (submit, pause, kill, restart, resubmit,
	// savepoints, adoption, alerts) and triggers builds of the projects an
	// admin defined; may copy the store and explain SQL on a gateway.
	Operator
	// Admin defines what runs: projects with their repositories and build
	// commands, variables and their secret commands, the table catalog and
	// the UDF registry. Whatever an admin defines runs as palink's own user
	// or its build user, so the role is given by name only.
	Admin
)

// NoRole is no role at all: a user in no team of a palink that has teams,
// and named nowhere in its config.
const NoRole Role = 0

var roleNames = map[Role]string{NoRole: "none", Viewer: "viewer", Operator: "operator", Admin: "admin"}

func (r Role) String() string { return enumString(roleNames, r) }

// ParseRole is the inverse of String ("none" is NoRole).
func ParseRole(s string) (Role, error) { return parseEnum(roleNames, "role", s) }

// Roles lists every role, the least first.
func Roles() []Role { return []Role{Viewer, Operator, Admin} }

// Allows reports whether a user of role r may call what needs role need.
func (r Role) Allows(need Role) bool { return r >= need }

// MarshalText implements encoding.TextMarshaler: a role is stored and
// printed by its name.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Role) UnmarshalText(b []byte) (err error) { *r, err = ParseRole(string(b)); return }
