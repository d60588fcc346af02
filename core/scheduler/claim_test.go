package scheduler

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// recorder keeps the commands a scheduler publishes.
type recorder struct{ commands []model.Command }

func (r *recorder) Job(model.Job, *model.Command, *model.Event) {}
func (r *recorder) Command(c model.Command)                     { r.commands = append(r.commands, c) }
func (r *recorder) Publish(api.Change)                          {}

// TestClaimHonoursLeases: claim takes queued commands and those whose
// lease expired (at the very instant it expires), never one another live
// worker holds, one it already runs, or one skip names, and no more than
// asked for.
func TestClaimHonoursLeases(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	pub := &recorder{}
	s := New(Options{Store: st, Publisher: pub, Now: func() time.Time { return now }, Lease: time.Minute})

	// One job a command, so a by-job skip names exactly one.
	ids := map[string]string{} // name → command id
	put := func(name string, c model.Command) { ids[name] = putPause(t, st, now, name, c) }
	put("queued", model.Command{State: model.CmdUndo})
	put("held", model.Command{State: model.CmdDoing, LeaseOwner: "other", LeaseUntil: now.Add(time.Nanosecond)})
	put("expires-now", model.Command{State: model.CmdDoing, LeaseOwner: "other", LeaseUntil: now})
	put("expired", model.Command{State: model.CmdDoing, LeaseOwner: "other", LeaseUntil: now.Add(-time.Second)})
	put("skipped", model.Command{State: model.CmdUndo})

	skip := func(c model.Command) bool { return c.JobID == "j-skipped" }
	names := func(cs []model.Command) string {
		var out []string
		for _, c := range cs {
			out = append(out, strings.TrimPrefix(c.JobID, "j-"))
		}
		return strings.Join(out, ",")
	}

	if cs, err := s.claim(ctx, 0, skip); err != nil || len(cs) != 0 {
		t.Fatalf("claim 0: %s, %v", names(cs), err)
	}
	first, err := s.claim(ctx, 1, skip)
	if err != nil || len(first) != 1 {
		t.Fatalf("claim 1: %s, %v; want one command", names(first), err)
	}
	rest, err := s.claim(ctx, 10, skip)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.Command{}
	for _, c := range append(first, rest...) {
		if _, twice := got[c.JobID]; twice {
			t.Errorf("%s claimed twice", c.JobID)
		}
		got[strings.TrimPrefix(c.JobID, "j-")] = c
	}
	for _, name := range []string{"queued", "expires-now", "expired"} {
		c, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s not claimed; claimed %s then %s", name, names(first), names(rest))
		case c.State != model.CmdDoing || c.LeaseOwner != s.owner || !c.LeaseUntil.Equal(now.Add(time.Minute)):
			t.Errorf("%s claimed as %s by %q until %s; want DOING by %q until %s", name, c.State, c.LeaseOwner, c.LeaseUntil, s.owner, now.Add(time.Minute))
		}
	}
	for _, name := range []string{"held", "skipped"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s claimed", name)
		}
	}
	if len(got) != 3 {
		t.Errorf("claimed %s then %s; want queued, expires-now and expired", names(first), names(rest))
	}
	if c := got["expired"]; !strings.Contains(strings.Join(logTexts(c), "\n"), "lease of other expired") {
		t.Errorf("a reclaimed command's log: %q", logTexts(c))
	}
	if c := got["queued"]; !strings.Contains(strings.Join(logTexts(c), "\n"), "started by "+s.owner) {
		t.Errorf("a started command's log: %q", logTexts(c))
	}
	if len(pub.commands) != len(got) {
		t.Errorf("published %d claimed commands, want %d (the screens follow commands through them)", len(pub.commands), len(got))
	}
	// An hour on, what this process runs is not claimed again (it renews
	// its leases while it runs); the other worker's lease has expired.
	now = now.Add(time.Hour)
	if again, err := s.claim(ctx, 10, nil); err != nil || names(again) != "held,skipped" {
		t.Errorf("claim an hour on: %s, %v; want held (its lease expired) and skipped", names(again), err)
	}
}

func logTexts(c model.Command) []string {
	var out []string
	for _, l := range c.Log {
		out = append(out, l.Text)
	}
	return out
}

// TestReleaseLeaseHandsACommandOn: a palink that quits releases the lease
// of a command it runs, so another palink resumes it at once rather than
// after the lease; it leaves alone what it does not hold.
func TestReleaseLeaseHandsACommandOn(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := New(Options{Store: st, Publisher: &recorder{}, Now: clock, Lease: time.Minute})
	other := New(Options{Store: st, Publisher: &recorder{}, Now: clock, Lease: time.Minute})
	put := func(name string, c model.Command) string {
		t.Helper()
		var id string
		err := st.Update(ctx, func(tx store.Tx) error {
			if err := tx.CreateJob(model.Job{ID: "j-" + name, Name: name, Kind: model.KindSQL, State: model.StateRunning}); err != nil {
				return err
			}
			c.JobID, c.Kind, c.CreatedAt = "j-"+name, model.CmdPause, now
			c, err := tx.PutCommand(c)
			id = c.ID
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	until := now.Add(time.Minute)
	mine := put("mine", model.Command{State: model.CmdDoing, LeaseOwner: s.owner, LeaseUntil: until})
	theirs := put("theirs", model.Command{State: model.CmdDoing, LeaseOwner: "other", LeaseUntil: until})
	ended := put("ended", model.Command{State: model.CmdSucceeded, LeaseOwner: s.owner, LeaseUntil: until})
	for _, id := range []string{mine, theirs, ended} {
		if err := s.releaseLease(id); err != nil {
			t.Fatalf("release %s: %v", id, err)
		}
	}
	if err := s.releaseLease("c-nope"); err == nil {
		t.Error("releasing an unknown command succeeded")
	}
	lease := func(id string) time.Time {
		var c model.Command
		if err := st.View(ctx, func(tx store.ReadTx) (err error) { c, err = tx.Command(id); return err }); err != nil {
			t.Fatal(err)
		}
		return c.LeaseUntil
	}
	if got := lease(mine); !got.Equal(now) {
		t.Errorf("released lease ends %s, want now (%s)", got, now)
	}
	for _, id := range []string{theirs, ended} {
		if got := lease(id); !got.Equal(until) {
			t.Errorf("a lease %s does not hold was moved to %s", id, got)
		}
	}
	claimed, err := other.claim(ctx, 10, nil)
	if err != nil || len(claimed) != 1 || claimed[0].ID != mine {
		t.Errorf("another palink claims %v, %v; want the released command %s at once", claimed, err, mine)
	}
}

// TestClaimWhenTheStoreFails: a claim whose transaction fails claims
// nothing — no command is marked as run here, none announced, none left
// DOING in the store — and says why.
func TestClaimWhenTheStoreFails(t *testing.T) {
	broken := errors.New("disk full")
	for _, tc := range []struct {
		name string
		fs   failingStore
	}{
		{"listing the commands", failingStore{listErr: broken}},
		{"writing a claimed command", failingStore{putErr: broken}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var id string
			err = st.Update(ctx, func(tx store.Tx) error {
				if err := tx.CreateJob(model.Job{ID: "j1", Name: "orders", Kind: model.KindSQL, State: model.StateRunning}); err != nil {
					return err
				}
				c, err := tx.PutCommand(model.Command{JobID: "j1", Kind: model.CmdPause, State: model.CmdUndo, CreatedAt: time.Now()})
				id = c.ID
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			pub := &recorder{}
			fs := tc.fs
			fs.Store = st
			s := New(Options{Store: fs, Publisher: pub})
			cs, err := s.claim(ctx, 5, nil)
			if !errors.Is(err, broken) || len(cs) != 0 {
				t.Fatalf("claim = %d commands, %v; want none and the store's error", len(cs), err)
			}
			if len(s.running) != 0 || len(pub.commands) != 0 {
				t.Errorf("after a failed claim %d commands are marked running here and %d announced", len(s.running), len(pub.commands))
			}
			_ = st.View(ctx, func(tx store.ReadTx) error {
				c, err := tx.Command(id)
				if err != nil || c.State != model.CmdUndo || c.LeaseOwner != "" {
					t.Errorf("the command is now %s, leased by %q (%v); want it still queued", c.State, c.LeaseOwner, err)
				}
				return nil
			})
		})
	}
}

// rerunStore runs each Update's fn twice, as a store on etcd does when
// another writer commits first: the first run's writes are thrown away,
// and the second run is the one committed.
type rerunStore struct{ store.Store }

func (r rerunStore) Update(ctx context.Context, fn func(store.Tx) error) error {
	lost := errors.New("another writer committed first")
	err := r.Store.Update(ctx, func(tx store.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return lost
	})
	if !errors.Is(err, lost) {
		return err
	}
	return r.Store.Update(ctx, fn)
}

// TestClaimRunsAgainAfterAConflict: a claim whose transaction ran twice
// claims and announces each command once.
func TestClaimRunsAgainAfterAConflict(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Update(ctx, func(tx store.Tx) error {
		if err := tx.CreateJob(model.Job{ID: "j1", Name: "orders", Kind: model.KindSQL, State: model.StateRunning}); err != nil {
			return err
		}
		for range 2 {
			if _, err := tx.PutCommand(model.Command{JobID: "j1", Kind: model.CmdPause, State: model.CmdUndo, CreatedAt: time.Now()}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pub := &recorder{}
	s := New(Options{Store: rerunStore{st}, Publisher: pub, Lease: time.Minute})
	cs, err := s.claim(ctx, 3, nil)
	if err != nil || len(cs) != 2 || cs[0].ID == cs[1].ID || len(pub.commands) != 2 {
		t.Errorf("claim = %d commands, %d announced, %v; want the 2 queued ones, once each", len(cs), len(pub.commands), err)
	}
}

// putPause stores a running job named name and c as a PAUSE of it,
// created an hour before now, and returns the command's id.
func putPause(t *testing.T, st store.Store, now time.Time, name string, c model.Command) string {
	t.Helper()
	err := st.Update(context.Background(), func(tx store.Tx) error {
		j := model.Job{ID: "j-" + name, Name: name, Kind: model.KindSQL, State: model.StateRunning}
		if err := tx.CreateJob(j); err != nil {
			return err
		}
		c.JobID, c.Kind, c.CreatedAt = j.ID, model.CmdPause, now.Add(-time.Hour)
		var err error
		c, err = tx.PutCommand(c)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// updates counts the write transactions opened on a store.
type updates struct {
	store.Store
	n int
}

func (u *updates) Update(ctx context.Context, fn func(store.Tx) error) error {
	u.n++
	return u.Store.Update(ctx, fn)
}

// TestClaimWithNothingToClaimWritesNothing: the scheduler claims every
// tick; with nothing claimable it opens no write transaction, whose
// commit would sync the file every second on an idle agent.
func TestClaimWithNothingToClaimWritesNothing(t *testing.T) {
	ctx := context.Background()
	bolt, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bolt.Close()
	st := &updates{Store: bolt}
	now := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	s := New(Options{Store: st, Publisher: &recorder{}, Now: func() time.Time { return now }, Lease: time.Minute})
	put := func(name string, c model.Command) { putPause(t, bolt, now, name, c) }
	for range 3 {
		if cs, err := s.claim(ctx, 4, nil); err != nil || len(cs) != 0 {
			t.Fatalf("claim from an empty store: %v, %v", cs, err)
		}
	}
	put("held", model.Command{State: model.CmdDoing, LeaseOwner: "other", LeaseUntil: now.Add(time.Minute)})
	if cs, err := s.claim(ctx, 4, nil); err != nil || len(cs) != 0 {
		t.Fatalf("claim of a command another worker holds: %v, %v", cs, err)
	}
	if st.n != 0 {
		t.Errorf("%d write transactions with nothing to claim, want 0", st.n)
	}
	put("queued", model.Command{State: model.CmdUndo})
	if cs, err := s.claim(ctx, 4, nil); err != nil || len(cs) != 1 || cs[0].JobID != "j-queued" {
		t.Fatalf("claim of a queued command: %v, %v", cs, err)
	}
	if st.n != 1 {
		t.Errorf("%d write transactions to claim one command, want 1", st.n)
	}
}
