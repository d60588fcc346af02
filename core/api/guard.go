package api

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/palink/palink/model"
)

// Caller is who calls the API through a guard, and what they may do.
type Caller struct {
	// User names them in refusals and is what every method that writes
	// records as its issuer or author (the declaration's caller field),
	// whatever the request said.
	User string
	// Role is their role while palink has no teams: on everything.
	Role model.Role
	// Global is their role of palink's own once palink has teams: on
	// every team's jobs and on what belongs to no team. The agent's own
	// user and the config's admins: and operators:, by name; NoRole for
	// everyone else, whose roles are their teams'.
	Global model.Role
	// ReadOnly refuses every method that writes, whatever the role
	// (--read-only, or a read-only service behind).
	ReadOnly bool
	// Where the role holds, for refusals while palink has no teams:
	// " on this agent", " over SSH".
	Where string
	// Tenancy says whose the things a call names are; nil: palink has no
	// teams here, and Role holds on everything.
	Tenancy Tenancy
}

// Guard is s as caller c may use it: each method refuses a call the
// method's declaration does not allow c's role to make (Method.Refusal),
// and fills the field of its argument the declaration names as the
// caller (Method.Caller) with c.User before s sees it. Once palink has
// teams (c.Tenancy), the role that counts is c's in the team that owns
// what the call acts on (Method.On), and lists hold only what c's teams
// own. Every way into a service goes through one: the agent's socket, an
// SSH session, a process of the user's own. The methods are generated
// from the declarations (guard_gen.go).
func Guard(s Service, c Caller) Service { return &guarded{s: s, c: c} }

type guarded struct {
	s Service
	c Caller

	// owners caches the Tenancy's answer for ownersTTL: a call, a list
	// and its filter, and the ReadOnly the TUI asks on every key see one
	// moment, and a grant holds within ownersTTL.
	mu      sync.Mutex
	owners  Owners
	ownedAt time.Time
}

// ownersTTL bounds how long a guard keeps who owns what.
const ownersTTL = 2 * time.Second

// target is what one call acts on.
type target struct {
	scope                   Scope
	ref, cluster, queue, tm string
}

func on(s Scope) target                      { return target{scope: s} }
func onJob(ref string) target                { return target{scope: ScopeJob, ref: ref} }
func onCommand(id string) target             { return target{scope: ScopeCommand, ref: id} }
func onCluster(cluster string) target        { return target{scope: ScopeCluster, cluster: cluster} }
func onQueue(cluster, q string) target       { return target{scope: ScopeQueue, cluster: cluster, queue: q} }
func onTeam(team string) target              { return target{scope: ScopeTeam, tm: team} }
func (g *guarded) teamsOn() bool             { return g.c.Tenancy != nil }
func (g *guarded) who() string               { return "user " + g.c.User }
func (g *guarded) roOrRefuse(m Method) error { return m.Refusal(model.Admin, g.c.ReadOnly, "", "") }

// refuse says why the caller may not call method on t (nil when they may).
func (g *guarded) refuse(ctx context.Context, method string, t target) error {
	m, ok := MethodOf(method)
	if !ok {
		return fmt.Errorf("%s: no such API method", method)
	}
	if g.teamsOn() && g.c.Global != model.NoRole && m.Refusal(g.c.Global, g.c.ReadOnly, g.who(), g.c.Where) == nil {
		// A role outside the teams that is enough already: whatever the
		// teams say can only add to it (roleOn takes the greater), so they
		// need not be read — nor can a store that does not answer hold
		// the call up (agent status must say etcd is gone, not time out).
		return nil
	}
	o, teams, err := g.ownersNow(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", m.What, err)
	}
	if !teams {
		return m.Refusal(g.c.Role, g.c.ReadOnly, g.who(), g.c.Where)
	}
	if err := g.roOrRefuse(m); err != nil {
		return err
	}
	role, where, err := g.roleOn(ctx, o, t, m.Writes)
	if err != nil {
		return err
	}
	if role == model.NoRole {
		return g.noRole(o, m, t)
	}
	return m.Refusal(role, false, g.who(), where)
}

// ownersNow is who owns what, and whether palink has teams at all.
func (g *guarded) ownersNow(ctx context.Context) (Owners, bool, error) {
	if !g.teamsOn() {
		return Owners{}, false, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.ownedAt.IsZero() && time.Since(g.ownedAt) < ownersTTL {
		return g.owners, len(g.owners.Teams) > 0, nil
	}
	o, err := g.c.Tenancy.Owners(ctx)
	if err != nil {
		return Owners{}, false, fmt.Errorf("read the teams: %w", err)
	}
	g.owners, g.ownedAt = o, time.Now()
	return o, len(o.Teams) > 0, nil
}

// roleOn is the caller's role on t, and where it holds for a refusal.
func (g *guarded) roleOn(ctx context.Context, o Owners, t target, writes bool) (model.Role, string, error) {
	global := g.c.Global
	switch t.scope {
	case ScopeGlobal:
		return global, " of palink's own", nil
	case ScopeAny, ScopeList:
		return max(global, o.Best(g.c.User)), " in any team", nil
	case ScopeTeam:
		return max(global, o.RoleIn(t.tm, g.c.User)), " in team " + t.tm, nil
	case ScopeQueue:
		team := model.OwnerOf(o.Teams, t.cluster, model.JobQueue(o.Queues[t.cluster], map[string]string{model.QueueProperty: t.queue}))
		return max(global, o.RoleIn(team, g.c.User)), teamWhere(team), nil
	case ScopeCluster:
		if t.cluster == "" || t.cluster == "*" {
			return global, " of palink's own", nil // every cluster's: no team's
		}
		owners := model.ClusterOwners(o.Teams, t.cluster)
		if len(owners) == 0 {
			return global, " (cluster " + t.cluster + " is no team's)", nil
		}
		// Reading a cluster's shared parts is any of its teams' right;
		// changing them changes every team's jobs there, so it takes the
		// least of the caller's roles in them.
		role, where := o.RoleIn(owners[0], g.c.User), teamWhere(owners[0])
		for _, tm := range owners[1:] {
			r := o.RoleIn(tm, g.c.User)
			if writes && r < role || !writes && r > role {
				role, where = r, teamWhere(tm)
			}
		}
		return max(global, role), where, nil
	case ScopeJob, ScopeCommand:
		if t.ref == "" {
			return global, " of palink's own", nil // "every job": no team's
		}
		lookup, what := g.c.Tenancy.JobID, "job"
		if t.scope == ScopeCommand {
			lookup, what = g.c.Tenancy.CommandJob, "command"
		}
		id, err := lookup(ctx, t.ref)
		if err != nil {
			return model.NoRole, "", err
		}
		team, known := o.Jobs[id]
		if !known {
			// A job newer than the cached owners: ask again.
			g.mu.Lock()
			g.ownedAt = time.Time{}
			g.mu.Unlock()
			if o, _, err = g.ownersNow(ctx); err != nil {
				return model.NoRole, "", err
			}
			team = o.Jobs[id]
		}
		role := max(global, o.RoleIn(team, g.c.User))
		if role == model.NoRole {
			// Another team's job is not there for the caller, as in a
			// list: not found, the same as a job that does not exist.
			return model.NoRole, "", fmt.Errorf("%s %s: %w", what, t.ref, model.ErrNotFound)
		}
		return role, teamWhere(team), nil
	}
	return model.NoRole, "", fmt.Errorf("scope %s: no rule", t.scope)
}

func teamWhere(team string) string {
	if team == "" {
		return " (the job is no team's)"
	}
	return " in team " + team
}

// noRole is the refusal of a caller with no role at all on t.
func (g *guarded) noRole(o Owners, m Method, t target) error {
	what := m.What
	if what == "" {
		what = "see it"
	}
	if o.Best(g.c.User) == model.NoRole && g.c.Global == model.NoRole {
		return &teamRefusal{msg: fmt.Sprintf("%s: %s is in no team of this palink, and palink shows each user their teams' jobs: "+
			"a team's admin adds them with `palink team grant TEAM %s viewer`", what, g.who(), g.c.User), is: model.ErrForbidden}
	}
	switch t.scope {
	case ScopeGlobal:
		return &teamRefusal{msg: fmt.Sprintf("%s: it belongs to no team, and %s has roles in teams only; it needs a%s %s of palink's own (%s: in the config)",
			what, g.who(), article(m.Role), m.Role, map[bool]string{true: "admins", false: "operators"}[m.Role == model.Admin]), is: model.ErrForbidden}
	case ScopeTeam:
		return &teamRefusal{msg: fmt.Sprintf("%s: %s is not in team %s", what, g.who(), t.tm), is: model.ErrForbidden}
	case ScopeCluster, ScopeQueue:
		return &teamRefusal{msg: fmt.Sprintf("%s: %s is in no team that owns cluster %s", what, g.who(), t.cluster), is: model.ErrForbidden}
	}
	return &teamRefusal{msg: fmt.Sprintf("%s: %s has no role for it", what, g.who()), is: model.ErrForbidden}
}

// teamRefusal is a call refused because the caller has no role where it
// acts.
type teamRefusal struct {
	msg string
	is  error
}

func (r *teamRefusal) Error() string { return r.msg }
func (r *teamRefusal) Unwrap() error { return r.is }

// best is the caller's highest role anywhere: what decides whether they
// may change anything at all.
func (g *guarded) best(ctx context.Context) model.Role {
	o, teams, err := g.ownersNow(ctx)
	switch {
	case err != nil:
		return model.NoRole
	case !teams:
		return g.c.Role
	}
	return max(g.c.Global, o.Best(g.c.User))
}

// readOnly says whether the caller may change nothing.
func (g *guarded) readOnly() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return g.c.ReadOnly || !g.best(ctx).Allows(model.Operator)
}

// planFor makes a plan tell the truth of the caller: an action their role
// may not take on the job is not allowed, whatever the job's state would
// allow.
func (g *guarded) planFor(ctx context.Context, p *ActionPlan, ref string) {
	err := g.refuse(ctx, "Act", onJob(ref))
	if err == nil {
		return
	}
	p.Allowed, p.Reason = false, err.Error()
	var r *refusal
	if errors.As(err, &r) {
		p.Reason = r.who + " is a " + r.role.String() + r.where
	}
	if g.c.ReadOnly {
		p.Reason = "palink is read-only"
	}
}
