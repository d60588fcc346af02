package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// maxCheckProblems bounds Check's report: past a few dozen, more lines only
// bury the first, which usually explains the rest.
const maxCheckProblems = 50

// checkStart is what both checks begin with: the caller's ctx still
// live, and the file's size (pages beyond it are damage).
func (b *Bolt) checkStart(ctx context.Context) (os.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("check store %s: %w", b.path, err)
	}
	fi, err := os.Stat(b.path)
	if err != nil {
		return nil, fmt.Errorf("check store %s: %w", b.path, err)
	}
	return fi, nil
}

// Check verifies the store in one snapshot: bbolt's own page structure,
// then that every record decodes and every index agrees with the records it
// indexes. It returns nil or a *CheckError listing the problems found.
// bbolt's page check reads the freelist that this process's writers change,
// so Check is for a store no Update of this process runs on meanwhile (a
// store open read-only, a test's, `palink store check`'s).
func (b *Bolt) Check(ctx context.Context) error {
	fi, err := b.checkStart(ctx)
	if err != nil {
		return err
	}
	var problems []string
	err = b.guard("check", func() error {
		return b.db.View(func(tx *bolt.Tx) error {
			checkFile(tx, fi.Size(), &problems)
			return nil
		})
	})
	var d *damageError
	switch {
	case errors.As(err, &d):
		// bbolt gave up on a page part way: what was found so far, and that.
		problems = append(problems, d.what)
	case err != nil:
		return fmt.Errorf("check store %s: %w", b.path, err)
	}
	if len(problems) == 0 {
		return nil
	}
	return &CheckError{Path: b.path, Problems: distinct(problems)}
}

// CheckPages is bbolt's check of every page of the store (every page
// reachable or free, none both, each of the type its parent says): the walk
// Open leaves out so as to cost the same for a store of any size, for a
// palink that keeps the store open (the agent) to run once it started. It
// runs in a transaction that holds the writer's lock and writes nothing, so
// that it may run beside this process's own transactions (bbolt's check
// reads the freelist its writers change); writers wait for it. Damage is
// reported as Open reported it, with the restore command, and the store
// then refuses every Update, as after damage a transaction meets.
func (b *Bolt) CheckPages(ctx context.Context) error {
	fi, err := b.checkStart(ctx)
	if err != nil {
		return err
	}
	var problems []string
	check := func(tx *bolt.Tx) error {
		problems = pageProblems(tx, fi.Size())
		return errNothingWritten
	}
	err = b.guard("check", func() error {
		if b.readOnly {
			// No writer of this process changes the freelist.
			return b.db.View(check)
		}
		return b.db.Update(check)
	})
	switch {
	case errors.Is(err, ErrCorrupt):
		return err
	case err != nil && err != errNothingWritten:
		return fmt.Errorf("check store %s: %w", b.path, err)
	}
	if d := problemsError("check", b.path, problems); d != nil {
		b.damage.CompareAndSwap(nil, d)
		return d
	}
	return nil
}

// errNothingWritten rolls back a transaction that only read.
var errNothingWritten = errors.New("nothing written")

// checkFile is the whole check of a store file of size bytes: bbolt's
// pages, then, if the schema is this palink's, the records and indexes
// (an older store is checked that far once a writer has migrated it).
// Problems are appended to *found as they are found, so that what came
// before a panic on a broken page is kept.
func checkFile(tx *bolt.Tx, size int64, found *[]string) {
	*found = append(*found, pageProblems(tx, size)...)
	if tx.Size() > size {
		return // truncated: nothing past the end can be read
	}
	v, err := readVersion(tx)
	if err != nil {
		*found = append(*found, err.Error())
		return
	}
	if v != SchemaVersion {
		return
	}
	for _, err := range checkTx(tx) {
		*found = append(*found, err.Error())
	}
}

// CheckError is what a check found wrong with a store, one problem per
// entry; its message lists the first maxCheckProblems. It matches ErrCorrupt.
type CheckError struct {
	Path     string
	Problems []string
}

func (e *CheckError) Error() string {
	ps := e.Problems
	if len(ps) > maxCheckProblems {
		ps = append(ps[:maxCheckProblems:maxCheckProblems], fmt.Sprintf("… and %d more problems", len(e.Problems)-maxCheckProblems))
	}
	return fmt.Sprintf("check store %s: %s:\n%s", e.Path, plural(len(e.Problems), "problem"), strings.Join(ps, "\n"))
}

func (e *CheckError) Unwrap() error { return ErrCorrupt }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Report is what CheckFile found in a store file.
type Report struct {
	Path   string
	Size   int64 // bytes
	Schema int   // the file's schema version (-1: unreadable)
	ID     string
	// Jobs and Commands count the records, when they could be read.
	Jobs, Commands int
	// Problems lists what is wrong, in the order found; empty for a sound store.
	Problems []string
}

// Err is nil for a sound store, else an ErrCorrupt error that counts the
// problems and says how to restore the store.
func (r Report) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	return damaged("check", r.Path, plural(len(r.Problems), "problem")+" found")
}

// CheckFile checks the store file at path without using it, for `palink
// store check`: what is at path, bbolt's meta pages and page structure
// (every page reachable or free, none both), then, at this palink's schema,
// every record and index (Bolt.Check). It opens the file read-only, waiting
// for the lock like Open (so a writer holding the store makes it fail with
// ErrLocked), and creates and migrates nothing. Damage goes into the
// report; err is for a file it could not check at all: missing, locked,
// unreadable, a directory.
func CheckFile(ctx context.Context, path string, opts Options) (Report, error) {
	r := Report{Path: path, Schema: -1}
	if err := ctx.Err(); err != nil {
		return r, fmt.Errorf("check store %s: %w", path, err)
	}
	var d *damageError
	missing, err := statStore(path)
	switch {
	case errors.As(err, &d):
		r.Problems = append(r.Problems, d.what)
		return r, nil
	case err != nil:
		return r, err
	case missing:
		return r, fmt.Errorf("check store %s: %w", path, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist})
	}
	db, err := openBolt(path, true, true, lockWait(opts.LockTimeout))
	switch {
	case errors.As(err, &d):
		r.Problems = append(r.Problems, d.what)
		return r, nil
	case err != nil:
		return r, err
	}
	defer db.Close()
	fi, err := os.Stat(path)
	if err != nil {
		return r, fmt.Errorf("check store %s: %w", path, err)
	}
	r.Size = fi.Size()
	err = guard("check", path, func() error {
		return db.View(func(tx *bolt.Tx) error {
			checkFile(tx, r.Size, &r.Problems)
			if tx.Size() > r.Size {
				return nil
			}
			if v, err := readVersion(tx); err == nil {
				r.Schema = v
			}
			r.ID = readStoreID(tx)
			if b := tx.Bucket(bucketJobs); b != nil {
				r.Jobs = b.Stats().KeyN
			}
			if b := tx.Bucket(bucketCommands); b != nil {
				r.Commands = b.Stats().KeyN
			}
			return nil
		})
	})
	if errors.As(err, &d) {
		r.Problems = append(r.Problems, d.what)
	} else if err != nil {
		return r, fmt.Errorf("check store %s: %w", path, err)
	}
	r.Problems = distinct(r.Problems)
	return r, nil
}

// distinct drops repeats, keeping the first of each: a broken page that
// stopped bbolt's check also stops the record walk that comes after it.
func distinct(problems []string) []string {
	seen := map[string]bool{}
	out := problems[:0:0]
	for _, p := range problems {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// has reports whether b holds key (with any value, empty included).
func has(b *bolt.Bucket, key []byte) bool {
	if b == nil {
		return false
	}
	k, _ := b.Cursor().Seek(key)
	return bytes.Equal(k, key)
}

// checkTx lists every disagreement between the records and the layout of
// doc.go. It assumes schema SchemaVersion.
func checkTx(tx *bolt.Tx) []error {
	var problems []error
	report := func(format string, args ...any) {
		problems = append(problems, fmt.Errorf(format, args...))
	}
	v, err := readVersion(tx)
	if err != nil {
		return []error{err}
	}
	if v != SchemaVersion {
		return []error{fmt.Errorf("schema version is %d, want %d", v, SchemaVersion)}
	}
	if id := readStoreID(tx); !validStoreID(id) {
		report("meta: %s is %q, not 12 lowercase hex characters", keyStoreID, id)
	}
	top := map[string]*bolt.Bucket{}
	for _, name := range [][]byte{bucketJobs, bucketJobNames, bucketSpecs, bucketCommands,
		bucketCommandsByState, bucketCommandsByJob, bucketEvents, bucketRestorePoints,
		bucketRestorePointPaths, bucketAudit, bucketAlerts, bucketExceptions, bucketProjects, bucketArtifacts, bucketCatalog, bucketVars, bucketUDFs, bucketTeams} {
		b := tx.Bucket(name)
		if b == nil {
			report("bucket %s is missing", name)
			continue
		}
		top[string(name)] = b
	}
	if len(problems) > 0 {
		return problems
	}
	jobs, names := top[string(bucketJobs)], top[string(bucketJobNames)]

	// Jobs and their unique name index, both ways. Records are decoded once
	// and looked up from the maps by the index walks.
	jobByID := map[string]model.Job{}
	_ = jobs.ForEach(func(k, v []byte) error {
		j, err := decode[model.Job]("job", k, v)
		switch {
		case err != nil:
			report("%w", err)
			return nil
		case j.ID != string(k):
			report("job stored under %q has id %q", k, j.ID)
		case !bytes.Equal(names.Get([]byte(j.Name)), k):
			report("job %s: name %q indexes job %q", k, j.Name, names.Get([]byte(j.Name)))
		}
		jobByID[string(k)] = j
		return nil
	})
	_ = names.ForEach(func(name, id []byte) error {
		if jobs.Get(id) == nil {
			report("name %q indexes missing job %q", name, id)
		} else if j, ok := jobByID[string(id)]; ok && j.Name != string(name) {
			report("name %q indexes job %s, named %q", name, id, j.Name)
		}
		return nil
	})

	// Per-job buckets must belong to a job and hold records keyed by their seq.
	perJob := func(parent []byte, what string, seqOf func(k, v []byte) (jobID string, seq int64, err error)) {
		_ = top[string(parent)].ForEachBucket(func(jobID []byte) error {
			if jobs.Get(jobID) == nil {
				report("%s/%s belongs to no job", parent, jobID)
			}
			return top[string(parent)].Bucket(jobID).ForEach(func(k, v []byte) error {
				id, seq, err := seqOf(k, v)
				if err != nil {
					report("%s/%s: %w", parent, jobID, err)
					return nil
				}
				if kseq, err := keyU64(k); err != nil || int64(kseq) != seq {
					report("%s/%s: %s %d stored under key %x", parent, jobID, what, seq, k)
				}
				if id != string(jobID) {
					report("%s/%s: %s %d belongs to job %q", parent, jobID, what, seq, id)
				}
				return nil
			})
		})
	}
	perJob(bucketSpecs, "spec", func(k, v []byte) (string, int64, error) {
		s, err := decode[model.Spec]("spec", k, v)
		return s.JobID, int64(s.Version), err
	})
	perJob(bucketEvents, "event", func(k, v []byte) (string, int64, error) {
		e, err := decode[model.Event]("event", k, v)
		return e.JobID, e.Seq, err
	})
	perJob(bucketRestorePoints, "restore point", func(k, v []byte) (string, int64, error) {
		rp, err := decode[model.RestorePoint]("restore point", k, v)
		if err != nil {
			return "", 0, err
		}
		paths := top[string(bucketRestorePointPaths)].Bucket([]byte(rp.JobID))
		seq, _ := keyU64(k)
		if paths == nil || !bytes.Equal(paths.Get([]byte(rp.Path)), k) {
			report("restore point %s of job %s is missing from the path index", rp.Path, rp.JobID)
		}
		return rp.JobID, int64(seq), nil
	})
	_ = top[string(bucketRestorePointPaths)].ForEachBucket(func(jobID []byte) error {
		rps := top[string(bucketRestorePoints)].Bucket(jobID)
		return top[string(bucketRestorePointPaths)].Bucket(jobID).ForEach(func(path, seq []byte) error {
			var v []byte
			if rps != nil {
				v = rps.Get(seq)
			}
			if v == nil {
				report("path index of job %s lists %s at missing seq %x", jobID, path, seq)
				return nil
			}
			if rp, err := decode[model.RestorePoint]("restore point", seq, v); err == nil && rp.Path != string(path) {
				report("path index of job %s lists %s at seq %x, which is %s", jobID, path, seq, rp.Path)
			}
			return nil
		})
	})

	// The table catalog: each version under its cluster, name and version.
	checkCatalog(top[string(bucketCatalog)], report)
	checkUDFs(top[string(bucketUDFs)], report)
	checkTeams(top[string(bucketTeams)], report)
	checkVars(top[string(bucketVars)], report)

	// Exceptions: each job's under its time and name.
	_ = top[string(bucketExceptions)].ForEachBucket(func(jobID []byte) error {
		if jobs.Get(jobID) == nil {
			report("%s/%s belongs to no job", bucketExceptions, jobID)
		}
		return top[string(bucketExceptions)].Bucket(jobID).ForEach(func(k, v []byte) error {
			e, err := decode[model.JobException]("exception", k, v)
			switch {
			case err != nil:
				report("%s/%s: %w", bucketExceptions, jobID, err)
			case e.JobID != string(jobID):
				report("%s/%s: exception %s belongs to job %q", bucketExceptions, jobID, e.Key(), e.JobID)
			case !bytes.Equal(exceptionKey(e), k):
				report("%s/%s: exception %s stored under key %x", bucketExceptions, jobID, e.Key(), k)
			}
			return nil
		})
	})

	// Projects, and their artifacts under their versions.
	projects := top[string(bucketProjects)]
	_ = projects.ForEach(func(k, v []byte) error {
		if p, err := decode[model.Project]("project", k, v); err != nil {
			report("%s: %w", bucketProjects, err)
		} else if p.Name != string(k) {
			report("%s: project %q stored under %q", bucketProjects, p.Name, k)
		}
		return nil
	})
	_ = top[string(bucketArtifacts)].ForEachBucket(func(name []byte) error {
		if projects.Get(name) == nil {
			report("%s/%s belongs to no project", bucketArtifacts, name)
		}
		return top[string(bucketArtifacts)].Bucket(name).ForEach(func(k, v []byte) error {
			a, err := decode[model.Artifact]("artifact", k, v)
			switch {
			case err != nil:
				report("%s/%s: %w", bucketArtifacts, name, err)
			case a.Project != string(name) || len(k) != 8 || uint64(a.Version) != binary.BigEndian.Uint64(k):
				report("%s/%s: artifact %s v%d stored under key %x", bucketArtifacts, name, a.Project, a.Version, k)
			}
			return nil
		})
	})

	// Commands, and their two indexes both ways.
	cmds := top[string(bucketCommands)]
	byState, byJob := top[string(bucketCommandsByState)], top[string(bucketCommandsByJob)]
	cmdByID := map[string]model.Command{}
	_ = cmds.ForEach(func(k, v []byte) error {
		c, err := decodeCommand(k, v)
		if err != nil {
			report("%w", err)
			return nil
		}
		cmdByID[string(k)] = c
		if c.ID != string(k) || !commandIDHasSeq(k, c.Seq) {
			report("command stored under %q has id %q and seq %d", k, c.ID, c.Seq)
		}
		if uint64(c.Seq) > cmds.Sequence() {
			report("command %s has seq %d beyond the last assigned, %d", k, c.Seq, cmds.Sequence())
		}
		if jobs.Get([]byte(c.JobID)) == nil {
			report("command %s belongs to missing job %q", k, c.JobID)
		}
		if !has(byState.Bucket([]byte(c.State.String())), k) {
			report("command %s is %s but missing from the %s index", k, c.State, c.State)
		}
		if !has(byJob.Bucket([]byte(c.JobID)), k) {
			report("command %s is missing from the index of job %s", k, c.JobID)
		}
		return nil
	})
	indexed := func(parent []byte, field string, matches func(c model.Command, name string) bool) {
		_ = top[string(parent)].ForEachBucket(func(name []byte) error {
			return top[string(parent)].Bucket(name).ForEach(func(id, v []byte) error {
				c, ok := cmdByID[string(id)]
				switch {
				case !ok && cmds.Get(id) == nil:
					report("%s/%s lists missing command %s", parent, name, id)
				case ok && !matches(c, string(name)):
					report("%s/%s lists command %s, whose %s differs (it is %s of job %s)", parent, name, id, field, c.State, c.JobID)
				case ok && len(v) > 0 && string(v) != c.JobID:
					// The state index names the job (empty before it did).
					report("%s/%s lists command %s as one of job %s; it is of job %s", parent, name, id, v, c.JobID)
				}
				return nil
			})
		})
	}
	indexed(bucketCommandsByState, "state", func(c model.Command, s string) bool { return c.State.String() == s })
	indexed(bucketCommandsByJob, "job", func(c model.Command, j string) bool { return c.JobID == j })

	_ = top[string(bucketAudit)].ForEach(func(k, v []byte) error {
		a, err := decode[model.AuditEntry]("audit entry", k, v)
		if kseq, kerr := keyU64(k); err == nil && (kerr != nil || int64(kseq) != a.Seq) {
			report("audit entry %d stored under key %x", a.Seq, k)
		}
		if err != nil {
			report("%w", err)
		}
		return nil
	})
	return problems
}
