package agent

import (
	"context"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// projects are the project calls of a Client.
type projects struct{ w *wire }

// AddProject implements api.Service.
func (c projects) AddProject(ctx context.Context, p model.Project) (model.Project, error) {
	return do[model.Project, model.Project](ctx, c.w, "AddProject", p)
}

// Projects implements api.Service.
func (c projects) Projects(ctx context.Context) ([]model.Project, error) {
	return do[struct{}, []model.Project](ctx, c.w, "Projects", struct{}{})
}

// BuildProject implements api.Service; the agent runs the build, and its
// log comes with the artifact.
func (c projects) BuildProject(ctx context.Context, r api.BuildRequest) (model.Artifact, error) {
	r.Log, r.Progress = nil, nil // neither crosses the socket; the log comes with the artifact
	return do[api.BuildRequest, model.Artifact](ctx, c.w, "BuildProject", r)
}

// Artifacts implements api.Service.
func (c projects) Artifacts(ctx context.Context, project string) ([]model.Artifact, error) {
	return do[string, []model.Artifact](ctx, c.w, "Artifacts", project)
}

// BuildStatus implements api.Service: the agent's running build.
func (c projects) BuildStatus(ctx context.Context, project string) (api.BuildStatus, error) {
	return do[string, api.BuildStatus](ctx, c.w, "BuildStatus", project)
}
