package core

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// createBatch is how many jobs one CreateJobs transaction creates (a store
// on etcd takes fewer: a batch too large is split in halves).
const createBatch = 500

// bulkCreator is Local's creation of jobs (CreateJob's checks, and
// CreateJobs), a part of its own.
type bulkCreator struct{ l *Local }

// jobDraft is a job checked and ready to be written: the job, its first
// spec, and who creates it.
type jobDraft struct {
	job  model.Job
	spec model.Spec
	user string
}

// newJob checks r and makes the job it creates (with its JAR pinned and
// its entry class found), without writing anything.
func (b bulkCreator) newJob(ctx context.Context, r api.CreateJobRequest) (jobDraft, error) {
	l := b.l
	if err := checkJobName(r.Name); err != nil {
		return jobDraft{}, err
	}
	if l.clusters[r.Cluster] == nil {
		return jobDraft{}, fmt.Errorf("create job %s: unknown cluster %q (known: %s)", r.Name, r.Cluster, strings.Join(clusterNames(l.specs), ", "))
	}
	switch r.Kind {
	case model.KindSQL:
		if strings.TrimSpace(r.Spec.SQL) == "" {
			return jobDraft{}, fmt.Errorf("create job %s: the SQL script is empty", r.Name)
		}
	case model.KindJAR:
		var err error
		if r.Spec, err = l.pinArtifact(ctx, r.Spec); err != nil {
			return jobDraft{}, fmt.Errorf("create job %s: %w", r.Name, err)
		}
		if r.Spec.JarPath == "" {
			return jobDraft{}, fmt.Errorf("create job %s: no jar given", r.Name)
		}
		if r.Spec, err = withEntryClass(r.Spec); err != nil {
			return jobDraft{}, fmt.Errorf("create job %s: %w", r.Name, err)
		}
	case model.KindPython:
		if err := checkPythonSpec(r.Spec); err != nil {
			return jobDraft{}, fmt.Errorf("create job %s: %w", r.Name, err)
		}
	default:
		return jobDraft{}, fmt.Errorf("create job %s: kind must be SQL, JAR or PYTHON", r.Name)
	}
	now := l.now()
	j := model.Job{
		ID: newJobID(), Name: r.Name, Kind: r.Kind, Cluster: r.Cluster, SpecVersion: 1,
		Parallelism: r.Parallelism, Config: r.Config, State: model.StateNone,
		CreatedAt: now, UpdatedAt: now,
	}
	s := r.Spec
	s.JobID, s.CreatedAt = j.ID, now
	s.Author = orUser(r.Issuer, l.user)
	return jobDraft{job: j, spec: s, user: s.Author}, nil
}

// create writes the job, its first spec, its history's first entry and
// the audit entry in tx, and returns the history entry.
func (n jobDraft) create(tx store.Tx) (model.Event, error) {
	j, now := n.job, n.job.CreatedAt
	if err := tx.CreateJob(j); err != nil {
		return model.Event{}, fmt.Errorf("create job %s: %w", j.Name, err)
	}
	if _, err := tx.AddSpec(n.spec); err != nil {
		return model.Event{}, err
	}
	ev, err := tx.AppendEvent(model.Event{JobID: j.ID, Time: now, From: model.StateNone, To: model.StateNone,
		Reason: fmt.Sprintf("created by %s (%s v1)", n.user, j.Kind)})
	if err != nil {
		return model.Event{}, err
	}
	_, err = tx.AppendAudit(model.AuditEntry{Time: now, User: n.user, Action: "create", JobID: j.ID, Outcome: "succeeded"})
	return ev, err
}

// CreateJobs creates the jobs of rs as CreateJob does each, a batch of
// them to a transaction: a fleet of thousands (the demo's) is written in
// a few commits rather than one each. Every request is checked before
// anything is written; a batch the store refuses is not written, and the
// jobs of the batches before it stay. It returns the jobs created.
func (b bulkCreator) CreateJobs(ctx context.Context, rs []api.CreateJobRequest) ([]model.Job, error) {
	l := b.l
	if l.readOnly {
		return nil, api.ReadOnly("create jobs")
	}
	todo := make([]jobDraft, 0, len(rs))
	names := make(map[string]bool, len(rs))
	for _, r := range rs {
		nj, err := b.newJob(ctx, r)
		if err != nil {
			return nil, err
		}
		if names[r.Name] {
			return nil, fmt.Errorf("create job %s: the name is given twice: %w", r.Name, store.ErrExists)
		}
		names[r.Name] = true
		todo = append(todo, nj)
	}
	var done []model.Job
	// A batch the store refused as too large is split in halves; the
	// batches after it start at the size that fitted.
	size := createBatch
	for from := 0; from < len(todo); {
		n := min(size, len(todo)-from)
		evs, fit, err := b.createBatch(ctx, todo[from:from+n])
		for i := range evs {
			done = append(done, todo[from+i].job)
		}
		b.publish(todo[from:from+n], evs)
		if err != nil {
			return done, err
		}
		from += n
		size = fit
	}
	return done, nil
}

// publish tells watchers of a batch of new jobs.
func (b bulkCreator) publish(jobs []jobDraft, evs []model.Event) {
	for i := range evs {
		publisher{b.l}.Job(jobs[i].job, nil, &evs[i])
	}
}

// createBatch writes js in one transaction or, when the store refuses one
// that large (etcd's limits), in halves. It returns the history entries of
// the jobs written, in order, and the size of the smallest batch that
// committed.
func (b bulkCreator) createBatch(ctx context.Context, js []jobDraft) ([]model.Event, int, error) {
	l := b.l
	var evs []model.Event
	err := l.st.Update(ctx, func(tx store.Tx) error {
		evs = evs[:0]
		for _, nj := range js {
			ev, err := nj.create(tx)
			if err != nil {
				return err
			}
			evs = append(evs, ev)
		}
		return nil
	})
	if errors.Is(err, store.ErrTooLarge) && len(js) > 1 {
		half := len(js) / 2
		e1, f1, err := b.createBatch(ctx, js[:half])
		if err != nil {
			return e1, f1, err
		}
		e2, f2, err := b.createBatch(ctx, js[half:])
		return append(e1, e2...), min(f1, f2), err
	}
	if err != nil {
		return nil, 1, err
	}
	return evs, len(js), nil
}
