package scheduler

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// nopPublisher drops what a scheduler publishes.
type nopPublisher struct{}

func (nopPublisher) Job(model.Job, *model.Command, *model.Event) {}
func (nopPublisher) Command(model.Command)                       {}
func (nopPublisher) Publish(api.Change)                          {}

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
	s := New(Options{Store: st, Publisher: nopPublisher{}, Now: func() time.Time { return now }, Lease: time.Minute})

	// One job a command, so a by-job skip names exactly one.
	ids := map[string]string{} // name → command id
	put := func(name string, c model.Command) {
		t.Helper()
		err := st.Update(ctx, func(tx store.Tx) error {
			j := model.Job{ID: "j-" + name, Name: name, Kind: model.KindSQL, State: model.StateRunning}
			if err := tx.CreateJob(j); err != nil {
				return err
			}
			c.JobID, c.Kind, c.CreatedAt = j.ID, model.CmdPause, now.Add(-time.Hour)
			c, err := tx.PutCommand(c)
			ids[name] = c.ID
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
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
