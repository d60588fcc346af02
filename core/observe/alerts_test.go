package observe

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

var alertT0 = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

func rule(kind string, edit func(*Rule)) Rule {
	r := Rule{Name: kind, Kind: kind, Severity: "warning"}
	if edit != nil {
		edit(&r)
	}
	return r
}

func running(name string) model.Job {
	return model.Job{ID: "id-" + name, Name: name, Cluster: "prod", State: model.StateRunning, StartedAt: alertT0.Add(-time.Hour)}
}

func measured(at time.Time, edit func(*api.MetricPoint)) alertInput {
	p := api.MetricPoint{At: at, Lag: api.Unknown, WatermarkDelay: api.Unknown, CheckpointAge: api.Unknown}
	if edit != nil {
		edit(&p)
	}
	return alertInput{measured: true, latest: p, collectedAt: at}
}

func TestJudgeEachRuleKind(t *testing.T) {
	now := alertT0
	failed := running("f")
	failed.State, failed.Diagnostics = model.StateFailed, "java.lang.OutOfMemoryError: Java heap space\n\tat x.y"
	drifted := running("d")
	drifted.Drift = &model.Drift{Expected: "RUNNING", Observed: "YARN application_1_0001 not found", Since: now}
	old := running("old")
	old.LatestCheckpoint = &model.RestorePoint{Time: now.Add(-15 * time.Minute)}
	fresh := running("fresh")
	fresh.LatestCheckpoint = &model.RestorePoint{Time: now.Add(-30 * time.Second)}
	never := running("never") // started an hour ago, no checkpoint yet
	finished := running("fin")
	finished.State = model.StateFinished
	stale := 3 * time.Minute

	cases := []struct {
		name  string
		rule  Rule
		job   model.Job
		in    alertInput
		want  verdict
		value string // a fragment of the value, when it holds
	}{
		{"failed job", rule(RuleJobFailed, nil), failed, alertInput{}, verdict{holds: true, known: true}, "FAILED: java.lang.OutOfMemoryError: Java heap space"},
		{"running job is not failed", rule(RuleJobFailed, nil), running("r"), alertInput{}, verdict{known: true}, ""},
		{"drift", rule(RuleDrift, nil), drifted, alertInput{}, verdict{holds: true, known: true}, "platform expects RUNNING, YARN application_1_0001 not found"},
		{"old checkpoint from sync", rule(RuleCheckpointAge, func(r *Rule) { r.Age = 10 * time.Minute }), old, alertInput{}, verdict{holds: true, known: true}, "latest checkpoint 15m ago (limit 10m)"},
		{"fresh checkpoint", rule(RuleCheckpointAge, func(r *Rule) { r.Age = 10 * time.Minute }), fresh, alertInput{}, verdict{known: true}, ""},
		{"measured age wins over sync's", rule(RuleCheckpointAge, func(r *Rule) { r.Age = 10 * time.Minute }), old,
			measured(now.Add(-5*time.Second), func(p *api.MetricPoint) { p.CheckpointAge = 20 * time.Second }), verdict{known: true}, ""},
		{"no checkpoint since start", rule(RuleCheckpointAge, func(r *Rule) { r.Age = 10 * time.Minute }), never, alertInput{}, verdict{holds: true, known: true}, "no checkpoint in the 1h since it started"},
		{"checkpoints of a stopped job", rule(RuleCheckpointAge, func(r *Rule) { r.Age = time.Minute }), finished, alertInput{}, verdict{known: true}, ""},
		{"backpressure above", rule(RuleBackpressure, func(r *Rule) { r.Above = 0.5 }), running("b"),
			measured(now, func(p *api.MetricPoint) { p.Backpressure, p.BackpressureVertex = 0.87, "Sink: out" }), verdict{holds: true, known: true}, "backpressure 87% at Sink: out (limit 50%)"},
		{"backpressure below", rule(RuleBackpressure, func(r *Rule) { r.Above = 0.5 }), running("b"),
			measured(now, func(p *api.MetricPoint) { p.Backpressure = 0.2 }), verdict{known: true}, ""},
		{"backpressure unmeasured", rule(RuleBackpressure, func(r *Rule) { r.Above = 0.5 }), running("b"), alertInput{}, verdict{}, ""},
		{"backpressure measure too old", rule(RuleBackpressure, func(r *Rule) { r.Above = 0.5 }), running("b"),
			measured(now.Add(-10*time.Minute), func(p *api.MetricPoint) { p.Backpressure = 0.9 }), verdict{}, ""},
		{"backpressure of a stopped job", rule(RuleBackpressure, func(r *Rule) { r.Above = 0.5 }), finished, alertInput{}, verdict{known: true}, ""},
		{"lag above", rule(RuleLag, func(r *Rule) { r.Above = 100_000 }), running("l"),
			measured(now, func(p *api.MetricPoint) { p.Lag = 1_200_000 }), verdict{holds: true, known: true}, "consumer lag 1.2M records (limit 100.0k)"},
		{"no lag reported", rule(RuleLag, func(r *Rule) { r.Above = 10 }), running("l"), measured(now, nil), verdict{known: true}, ""},
		{"failed checkpoints in a row", rule(RuleFailedCheckpoints, func(r *Rule) { r.Count = 3 }), running("c"),
			measured(now, func(p *api.MetricPoint) { p.FailedInARow = 3 }), verdict{holds: true, known: true}, "3 failed checkpoints in a row (limit 3)"},
		{"restarts in the window", rule(RuleRestarts, func(r *Rule) { r.Count, r.Window = 2, 10*time.Minute }), running("x"),
			alertInput{measured: true, collectedAt: now, restarts: []restartMark{{now.Add(-20 * time.Minute), 5}, {now.Add(-5 * time.Minute), 2}, {now.Add(-time.Minute), 1}}},
			verdict{holds: true, known: true}, "3 restarts in 10m (limit 2)"},
		{"old restarts do not count", rule(RuleRestarts, func(r *Rule) { r.Count, r.Window = 2, 10*time.Minute }), running("x"),
			alertInput{measured: true, collectedAt: now, restarts: []restartMark{{now.Add(-20 * time.Minute), 5}}}, verdict{known: true}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := judge(tc.rule, tc.job, tc.in, now, stale)
			if got.holds != tc.want.holds || got.known != tc.want.known {
				t.Fatalf("judge = %+v, want holds %t known %t", got, tc.want.holds, tc.want.known)
			}
			if tc.value != "" && !strings.Contains(got.value, tc.value) {
				t.Errorf("value %q lacks %q", got.value, tc.value)
			}
		})
	}
}

func newTestAlerter(rules ...Rule) *alerter {
	return newAlerter(rules)
}

func TestAlertFiresAfterForAndResolvesOnce(t *testing.T) {
	bp := rule(RuleBackpressure, func(r *Rule) { r.Above, r.For = 0.5, 2*time.Minute })
	a := newTestAlerter(bp)
	job := running("orders")
	step := func(at time.Time, ratio float64) bool {
		return a.evaluate([]model.Job{job}, map[string]alertInput{job.ID: measured(at, func(p *api.MetricPoint) { p.Backpressure = ratio })}, at, time.Minute)
	}
	key := model.AlertKey(bp.Name, job.ID)
	if step(alertT0, 0.9) || a.alerts[key] != nil {
		t.Fatal("fired at once despite for: 2m")
	}
	if step(alertT0.Add(time.Minute), 0.2) {
		t.Fatal("a dip below the threshold fired")
	}
	// The dip restarted the clock: two more minutes above are needed.
	step(alertT0.Add(90*time.Second), 0.9)
	if step(alertT0.Add(3*time.Minute), 0.95) || a.alerts[key] != nil {
		t.Fatal("fired after 1m30s above the threshold")
	}
	if !step(alertT0.Add(4*time.Minute), 0.95) {
		t.Fatal("did not fire after 2m30s above the threshold")
	}
	al := a.alerts[key]
	if al.State != model.AlertFiring || !al.Since.Equal(alertT0.Add(90*time.Second)) || !a.dirty[key] ||
		!strings.HasPrefix(al.Message, "[FIRING] backpressure · orders (prod): backpressure 95%") {
		t.Fatalf("alert %+v", al)
	}
	clear(a.dirty)
	if step(alertT0.Add(5*time.Minute), 0.97) || len(a.dirty) != 0 {
		t.Fatal("a firing alert fired again, or was stored again for a new value")
	}
	if al.Value != "backpressure 97% at - (limit 50%)" {
		t.Errorf("the shown value does not follow the measure: %q", al.Value)
	}
	if !step(alertT0.Add(6*time.Minute), 0.1) || al.State != model.AlertResolved || !al.ResolvedAt.Equal(alertT0.Add(6*time.Minute)) {
		t.Fatalf("did not resolve: %+v", al)
	}
	if step(alertT0.Add(7*time.Minute), 0.1) {
		t.Fatal("a resolved alert resolved again")
	}
}

func TestAlertsResolveWhenUnwatchedAndAreForgottenOnceOwedNothing(t *testing.T) {
	failed := rule(RuleJobFailed, func(r *Rule) { r.Jobs = []string{"orders-*"} })
	a := newTestAlerter(failed)
	j := running("orders-1")
	j.State = model.StateFailed
	a.evaluate([]model.Job{j}, nil, alertT0, time.Minute)
	key := model.AlertKey(failed.Name, j.ID)
	if a.alerts[key] == nil || a.alerts[key].State != model.AlertFiring {
		t.Fatal("a FAILED job did not fire")
	}
	a.alerts[key].Notified = []string{"ops"}
	// The job disappears (or the rule stops selecting it): resolved.
	a.evaluate(nil, nil, alertT0.Add(time.Minute), time.Minute)
	al := a.alerts[key]
	if al.State != model.AlertResolved || al.Value != "no longer watched" {
		t.Fatalf("alert of a vanished job: %+v", al)
	}
	// Kept a day while its resolve is owed, then forgotten once sent.
	a.evaluate(nil, nil, alertT0.Add(48*time.Hour), time.Minute)
	if a.alerts[key] == nil {
		t.Fatal("forgot an alert whose resolve was never sent")
	}
	al.ResolveNotified = []string{"ops"}
	clear(a.dirty)
	a.evaluate(nil, nil, alertT0.Add(48*time.Hour), time.Minute)
	if a.alerts[key] != nil || !a.dirty[key] {
		t.Fatal("a long-resolved alert that owes nothing was not forgotten (and deleted from the store)")
	}
}

func TestUnknownDataKeepsTheAlertAsItIs(t *testing.T) {
	lag := rule(RuleLag, func(r *Rule) { r.Above = 100 })
	a := newTestAlerter(lag)
	j := running("l")
	a.evaluate([]model.Job{j}, map[string]alertInput{j.ID: measured(alertT0, func(p *api.MetricPoint) { p.Lag = 500 })}, alertT0, time.Minute)
	key := model.AlertKey(lag.Name, j.ID)
	if a.alerts[key] == nil {
		t.Fatal("did not fire")
	}
	// The JobManager stops answering: the measure grows old, nothing resolves.
	a.evaluate([]model.Job{j}, map[string]alertInput{j.ID: measured(alertT0, func(p *api.MetricPoint) { p.Lag = 500 })}, alertT0.Add(10*time.Minute), time.Minute)
	if a.alerts[key].State != model.AlertFiring {
		t.Fatal("an unmeasured job's alert resolved")
	}
}

func TestSortAlertsFiringFirstNewestFirst(t *testing.T) {
	as := []model.Alert{
		{Rule: "a", JobID: "1", State: model.AlertResolved, Since: alertT0, ResolvedAt: alertT0.Add(time.Hour)},
		{Rule: "b", JobID: "1", State: model.AlertFiring, Since: alertT0},
		{Rule: "c", JobID: "1", State: model.AlertResolved, Since: alertT0, ResolvedAt: alertT0.Add(2 * time.Hour)},
		{Rule: "d", JobID: "1", State: model.AlertFiring, Since: alertT0.Add(time.Minute)},
	}
	sortAlerts(as)
	var got []string
	for _, a := range as {
		got = append(got, a.Rule)
	}
	if strings.Join(got, "") != "dbca" {
		t.Errorf("order %v, want d b c a", got)
	}
}
