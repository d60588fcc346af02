package core_test

import (
	"context"
	"errors"
	"flag"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestNeverTwoLiveApplications drives one job through random sequences of
// user actions, double-clicks and cluster failures, and checks after every
// step that at most one application of the job is alive on YARN and that the
// job's history agrees with its state.
//
// Each sequence runs real deploys on the simulator, so a plain run tries 12;
// `go test ./core -run TestNeverTwoLiveApplications -rapid.checks=200` for more.
func TestNeverTwoLiveApplications(t *testing.T) {
	e := coretest.New(t, sim.Options{Speed: 60}, nil)
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "rapid.checks" })
	if !explicit {
		if err := flag.Set("rapid.checks", "12"); err != nil {
			t.Fatal(err)
		}
		defer flag.Set("rapid.checks", "100")
	}
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		name := "p" + time.Now().Format("150405.000000")
		j := e.CreateSQL(name)
		kinds := []model.CommandKind{model.CmdSubmit, model.CmdPause, model.CmdKill, model.CmdRestart,
			model.CmdResubmit, model.CmdSavepoint}
		steps := rapid.IntRange(3, 8).Draw(rt, "steps")
		for i := 0; i < steps; i++ {
			switch rapid.IntRange(0, 9).Draw(rt, "what") {
			case 0: // the cluster fails the job for good
				if cur := e.Job(j.ID); cur.AppID != "" {
					_ = e.Sim.FailJob(cur.AppID)
				}
			default:
				k := rapid.SampledFrom(kinds).Draw(rt, "kind")
				double := rapid.Bool().Draw(rt, "double")
				var restore model.RestoreChoice
				if k == model.CmdResubmit {
					restore = rapid.SampledFrom([]model.RestoreChoice{model.RestoreNone, model.RestoreLatest}).Draw(rt, "restore")
				}
				c, err := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: j.ID, Kind: k, Restore: restore})
				var refused *decide.ActionRefusedError
				if err != nil && !errors.As(err, &refused) {
					rt.Fatalf("%s: %v", k, err)
				}
				if double { // a second key press while the first runs
					_, err2 := e.Svc.Act(e.Ctx, api.ActionRequest{JobRef: j.ID, Kind: k, Restore: restore})
					if err == nil && err2 == nil {
						rt.Fatalf("%s accepted twice while the first was pending", k)
					}
				}
				if err == nil {
					ctx, cancel := context.WithTimeout(e.Ctx, time.Minute)
					_, werr := e.Svc.WaitCommand(ctx, c.ID)
					cancel()
					if werr != nil {
						rt.Fatalf("wait %s: %v", k, werr)
					}
				}
			}
			if _, err := e.Svc.SyncOnce(e.Ctx, 0); err != nil {
				rt.Fatal(err)
			}
			if live := e.LiveApps(j.ID); len(live) > 1 {
				rt.Fatalf("step %d: %d live applications for one job: %v, %v", i, len(live), live[0].ID, live[1].ID)
			}
			d, err := e.Svc.Job(e.Ctx, j.ID)
			if err != nil {
				rt.Fatal(err)
			}
			if last := d.Events[len(d.Events)-1]; last.To != d.Job.State {
				rt.Fatalf("step %d: job is %s, its last event says %s", i, d.Job.State, last.To)
			}
		}
	})
	t.Logf("%d sequences", n)
}
