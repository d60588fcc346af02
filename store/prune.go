package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/palink/palink/model"
)

// The store is bounded by the fleet, not by time: of a job's checkpoints
// it keeps the newest the cluster retains (Flink's num-retained) and the
// ones the job's record names; every older one was subsumed, its files
// deleted by Flink. Sync prunes as it records (PruneCheckpoints); schema 8
// pruned what older palinks had kept; Compact also gives the freed pages
// back to the file system.

// PinnedPaths are the checkpoint paths of a job that pruning never
// forgets: its latest checkpoint and the point its current run restored
// from (with and without a trailing slash, as Flink may report either).
func PinnedPaths(j model.Job) []string {
	var out []string
	if j.LatestCheckpoint != nil {
		out = append(out, j.LatestCheckpoint.Path)
	}
	if j.RestoredFrom != "" {
		out = append(out, j.RestoredFrom, strings.TrimRight(j.RestoredFrom, "/"))
	}
	return out
}

// pruneCheckpoints forgets up to limit (0: any number) of the job's
// checkpoints beyond its newest keep, but those at pinned paths. It
// reads newest first, so that it reads as far as it keeps plus what it
// drops.
func (t restorePointRecords) pruneCheckpoints(jobID string, keep, limit int, pinned []string) (int, error) {
	op := "prune checkpoints of job " + jobID
	keep = max(keep, 1)
	rps, paths := in(bucketRestorePoints, jobID), in(bucketRestorePointPaths, jobID)
	type doomed struct{ seq, path []byte }
	var drop []doomed
	it := t.scan(rps, scanOpts{desc: true})
	for seen := 0; limit <= 0 || len(drop) < limit; {
		k, v, err := it.next()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", op, err)
		}
		if k == nil {
			break
		}
		rp, err := decode[model.RestorePoint]("restore point", k, v)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", op, err)
		}
		if rp.Kind != model.Checkpoint {
			continue
		}
		if seen++; seen <= keep || slices.Contains(pinned, rp.Path) {
			continue
		}
		drop = append(drop, doomed{cloneBytes(k), []byte(rp.Path)})
	}
	// Deleted after the scan: a bucket is not written under its cursor.
	for _, d := range drop {
		if err := t.del(rps, d.seq); err != nil {
			return 0, fmt.Errorf("%s: %w", op, err)
		}
		if err := t.del(paths, d.path); err != nil {
			return 0, fmt.Errorf("%s: %w", op, err)
		}
	}
	return len(drop), nil
}

// migrateTo8 forgets, in every job, the checkpoint records older than its
// newest and those its record names (PinnedPaths): what palinks before
// schema 8 kept of every checkpoint sync saw, almost all of them deleted
// by Flink since. The migration does not know the clusters' num-retained:
// it keeps Flink's default, 1; a palink that syncs the job records the
// others it retains again, and `palink store compact` prunes by the
// configured figures.
func migrateTo8(tx *bolt.Tx) error {
	t := newBoltRecords(tx)
	defer t.close()
	_, err := pruneJobs(t, func(model.Job) int { return 1 }, 0)
	return err
}

// pruneJobs prunes every job's checkpoints (keep says how many of each
// job's to keep), forgetting at most limit records in all (0: any
// number). It returns how many it forgot.
func pruneJobs(t *records, keep func(model.Job) int, limit int) (int, error) {
	ids, err := t.children(in(bucketRestorePoints))
	if err != nil {
		return 0, err
	}
	total := 0
	for _, id := range ids {
		v, err := t.get(in(bucketJobs), []byte(id))
		if err != nil {
			return total, err
		}
		if v == nil {
			continue // Check reports restore points without a job
		}
		j, err := decode[model.Job]("job", []byte(id), v)
		if err != nil {
			return total, err
		}
		left := 0
		if limit > 0 {
			left = limit - total
		}
		n, err := t.pruneCheckpoints(id, keep(j), left, PinnedPaths(j))
		total += n
		if err != nil || (limit > 0 && total >= limit) {
			return total, err
		}
	}
	return total, nil
}

// PruneReport says what Prune and Compact did.
type PruneReport struct {
	// Pruned is how many checkpoint records were forgotten.
	Pruned int
	// Before and After are the store file's size in bytes (0 for a store
	// on etcd, which frees its space at its own compaction).
	Before, After int64
}

// Prune forgets, in every job, the checkpoint records beyond the newest
// keep(job) and those its record names: in one transaction in a file, in
// transactions of at most 60 records on etcd (two deletions each, and
// etcd takes 128 operations in one).
func Prune(ctx context.Context, s Store, keep func(model.Job) int) (int, error) {
	total, batch := 0, 60
	if _, ok := s.(*Bolt); ok {
		batch = 0
	}
	for {
		n := 0
		err := s.Update(ctx, func(tx Tx) error {
			r, ok := tx.(*records)
			if !ok {
				return fmt.Errorf("prune store %s: its transactions are not palink's records", s.Path())
			}
			var err error
			n, err = pruneJobs(r, keep, batch)
			return err
		})
		total += n
		if err != nil {
			return total, fmt.Errorf("prune store %s: %w", s.Path(), err)
		}
		if batch == 0 || n < batch {
			return total, nil
		}
	}
}

// Compact prunes the store file at path (Prune) and then copies it, with
// bbolt's Compact, into a new file put in its place: bbolt never gives
// freed pages back to the file system, so only a copy shrinks the file.
// The store must not be in use (the file's lock is held throughout;
// palink's agent holding it makes Compact fail with ErrLocked), as for
// Restore.
func Compact(ctx context.Context, path string, opts Options, keep func(model.Job) int) (rep PruneReport, err error) {
	op := "compact store " + path
	fi, err := os.Stat(path)
	if err != nil {
		return rep, fmt.Errorf("%s: %w", op, err)
	}
	rep.Before = fi.Size()
	opts.ReadOnly = false
	b, err := Open(path, opts)
	if err != nil {
		return rep, err
	}
	defer func() {
		if cerr := b.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	if rep.Pruned, err = Prune(ctx, b, keep); err != nil {
		return rep, err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".compact-*")
	if err != nil {
		return rep, fmt.Errorf("%s: %w", op, err)
	}
	tmp := f.Name()
	_ = f.Close()
	_ = os.Remove(tmp) // bbolt makes the file itself
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: DefaultLockTimeout, NoSync: opts.NoSync})
	if err != nil {
		return rep, fmt.Errorf("%s: %w", op, err)
	}
	err = guard("compact", path, func() error { return bolt.Compact(dst, b.db, 64<<20) })
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return rep, fmt.Errorf("%s: %w", op, err)
	}
	if err := verifyBackup(tmp); err != nil {
		return rep, fmt.Errorf("%s: the copy: %w", op, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return rep, fmt.Errorf("%s: %w", op, err)
	}
	if err := syncDir(dir); err != nil {
		return rep, fmt.Errorf("%s: %w", op, err)
	}
	if fi, err := os.Stat(path); err == nil {
		rep.After = fi.Size()
	}
	return rep, nil
}

// CompactStore compacts the store name names: a file as Compact does; a
// store on etcd is pruned (Prune), its space freed by etcd's own
// compaction and defragmentation.
func CompactStore(ctx context.Context, name string, opts Options, keep func(model.Job) int) (PruneReport, error) {
	if !IsEtcd(name) {
		return Compact(ctx, name, opts, keep)
	}
	opts.ReadOnly = false
	s, err := OpenStore(name, opts)
	if err != nil {
		return PruneReport{}, err
	}
	defer s.Close()
	n, err := Prune(ctx, s, keep)
	return PruneReport{Pruned: n}, err
}

// Size says how large the store file is and how much of it holds data:
// bbolt keeps pages it freed in the file for later writes (Compact gives
// them back), so the file's size moves in steps while the data it holds
// is what the records take.
func (b *Bolt) Size() (file, inUse int64, err error) {
	err = b.db.View(func(tx *bolt.Tx) error {
		file = tx.Size()
		return nil
	})
	st := b.db.Stats()
	inUse = file - int64(st.FreePageN+st.PendingPageN)*int64(b.db.Info().PageSize)
	return file, inUse, err
}
