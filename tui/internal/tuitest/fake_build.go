package tuitest

import (
	"context"
	"fmt"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// FakeBuild steers the fake's BuildProject: its commit, and a build that
// stops in its build phase (Hold, closed by the test to let it go on,
// after Reached is closed) or fails (Fail).
type FakeBuild struct {
	Commit  string
	Hold    chan struct{}
	Reached chan struct{}
	Fail    error
}

// BuildProject implements api.Service: it goes through the phases of a
// real build, writes a short maven log, and records the next artifact.
func (f *Fake) BuildProject(ctx context.Context, r api.BuildRequest) (model.Artifact, error) {
	f.record("BuildProject %s %s", r.Project, r.Ref)
	f.Mu.Lock()
	fb := f.Build
	i := -1
	for n, p := range f.ProjectList {
		if p.Name == r.Project {
			i = n
		}
	}
	f.Mu.Unlock()
	if i < 0 {
		return model.Artifact{}, fmt.Errorf("project %q: not found", r.Project)
	}
	if fb.Commit == "" {
		fb.Commit = "4b2d9e07c1a3f5e6d7c8b9a0f1e2d3c4b5a69788"
	}
	progress := r.Progress
	if progress == nil {
		progress = func(model.BuildPhase, string) {}
	}
	say := func(s string) {
		if r.Log != nil {
			fmt.Fprintln(r.Log, s)
		}
	}
	progress(model.PhaseFetch, "")
	say("$ git: " + f.ProjectList[i].Repo + " at main")
	progress(model.PhaseCheckout, fb.Commit)
	progress(model.PhaseBuild, fb.Commit)
	say("$ " + f.ProjectList[i].Build + "   (commit " + fb.Commit[:12] + ", timeout 30m0s)")
	say("[INFO] Scanning for projects...")
	say("[INFO] Building " + r.Project + " 1.4-SNAPSHOT")
	if fb.Hold != nil {
		close(fb.Reached)
		select {
		case <-fb.Hold:
		case <-ctx.Done():
			return model.Artifact{}, fmt.Errorf("build %s: the build was cancelled and killed with its process group: %w", r.Project, ctx.Err())
		}
	}
	if fb.Fail != nil {
		say("[ERROR] COMPILATION ERROR")
		return model.Artifact{}, fb.Fail
	}
	progress(model.PhaseCollect, fb.Commit)
	say("[INFO] BUILD SUCCESS")
	f.Mu.Lock()
	defer f.Mu.Unlock()
	as := f.ArtifactList[r.Project]
	a := model.Artifact{Project: r.Project, Version: len(as) + 1, Ref: r.Ref, Commit: fb.Commit, Subject: "window by event time",
		SHA256: strings.Repeat("ab", 32), Size: 48_500_000, File: "target/dedup-1.4.jar", BuiltBy: "ops", BuiltAt: f.now}
	if f.ArtifactList == nil {
		f.ArtifactList = map[string][]model.Artifact{}
	}
	f.ArtifactList[r.Project] = append(as, a)
	return a, nil
}

// BuildStatus implements api.Service: the fake's builds run in the
// caller's process, so none is seen running elsewhere.
func (f *Fake) BuildStatus(_ context.Context, project string) (api.BuildStatus, error) {
	return api.BuildStatus{Project: project}, nil
}
