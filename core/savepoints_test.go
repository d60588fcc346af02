package core_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

func savepointRecords(e *coretest.Env, ref string) []model.RestorePoint {
	e.T.Helper()
	d, err := e.Svc.Job(e.Ctx, ref)
	if err != nil {
		e.T.Fatal(err)
	}
	var out []model.RestorePoint
	for _, rp := range d.RestorePoints {
		if rp.Kind == model.Savepoint {
			out = append(out, rp)
		}
	}
	return out
}

// TestPeriodicSavepointsWithRetention: a RUNNING job gets a savepoint every
// interval from the scheduler ("schedule" SAVEPOINT commands); retention
// keeps the newest two and disposes of the oldest through the cluster's
// savepoint-disposal, which the simulator records; the records say
// disposed. A savepoint the job needs is refused unless forced; a
// disposed one cannot be restored.
func TestPeriodicSavepointsWithRetention(t *testing.T) {
	e := coretest.NewWith(t, sim.Options{}, nil, func(o *core.Options) {
		o.Tick = 50 * time.Millisecond
		o.Savepoints = decide.SavepointPolicy{Interval: 400 * time.Millisecond, MaxCount: 2}
	})
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	e.SyncUntil("orders", "RUNNING", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" })

	appID := e.Job("orders").AppID
	simDisposals := func() []sim.Disposal {
		a, err := e.Sim.App(appID)
		if err != nil {
			t.Fatal(err)
		}
		return a.Disposals
	}
	deadline := time.Now().Add(45 * time.Second)
	for {
		if len(simDisposals()) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no retention after 45s: records %+v, disposals %+v", savepointRecords(e, "orders"), simDisposals())
		}
		time.Sleep(100 * time.Millisecond)
	}
	cmds, err := e.Svc.Commands(e.Ctx, api.CommandFilter{JobRef: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	periodic := 0
	for _, c := range cmds {
		if c.Kind == model.CmdSavepoint && c.Issuer == "schedule" && c.Params.Auto {
			periodic++
		}
	}
	if periodic < 3 {
		t.Errorf("%d periodic savepoint commands, want at least 3", periodic)
	}
	recs := savepointRecords(e, "orders")
	byPath := map[string]model.RestorePoint{}
	for _, rp := range recs {
		byPath[rp.Path] = rp
	}
	disposals := simDisposals()
	if disposals[0].Path != recs[0].Path || disposals[0].Error != "" {
		t.Errorf("the first disposal is not of the oldest savepoint %s: %+v", recs[0].Path, disposals[0])
	}
	for _, d := range disposals {
		if rp := byPath[d.Path]; rp.Status != model.SavepointDisposed && rp.Status != model.SavepointDisposing || rp.Path == "" {
			t.Errorf("the record of disposed %s says %s", d.Path, rp.Status)
		}
	}
	completed := 0
	for _, rp := range recs {
		if rp.Status == model.SavepointCompleted {
			completed++
		}
	}
	if completed > 3 { // 2 kept, and perhaps one taken since the last pass
		t.Errorf("%d completed savepoints kept, want about 2: %+v", completed, recs)
	}

	// The latest savepoint is needed: refused unless forced.
	j := e.Job("orders")
	_, err = e.Svc.DisposeSavepoint(e.Ctx, api.DisposeRequest{Path: j.LatestSavepoint.Path})
	if !errors.Is(err, model.ErrRefused) || !strings.Contains(err.Error(), "latest savepoint") {
		t.Errorf("disposing of the latest savepoint: %v", err)
	}
	// A disposed one: refused again, and not restorable.
	_, err = e.Svc.DisposeSavepoint(e.Ctx, api.DisposeRequest{Path: disposals[0].Path})
	if !errors.Is(err, model.ErrRefused) || !strings.Contains(err.Error(), "already disposed") {
		t.Errorf("disposing twice: %v", err)
	}
	if c := e.Act("orders", model.CmdKill, 0); c.State != model.CmdSucceeded {
		t.Fatalf("kill: %s %s", c.State, c.Error)
	}
	_, err = e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: "orders", Kind: model.CmdResubmit, Restore: model.RestorePath, RestorePath: disposals[0].Path})
	if err == nil || !strings.Contains(err.Error(), "was disposed of") {
		t.Errorf("resubmit from a disposed savepoint: %v", err)
	}
}

// TestRestoreAgeGuardAndClaimMode: a restore point older than
// max_restore_age is refused unless forced; the claim mode and
// allowNonRestoredState chosen at resubmit reach the deploy.
func TestRestoreAgeGuardAndClaimMode(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	e := coretest.NewWith(t, sim.Options{}, nil, func(o *core.Options) {
		o.Now = func() time.Time { return clock() }
		o.Savepoints = decide.SavepointPolicy{MaxRestoreAge: 72 * time.Hour}
	})
	e.CreateSQL("orders")
	if c := e.Act("orders", model.CmdSubmit, 0); c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	e.SyncUntil("orders", "RUNNING", func(j model.Job) bool { return coretest.Running(j) && j.FlinkJobID != "" })
	if c := e.Act("orders", model.CmdPause, 0); c.State != model.CmdSucceeded {
		t.Fatalf("pause: %s %s", c.State, c.Error)
	}
	sp := e.Job("orders").LatestSavepoint
	later := now.Add(100 * time.Hour)
	clock = func() time.Time { return later }
	req := api.ActionRequest{JobRef: "orders", Kind: model.CmdResubmit, Restore: model.RestoreSavepoint}
	if _, err := e.Svc.Act(e.Ctx, req); err == nil || !strings.Contains(err.Error(), "older than the 72h0m0s allowed") {
		t.Fatalf("resubmit from a 100h old savepoint: %v", err)
	}
	req.Force, req.ClaimMode, req.AllowNonRestoredState = true, model.ClaimClaim, true
	c, err := e.Svc.Act(e.Ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if c, err = e.Svc.WaitCommand(e.Ctx, c.ID); err != nil || c.State != model.CmdSucceeded {
		t.Fatalf("forced resubmit: %v %s %s", err, c.State, c.Error)
	}
	if c.Params.ClaimMode != model.ClaimClaim || !c.Params.AllowNonRestoredState || c.Params.RestorePath != sp.Path {
		t.Errorf("command params %+v", c.Params)
	}
}
