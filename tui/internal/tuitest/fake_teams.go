package tuitest

import (
	"context"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// Teams implements api.Service: the fake has no teams.
func (f *Fake) Teams(ctx context.Context) ([]model.Team, error) {
	f.record("Teams")
	return []model.Team{}, f.wait(ctx)
}

// TeamMembers implements api.Service.
func (f *Fake) TeamMembers(ctx context.Context, team string) ([]model.Member, error) {
	f.record("TeamMembers %s", team)
	return nil, model.ErrNotFound
}

// AddTeam implements api.Service.
func (f *Fake) AddTeam(ctx context.Context, r api.TeamRequest) (model.Team, error) {
	f.record("AddTeam %s", r.Name)
	return model.Team{Name: r.Name, Owns: r.Owns}, f.wait(ctx)
}

// Grant implements api.Service.
func (f *Fake) Grant(ctx context.Context, r api.GrantRequest) (model.Team, error) {
	f.record("Grant %s %s %s", r.Team, r.User, r.Role)
	return model.Team{}, model.ErrNotFound
}

// WhoAmI implements api.Service: an admin, or a viewer when f.Viewer, or
// f.Role when set.
func (f *Fake) WhoAmI(ctx context.Context) (api.Identity, error) {
	f.record("WhoAmI")
	role := model.Admin
	switch {
	case f.Viewer:
		role = model.Viewer
	case f.Role != model.NoRole:
		role = f.Role
	}
	return api.Identity{User: "fake", Role: role, Teams: []api.TeamRole{}, ReadOnly: f.Viewer}, f.wait(ctx)
}

// Audit implements api.Service: the fake keeps no audit log.
func (f *Fake) Audit(ctx context.Context, _ api.AuditFilter) ([]model.AuditEntry, error) {
	f.record("Audit")
	return []model.AuditEntry{}, f.wait(ctx)
}
