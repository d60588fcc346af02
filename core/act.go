package core

import (
	"context"
	"errors"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// Plan and Act are the scheduler's, with what a deploy changes in a JAR
// job's jar.

// Plan implements api.Service.
func (l *Local) Plan(ctx context.Context, r api.ActionRequest) (api.ActionPlan, error) {
	p, err := l.sched.Plan(ctx, r)
	if err == nil {
		p.Artifact = l.builds.artifactChange(ctx, r)
	}
	return p, err
}

// Act implements api.Service. A deploy that changes a JAR job's artifact
// records the change, with its commits, in the command.
func (l *Local) Act(ctx context.Context, r api.ActionRequest) (model.Command, error) {
	change := l.builds.artifactChange(ctx, r)
	if change == nil {
		return l.sched.Act(ctx, r)
	}
	return l.sched.ActWith(ctx, r, func(c *model.Command) { c.Params.Artifact = change })
}

// artifactChange says what deploying the job's current spec changes in
// its jar: from the artifact of the spec it last deployed to the one its
// spec pins now, with the commits between them from the project's
// checkout. nil when the job is no JAR job of a project, has never been
// deployed, or keeps its artifact.
func (s builds) artifactChange(ctx context.Context, r api.ActionRequest) *model.ArtifactChange {
	if r.Kind != model.CmdResubmit && r.Kind != model.CmdRestart {
		return nil
	}
	var from, to model.Spec
	err := s.st.View(ctx, func(tx store.ReadTx) error {
		j, err := journal.FindJob(tx, r.JobRef)
		if err != nil || j.Kind != model.KindJAR {
			return errSkip
		}
		if to, err = tx.Spec(j.ID, j.SpecVersion); err != nil || to.Project == "" {
			return errSkip
		}
		deployed, err := tx.Commands(store.CommandFilter{JobID: j.ID, States: []model.CommandState{model.CmdSucceeded},
			Kinds: []model.CommandKind{model.CmdSubmit, model.CmdRestart, model.CmdResubmit}, Limit: 1})
		if err != nil || len(deployed) == 0 {
			return errSkip
		}
		v := deployed[len(deployed)-1].Params.SpecVersion
		if v == 0 {
			return errSkip
		}
		from, err = tx.Spec(j.ID, v)
		return err
	})
	if err != nil || from.Project != to.Project || from.ArtifactVersion == to.ArtifactVersion || from.ArtifactCommit == "" || to.ArtifactCommit == "" {
		return nil
	}
	c := &model.ArtifactChange{Project: to.Project, From: from.ArtifactVersion, To: to.ArtifactVersion,
		FromCommit: from.ArtifactCommit, ToCommit: to.ArtifactCommit}
	if from.ArtifactCommit == to.ArtifactCommit {
		c.Note = "the same commit, built again"
		return c
	}
	commits, back, err := s.b.Commits(ctx, to.Project, from.ArtifactCommit, to.ArtifactCommit)
	if err != nil {
		c.Note = err.Error()
		return c
	}
	c.Commits, c.Back = commits, back
	return c
}

var errSkip = errors.New("no artifact change")
