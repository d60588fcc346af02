package core

import (
	"time"

	"context"
	"errors"
	"fmt"
	"github.com/palink/palink/core/clusters"
	"slices"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// tenants keeps the teams and reads the audit log: Teams, TeamMembers,
// AddTeam, Grant, WhoAmI, Audit, and the Tenancy a guard asks.
type tenants struct {
	st       store.Store
	specs    []clusters.Spec
	now      func() time.Time
	user     string
	readOnly bool
}

// Teams implements api.Service: every team, by name (a guard leaves out
// the caller's others).
func (l tenants) Teams(ctx context.Context) ([]model.Team, error) {
	var out []model.Team
	err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		out, err = tx.Teams()
		return err
	})
	return out, err
}

// TeamMembers implements api.Service.
func (l tenants) TeamMembers(ctx context.Context, team string) ([]model.Member, error) {
	var t model.Team
	err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		t, err = tx.Team(team)
		return err
	})
	if err != nil {
		return nil, err
	}
	return append([]model.Member{}, t.Members...), nil
}

// AddTeam implements api.Service: it creates the team, or adds what r
// names to what it owns; a cluster this palink does not know, and a
// cluster or queue another team owns, are refused.
func (l tenants) AddTeam(ctx context.Context, r api.TeamRequest) (model.Team, error) {
	op := "add team " + r.Name
	if l.readOnly {
		return model.Team{}, api.ReadOnly("add team")
	}
	if !model.ValidTeamName(r.Name) {
		return model.Team{}, fmt.Errorf("%s: a team's name is letters, digits, '-', '_' and '.', at most 64: %w", op, model.ErrRefused)
	}
	for i, h := range r.Owns {
		if !slices.Contains(clusterNames(l.specs), h.Cluster) {
			return model.Team{}, fmt.Errorf("%s: no cluster %q in the config (clusters: %s): %w", op, h.Cluster, strings.Join(clusterNames(l.specs), ", "), model.ErrNotFound)
		}
		r.Owns[i].Queue = model.QueueLeaf(h.Queue)
	}
	user, now := orUser(r.Issuer, l.user), l.now()
	var t model.Team
	err := l.st.Update(ctx, func(tx store.Tx) error {
		all, err := tx.Teams()
		if err != nil {
			return err
		}
		if err := model.CheckHoldings(all, r.Name, r.Owns); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		t = model.Team{Name: r.Name, CreatedAt: now, CreatedBy: user}
		verb := "created"
		if i := slices.IndexFunc(all, func(o model.Team) bool { return o.Name == r.Name }); i >= 0 {
			t, verb = all[i], "extended"
		}
		var added []string
		for _, h := range r.Owns {
			if !slices.Contains(t.Owns, h) {
				t.Owns = append(t.Owns, h)
				added = append(added, h.String())
			}
		}
		if err := tx.PutTeam(t); err != nil {
			return err
		}
		outcome := verb
		if len(added) > 0 {
			outcome += ": owns " + strings.Join(added, ", ")
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: now, User: user, Action: "team add " + r.Name, Outcome: outcome})
		return err
	})
	return t, err
}

// Grant implements api.Service: User gets Role in Team; model.NoRole takes
// them out of it.
func (l tenants) Grant(ctx context.Context, r api.GrantRequest) (model.Team, error) {
	op := fmt.Sprintf("grant %s to %s in team %s", r.Role, r.User, r.Team)
	if r.Role == model.NoRole {
		op = fmt.Sprintf("take %s out of team %s", r.User, r.Team)
	}
	if l.readOnly {
		return model.Team{}, api.ReadOnly("grant a role")
	}
	if !model.ValidUserName(r.User) {
		return model.Team{}, fmt.Errorf("%s: %q is no user name: %w", op, r.User, model.ErrRefused)
	}
	if r.Role != model.NoRole && !slices.Contains(model.Roles(), r.Role) {
		return model.Team{}, fmt.Errorf("%s: role %s: viewer, operator, admin or none: %w", op, r.Role, model.ErrRefused)
	}
	user, now := orUser(r.Issuer, l.user), l.now()
	var t model.Team
	err := l.st.Update(ctx, func(tx store.Tx) (err error) {
		if t, err = tx.Team(r.Team); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		was := t.RoleOf(r.User)
		t.Members = slices.DeleteFunc(slices.Clone(t.Members), func(m model.Member) bool { return m.User == r.User })
		if r.Role != model.NoRole {
			t.Members = append(t.Members, model.Member{User: r.User, Role: r.Role, GrantedBy: user, GrantedAt: now})
			slices.SortFunc(t.Members, func(a, b model.Member) int { return strings.Compare(a.User, b.User) })
		}
		if err := tx.PutTeam(t); err != nil {
			return err
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: now, User: user, Action: fmt.Sprintf("team grant %s %s %s", r.Team, r.User, r.Role),
			Outcome: fmt.Sprintf("succeeded (was %s)", was)})
		return err
	})
	return t, err
}

// WhoAmI implements api.Service for this process's own user, who opened
// the store and is its admin; a guard answers for everyone else.
func (l tenants) WhoAmI(ctx context.Context) (api.Identity, error) {
	ts, err := l.Teams(ctx)
	if err != nil {
		return api.Identity{}, err
	}
	id := api.Identity{User: l.user, Role: model.Admin, Teams: []api.TeamRole{}, ReadOnly: l.readOnly}
	for _, t := range ts {
		if r := t.RoleOf(l.user); r != model.NoRole {
			id.Teams = append(id.Teams, api.TeamRole{Team: t.Name, Role: r})
		}
	}
	return id, nil
}

// Audit implements api.Service: the entries f selects, oldest first.
func (l tenants) Audit(ctx context.Context, f api.AuditFilter) ([]model.AuditEntry, error) {
	var all []model.AuditEntry
	err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		all, err = tx.Audit(0, 0)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	out := []model.AuditEntry{}
	for _, e := range all {
		if e.Time.Before(f.Since) || f.User != "" && e.User != f.User {
			continue
		}
		out = append(out, e)
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out, nil
}

// Tenancy is what a guard needs of this service to enforce teams: who
// owns what, read from the store (api.Tenancy).
func (l tenants) Tenancy() api.Tenancy {
	queues := map[string]string{}
	for _, c := range l.specs {
		if c.Deploy.Queue != "" {
			queues[c.Name] = c.Deploy.Queue
		}
	}
	return tenancy{st: l.st, queues: queues}
}

// tenancy answers a guard's questions over the store.
type tenancy struct {
	st     store.Store
	queues map[string]string
}

// Owners implements api.Tenancy.
func (t tenancy) Owners(ctx context.Context) (api.Owners, error) {
	o := api.Owners{Jobs: map[string]string{}, Queues: t.queues}
	err := t.st.View(ctx, func(tx store.ReadTx) error {
		teams, err := tx.Teams()
		if err != nil {
			return err
		}
		o.Teams = teams
		if len(teams) == 0 {
			return nil // no teams: nobody asks whose a job is
		}
		jobs, err := tx.Jobs()
		if err != nil {
			return err
		}
		clear(o.Jobs)
		for _, j := range jobs {
			o.Jobs[j.ID] = o.JobTeam(j)
		}
		return nil
	})
	return o, err
}

// JobID implements api.Tenancy.
func (t tenancy) JobID(ctx context.Context, ref string) (string, error) {
	var id string
	err := t.st.View(ctx, func(tx store.ReadTx) error {
		j, err := journal.FindJob(tx, ref)
		id = j.ID
		return err
	})
	return id, err
}

// CommandJob implements api.Tenancy.
func (t tenancy) CommandJob(ctx context.Context, ref string) (string, error) {
	var id string
	err := t.st.View(ctx, func(tx store.ReadTx) error {
		c, err := journal.FindCommand(tx, ref)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("command %s: %w", ref, model.ErrNotFound)
		}
		id = c.JobID
		return err
	})
	return id, err
}
