package core_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// TestAFollowersActionWakesTheLeader: two palinks on one store on etcd,
// one leading. An action queued through the other is run by the leader
// at once — its scheduler wakes on etcd's watch, not at its next tick
// (a minute here) — and the leader's screens see the job change.
func TestAFollowersActionWakesTheLeader(t *testing.T) {
	c := etcdtest.Start(t, 1, etcdtest.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl, err := sim.New(sim.Options{Seed: 1, Speed: 600})
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	url := store.EtcdScheme + strings.Join(c.Endpoints(), ",") + "/wake"
	open := func() *core.Local {
		l, err := core.Open(url, core.Options{
			Etcd:     store.EtcdOptions{Mirror: true},
			Clusters: []clusters.Spec{{Name: "sim", RM: cl.RMURLs(), SQLGateway: cl.GatewayURL()}},
			Tick:     time.Minute, Poll: 50 * time.Millisecond, ElectionTTL: 2 * time.Second, NoJitter: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	}
	leader, follower := open(), open()

	s, err := cl.Submit(ctx, sim.SubmitRequest{Name: "orders", Tags: []string{"palink", "palink-job-j1"}})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	j := model.Job{ID: "j1", Name: "orders", Kind: model.KindSQL, Cluster: "sim", SpecVersion: 1,
		State: model.StateRunning, AppID: s.AppID, FlinkJobID: s.JobID, CreatedAt: now, UpdatedAt: now}
	st, err := store.OpenEtcd(url, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Update(ctx, func(tx store.Tx) error { return tx.CreateJob(j) }); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the application running", func() bool {
		for _, a := range cl.Apps() {
			if a.ID == s.AppID && a.State == "RUNNING" && len(a.Jobs) > 0 && a.Jobs[0].State == "RUNNING" {
				return true
			}
		}
		return false
	})

	go func() { _ = leader.RunBackground(ctx, core.Commands, core.LeadOptions{What: "agent"}) }()
	eventually(t, "the first palink leading", func() bool {
		ls, err := leader.Leadership(ctx)
		return err == nil && ls.Leader != nil && ls.Leader.ID == ls.Self
	})
	// The leader's scheduler has just looked for commands; the next
	// look, without a wake, is a minute away.
	time.Sleep(500 * time.Millisecond)
	changes, err := leader.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := follower.Act(ctx, api.ActionRequest{JobRef: "orders", Kind: model.CmdSavepoint})
	if err != nil {
		t.Fatal(err)
	}
	sawJob := false
	deadline := time.After(15 * time.Second)
	for !sawJob {
		select {
		case ch := <-changes:
			sawJob = sawJob || ch.Kind == api.JobChanged && ch.Job != nil && ch.Job.ID == "j1"
		case <-deadline:
			t.Fatal("the leader's watchers heard nothing of the job the follower acted on")
		}
	}
	eventually(t, "the follower's savepoint run by the leader", func() bool {
		got, err := follower.Command(ctx, cmd.ID)
		return err == nil && got.State == model.CmdSucceeded
	})
}
