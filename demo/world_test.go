package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// startTestDemo starts a demo as `palink demo` does, without its UI, and
// lives its hour; it returns once the fleet is warm.
func startTestDemo(t testing.TB, jobs int) (*World, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	d, err := Start(ctx, Options{Sim: Sim{Apps: 2, Seed: 11, Speed: 1, CheckpointInterval: 10 * time.Second}})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.background(ctx) }()
	t.Cleanup(func() { cancel(); <-done; d.Close() })
	start := time.Now()
	alive := make(chan time.Duration, 1)
	go func() { alive <- untilAlive(ctx, d).Sub(start) }()
	if err := d.warm(ctx, jobs); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if b, ok := t.(*testing.B); ok {
		b.ReportMetric((<-alive).Seconds(), "s/alive")
	} else {
		t.Logf("alive after %v", <-alive)
	}
	return d, took
}

// untilAlive waits until the fleet looks alive: a RUNNING job with a
// sparkline of three points, and a firing alert.
func untilAlive(ctx context.Context, d *World) time.Time {
	for ctx.Err() == nil {
		jobs, _ := d.svc.ListJobs(ctx, api.JobFilter{})
		alerts, _ := d.svc.Alerts(ctx, api.AlertFilter{States: []model.AlertState{model.AlertFiring}})
		for _, j := range jobs {
			if j.State == model.StateRunning && len(j.Figures.InSpark) >= 3 && len(alerts) > 0 {
				return time.Now()
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Now()
}

func TestDemoLivesItsHourBeforeItOpens(t *testing.T) {
	d, took := startTestDemo(t, warmJobs)
	t.Logf("the hour took %v", took)
	ctx := t.Context()
	if b := d.clock.Behind(); b != 0 {
		t.Fatalf("warm returned with the clock %v behind", b)
	}
	jobs, err := d.svc.ListJobs(ctx, api.JobFilter{})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]model.JobState{}
	count := map[model.JobState]int{}
	for _, j := range jobs {
		states[j.Name] = j.State
		count[j.State]++
	}
	if len(jobs) != warmJobs || count[model.StateRunning] < warmJobs-8 || count[model.StateNone] != 1 {
		t.Errorf("fleet of %d jobs: %v, want %d with most RUNNING and one CREATED", len(jobs), count, warmJobs)
	}
	for name, want := range map[string]model.JobState{
		"payments-dedup": model.StateFinished, "inventory-sync-2": model.StateFinished,
		"clicks-to-hudi-2": model.StateKilled, "fraud-scoring-3": model.StateKilled,
	} {
		if states[name] != want {
			t.Errorf("%s is %s, want %s (the hour paused or killed it)", name, states[name], want)
		}
	}
	// orders-enrich-3 failed four times in half an hour: the policy
	// restarted it three times, then gave up, and Flink's exceptions say why.
	failed, err := d.svc.Job(ctx, "orders-enrich-3")
	if err != nil {
		t.Fatal(err)
	}
	if failed.Job.State != model.StateFailed || failed.Job.PlatformRestarts != 3 {
		t.Errorf("orders-enrich-3 is %s after %d policy restarts, want FAILED after 3", failed.Job.State, failed.Job.PlatformRestarts)
	}
	if !strings.Contains(failed.Job.Diagnostics, "Exception") {
		t.Errorf("the failed job's diagnostics name no exception: %q", failed.Job.Diagnostics)
	}
	if !hasEvent(failed.Events, "gave up") {
		t.Errorf("no event says the restart policy gave up: %+v", failed.Events)
	}

	paused, err := d.svc.Job(ctx, "payments-dedup")
	if err != nil {
		t.Fatal(err)
	}
	if !hasSavepoint(paused.RestorePoints) {
		t.Errorf("the paused job has no savepoint: %+v\n%+v", paused.RestorePoints, paused.Commands)
	}
	sp, err := d.svc.Job(ctx, "orders-enrich")
	if err != nil {
		t.Fatal(err)
	}
	if !hasSavepoint(sp.RestorePoints) || sp.Job.State != model.StateRunning {
		t.Errorf("orders-enrich is %s with restore points %+v, want RUNNING with a savepoint", sp.Job.State, sp.RestorePoints)
	}

	// An hour of charts, and the last minutes at full rate for sparklines.
	m, err := d.svc.JobMetrics(ctx, "clicks-to-hudi")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Hour) < 35 || m.Hour[len(m.Hour)-1].At.Sub(m.Hour[0].At) < 50*time.Minute {
		t.Errorf("hour chart has %d points, want one every 90s or less over the hour", len(m.Hour))
	}
	for i := 1; i < len(m.Hour); i++ {
		if gap := m.Hour[i].At.Sub(m.Hour[i-1].At); gap > 2*time.Minute {
			t.Errorf("hour chart has a %v gap before %v", gap, m.Hour[i].At)
		}
	}
	if len(m.Recent) < 10 {
		t.Errorf("%d recent points, want the sparkline's 10", len(m.Recent))
	}

	alerts, err := d.svc.Alerts(ctx, api.AlertFilter{States: []model.AlertState{model.AlertFiring}})
	if err != nil {
		t.Fatal(err)
	}
	firing := map[string]bool{}
	for _, a := range alerts {
		firing[a.JobName+"/"+a.Rule] = true
	}
	for _, want := range []string{"fraud-scoring/backpressure", "payments-dedup-2/consumer-lag"} {
		if !firing[want] {
			t.Errorf("alert %s is not firing; firing: %v", want, firing)
		}
	}
}

func hasEvent(es []model.Event, words string) bool {
	for _, e := range es {
		if strings.Contains(e.Reason, words) {
			return true
		}
	}
	return false
}

func hasSavepoint(ps []model.RestorePoint) bool {
	for _, p := range ps {
		if p.Kind == model.Savepoint && p.Path != "" {
			return true
		}
	}
	return false
}

// BenchmarkDemoWarmUp is the time from `palink demo` starting to a fleet
// that has lived its hour (the UI opens meanwhile; README promises a warm
// fleet within a second).
func BenchmarkDemoWarmUp(b *testing.B) {
	for b.Loop() {
		_, took := startTestDemo(b, warmJobs)
		b.ReportMetric(took.Seconds(), "s/warm-up")
	}
}

// The demo ships the data of its debug runs: a job's sources have sample
// files and its lookup join reads the demo's dimension table, so a run of
// the job as deployed gives rows at once, enriched where the user exists.
func TestDemoDebugRunGivesRowsAtOnce(t *testing.T) {
	dbg, err := writeData(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ch, err := dbg.Debug(t.Context(), api.DebugRequest{SQL: sqlEnrich, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	var named, missed int
	var fin api.DebugEvent
	for ev := range ch {
		switch ev.Kind {
		case api.DebugStarted:
			if len(ev.Sources) != 1 || !strings.HasSuffix(ev.Sources[0].File, "orders.jsonl") || ev.Sources[0].Total != 400 {
				t.Errorf("sources %+v: want the demo's 400 sample orders", ev.Sources)
			}
		case api.DebugRowReceived:
			if ev.Row.Values[1] == "NULL" {
				missed++
			} else {
				named++
			}
		case api.DebugFinished:
			fin = ev
		}
	}
	if fin.Err != nil {
		t.Fatalf("the demo's debug run failed: %v", fin.Err)
	}
	if named+missed != 50 || named == 0 || missed == 0 {
		t.Errorf("%d rows with a user's name and %d misses, want 50 with both", named, missed)
	}
}

// The hour's events must be in time order: warm plays them as the clock
// passes them.
func TestDemoPlanIsInTimeOrder(t *testing.T) {
	for i := 1; i < len(plan); i++ {
		if plan[i].before > plan[i-1].before {
			t.Errorf("%s of %s at -%v comes after -%v", plan[i].what, plan[i].job, plan[i].before, plan[i-1].before)
		}
	}
}
