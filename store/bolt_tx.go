package store

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// errTxDone reports the use of a transaction after its View or Update returned.
var errTxDone = errors.New("transaction already ended (a ReadTx or Tx must not outlive its View or Update)")

// boltTx implements Tx over one bbolt transaction. In a View, bbolt itself
// refuses the writing methods.
type boltTx struct {
	tx   *bolt.Tx
	done bool
	projectTx
	catalogTx
	varsTx
	udfTx
}

// newBoltTx wraps a bbolt transaction with its parts.
func newBoltTx(tx *bolt.Tx) *boltTx {
	t := &boltTx{tx: tx}
	t.projectTx, t.catalogTx, t.varsTx, t.udfTx = projectTx{t}, catalogTx{t}, varsTx{t}, udfTx{t}
	return t
}

var _ Tx = (*boltTx)(nil)

func (t *boltTx) close() { t.done = true }

// bucket returns a top-level bucket. Migrations create them all, so a missing
// one means a damaged file, reported instead of a nil dereference.
func (t *boltTx) bucket(name []byte) (*bolt.Bucket, error) {
	if t.done {
		return nil, errTxDone
	}
	b := t.tx.Bucket(name)
	if b == nil {
		return nil, fmt.Errorf("store has no %s bucket (damaged file?)", name)
	}
	return b, nil
}

// child returns the nested bucket parent/<name>, nil if it does not exist yet.
func (t *boltTx) child(parent []byte, name string) (*bolt.Bucket, error) {
	p, err := t.bucket(parent)
	if err != nil {
		return nil, err
	}
	return p.Bucket([]byte(name)), nil
}

// childForWrite returns parent/<name>, creating it if needed.
func (t *boltTx) childForWrite(parent []byte, name string) (*bolt.Bucket, error) {
	p, err := t.bucket(parent)
	if err != nil {
		return nil, err
	}
	return p.CreateBucketIfNotExists([]byte(name))
}

// requireJob fails with ErrNotFound, naming the operation, if the job does not exist.
func (t *boltTx) requireJob(op, jobID string) error {
	jobs, err := t.bucket(bucketJobs)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if jobID == "" || jobs.Get([]byte(jobID)) == nil {
		return fmt.Errorf("%s: job %q: %w", op, jobID, ErrNotFound)
	}
	return nil
}

// Job returns the job with the given id.
func (t *boltTx) Job(id string) (model.Job, error) {
	jobs, err := t.bucket(bucketJobs)
	if err != nil {
		return model.Job{}, fmt.Errorf("get job %q: %w", id, err)
	}
	v := jobs.Get([]byte(id))
	if v == nil {
		return model.Job{}, fmt.Errorf("get job %q: %w", id, ErrNotFound)
	}
	return decode[model.Job]("job", []byte(id), v)
}

// JobByName returns the job with the given name.
func (t *boltTx) JobByName(name string) (model.Job, error) {
	names, err := t.bucket(bucketJobNames)
	if err != nil {
		return model.Job{}, fmt.Errorf("get job named %q: %w", name, err)
	}
	id := names.Get([]byte(name))
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
func (t *boltTx) Jobs() ([]model.Job, error) {
	jobs, err := t.bucket(bucketJobs)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	var out []model.Job
	err = jobs.ForEach(func(k, v []byte) error {
		j, err := decode[model.Job]("job", k, v)
		out = append(out, j)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	if out == nil {
		out = []model.Job{}
	}
	return out, nil
}

// CreateJob adds a job whose id and name are both free.
func (t *boltTx) CreateJob(j model.Job) error {
	op := fmt.Sprintf("create job %s (%s)", j.ID, j.Name)
	if err := checkJob(j); err != nil {
		return fmt.Errorf("create job: %w", err)
	}
	jobs, err := t.bucket(bucketJobs)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	names, err := t.bucket(bucketJobNames)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if jobs.Get([]byte(j.ID)) != nil {
		return fmt.Errorf("%s: id %s is taken: %w", op, j.ID, ErrExists)
	}
	if other := names.Get([]byte(j.Name)); other != nil {
		return fmt.Errorf("%s: name %q is taken by job %s: %w", op, j.Name, other, ErrExists)
	}
	v, err := encode("job", j.ID, j)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := jobs.Put([]byte(j.ID), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := names.Put([]byte(j.Name), []byte(j.ID)); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// PutJob replaces an existing job and moves its name in the index on a rename.
func (t *boltTx) PutJob(j model.Job) error {
	op := fmt.Sprintf("put job %s (%s)", j.ID, j.Name)
	if err := checkJob(j); err != nil {
		return fmt.Errorf("put job: %w", err)
	}
	old, err := t.Job(j.ID)
	if err != nil {
		return fmt.Errorf("put job: %w", err)
	}
	jobs, err := t.bucket(bucketJobs)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	names, err := t.bucket(bucketJobNames)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if old.Name != j.Name {
		if other := names.Get([]byte(j.Name)); other != nil {
			return fmt.Errorf("rename job %s from %q to %q: name is taken by job %s: %w",
				j.ID, old.Name, j.Name, other, ErrExists)
		}
		if err := names.Delete([]byte(old.Name)); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		if err := names.Put([]byte(j.Name), []byte(j.ID)); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	v, err := encode("job", j.ID, j)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := jobs.Put([]byte(j.ID), v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// Spec returns one version of a job's spec.
func (t *boltTx) Spec(jobID string, version int) (model.Spec, error) {
	op := fmt.Sprintf("get spec v%d of job %q", version, jobID)
	specs, err := t.child(bucketSpecs, jobID)
	if err != nil {
		return model.Spec{}, fmt.Errorf("%s: %w", op, err)
	}
	if specs == nil || version <= 0 {
		return model.Spec{}, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	k := u64Key(uint64(version))
	v := specs.Get(k)
	if v == nil {
		return model.Spec{}, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	return decode[model.Spec]("spec", k, v)
}

// Specs returns every version of a job's spec, oldest first.
func (t *boltTx) Specs(jobID string) ([]model.Spec, error) {
	op := fmt.Sprintf("list specs of job %q", jobID)
	if err := t.requireJob("list specs", jobID); err != nil {
		return nil, err
	}
	specs, err := t.child(bucketSpecs, jobID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	out := []model.Spec{}
	if specs == nil {
		return out, nil
	}
	err = specs.ForEach(func(k, v []byte) error {
		s, err := decode[model.Spec]("spec", k, v)
		out = append(out, s)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return out, nil
}

// AddSpec stores the next version of a job's spec.
func (t *boltTx) AddSpec(s model.Spec) (model.Spec, error) {
	if err := t.requireJob("add spec", s.JobID); err != nil {
		return model.Spec{}, err
	}
	return appendToJob(t, bucketSpecs, "spec", fmt.Sprintf("add spec to job %s", s.JobID), s.JobID, s,
		func(s *model.Spec, seq uint64) { s.Version = int(seq) })
}

// Events returns a job's events after afterSeq, oldest first.
func (t *boltTx) Events(jobID string, afterSeq int64, limit int) ([]model.Event, error) {
	if err := t.requireJob("list events", jobID); err != nil {
		return nil, err
	}
	events, err := t.child(bucketEvents, jobID)
	if err != nil {
		return nil, fmt.Errorf("list events of job %s: %w", jobID, err)
	}
	out, err := readAfter[model.Event](events, "event", afterSeq, limit)
	if err != nil {
		return nil, fmt.Errorf("list events of job %s: %w", jobID, err)
	}
	return out, nil
}

// readAfter decodes the records of a seq-keyed bucket (nil: none) whose
// seq is after afterSeq, at most limit of them (0: all).
func readAfter[T any](b *bolt.Bucket, what string, afterSeq int64, limit int) ([]T, error) {
	if limit < 0 {
		return nil, fmt.Errorf("limit %d is negative: %w", limit, ErrInvalid)
	}
	out := []T{}
	if b == nil {
		return out, nil
	}
	c := b.Cursor()
	var k, v []byte
	if afterSeq < 0 {
		k, v = c.First()
	} else {
		k, v = c.Seek(u64Key(uint64(afterSeq) + 1))
	}
	for ; k != nil && (limit == 0 || len(out) < limit); k, v = c.Next() {
		rec, err := decode[T](what, k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// AppendEvent appends to a job's history with the job's next seq.
func (t *boltTx) AppendEvent(e model.Event) (model.Event, error) {
	if err := checkEvent(e); err != nil {
		return model.Event{}, fmt.Errorf("append event: %w", err)
	}
	if err := t.requireJob("append event", e.JobID); err != nil {
		return model.Event{}, err
	}
	return appendToJob(t, bucketEvents, "event", fmt.Sprintf("append event %s→%s to job %s", e.From, e.To, e.JobID), e.JobID, e,
		func(e *model.Event, seq uint64) { e.Seq = int64(seq) })
}

// RestorePoints returns a job's restore points in the order recorded.
func (t *boltTx) RestorePoints(jobID string) ([]model.RestorePoint, error) {
	if err := t.requireJob("list restore points", jobID); err != nil {
		return nil, err
	}
	rps, err := t.child(bucketRestorePoints, jobID)
	if err != nil {
		return nil, fmt.Errorf("list restore points of job %s: %w", jobID, err)
	}
	out, err := readAfter[model.RestorePoint](rps, "restore point", 0, 0)
	if err != nil {
		return nil, fmt.Errorf("list restore points of job %s: %w", jobID, err)
	}
	return out, nil
}

// PutRestorePoint replaces a recorded restore point, found by its path.
func (t *boltTx) PutRestorePoint(rp model.RestorePoint) error {
	if err := checkRestorePoint(rp); err != nil {
		return fmt.Errorf("put restore point: %w", err)
	}
	op := fmt.Sprintf("update %s %s of job %s", rp.Kind, rp.Path, rp.JobID)
	if err := t.requireJob(op, rp.JobID); err != nil {
		return err
	}
	paths, err := t.childForWrite(bucketRestorePointPaths, rp.JobID)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	seq := paths.Get([]byte(rp.Path))
	if seq == nil {
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	seq = cloneBytes(seq)
	rps, err := t.childForWrite(bucketRestorePoints, rp.JobID)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	v, err := encode("restore point", rp.Path, rp)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := rps.Put(seq, v); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// AddRestorePoint records a restore point unless its path is known for the job.
func (t *boltTx) AddRestorePoint(rp model.RestorePoint) (bool, error) {
	if err := checkRestorePoint(rp); err != nil {
		return false, fmt.Errorf("add restore point: %w", err)
	}
	if err := t.requireJob("add restore point "+rp.Path, rp.JobID); err != nil {
		return false, err
	}
	op := fmt.Sprintf("add %s %s to job %s", rp.Kind, rp.Path, rp.JobID)
	paths, err := t.childForWrite(bucketRestorePointPaths, rp.JobID)
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	if paths.Get([]byte(rp.Path)) != nil {
		return false, nil
	}
	rps, err := t.childForWrite(bucketRestorePoints, rp.JobID)
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	seq, err := rps.NextSequence()
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	v, err := encode("restore point", rp.Path, rp)
	if err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	if err := rps.Put(u64Key(seq), v); err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	if err := paths.Put([]byte(rp.Path), u64Key(seq)); err != nil {
		return false, fmt.Errorf("%s: %w", op, err)
	}
	return true, nil
}

// Audit returns audit entries after afterSeq, oldest first.
func (t *boltTx) Audit(afterSeq int64, limit int) ([]model.AuditEntry, error) {
	audit, err := t.bucket(bucketAudit)
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	out, err := readAfter[model.AuditEntry](audit, "audit entry", afterSeq, limit)
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	return out, nil
}

// AppendAudit appends to the audit log with the next seq.
func (t *boltTx) AppendAudit(a model.AuditEntry) (model.AuditEntry, error) {
	op := fmt.Sprintf("append audit entry %q by %s", a.Action, a.User)
	audit, err := t.bucket(bucketAudit)
	if err != nil {
		return model.AuditEntry{}, fmt.Errorf("%s: %w", op, err)
	}
	seq, err := audit.NextSequence()
	if err != nil {
		return model.AuditEntry{}, fmt.Errorf("%s: %w", op, err)
	}
	a.Seq = int64(seq)
	v, err := encode("audit entry", a.Action, a)
	if err != nil {
		return model.AuditEntry{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := audit.Put(u64Key(seq), v); err != nil {
		return model.AuditEntry{}, fmt.Errorf("%s: %w", op, err)
	}
	return a, nil
}

// appendToJob stores rec in the job's child bucket of parent under the
// bucket's next sequence number, which setSeq writes into the record first:
// the append of specs (versions) and events (history).
func appendToJob[T any](t *boltTx, parent []byte, what, op, jobID string, rec T, setSeq func(*T, uint64)) (T, error) {
	var zero T
	b, err := t.childForWrite(parent, jobID)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", op, err)
	}
	seq, err := b.NextSequence()
	if err != nil {
		return zero, fmt.Errorf("%s: %w", op, err)
	}
	setSeq(&rec, seq)
	v, err := encode(what, jobID, rec)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", op, err)
	}
	if err := b.Put(u64Key(seq), v); err != nil {
		return zero, fmt.Errorf("%s: %w", op, err)
	}
	return rec, nil
}
