package core

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/sandbox"
	"github.com/palink/palink/core/projects"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// BuildPolicy is how palink runs the commands it does not write: project
// builds and secret variables' commands get an environment built from
// nothing, run as BuildPolicy.User where palink is root (and are refused
// as root without one), and builds run inside bubblewrap when Sandbox is
// "bwrap". core/internal/sandbox owns it.
type BuildPolicy = sandbox.Policy

// CheckBuildPolicy says whether builds and secret commands can run under
// p on this host (bwrap installed, a user that is not root).
func CheckBuildPolicy(p BuildPolicy) error { return p.Check() }

// BuildProjectAt builds a project with the store named path open only
// while it reads the project and while it records the outcome, never
// while git and the build command run: for a CLI without an agent, so
// that other palinks (a kill, a var set) may use the store meanwhile. o
// are the options a Local over the store would get.
func BuildProjectAt(ctx context.Context, path string, o Options, r api.BuildRequest) (model.Artifact, error) {
	if o.ReadOnly {
		return model.Artifact{}, api.ReadOnly("build project")
	}
	user := r.Issuer
	if user == "" {
		user = o.User
	}
	if user == "" {
		user = CurrentUser()
	}
	b := projects.New(projects.Options{CacheDir: o.ProjectCache, Now: o.Now, Run: o.Build,
		Open: func() (store.Store, error) {
			so := storeOptions(o)
			so.LockTimeout = buildStoreWait
			return store.OpenStore(path, so)
		}})
	return b.BuildWith(ctx, r.Project, r.Ref, user, r.Log, r.Progress)
}

// buildStoreWait is how long BuildProjectAt waits for the store another
// palink holds: its commands hold it for moments, and the artifact of a
// long build is worth a wait.
const buildStoreWait = 30 * time.Second

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
	return s.b.BuildWith(ctx, r.Project, r.Ref, user, r.Log, r.Progress)
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

// pinArtifact resolves a spec that names a project: its jar is the
// artifact of ArtifactVersion, or the newest one when 0, pinned by version
// and commit so that a restart deploys the same file.
func (s builds) pinArtifact(ctx context.Context, spec model.Spec) (model.Spec, error) {
	if spec.Project == "" {
		return spec, nil
	}
	arts, err := s.Artifacts(ctx, spec.Project)
	if err != nil {
		return spec, err
	}
	if len(arts) == 0 {
		return spec, fmt.Errorf("project %s has no artifact yet: palink project build %s", spec.Project, spec.Project)
	}
	a := arts[len(arts)-1]
	if v := spec.ArtifactVersion; v != 0 {
		i := slices.IndexFunc(arts, func(a model.Artifact) bool { return a.Version == v })
		if i < 0 {
			return spec, fmt.Errorf("project %s has no artifact v%d (newest: v%d): %w", spec.Project, v, a.Version, model.ErrNotFound)
		}
		a = arts[i]
	}
	spec.JarPath, spec.ArtifactVersion, spec.ArtifactCommit = a.Path, a.Version, a.Commit
	return spec, nil
}

// BuildStatus implements Service.
func (s builds) BuildStatus(_ context.Context, project string) (api.BuildStatus, error) {
	st := api.BuildStatus{Project: project}
	st.Phase, st.Commit, st.Started, st.Log, st.Running = s.b.Status(project)
	return st, nil
}
