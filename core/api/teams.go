package api

import (
	"context"
	"time"

	"github.com/palink/palink/model"
)

// TeamService keeps the tenants: teams own clusters (or queues of them)
// and thereby their jobs, and each member has a role in a team
// (docs/ssh.md, "Running palink for a team").
type TeamService interface {
	// Teams lists the teams the caller has a role in (every team for a
	// role of palink's own), by name.
	//palink:api role=viewer on=list
	Teams(ctx context.Context) ([]model.Team, error)
	// TeamMembers lists a team's members with their roles.
	//palink:api role=viewer on=team(team)
	TeamMembers(ctx context.Context, team string) ([]model.Member, error)
	// AddTeam creates a team, or gives an existing one more clusters or
	// queues. What a team owns decides whose jobs are whose: a platform
	// admin's power (admins: in the config), as is every holding of no
	// team.
	//palink:api role=admin writes what="add team" caller=Issuer
	AddTeam(ctx context.Context, r TeamRequest) (model.Team, error)
	// Grant gives a user a role in a team (model.NoRole takes it away): a
	// team's admins keep its members.
	//palink:api role=admin writes what="grant a role" caller=Issuer on=team(r.Team)
	Grant(ctx context.Context, r GrantRequest) (model.Team, error)
	// WhoAmI is the caller as palink knows them: their user, their role
	// of palink's own and their role in each of their teams. It is
	// answered to everyone, so that a user with no role learns why.
	//palink:api role=viewer self
	WhoAmI(ctx context.Context) (Identity, error)
}

// AuditService reads the audit log: every action of every user on every
// host, in the order the store committed them.
type AuditService interface {
	// Audit returns the audit entries f selects, oldest first. The log
	// names who did what to which job, refusals too, across every team:
	// who is on call and what they tried is an admin's business, and a
	// team's admins read only the entries of their team's jobs.
	//palink:api role=admin what="read the audit log" on=list
	Audit(ctx context.Context, f AuditFilter) ([]model.AuditEntry, error)
}

// TeamRequest creates a team or adds holdings to one.
type TeamRequest struct {
	Name   string
	Owns   []model.Holding
	Issuer string // filled by the service when empty
}

// GrantRequest gives User the Role in Team; model.NoRole removes them.
type GrantRequest struct {
	Team   string
	User   string
	Role   model.Role
	Issuer string // filled by the service when empty
}

// Identity is who palink takes the caller for (`palink whoami`).
type Identity struct {
	User string
	// Role is the caller's role of palink's own: on everything while
	// palink has no teams; once it has, on what belongs to no team and on
	// every team's jobs (the config's admins: and operators:, the agent's
	// own user). NoRole: none.
	Role model.Role
	// Teams are the caller's teams with their role in each, by team.
	Teams []TeamRole
	// ReadOnly: the caller may change nothing anywhere.
	ReadOnly bool
	// Why says, when the caller may see nothing, why and what to do.
	Why string `json:",omitempty"`
}

// TeamRole is a caller's role in one team.
type TeamRole struct {
	Team string
	Role model.Role
}

// AuditFilter selects audit entries; zero fields select everything.
type AuditFilter struct {
	// Since keeps the entries at or after it.
	Since time.Time
	// User keeps one user's entries.
	User string
	// Limit keeps the newest Limit (0: all).
	Limit int
}

// Owners is who owns what at one moment: the teams, and the team of every
// job. A guard asks for it to find the team of what a call acts on.
type Owners struct {
	Teams []model.Team
	// Jobs is the team of every job by id; "" for a job no team owns.
	Jobs map[string]string
	// Queues are the queues that clusters fix for every job they run
	// (a cluster's deploy.queue), by cluster: a new job's queue is that,
	// else the job's own (model.JobQueue).
	Queues map[string]string
}

// Team is the team called name, if any.
func (o Owners) Team(name string) (model.Team, bool) {
	for _, t := range o.Teams {
		if t.Name == name {
			return t, true
		}
	}
	return model.Team{}, false
}

// RoleIn is user's role in team ("" and unknown teams: none).
func (o Owners) RoleIn(team, user string) model.Role {
	if t, ok := o.Team(team); ok {
		return t.RoleOf(user)
	}
	return model.NoRole
}

// Best is user's highest role in any team.
func (o Owners) Best(user string) model.Role {
	best := model.NoRole
	for _, t := range o.Teams {
		best = max(best, t.RoleOf(user))
	}
	return best
}

// Tenancy tells a guard whose the things a call names are: it is all a
// guard needs of the service behind it to enforce teams (core implements
// it over the store).
type Tenancy interface {
	// Owners is the teams and the team of every job, now.
	Owners(ctx context.Context) (Owners, error)
	// JobID is the id of the job ref names (an id or a name);
	// model.ErrNotFound when there is none.
	JobID(ctx context.Context, ref string) (string, error)
	// CommandJob is the id of the job of the command id names ("42",
	// "#42" or its id); model.ErrNotFound when there is none.
	CommandJob(ctx context.Context, id string) (string, error)
}
