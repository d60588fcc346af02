package store

import (
	"fmt"
	"os"

	"github.com/palink/palink/model"
)

// requireJob fails with ErrNotFound, naming the operation, if the job does not exist.
func (t *txn) requireJob(op, jobID string) error {
	if jobID == "" {
		return fmt.Errorf("%s: job %q: %w", op, jobID, ErrNotFound)
	}
	v, err := t.get(in(bucketJobs), []byte(jobID))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if v == nil {
		return fmt.Errorf("%s: job %q: %w", op, jobID, ErrNotFound)
	}
	return nil
}

// Job returns the job with the given id.
func (t jobRecords) Job(id string) (model.Job, error) {
	v, err := t.get(in(bucketJobs), []byte(id))
	if err != nil {
		return model.Job{}, fmt.Errorf("get job %q: %w", id, err)
	}
	if v == nil {
		return model.Job{}, fmt.Errorf("get job %q: %w", id, ErrNotFound)
	}
	return t.jobs.decode([]byte(id), v)
}

// JobByName returns the job with the given name.
func (t jobRecords) JobByName(name string) (model.Job, error) {
	id, err := t.get(in(bucketJobNames), []byte(name))
	if err != nil {
		return model.Job{}, fmt.Errorf("get job named %q: %w", name, err)
	}
	if id == nil {
		return model.Job{}, fmt.Errorf("get job named %q: %w", name, ErrNotFound)
	}
	j, err := t.Job(string(id))
	if err != nil {
		return model.Job{}, fmt.Errorf("get job named %q: name index points to a missing job: %w", name, err)
	}
	return j, nil
}

// Jobs returns every job, ordered by id.
func (t jobRecords) Jobs() ([]model.Job, error) {
	// Sized by the jobs the cache has seen: grown by doubling, a list of
	// 10,000 jobs was copied 14 times over on every sync cycle.
	out := make([]model.Job, 0, t.jobs.size())
	it := t.scan(in(bucketJobs), scanOpts{})
	for {
		k, v, err := it.next()
		if err != nil {
			return nil, fmt.Errorf("list jobs: %w", err)
		}
		if k == nil {
			return out, nil
		}
		j, err := t.jobs.decode(k, v)
		if err != nil {
			return nil, fmt.Errorf("list jobs: %w", err)
		}
		out = append(out, j)
	}
}

// CreateJob adds a job whose id and name are both free.
func (t jobRecords) CreateJob(j model.Job) error {
	op := fmt.Sprintf("create job %s (%s)", j.ID, j.Name)
	if err := checkJob(j); err != nil {
		return fmt.Errorf("create job: %w", err)
	}
	taken, err := t.get(in(bucketJobs), []byte(j.ID))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	other, err := t.get(in(bucketJobNames), []byte(j.Name))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if taken != nil {
		return fmt.Errorf("%s: id %s is taken: %w", op, j.ID, ErrExists)
	}
	if other != nil {
		return fmt.Errorf("%s: name %q is taken by job %s: %w", op, j.Name, other, ErrExists)
	}
	v, err := encode("job", j.ID, j)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketJobs), []byte(j.ID), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketJobNames), []byte(j.Name), []byte(j.ID)); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// PutJob replaces an existing job and moves its name in the index on a rename.
func (t jobRecords) PutJob(j model.Job) error {
	op := fmt.Sprintf("put job %s (%s)", j.ID, j.Name)
	if err := checkJob(j); err != nil {
		return fmt.Errorf("put job: %w", err)
	}
	old, err := t.Job(j.ID)
	if err != nil {
		return fmt.Errorf("put job: %w", err)
	}
	if old.Name != j.Name {
		other, err := t.get(in(bucketJobNames), []byte(j.Name))
		if err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		if other != nil {
			return fmt.Errorf("rename job %s from %q to %q: name is taken by job %s: %w",
				j.ID, old.Name, j.Name, other, ErrExists)
		}
		if err := t.del(in(bucketJobNames), []byte(old.Name)); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		if err := t.put(in(bucketJobNames), []byte(j.Name), []byte(j.ID)); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	v, err := encode("job", j.ID, j)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketJobs), []byte(j.ID), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// Spec returns one version of a job's spec.
func (t jobRecords) Spec(jobID string, version int) (model.Spec, error) {
	op := fmt.Sprintf("get spec v%d of job %q", version, jobID)
	if version <= 0 {
		return model.Spec{}, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	k := u64Key(uint64(version))
	v, err := t.get(in(bucketSpecs, jobID), k)
	if err != nil {
		return model.Spec{}, fmt.Errorf("%s: %w", op, err)
	}
	if v == nil {
		return model.Spec{}, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	return decode[model.Spec]("spec", k, v)
}

// Specs returns every version of a job's spec, oldest first.
func (t jobRecords) Specs(jobID string) ([]model.Spec, error) {
	if err := t.requireJob("list specs", jobID); err != nil {
		return nil, err
	}
	out, err := all[model.Spec](t.txn, in(bucketSpecs, jobID), "spec")
	if err != nil {
		return nil, fmt.Errorf("list specs of job %q: %w", jobID, err)
	}
	return out, nil
}

// AddSpec stores the next version of a job's spec.
func (t jobRecords) AddSpec(s model.Spec) (model.Spec, error) {
	if err := t.requireJob("add spec", s.JobID); err != nil {
		return model.Spec{}, err
	}
	return appendTo(t.txn, in(bucketSpecs, s.JobID), "spec", fmt.Sprintf("add spec to job %s", s.JobID), s.JobID, s,
		func(s *model.Spec, seq uint64) { s.Version = int(seq) })
}

// Events returns a job's events after afterSeq, oldest first.
func (t jobRecords) Events(jobID string, afterSeq int64, limit int) ([]model.Event, error) {
	if err := t.requireJob("list events", jobID); err != nil {
		return nil, err
	}
	out, err := readAfter[model.Event](t.txn, in(bucketEvents, jobID), "event", afterSeq, limit)
	if err != nil {
		return nil, fmt.Errorf("list events of job %s: %w", jobID, err)
	}
	return out, nil
}

// readAfter decodes the records of a seq-keyed bucket whose seq is after
// afterSeq, at most limit of them (0: all).
func readAfter[T any](t *txn, b bucket, what string, afterSeq int64, limit int) ([]T, error) {
	if limit < 0 {
		return nil, fmt.Errorf("limit %d is negative: %w", limit, ErrInvalid)
	}
	o := scanOpts{hint: limit}
	if afterSeq >= 0 {
		o.from = u64Key(uint64(afterSeq) + 1)
	}
	it := t.scan(b, o)
	out := []T{}
	for limit == 0 || len(out) < limit {
		k, v, err := it.next()
		if err != nil {
			return nil, err
		}
		if k == nil {
			break
		}
		rec, err := decode[T](what, k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// AppendEvent appends to a job's history with the job's next seq.
func (t jobRecords) AppendEvent(e model.Event) (model.Event, error) {
	if err := checkEvent(e); err != nil {
		return model.Event{}, fmt.Errorf("append event: %w", err)
	}
	if err := t.requireJob("append event", e.JobID); err != nil {
		return model.Event{}, err
	}
	return appendTo(t.txn, in(bucketEvents, e.JobID), "event", fmt.Sprintf("append event %s→%s to job %s", e.From, e.To, e.JobID), e.JobID, e,
		func(e *model.Event, seq uint64) { e.Seq = int64(seq) })
}

// RestorePoints returns a job's restore points in the order recorded.
func (t restorePointRecords) RestorePoints(jobID string) ([]model.RestorePoint, error) {
	if err := t.requireJob("list restore points", jobID); err != nil {
		return nil, err
	}
	out, err := readAfter[model.RestorePoint](t.txn, in(bucketRestorePoints, jobID), "restore point", 0, 0)
	if err != nil {
		return nil, fmt.Errorf("list restore points of job %s: %w", jobID, err)
	}
	return out, nil
}

// PutRestorePoint replaces a recorded restore point, found by its path.
func (t restorePointRecords) PutRestorePoint(rp model.RestorePoint) error {
	if err := checkRestorePoint(rp); err != nil {
		return fmt.Errorf("put restore point: %w", err)
	}
	op := fmt.Sprintf("update %s %s of job %s", rp.Kind, rp.Path, rp.JobID)
	if err := t.requireJob(op, rp.JobID); err != nil {
		return err
	}
	seq, err := t.get(in(bucketRestorePointPaths, rp.JobID), []byte(rp.Path))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if seq == nil {
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	seq = cloneBytes(seq)
	v, err := encode("restore point", rp.Path, rp)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketRestorePoints, rp.JobID), seq, v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// PruneCheckpoints forgets all but the newest keep checkpoints of the job
// and those at pinned paths.
func (t restorePointRecords) PruneCheckpoints(jobID string, keep int, pinned ...string) (int, error) {
	if err := t.requireJob("prune checkpoints", jobID); err != nil {
		return 0, err
	}
	return t.pruneCheckpoints(jobID, keep, 0, pinned)
}

// AddRestorePoint records a restore point unless its path is known for the job.
func (t restorePointRecords) AddRestorePoint(rp model.RestorePoint) (bool, error) {
	if err := checkRestorePoint(rp); err != nil {
		return false, fmt.Errorf("add restore point: %w", err)
	}
	if err := t.requireJob("add restore point "+rp.Path, rp.JobID); err != nil {
		return false, err
	}
	op := fmt.Sprintf("add %s %s to job %s", rp.Kind, rp.Path, rp.JobID)
	paths := in(bucketRestorePointPaths, rp.JobID)
	known, err := t.get(paths, []byte(rp.Path))
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	if known != nil {
		return false, nil
	}
	rps := in(bucketRestorePoints, rp.JobID)
	seq, err := t.nextSeq(rps)
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	v, err := encode("restore point", rp.Path, rp)
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(rps, u64Key(seq), v); err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(paths, []byte(rp.Path), u64Key(seq)); err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	return true, nil
}

// Audit returns audit entries after afterSeq, oldest first.
func (t auditRecords) Audit(afterSeq int64, limit int) ([]model.AuditEntry, error) {
	out, err := readAfter[model.AuditEntry](t.txn, in(bucketAudit), "audit entry", afterSeq, limit)
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	return out, nil
}

// AppendAudit appends to the audit log with the next seq.
func (t auditRecords) AppendAudit(a model.AuditEntry) (model.AuditEntry, error) {
	op := fmt.Sprintf("append audit entry %q by %s", a.Action, a.User)
	seq, err := t.nextSeq(in(bucketAudit))
	if err != nil {
		return model.AuditEntry{}, fmt.Errorf("%s: %w", op, err)
	}
	a.Seq = int64(seq)
	if a.Host == "" {
		a.Host = thisHost
	}
	v, err := encode("audit entry", a.Action, a)
	if err != nil {
		return model.AuditEntry{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(in(bucketAudit), u64Key(seq), v); err != nil {
		return model.AuditEntry{}, fmt.Errorf("%s: %w", op, err)
	}
	return a, nil
}

// thisHost names the host whose palink writes: every audit entry says
// where its action was taken.
var thisHost = func() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
}()

// appendTo stores rec in b under b's next sequence number, which setSeq
// writes into the record first: the append of specs (versions) and
// events (history).
func appendTo[T any](t *txn, b bucket, what, op, jobID string, rec T, setSeq func(*T, uint64)) (T, error) {
	var zero T
	seq, err := t.nextSeq(b)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", op, err)
	}
	setSeq(&rec, seq)
	v, err := encode(what, jobID, rec)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", op, err)
	}
	if err := t.put(b, u64Key(seq), v); err != nil {
		return zero, fmt.Errorf("%s: %w", op, err)
	}
	return rec, nil
}
