package core

import (
	"context"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/projects"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// builds is Local's part for projects (core/projects does the work).
type builds struct {
	b        *projects.Builder
	st       store.Store
	user     string
	readOnly bool
}

// AddProject implements Service.
func (s builds) AddProject(ctx context.Context, p model.Project) (model.Project, error) {
	if s.readOnly {
		return model.Project{}, api.ReadOnly("add project")
	}
	user := p.CreatedBy // the agent's caller
	if user == "" {
		user = s.user
	}
	return s.b.Add(ctx, p, user)
}

// Projects implements Service.
func (s builds) Projects(ctx context.Context) ([]model.Project, error) {
	var out []model.Project
	err := s.st.View(ctx, func(tx store.ReadTx) (err error) { out, err = tx.Projects(); return err })
	return out, err
}

// BuildProject implements Service.
func (s builds) BuildProject(ctx context.Context, r api.BuildRequest) (model.Artifact, error) {
	if s.readOnly {
		return model.Artifact{}, api.ReadOnly("build project")
	}
	user := r.Issuer
	if user == "" {
		user = s.user
	}
	return s.b.Build(ctx, r.Project, r.Ref, user, r.Log)
}

// Artifacts implements Service.
func (s builds) Artifacts(ctx context.Context, project string) ([]model.Artifact, error) {
	var out []model.Artifact
	err := s.st.View(ctx, func(tx store.ReadTx) (err error) { out, err = tx.Artifacts(project); return err })
	if out == nil && err == nil {
		out = []model.Artifact{}
	}
	return out, err
}
