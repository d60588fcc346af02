package agent

import (
	"context"
	"net/rpc"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// projects are the project calls of a Client.
type projects struct {
	c        *rpc.Client
	readOnly *bool // the Client's
}

// AddProject implements api.Service.
func (c projects) AddProject(ctx context.Context, p model.Project) (model.Project, error) {
	if *c.readOnly {
		return model.Project{}, api.ReadOnly("add project")
	}
	return do[model.Project, model.Project](ctx, c.c, "AddProject", p)
}

// Projects implements api.Service.
func (c projects) Projects(ctx context.Context) ([]model.Project, error) {
	return do[struct{}, []model.Project](ctx, c.c, "Projects", struct{}{})
}

// BuildProject implements api.Service; the agent runs the build, and its
// log comes with the artifact.
func (c projects) BuildProject(ctx context.Context, r api.BuildRequest) (model.Artifact, error) {
	if *c.readOnly {
		return model.Artifact{}, api.ReadOnly("build project")
	}
	r.Log, r.Progress = nil, nil // neither crosses the socket; the log comes with the artifact
	return do[api.BuildRequest, model.Artifact](ctx, c.c, "BuildProject", r)
}

// Artifacts implements api.Service.
func (c projects) Artifacts(ctx context.Context, project string) ([]model.Artifact, error) {
	return do[string, []model.Artifact](ctx, c.c, "Artifacts", project)
}

// BuildStatus implements api.Service: the agent's running build.
func (c projects) BuildStatus(ctx context.Context, project string) (api.BuildStatus, error) {
	return do[string, api.BuildStatus](ctx, c.c, "BuildStatus", project)
}
