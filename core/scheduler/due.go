package scheduler

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// rescanEvery is how often the scheduler reads every job for due
// restarts even though the change feed told it of every write: a
// backstop, for writes of other palinks sharing a store on etcd.
const rescanEvery = time.Minute

// dueRestarts is what the scheduler knows of the restart policy's due
// times, so that a tick reads the few jobs that changed or fell due, not
// every job of the fleet. The change feed (Options.Watch) marks the jobs
// written since; a lost change (Resync), the first tick, and every
// rescanEvery read them all. Without a feed every tick reads them all.
type dueRestarts struct {
	mu       sync.Mutex
	at       map[string]time.Time // job id → its NextRestart, for jobs the policy will restart
	dirty    map[string]bool      // jobs written since they were last read
	full     bool                 // read every job at the next tick
	lastFull time.Time
	fed      bool // a change feed keeps dirty current
}

func newDueRestarts() *dueRestarts {
	return &dueRestarts{at: map[string]time.Time{}, dirty: map[string]bool{}, full: true}
}

// follow marks the jobs the feed reports written until it closes. The
// feed counts as followed from the moment it is subscribed (fed, set by
// watchDue): what it reports meanwhile waits in its channel.
func (d *dueRestarts) follow(ch <-chan api.Change) {
	for c := range ch {
		d.mu.Lock()
		switch {
		case c.Kind == api.Resync:
			d.full = true
		case c.Kind == api.JobChanged && c.Job != nil:
			d.dirty[c.Job.ID] = true
		}
		d.mu.Unlock()
	}
	d.mu.Lock()
	d.fed, d.full = false, true
	d.mu.Unlock()
}

// policyWaits reports whether the restart policy will restart j at
// j.NextRestart. FAILED: sync scheduled it. DEPLOY_FAILED: the policy's
// own restart found its restore point gone and tries the next.
func policyWaits(j model.Job) bool {
	return (j.State == model.StateFailed || j.State == model.StateDeployFailed) && !j.NextRestart.IsZero()
}

// duePlan is what one tick reads: every job, or the ids listed.
type duePlan struct {
	full bool
	ids  []string
}

// plan says what a tick at now reads, and takes the marks it covers.
func (d *dueRestarts) plan(now time.Time) duePlan {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := duePlan{full: d.full || !d.fed || now.Sub(d.lastFull) >= rescanEvery}
	if !p.full {
		for id := range d.dirty {
			p.ids = append(p.ids, id)
		}
		for id, at := range d.at {
			if !now.Before(at) && !d.dirty[id] {
				p.ids = append(p.ids, id)
			}
		}
	}
	// Marks that arrive while the jobs are read are kept for the next tick.
	clear(d.dirty)
	d.full = false
	return p
}

// read reads what p says, in tx; it changes nothing of d, so that a
// transaction run again (etcd) reads it again. It returns the jobs read
// and, of them, those due at now with their restore points.
func (d *dueRestarts) read(tx store.ReadTx, p duePlan, now time.Time) (read, due []model.Job, rps [][]model.RestorePoint, err error) {
	if p.full {
		if read, err = tx.Jobs(); err != nil {
			return nil, nil, nil, err
		}
	} else {
		for _, id := range p.ids {
			j, err := tx.Job(id)
			switch {
			case errors.Is(err, store.ErrNotFound): // deleted: nothing to restart
			case err != nil:
				return nil, nil, nil, err
			default:
				read = append(read, j)
			}
		}
	}
	for _, j := range read {
		if !policyWaits(j) || now.Before(j.NextRestart) {
			continue
		}
		r, err := tx.RestorePoints(j.ID)
		if err != nil {
			return nil, nil, nil, err
		}
		due, rps = append(due, j), append(rps, r)
	}
	return read, due, rps, nil
}

// record keeps the due times of the jobs read under p (err: the read
// failed, and the next tick reads every job).
func (d *dueRestarts) record(p duePlan, read []model.Job, now time.Time, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		d.full = true
		return
	}
	if p.full {
		clear(d.at)
		d.lastFull = now
	} else {
		for _, id := range p.ids {
			delete(d.at, id)
		}
	}
	for _, j := range read {
		if policyWaits(j) {
			d.at[j.ID] = j.NextRestart
		}
	}
}

// watchDue starts following the change feed, when there is one.
func (s *Scheduler) watchDue(ctx context.Context) {
	if s.opts.Watch == nil {
		return
	}
	ch := s.opts.Watch(ctx)
	s.restarts.mu.Lock()
	s.restarts.fed = true
	s.restarts.mu.Unlock()
	go s.restarts.follow(ch)
}
