package store

import (
	"context"
	"errors"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/palink/palink/model"
)

// storeMachine drives a Bolt store with random operations and keeps the
// obvious in-memory model of what it must hold. After every step the store's
// indexes must agree with its records (Check); at the end every query served
// by an index must agree with the model.
type storeMachine struct {
	s    *Bolt
	path string

	jobs  map[string]model.Job // by id
	names map[string]string    // name → id
	cmds  []model.Command      // by seq-1
	evs   map[string]int       // job id → events appended
	paths map[string][]string  // job id → restore point paths, in order
}

var (
	genJobID = rapid.SampledFrom([]string{"j1", "j2", "j3", "j4", "j5"})
	genName  = rapid.SampledFrom([]string{"orders", "clicks", "users", "audit"})
	genState = rapid.SampledFrom(commandStates)
	genKind  = rapid.SampledFrom(commandKinds)
	genPath  = rapid.SampledFrom([]string{"hdfs:///sp/1", "hdfs:///sp/2", "hdfs:///ck/3"})
)

func (m *storeMachine) update(t *rapid.T, fn func(Tx) error) error {
	return m.s.Update(context.Background(), fn)
}

func (m *storeMachine) existingJob(t *rapid.T) string {
	if len(m.jobs) == 0 {
		t.Skip("no job yet")
	}
	return rapid.SampledFrom(slices.Sorted(maps.Keys(m.jobs))).Draw(t, "job")
}

func (m *storeMachine) CreateJob(t *rapid.T) {
	j := sampleJob(genJobID.Draw(t, "id"), genName.Draw(t, "name"))
	err := m.update(t, func(tx Tx) error { return tx.CreateJob(j) })
	_, idTaken := m.jobs[j.ID]
	_, nameTaken := m.names[j.Name]
	if idTaken || nameTaken {
		if !errors.Is(err, ErrExists) {
			t.Fatalf("CreateJob(%s, %s) over a taken id/name = %v, want ErrExists", j.ID, j.Name, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	m.jobs[j.ID], m.names[j.Name] = j, j.ID
}

func (m *storeMachine) RenameJob(t *rapid.T) {
	id, name := m.existingJob(t), genName.Draw(t, "name")
	j := m.jobs[id]
	old := j.Name
	j.Name = name
	err := m.update(t, func(tx Tx) error { return tx.PutJob(j) })
	if other, taken := m.names[name]; taken && other != id {
		if !errors.Is(err, ErrExists) {
			t.Fatalf("rename %s onto %s's name %q = %v, want ErrExists", id, other, name, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	delete(m.names, old)
	m.names[name], m.jobs[id] = id, j
}

func (m *storeMachine) SetJobState(t *rapid.T) {
	id := m.existingJob(t)
	j := m.jobs[id]
	j.State = rapid.SampledFrom(model.JobStates()).Draw(t, "state")
	if err := m.update(t, func(tx Tx) error { return tx.PutJob(j) }); err != nil {
		t.Fatal(err)
	}
	m.jobs[id] = j
}

func (m *storeMachine) AddCommand(t *rapid.T) {
	jobID := genJobID.Draw(t, "job")
	c := sampleCommand(jobID, genKind.Draw(t, "kind"), genState.Draw(t, "state"))
	var got model.Command
	err := m.update(t, func(tx Tx) (err error) { got, err = tx.PutCommand(c); return err })
	if _, ok := m.jobs[jobID]; !ok {
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("command for missing job %s = %v, want ErrNotFound", jobID, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(len(m.cmds) + 1); got.Seq != want || !commandIDHasSeq([]byte(got.ID), want) || got.ID == CommandID(want) {
		t.Fatalf("new command got seq %d id %s, want %d and an id %s-<random>", got.Seq, got.ID, want, CommandID(want))
	}
	m.cmds = append(m.cmds, got)
}

func (m *storeMachine) MoveCommand(t *rapid.T) {
	if len(m.cmds) == 0 {
		t.Skip("no command yet")
	}
	i := rapid.IntRange(0, len(m.cmds)-1).Draw(t, "cmd")
	c := m.cmds[i]
	c.State = genState.Draw(t, "state")
	c.Attempts++
	if err := m.update(t, func(tx Tx) error { _, err := tx.PutCommand(c); return err }); err != nil {
		t.Fatal(err)
	}
	m.cmds[i] = c
}

func (m *storeMachine) AppendEvent(t *rapid.T) {
	id := m.existingJob(t)
	var e model.Event
	err := m.update(t, func(tx Tx) (err error) {
		e, err = tx.AppendEvent(model.Event{JobID: id, To: model.StateRunning})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	m.evs[id]++
	if e.Seq != int64(m.evs[id]) {
		t.Fatalf("event %d of job %s got seq %d", m.evs[id], id, e.Seq)
	}
}

func (m *storeMachine) AddRestorePoint(t *rapid.T) {
	id, path := m.existingJob(t), genPath.Draw(t, "path")
	var added bool
	err := m.update(t, func(tx Tx) (err error) {
		added, err = tx.AddRestorePoint(model.RestorePoint{JobID: id, Kind: model.Savepoint, Path: path})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := !slices.Contains(m.paths[id], path); added != want {
		t.Fatalf("AddRestorePoint(%s, %s) = %t, want %t", id, path, added, want)
	}
	if added {
		m.paths[id] = append(m.paths[id], path)
	}
}

// FailedUpdate writes to every family and then fails: the model is unchanged.
func (m *storeMachine) FailedUpdate(t *rapid.T) {
	id := m.existingJob(t)
	boom := errors.New("boom")
	err := m.update(t, func(tx Tx) error {
		j := m.jobs[id]
		j.Name = "renamed-then-rolled-back"
		if err := tx.PutJob(j); err != nil {
			return err
		}
		if len(m.cmds) > 0 {
			c := m.cmds[0]
			c.State = model.CmdFailed
			if _, err := tx.PutCommand(c); err != nil {
				return err
			}
		}
		if _, err := tx.PutCommand(sampleCommand(id, model.CmdKill, model.CmdUndo)); err != nil {
			return err
		}
		if _, err := tx.AppendEvent(model.Event{JobID: id}); err != nil {
			return err
		}
		if _, err := tx.AddRestorePoint(model.RestorePoint{JobID: id, Kind: model.Checkpoint, Path: "hdfs:///rolled-back"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failing update = %v", err)
	}
}

func (m *storeMachine) Reopen(t *rapid.T) {
	if err := m.s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(m.path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	m.s = s
}

// Check is the invariant, run after every action: the store's own
// consistency check, which decodes every record once and walks every index.
func (m *storeMachine) Check(t *rapid.T) {
	if err := m.s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// compare asks the store every query the model can answer. It runs at the
// end of each sequence (per step it would make the test slow, and shrinking
// finds the shortest failing sequence either way).
func (m *storeMachine) compare(t *rapid.T) {
	err := m.s.View(context.Background(), func(tx ReadTx) error {
		jobs, err := tx.Jobs()
		if err != nil {
			return err
		}
		if ids := jobIDs(jobs); !slices.Equal(ids, slices.Sorted(maps.Keys(m.jobs))) {
			t.Fatalf("Jobs() = %v, model has %v", ids, slices.Sorted(maps.Keys(m.jobs)))
		}
		for name, id := range m.names {
			if j, err := tx.JobByName(name); err != nil || j.ID != id {
				t.Fatalf("JobByName(%q) = %s, %v; model says %s", name, j.ID, err, id)
			}
		}
		for _, name := range []string{"orders", "clicks", "users", "audit", "renamed-then-rolled-back"} {
			if _, known := m.names[name]; !known {
				if _, err := tx.JobByName(name); !errors.Is(err, ErrNotFound) {
					t.Fatalf("JobByName(%q) = %v; the model has no such name", name, err)
				}
			}
		}
		filters := []CommandFilter{{}, {Limit: 2}}
		for _, s := range commandStates {
			filters = append(filters, CommandFilter{States: []model.CommandState{s}})
		}
		filters = append(filters, CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing}, Limit: 3})
		for _, id := range []string{"j1", "j2", "j3", "j4", "j5"} {
			filters = append(filters, CommandFilter{JobID: id},
				CommandFilter{JobID: id, States: []model.CommandState{model.CmdUndo, model.CmdDoing}},
				CommandFilter{JobID: id, States: []model.CommandState{model.CmdSucceeded}, Kinds: []model.CommandKind{model.CmdSubmit}})
		}
		for _, f := range filters {
			got, err := tx.Commands(f)
			if err != nil {
				return err
			}
			if ids, want := commandIDs(got), filterRef(m.cmds, f); !slices.Equal(ids, want) {
				t.Fatalf("Commands(%+v) = %v, model says %v", f, ids, want)
			}
		}
		for id := range m.jobs {
			evs, err := tx.Events(id, 0, 0)
			if err != nil || len(evs) != m.evs[id] {
				t.Fatalf("job %s has %d events (%v), model says %d", id, len(evs), err, m.evs[id])
			}
			rps, err := tx.RestorePoints(id)
			if err != nil {
				return err
			}
			var paths []string
			for _, rp := range rps {
				paths = append(paths, rp.Path)
			}
			if !slices.Equal(paths, m.paths[id]) {
				t.Fatalf("job %s restore points %v, model says %v", id, paths, m.paths[id])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// quickChecks is how many random sequences a plain `go test` tries (fewer
// with -short), to keep the package's tests within seconds under -race.
// For a long run:
//
//	go test ./store -run TestIndexesFollowRecords -rapid.checks=5000
func quickChecks() string {
	if testing.Short() {
		return "10"
	}
	return "30"
}

func TestIndexesFollowRecords(t *testing.T) {
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "rapid.checks" })
	if !explicit {
		if err := flag.Set("rapid.checks", quickChecks()); err != nil {
			t.Fatal(err)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		dir, err := os.MkdirTemp("", "palink-store-prop-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "palink.db")
		s, err := Open(path, Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		m := &storeMachine{s: s, path: path, jobs: map[string]model.Job{}, names: map[string]string{},
			evs: map[string]int{}, paths: map[string][]string{}}
		defer func() { _ = m.s.Close() }()
		t.Repeat(rapid.StateMachineActions(m))
		m.compare(t)
	})
}
