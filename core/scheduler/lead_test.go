package scheduler

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// TestALeaderReclaimsADeposedLeadersCommandWhateverTheClocks: a command
// leased by a palink that led before is reclaimed by the new leader once a
// Lease has passed since its term began, even when its lease, read on a
// clock an hour behind the old leader's, has an hour to run — and not
// before; outside a term, the lease alone decides, as before.
func TestALeaderReclaimsADeposedLeadersCommandWhateverTheClocks(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	err = st.Update(ctx, func(tx store.Tx) error {
		if err := tx.CreateJob(model.Job{ID: "j1", Name: "orders", Kind: model.KindSQL, State: model.StateRunning}); err != nil {
			return err
		}
		_, err := tx.PutCommand(model.Command{JobID: "j1", Kind: model.CmdPause, State: model.CmdDoing, CreatedAt: now,
			LeaseOwner: "old-leader pid 1 #aa", LeaseUntil: now.Add(time.Hour)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	const lease = 3 * time.Second
	clock := func() time.Time { return now }
	for _, tc := range []struct {
		name      string
		leadSince time.Time
		claimed   bool
	}{
		{"outside a term", time.Time{}, false},
		{"a term that just began", time.Now(), false},
		{"a term older than the lease", time.Now().Add(-lease), true},
	} {
		s := New(Options{Store: st, Publisher: &recorder{}, Now: clock, Lease: lease, LeadSince: tc.leadSince})
		got, err := s.claim(ctx, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if (len(got) == 1) != tc.claimed {
			t.Errorf("%s: claimed %d commands, want claimed %t", tc.name, len(got), tc.claimed)
		}
		if len(got) == 1 && (got[0].LeaseOwner != s.owner || !strings.Contains(logOf(got[0]), "lease of old-leader pid 1 #aa ended with its lead; reconciling")) {
			t.Errorf("%s: reclaimed by %q: %s", tc.name, got[0].LeaseOwner, logOf(got[0]))
		}
	}
}

// TestNoActOnAClusterOnceNotLeading: a command whose palink no longer leads
// (MayAct refuses) sends nothing to the cluster: the kill is not sent, and
// the command stays DOING under its lease for the leader to reconcile,
// neither FAILED nor SUCCEEDED.
func TestNoActOnAClusterOnceNotLeading(t *testing.T) {
	deposed := errors.New("this palink no longer leads: its lease lapsed")
	for _, kind := range []model.CommandKind{model.CmdKill, model.CmdPause} {
		t.Run(kind.String(), func(t *testing.T) {
			b := newBed(t, running(), func(o *Options) { o.MayAct = func() error { return deposed } })
			b.f.add(prevApp, yarn.AppRunning, nil, yarn.JobOverview{ID: prevJob, State: "RUNNING"})
			x := b.exec(kind, model.CommandParams{AppID: prevApp, FlinkJobID: prevJob})
			b.s.execute(b.ctx, x.cmd)
			if n := b.f.sent("PUT", "/ws/v1/cluster/apps/"+prevApp+"/state") + b.f.sent("POST", "/jm/"+prevApp+"/jobs/"+prevJob+"/stop"); n != 0 {
				t.Errorf("%d acts sent to the cluster by a palink that no longer leads", n)
			}
			j, c := b.stored(x)
			if c.State != model.CmdDoing || c.LeaseOwner != b.s.owner || j.State != model.StateRunning {
				t.Errorf("command %s (owner %q), job %s; want DOING under its lease, the job RUNNING\n%s", c.State, c.LeaseOwner, j.State, logOf(c))
			}
		})
	}
}
