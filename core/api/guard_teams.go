package api

import (
	"context"
	"slices"
	"strings"

	"github.com/palink/palink/model"
)

// The lists a guard filters (the methods declared on=list): a caller sees
// what their teams own, and everything with a role of palink's own. While
// palink has no teams, a list is passed on whole.

// JobTeam is the team that owns j ("" for none): the team of its cluster
// and queue (model.OwnerOf, model.JobQueue).
func (o Owners) JobTeam(j model.Job) string {
	return model.OwnerOf(o.Teams, j.Cluster, model.JobQueue(o.Queues[j.Cluster], j.Config))
}

// listRole is the role a caller needs on an item of the list method returns.
func listRole(method string) model.Role {
	m, _ := MethodOf(method)
	return m.Role
}

// roleInTeam is the caller's role on what team owns.
func (g *guarded) roleInTeam(o Owners, team string) model.Role {
	return max(g.c.Global, o.RoleIn(team, g.c.User))
}

// jobTeams is o, asked again when it does not know one of the jobs ids
// (made after it was read).
func (g *guarded) jobTeams(ctx context.Context, o Owners, ids []string) (Owners, error) {
	for _, id := range ids {
		if _, ok := o.Jobs[id]; !ok && id != "" {
			g.mu.Lock()
			g.ownedAt = g.ownedAt.Add(-ownersTTL)
			g.mu.Unlock()
			o, _, err := g.ownersNow(ctx)
			return o, err
		}
	}
	return o, nil
}

func (g *guarded) filterListJobs(ctx context.Context, js []JobView) ([]JobView, error) {
	o, teams, err := g.ownersNow(ctx)
	if err != nil || !teams {
		return js, err
	}
	need := listRole("ListJobs")
	out := []JobView{}
	for _, j := range js {
		team := o.JobTeam(j.Job)
		role := g.roleInTeam(o, team)
		if !role.Allows(need) {
			continue
		}
		if !role.Allows(model.Operator) {
			// The keys a viewer of the job's team sees say why not.
			j.Actions = slices.Clone(j.Actions)
			for i := range j.Actions {
				if j.Actions[i].Refused == "" {
					j.Actions[i].Refused = g.who() + " is a " + role.String() + teamWhere(team)
				}
			}
		}
		out = append(out, j)
	}
	return out, nil
}

func (g *guarded) filterListJobsPage(ctx context.Context, p JobPage) (JobPage, error) {
	var err error
	p.Jobs, err = g.filterListJobs(ctx, p.Jobs)
	return p, err
}

func (g *guarded) filterCommandsPage(ctx context.Context, p CommandPage) (CommandPage, error) {
	var err error
	p.Commands, err = g.filterCommands(ctx, p.Commands)
	return p, err
}

func (g *guarded) filterCommands(ctx context.Context, cs []model.Command) ([]model.Command, error) {
	o, teams, err := g.ownersNow(ctx)
	if err != nil || !teams {
		return cs, err
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.JobID)
	}
	if o, err = g.jobTeams(ctx, o, ids); err != nil {
		return nil, err
	}
	need := listRole("Commands")
	out := []model.Command{}
	for _, c := range cs {
		if g.roleInTeam(o, o.Jobs[c.JobID]).Allows(need) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (g *guarded) filterAlerts(ctx context.Context, as []model.Alert) ([]model.Alert, error) {
	o, teams, err := g.ownersNow(ctx)
	if err != nil || !teams {
		return as, err
	}
	var ids []string
	for _, a := range as {
		ids = append(ids, a.JobID)
	}
	if o, err = g.jobTeams(ctx, o, ids); err != nil {
		return nil, err
	}
	need := listRole("Alerts")
	out := []model.Alert{}
	for _, a := range as {
		if g.roleInTeam(o, o.Jobs[a.JobID]).Allows(need) {
			out = append(out, a)
		}
	}
	return out, nil
}

// seesCluster: the caller has a role in a team that owns the cluster or a
// queue of it, or a role of palink's own.
func (g *guarded) seesCluster(o Owners, cluster string) bool {
	if g.c.Global.Allows(model.Viewer) {
		return true
	}
	return slices.ContainsFunc(model.ClusterOwners(o.Teams, cluster), func(t string) bool { return o.RoleIn(t, g.c.User) != model.NoRole })
}

func (g *guarded) filterClusters(ctx context.Context, cs []ClusterStatus) ([]ClusterStatus, error) {
	o, teams, err := g.ownersNow(ctx)
	if err != nil || !teams {
		return cs, err
	}
	out := []ClusterStatus{}
	for _, c := range cs {
		if g.seesCluster(o, c.Name) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (g *guarded) filterTeams(ctx context.Context, ts []model.Team) ([]model.Team, error) {
	o, teams, err := g.ownersNow(ctx)
	if err != nil || !teams {
		return ts, err
	}
	out := []model.Team{}
	for _, t := range ts {
		if g.roleInTeam(o, t.Name) != model.NoRole {
			out = append(out, t)
		}
	}
	return out, nil
}

// filterAudit keeps the entries of the jobs of the teams the caller is an
// admin of; the rest (definitions, teams, refusals of jobs that do not
// exist) belong to no team, and only palink's own admins read them.
func (g *guarded) filterAudit(ctx context.Context, es []model.AuditEntry) ([]model.AuditEntry, error) {
	o, teams, err := g.ownersNow(ctx)
	if err != nil || !teams {
		return es, err
	}
	need := listRole("Audit")
	if g.c.Global.Allows(need) {
		return es, nil
	}
	out := []model.AuditEntry{}
	for _, e := range es {
		if team, ok := o.Jobs[e.JobID]; ok && g.roleInTeam(o, team).Allows(need) {
			out = append(out, e)
		}
	}
	return out, nil
}

// filterWatch passes on the changes of what the caller may see.
func (g *guarded) filterWatch(ctx context.Context, in <-chan Change) (<-chan Change, error) {
	if !g.teamsOn() {
		return in, nil
	}
	out := make(chan Change)
	go func() {
		defer close(out)
		for c := range in {
			if !g.sees(ctx, c) {
				continue
			}
			select {
			case out <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// sees reports whether the caller may see what change c is about.
func (g *guarded) sees(ctx context.Context, c Change) bool {
	o, teams, err := g.ownersNow(ctx)
	switch {
	case err != nil:
		return false
	case !teams || c.Kind == Resync:
		return true
	case c.Job != nil:
		return g.roleInTeam(o, o.JobTeam(c.Job.Job)) != model.NoRole
	case c.Command != nil:
		if o, err = g.jobTeams(ctx, o, []string{c.Command.JobID}); err != nil {
			return false
		}
		return g.roleInTeam(o, o.Jobs[c.Command.JobID]) != model.NoRole
	case c.Cluster != nil:
		return g.seesCluster(o, c.Cluster.Name)
	}
	return false
}

// whoAmI answers WhoAmI from the caller, whatever their role.
func (g *guarded) whoAmI(ctx context.Context) (Identity, error) {
	o, teams, err := g.ownersNow(ctx)
	if err != nil {
		return Identity{}, err
	}
	id := Identity{User: g.c.User, Role: g.c.Role, Teams: []TeamRole{}}
	if teams {
		id.Role = g.c.Global
		for _, t := range o.Teams {
			if r := t.RoleOf(g.c.User); r != model.NoRole {
				id.Teams = append(id.Teams, TeamRole{Team: t.Name, Role: r})
			}
		}
	}
	id.ReadOnly = g.c.ReadOnly || !g.best(ctx).Allows(model.Operator) || g.s.ReadOnly()
	if teams && id.Role == model.NoRole && len(id.Teams) == 0 {
		var names []string
		for _, t := range o.Teams {
			names = append(names, t.Name)
		}
		id.Why = "user " + g.c.User + " is in no team of this palink (teams: " + strings.Join(names, ", ") +
			"), and palink shows each user their teams' jobs: a team's admin adds them with `palink team grant TEAM " + g.c.User + " viewer`"
	}
	return id, nil
}
