package tuitest

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// metricsPart is the fake's metrics, interest and alerts.
type metricsPart struct{ f *Fake }

// fakeMetrics is the fake's metrics and alerts state.
type fakeMetrics struct {
	// interests are the SetInterest calls, in order.
	interests []api.InterestRequest
	// series are what JobMetrics answers, by job id; a running job with
	// figures and no entry gets a made-up series (fixtureSeries).
	Series       map[string]api.MetricsSeries
	MetricsCalls int
	// Histories are what SubtaskHistory answers, by "<job id>/<vertex
	// id>"; a vertex of the fixture without one gets a made-up history.
	Histories   map[string]api.SubtaskHistory
	alerts      []model.Alert
	alertsCalls int
	// undos are the alerts as they were before their last acknowledgement
	// or silence, by key, for ActOnAlert's Undo.
	undos map[string]fakeUndo
}

// fakeUndo is what an undo puts back: the alert before an acknowledgement
// (ack) or a silence.
type fakeUndo struct {
	before model.Alert
	ack    bool
}

// SetInterest implements api.Service.
func (p *metricsPart) SetInterest(ctx context.Context, r api.InterestRequest) error {
	f := p.f
	if err := f.wait(ctx); err != nil {
		return err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	r.Jobs = slices.Clone(r.Jobs)
	f.Metrics.interests = append(f.Metrics.interests, r)
	return nil
}

// JobMetrics implements api.Service.
func (p *metricsPart) JobMetrics(ctx context.Context, ref string) (api.MetricsSeries, error) {
	f := p.f
	if err := f.wait(ctx); err != nil {
		return api.MetricsSeries{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.Metrics.MetricsCalls++
	i, err := f.find(ref)
	if err != nil {
		return api.MetricsSeries{}, err
	}
	j := f.Jobs[i]
	if s, ok := f.Metrics.Series[j.ID]; ok {
		s.Charts = slices.Clone(j.Charts)
		return s, nil
	}
	if j.State != model.StateRunning || j.Figures.At.IsZero() {
		return api.MetricsSeries{JobID: j.ID, Interval: 5 * time.Second, Charts: slices.Clone(j.Charts)}, nil
	}
	return FixtureSeries(j, f.now), nil
}

// Alerts implements api.Service.
func (p *metricsPart) Alerts(ctx context.Context, flt api.AlertFilter) ([]model.Alert, error) {
	f := p.f
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.Metrics.alertsCalls++
	var out []model.Alert
	for _, a := range f.Metrics.alerts {
		if len(flt.States) > 0 && !slices.Contains(flt.States, a.State) {
			continue
		}
		if flt.JobRef != "" && a.JobID != flt.JobRef && a.JobName != flt.JobRef {
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// LastInterest is the latest SetInterest, and whether there was one.
func (p *metricsPart) LastInterest() (api.InterestRequest, bool) {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if n := len(f.Metrics.interests); n > 0 {
		return f.Metrics.interests[n-1], true
	}
	return api.InterestRequest{}, false
}

// InterestCalls counts SetInterest calls.
func (p *metricsPart) InterestCalls() int {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return len(f.Metrics.interests)
}

// SetAlerts replaces the fake's alerts.
func (p *metricsPart) SetAlerts(as []model.Alert) {
	f := p.f
	f.Mu.Lock()
	f.Metrics.alerts = as
	f.Mu.Unlock()
}

// FixtureAlerts are two firing alerts and a resolved one over the fixture's jobs.
func FixtureAlerts() []model.Alert {
	ago := func(d time.Duration) time.Time { return Now.Add(-d) }
	return []model.Alert{
		{Rule: "job-failed", Kind: "job_failed", Severity: "critical", JobID: "j005", JobName: "fraud-scoring", Cluster: "prod",
			State: model.AlertFiring, Since: ago(2 * time.Hour), Value: "FAILED: java.lang.OutOfMemoryError: Java heap space",
			Notified: []string{"ops-slack"}},
		{Rule: "backpressure", Kind: "backpressure", Severity: "warning", JobID: "j003", JobName: "clicks-to-hudi", Cluster: "prod",
			State: model.AlertFiring, Since: ago(7 * time.Minute), Value: "backpressure 87% at Sink: hudi[5] (limit 80%)"},
		{Rule: "restarts", Kind: "restarts", Severity: "warning", JobID: "j004", JobName: "user-features", Cluster: "staging",
			State: model.AlertResolved, Since: ago(50 * time.Minute), ResolvedAt: ago(20 * time.Minute),
			Value: "4 restarts in 10m (limit 3)", Notified: []string{"ops-slack"}, ResolveNotified: []string{"ops-slack"}},
	}
}

// FixtureSeries makes a deterministic five-minute history around a job's
// figures: a slow wave, a backpressure bump (the lag swells with it, for
// a job whose sources report one), checkpoints every minute.
func FixtureSeries(j api.JobView, now time.Time) api.MetricsSeries {
	const step = 5 * time.Second
	fig := j.Figures
	s := api.MetricsSeries{JobID: j.ID, Interval: step}
	for i := 59; i >= 0; i-- {
		at := now.Add(-time.Duration(i) * step)
		x := float64(59-i) / 59
		wave := 1 + 0.15*math.Sin(2*math.Pi*x*1.5)
		bump := math.Max(0, math.Sin(math.Pi*(x-0.4)/0.3))
		if x < 0.4 || x > 0.7 {
			bump = 0
		}
		lag := float64(api.Unknown) // sources that report none (datagen)
		if fig.Lag >= 0 {
			lag = fig.Lag * (1 + 100*bump/3)
		}
		p := api.MetricPoint{
			At: at, RecordsIn: fig.RecordsInPerSec * wave, RecordsOut: fig.RecordsOutPerS * wave,
			Backpressure: math.Min(1, fig.Backpressure+0.5*bump), BackpressureVertex: "LookupJoin -> Sink: enriched",
			Busy: 0.35 + 0.4*bump, WatermarkDelay: time.Duration((2 + 6*bump) * float64(time.Second)),
			Lag: lag, CheckpointDuration: time.Duration(1100+300*bump) * time.Millisecond,
			CheckpointSize: 38<<20 + int64(i)<<14, CheckpointAge: time.Duration(i%12) * step,
			FailedCheckpoints: 1, Restarts: 0,
		}
		// The charts people added: a wave around each metric's value.
		for k, c := range j.Charts {
			if p.Charts == nil {
				p.Charts = map[string]float64{}
			}
			v := fixtureValue(c.Metric)
			if c.Agg != "" {
				v = fixtureAggregates(c.Metric, 4).Of(c.Agg)
			}
			p.Charts[c.Key()] = v * (1 + 0.05*math.Sin(2*math.Pi*(x+float64(k)/5)))
		}
		s.Recent = append(s.Recent, p)
	}
	s.Charts = slices.Clone(j.Charts)
	s.Cluster = &api.FlinkCluster{At: now, TaskManagers: 2, SlotsTotal: 8, SlotsFree: 4, FlinkVersion: "2.1.0"}
	s.Vertices = []api.VertexMetrics{
		{ID: "v1", Name: "Source: orders", Parallelism: 4, Source: true, RecordsOut: fig.RecordsInPerSec, Busy: 0.21, WatermarkDelay: api.Unknown},
		{ID: "v2", Name: "LookupJoin -> Sink: enriched", Parallelism: 4, Sink: true, RecordsIn: fig.RecordsOutPerS, Busy: 0.62,
			Backpressure: fig.Backpressure, WatermarkDelay: 2 * time.Second},
	}
	return s
}
