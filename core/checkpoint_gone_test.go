package core_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// A checkpoint the JobManager has rotated out of its history: its detail
// says so in a line, with the history's size as the cluster sets it
// (web.checkpoints.history), and brings what palink recorded of it; an id
// the JobManager never reached is not said to be gone (#29).
func TestACheckpointRotatedOutOfTheHistoryIsSaidSo(t *testing.T) {
	e := coretest.New(t, sim.Options{CheckpointInterval: time.Second}, nil)
	ctx := e.Ctx
	if _, err := e.Svc.CreateJob(ctx, api.CreateJobRequest{Name: "orders", Cluster: "sim", Kind: model.KindSQL,
		Spec: model.Spec{SQL: coretest.SQL}, Config: map[string]string{"web.checkpoints.history": "3"}}); err != nil {
		t.Fatal(err)
	}
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	e.SyncUntil("orders", "RUNNING with a Flink job id", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" })
	if c := e.Act("orders", model.CmdSavepoint, 0); c.State != model.CmdSucceeded {
		t.Fatalf("savepoint: %s %s", c.State, c.Error)
	}
	j := e.SyncUntil("orders", "its savepoint's id known", func(j model.Job) bool { return j.LatestSavepoint != nil && j.LatestSavepoint.CheckID > 0 })
	sp := *j.LatestSavepoint

	var (
		newest int64
		v      api.CheckpointsView
	)
	eventually(t, "the savepoint out of the history", func() bool {
		var err error
		v, err = e.Svc.Checkpoints(ctx, "orders")
		if err != nil || len(v.History) == 0 {
			return false
		}
		newest = v.History[0].ID
		return v.History[len(v.History)-1].ID > sp.CheckID
	})
	// Flink's view keeps the latest savepoint, and sums up the completed.
	if v.LatestSavepoint == nil || v.LatestSavepoint.ID != sp.CheckID || v.LatestSavepoint.Path != sp.Path {
		t.Errorf("latest savepoint %+v, want %d", v.LatestSavepoint, sp.CheckID)
	}
	if s := v.Summary; s.EndToEnd.Max < s.EndToEnd.Min || s.EndToEnd.Max <= 0 || s.StateSize.Avg <= 0 || s.Checkpointed.P99 <= 0 {
		t.Errorf("summary %+v", s)
	}
	cd, err := e.Svc.Checkpoint(ctx, api.CheckpointRequest{JobRef: "orders", ID: sp.CheckID})
	if err != nil {
		t.Fatalf("checkpoint %d: %v", sp.CheckID, err)
	}
	g := cd.Gone
	if g == nil || g.ID != sp.CheckID || g.Kept != 3 || g.Recorded == nil || g.Recorded.Path != sp.Path || g.Recorded.Kind != model.Savepoint {
		t.Fatalf("checkpoint %d out of the history: %+v, gone %+v", sp.CheckID, cd, g)
	}
	if want := fmt.Sprintf("checkpoint %d is no longer in the JobManager's history (it keeps 3)", sp.CheckID); g.String() != want {
		t.Errorf("gone says %q, want %q", g.String(), want)
	}
	if g.Recorded.Size <= 0 {
		t.Errorf("palink recorded no size of the savepoint: %+v", g.Recorded)
	}

	_, err = e.Svc.Checkpoint(ctx, api.CheckpointRequest{JobRef: "orders", ID: newest + 1000})
	if !errors.Is(err, model.ErrNotFound) || strings.Contains(err.Error(), "no longer") {
		t.Errorf("a checkpoint never taken: %v", err)
	}
}
