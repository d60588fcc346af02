package decide

import (
	"fmt"
	"hash/fnv"
	"sort"
	"time"

	"github.com/palink/palink/model"
)

// SavepointPolicy is how palink keeps a job's restore points over time:
// periodic savepoints, their retention, and how old a restore point may be.
type SavepointPolicy struct {
	// Interval between periodic savepoints of a RUNNING job; 0: none.
	Interval time.Duration
	// Jitter spreads jobs: each is due up to Jitter later than Interval,
	// by an offset of its own (from its id), so that a fleet started
	// together does not write its savepoints in the same minute.
	Jitter time.Duration
	// MaxCount is how many completed savepoints are kept; 0: no limit.
	MaxCount int
	// MaxAge disposes of completed savepoints older than it; 0: no limit.
	MaxAge time.Duration
	// MaxRestoreAge refuses a restore point older than it unless forced
	// (a savepoint older than Kafka's retention restores offsets that are
	// gone); 0: no limit.
	MaxRestoreAge time.Duration
}

// Retains reports whether the policy disposes of anything.
func (p SavepointPolicy) Retains() bool { return p.MaxCount > 0 || p.MaxAge > 0 }

// JitterOffset is job id's own offset within [0, jitter).
func JitterOffset(id string, jitter time.Duration) time.Duration {
	if jitter <= 0 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return time.Duration(h.Sum64() % uint64(jitter))
}

// NextSavepoint is when the job's next periodic savepoint is due: Interval
// and the job's jitter after its newest savepoint; with none, after the
// first restore point palink saw of the running Flink job (or the job's
// last update). Only palink's clock is used: the cluster's StartedAt is
// never compared with now. ok is false when none is due ever (no
// interval, or the job is not RUNNING).
func NextSavepoint(j model.Job, rps []model.RestorePoint, p SavepointPolicy) (time.Time, bool) {
	if p.Interval <= 0 || j.State != model.StateRunning {
		return time.Time{}, false
	}
	var base, first time.Time
	for _, rp := range rps {
		at := seen(&rp)
		if rp.Kind == model.Savepoint && at.After(base) {
			base = at
		}
		if rp.FlinkJobID != "" && rp.FlinkJobID == j.FlinkJobID && (first.IsZero() || at.Before(first)) {
			first = at
		}
	}
	switch {
	case !base.IsZero():
	case !first.IsZero():
		base = first
	default:
		base = j.UpdatedAt
	}
	return base.Add(p.Interval + JitterOffset(j.ID, p.Jitter)), true
}

// SavepointDue reports whether a periodic savepoint of j is due at now.
func SavepointDue(j model.Job, rps []model.RestorePoint, p SavepointPolicy, now time.Time) bool {
	at, ok := NextSavepoint(j, rps, p)
	return ok && !now.Before(at)
}

// NeededBy says why the job still needs the restore point at path ("" when
// it does not): the job's latest savepoint is what a restart resumes from,
// and the point a live job restored from may still be read by it (CLAIM
// mode hands it to Flink; NO_CLAIM and LEGACY read it until the first
// full checkpoint).
func NeededBy(j model.Job, path string) string {
	switch {
	case j.LatestSavepoint != nil && j.LatestSavepoint.Path == path:
		return fmt.Sprintf("it is the latest savepoint of %s, which a restart resumes from", j.Name)
	case j.RestoredFrom == path && j.State.Live():
		return fmt.Sprintf("%s restored from it and is %s", j.Name, j.State)
	}
	return ""
}

// SavepointsToDispose are the job's completed savepoints the policy no
// longer keeps, oldest first: beyond the newest MaxCount, or older than
// MaxAge (by palink's clock). The newest completed savepoint is always
// kept, and so is every one the job still needs (NeededBy).
func SavepointsToDispose(j model.Job, rps []model.RestorePoint, p SavepointPolicy, now time.Time) []model.RestorePoint {
	if !p.Retains() {
		return nil
	}
	var sps []model.RestorePoint
	for _, rp := range rps {
		if rp.Kind == model.Savepoint && rp.Status == model.SavepointCompleted {
			sps = append(sps, rp)
		}
	}
	// Newest first; the store's order (recorded order) breaks ties.
	sort.SliceStable(sps, func(a, b int) bool { return seen(&sps[a]).After(seen(&sps[b])) })
	var out []model.RestorePoint
	for i, rp := range sps {
		if i == 0 || NeededBy(j, rp.Path) != "" {
			continue
		}
		tooMany := p.MaxCount > 0 && i >= p.MaxCount
		tooOld := p.MaxAge > 0 && now.Sub(seen(&rp)) > p.MaxAge
		if tooMany || tooOld {
			out = append(out, rp)
		}
	}
	for a, b := 0, len(out)-1; a < b; a, b = a+1, b-1 {
		out[a], out[b] = out[b], out[a]
	}
	return out
}

// CheckRestorePoint refuses to restore from a record that was disposed of,
// or, unless forced, one older than the policy's MaxRestoreAge (by when
// palink recorded it).
func CheckRestorePoint(rp model.RestorePoint, p SavepointPolicy, now time.Time, force bool) error {
	switch rp.Status {
	case model.SavepointDisposed, model.SavepointDisposing:
		return fmt.Errorf("the %s %s was disposed of (%s); choose another restore point", rp.Kind, rp.Path, rp.Status)
	}
	if age := now.Sub(seen(&rp)); p.MaxRestoreAge > 0 && age > p.MaxRestoreAge && !force {
		return fmt.Errorf("the %s %s is %s old, older than the %s allowed (savepoints.max_restore_age): its sources may no longer hold the data after it; force it, or choose a newer one",
			rp.Kind, rp.Path, age.Round(time.Minute), p.MaxRestoreAge)
	}
	return nil
}
