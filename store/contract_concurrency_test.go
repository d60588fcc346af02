package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

func contractConcurrent(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.CreateJob(sampleJob("j1", "a")) })
	const writers, each = 6, 25
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers*each)
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range each {
				errs <- s.Update(context.Background(), func(tx Tx) error {
					j, err := tx.Job("j1")
					if err != nil {
						return err
					}
					j.PlatformRestarts++
					if err := tx.PutJob(j); err != nil {
						return err
					}
					_, err = tx.AppendEvent(model.Event{JobID: "j1", To: model.StateRunning, Reason: fmt.Sprint("writer ", w)})
					return err
				})
			}
		}()
		go func() {
			defer wg.Done()
			for range each {
				errs <- s.View(context.Background(), func(tx ReadTx) error {
					j, err := tx.Job("j1")
					if err != nil {
						return err
					}
					evs, err := tx.Events("j1", 0, 0)
					if err == nil && len(evs) != j.PlatformRestarts {
						err = fmt.Errorf("a reader saw %d events for counter %d: not one snapshot", len(evs), j.PlatformRestarts)
					}
					return err
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	view(t, s, func(tx ReadTx) error {
		j, _ := tx.Job("j1")
		evs, err := tx.Events("j1", 0, 0)
		if err != nil || j.PlatformRestarts != writers*each || len(evs) != writers*each {
			t.Errorf("after %d updates: counter %d, %d events, %v", writers*each, j.PlatformRestarts, len(evs), err)
		}
		for i, e := range evs {
			if e.Seq != int64(i+1) {
				t.Fatalf("event %d has seq %d: seqs must be dense under concurrency", i, e.Seq)
			}
		}
		return nil
	})
}

// storeDump is everything a store holds, as read through ReadTx alone, so
// that two stores (or one before and after a migration or a restore) can be
// compared whatever the backend.
type storeDump struct {
	Jobs          []model.Job
	Specs         map[string][]model.Spec
	Events        map[string][]model.Event
	RestorePoints map[string][]model.RestorePoint
	Commands      []model.Command
	Audit         []model.AuditEntry
	Alerts        []model.Alert `json:",omitempty"` // schema 2
	// Exceptions by job, schema 4.
	Exceptions map[string][]model.JobException `json:",omitempty"`
	// Projects and their artifacts by project, schema 5.
	Projects  []model.Project             `json:",omitempty"`
	Artifacts map[string][]model.Artifact `json:",omitempty"`
	// Catalog is every version of every catalog table of the clusters
	// dumpClusters, by cluster (schema 6).
	Catalog map[string][]model.CatalogTable `json:",omitempty"`
	// UDFs is the UDF registry (schema 7).
	UDFs []model.UDF `json:",omitempty"`
	// Vars are every variable (schema 6).
	Vars []model.Variable `json:",omitempty"`
	// Teams are the tenants (schema 9).
	Teams []model.Team `json:",omitempty"`
	// StoreID is the store's id, in fixtures from schema 3 on; dump leaves
	// it empty (stores with one history but two ids compare equal).
	StoreID string `json:",omitempty"`
}

// dumpClusters are the clusters whose catalog dump reads.
var dumpClusters = []string{"prod", "test"}

func dump(t testing.TB, s Store) storeDump {
	t.Helper()
	d := storeDump{
		Specs:         map[string][]model.Spec{},
		Events:        map[string][]model.Event{},
		RestorePoints: map[string][]model.RestorePoint{},
	}
	view(t, s, func(tx ReadTx) (err error) {
		if d.Jobs, err = tx.Jobs(); err != nil {
			return err
		}
		for _, j := range d.Jobs {
			byName, err := tx.JobByName(j.Name)
			if err != nil || byName.ID != j.ID {
				return fmt.Errorf("name %q does not find job %s: %v", j.Name, j.ID, err)
			}
			if d.Specs[j.ID], err = tx.Specs(j.ID); err != nil {
				return err
			}
			if d.Events[j.ID], err = tx.Events(j.ID, 0, 0); err != nil {
				return err
			}
			if d.RestorePoints[j.ID], err = tx.RestorePoints(j.ID); err != nil {
				return err
			}
			es, err := tx.Exceptions(j.ID)
			if err != nil {
				return err
			}
			if len(es) > 0 {
				if d.Exceptions == nil {
					d.Exceptions = map[string][]model.JobException{}
				}
				d.Exceptions[j.ID] = es
			}
		}
		for _, cl := range dumpClusters {
			ts, err := tx.CatalogTables(cl)
			if err != nil {
				return err
			}
			for _, tb := range ts {
				vs, err := tx.CatalogVersions(cl, tb.Name)
				if err != nil {
					return err
				}
				if d.Catalog == nil {
					d.Catalog = map[string][]model.CatalogTable{}
				}
				d.Catalog[cl] = append(d.Catalog[cl], vs...)
			}
		}
		vs, err := tx.Vars()
		if err != nil {
			return err
		}
		if len(vs) > 0 {
			d.Vars = vs
		}
		if us, err := tx.UDFs(); err != nil {
			return err
		} else if len(us) > 0 {
			d.UDFs = us
		}
		if ts, err := tx.Teams(); err != nil {
			return err
		} else if len(ts) > 0 {
			d.Teams = ts
		}
		if d.Commands, err = tx.Commands(CommandFilter{}); err != nil {
			return err
		}
		if d.Audit, err = tx.Audit(0, 0); err != nil {
			return err
		}
		as, err := tx.Alerts()
		if len(as) > 0 {
			d.Alerts = as
		}
		if err != nil {
			return err
		}
		if d.Projects, err = tx.Projects(); err != nil {
			return err
		}
		for _, p := range d.Projects {
			arts, err := tx.Artifacts(p.Name)
			if err != nil {
				return err
			}
			if len(arts) > 0 {
				if d.Artifacts == nil {
					d.Artifacts = map[string][]model.Artifact{}
				}
				d.Artifacts[p.Name] = arts
			}
		}
		return err
	})
	return d
}

// sameDump fails with the first differing line when two dumps differ.
func sameDump(t testing.TB, what string, got, want storeDump) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, _ := json.MarshalIndent(got, "", " ")
	w, _ := json.MarshalIndent(want, "", " ")
	gl, wl := strings.Split(string(g), "\n"), strings.Split(string(w), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("%s: contents differ at line %d of the JSON dump:\n got: %s\nwant: %s", what, i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("%s: contents differ: dump has %d lines, want %d (or only in what JSON does not show)", what, len(gl), len(wl))
}

func contractAlerts(t *testing.T, open opener) {
	s := open(t)
	defer func() { s.Close() }()
	firing := model.Alert{Rule: "lag", Kind: "lag", JobID: "j2", JobName: "b", State: model.AlertFiring,
		Since: t0, Value: "120000 records", Notified: []string{"ops"}, UpdatedAt: t0}
	update(t, s, func(tx Tx) error {
		for _, a := range []model.Alert{
			firing,
			{Rule: "job-failed", JobID: "j9", State: model.AlertFiring, Since: t0},
			{Rule: "lag", JobID: "j1", State: model.AlertResolved, Since: t0, ResolvedAt: t0.Add(time.Minute)},
		} {
			if err := tx.PutAlert(a); err != nil {
				return err
			}
		}
		return nil
	})
	keys := func(as []model.Alert) string {
		var ks []string
		for _, a := range as {
			ks = append(ks, a.Key())
		}
		return strings.Join(ks, " ")
	}
	view(t, s, func(tx ReadTx) error {
		as, err := tx.Alerts()
		if got := keys(as); err != nil || got != "job-failed/j9 lag/j1 lag/j2" {
			t.Errorf("Alerts() = %q, %v; want ordered by rule then job", got, err)
		}
		return nil
	})
	// One record per rule and job: a resolve replaces the firing.
	resolved := firing
	resolved.State, resolved.ResolvedAt, resolved.ResolveNotified = model.AlertResolved, t0.Add(2*time.Minute), []string{"ops"}
	update(t, s, func(tx Tx) error {
		if err := tx.PutAlert(resolved); err != nil {
			return err
		}
		if err := tx.DeleteAlert("job-failed", "j9"); err != nil {
			return err
		}
		return tx.DeleteAlert("job-failed", "never-there")
	})
	s = reopen(t, s, open)
	view(t, s, func(tx ReadTx) error {
		as, err := tx.Alerts()
		if err != nil || keys(as) != "lag/j1 lag/j2" {
			t.Fatalf("after replace, delete and reopen: %q, %v", keys(as), err)
		}
		if !reflect.DeepEqual(as[1], resolved) {
			t.Errorf("stored alert\n got %+v\nwant %+v", as[1], resolved)
		}
		return nil
	})
	for _, bad := range []model.Alert{
		{JobID: "j1", State: model.AlertFiring},
		{Rule: "lag", State: model.AlertFiring},
		{Rule: "a/b", JobID: "j1", State: model.AlertFiring},
		{Rule: "lag", JobID: "j1"},
	} {
		err := s.Update(context.Background(), func(tx Tx) error { return tx.PutAlert(bad) })
		wantErr(t, err, ErrInvalid)
	}
	if err := s.View(context.Background(), func(tx ReadTx) error {
		if w, ok := tx.(Tx); ok {
			return w.PutAlert(firing)
		}
		return errors.New("a ReadTx cannot write")
	}); err == nil {
		t.Error("PutAlert in a View succeeded")
	}
}

// interleave runs first in an Update, and second in another Update that
// commits, where the backend lets it, after first's reads and before its
// commit: first calls mid between its reads and its writes. A backend that
// holds one writer at a time (bbolt) runs second after first, as it waits
// for no more than a moment. It returns how often first ran.
func interleave(t *testing.T, s Store, first func(tx Tx, mid func()) error, second func(tx Tx) error) int {
	t.Helper()
	runs := 0
	done := make(chan error, 1)
	started := false
	err := s.Update(context.Background(), func(tx Tx) error {
		runs++
		return first(tx, func() {
			if started {
				return
			}
			started = true
			go func() { done <- s.Update(context.Background(), second) }()
			select {
			case err := <-done:
				done <- err
			case <-time.After(500 * time.Millisecond):
			}
		})
	})
	if err != nil {
		t.Fatalf("first update: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("second update: %v", err)
	}
	return runs
}

// restarts reads a job's PlatformRestarts in tx.
func restarts(tx ReadTx, id string) (int, error) {
	j, err := tx.Job(id)
	return j.PlatformRestarts, err
}

// setRestarts writes a job's PlatformRestarts in tx.
func setRestarts(tx Tx, id string, n int) error {
	j, err := tx.Job(id)
	if err != nil {
		return err
	}
	j.PlatformRestarts = n
	return tx.PutJob(j)
}

// contractSerializable: Updates that overlap in time end as if one ran
// after the other — whatever a backend compares to find out (one lock,
// one counter, the keys each read) — for a key both read and write (no
// lost update), for keys one reads and the other writes (no write skew),
// and for what a scan of a bucket found (no phantom: a key added or
// deleted under it).
func contractSerializable(t *testing.T, open opener) {
	s := open(t)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		for _, id := range []string{"a", "b"} {
			if err := tx.CreateJob(sampleJob(id, "job-"+id)); err != nil {
				return err
			}
		}
		return nil
	})
	get := func(id string) (n int) {
		view(t, s, func(tx ReadTx) (err error) { n, err = restarts(tx, id); return err })
		return n
	}
	increment := func(tx Tx) error {
		n, err := restarts(tx, "a")
		if err != nil {
			return err
		}
		return setRestarts(tx, "a", n+1)
	}

	t.Run("LostUpdate", func(t *testing.T) {
		interleave(t, s, func(tx Tx, mid func()) error {
			n, err := restarts(tx, "a")
			if err != nil {
				return err
			}
			mid()
			return setRestarts(tx, "a", n+1)
		}, increment)
		if n := get("a"); n != 2 {
			t.Errorf("two increments of one counter, overlapping, left it at %d, want 2 (an update lost)", n)
		}
	})

	t.Run("WriteSkewOnKeys", func(t *testing.T) {
		update(t, s, func(tx Tx) error {
			if err := setRestarts(tx, "a", 0); err != nil {
				return err
			}
			return setRestarts(tx, "b", 0)
		})
		// One sets b from a, the other a from b: run one after the
		// other, one of them sees the other's write.
		interleave(t, s, func(tx Tx, mid func()) error {
			n, err := restarts(tx, "a")
			if err != nil {
				return err
			}
			mid()
			return setRestarts(tx, "b", n+1)
		}, func(tx Tx) error {
			n, err := restarts(tx, "b")
			if err != nil {
				return err
			}
			return setRestarts(tx, "a", n+1)
		})
		if a, b := get("a"), get("b"); a+b != 3 {
			t.Errorf("b := a+1 and a := b+1, overlapping, left a=%d b=%d; want 1 and 2 in some order (write skew)", a, b)
		}
	})

	alert := func(job string) model.Alert {
		return model.Alert{Rule: "lag", JobID: job, State: model.AlertFiring, Since: t0}
	}
	t.Run("PhantomAdded", func(t *testing.T) {
		// Each adds an alert if none fires: one alert in the end.
		addIfNone := func(job string) func(tx Tx, mid func()) error {
			return func(tx Tx, mid func()) error {
				as, err := tx.Alerts()
				if err != nil {
					return err
				}
				mid()
				if len(as) > 0 {
					return nil
				}
				return tx.PutAlert(alert(job))
			}
		}
		interleave(t, s, addIfNone("a"), func(tx Tx) error { return addIfNone("b")(tx, func() {}) })
		view(t, s, func(tx ReadTx) error {
			as, err := tx.Alerts()
			if len(as) != 1 {
				t.Errorf("two 'add an alert unless one fires', overlapping, left %d alerts, want 1 (a phantom missed)", len(as))
			}
			return err
		})
	})

	t.Run("PhantomDeleted", func(t *testing.T) {
		update(t, s, func(tx Tx) error {
			if err := setRestarts(tx, "a", 0); err != nil {
				return err
			}
			as, err := tx.Alerts()
			for _, a := range as {
				if err := tx.DeleteAlert(a.Rule, a.JobID); err != nil {
					return err
				}
			}
			if err != nil {
				return err
			}
			return tx.PutAlert(alert("a"))
		})
		// One counts the alerts into a; the other deletes the alert
		// unless a counts something.
		interleave(t, s, func(tx Tx, mid func()) error {
			as, err := tx.Alerts()
			if err != nil {
				return err
			}
			mid()
			return setRestarts(tx, "a", len(as))
		}, func(tx Tx) error {
			n, err := restarts(tx, "a")
			if err != nil || n > 0 {
				return err
			}
			return tx.DeleteAlert("lag", "a")
		})
		var left int
		view(t, s, func(tx ReadTx) error {
			as, err := tx.Alerts()
			left = len(as)
			return err
		})
		if n := get("a"); n == 1 && left == 0 {
			t.Errorf("a counted 1 alert while the alert was deleted, overlapping: the deletion was missed")
		}
	})
}
