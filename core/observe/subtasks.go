package observe

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// A vertex's subtasks over the last minutes: while a client shows a vertex
// subtask by subtask (InterestRequest.Vertex), each round of its job also
// reads the backpressure and input watermark of the subtasks on that
// screen, and keeps them in a ring per subtask. Nothing is read of a
// vertex nobody shows, and what was kept goes a few minutes after.

// Per-subtask metrics of the vertex view's history.
const (
	mSubtaskBackpressure = "backPressuredTimeMsPerSecond"
	mSubtaskWatermark    = "currentInputWatermark"
	// maxSampledSubtasks bounds the subtasks one round samples of a vertex:
	// a screen shows a few dozen.
	maxSampledSubtasks = 200
	// metricBatch is how many names one request asks for, so that its URL
	// stays a few kilobytes.
	metricBatch = 100
)

// subtaskHistory is what the observer keeps of one vertex's subtasks.
type subtaskHistory struct {
	subtasks map[int]*ring[api.SubtaskSample]
	shownAt  time.Time // when a client last showed the vertex
	lastErr  string
}

// subtaskReading is one subtask's sample as a round read it.
type subtaskReading struct {
	index  int
	sample api.SubtaskSample
}

// vertexWants gathers what clients show of vertices, by job: the vertex
// and the subtasks on screen (at most maxSampledSubtasks of each).
func vertexWants(clients map[string]clientInterest) map[string]map[string][]int {
	out := map[string]map[string][]int{}
	for _, c := range clients {
		v := c.vertex
		if v.IsZero() || v.JobID == "" {
			continue
		}
		if out[v.JobID] == nil {
			out[v.JobID] = map[string][]int{}
		}
		subs := out[v.JobID][v.VertexID]
		for i := max(v.From, 0); i < v.To && len(subs) < maxSampledSubtasks; i++ {
			if !slices.Contains(subs, i) {
				subs = append(subs, i)
			}
		}
		sort.Ints(subs)
		out[v.JobID][v.VertexID] = subs
	}
	return out
}

// subtaskNames are the per-subtask metric names of a vertex's history.
func subtaskNames(subs []int) []string {
	out := make([]string, 0, 2*len(subs))
	for _, i := range subs {
		s := strconv.Itoa(i)
		out = append(out, s+"."+mSubtaskBackpressure, s+"."+mSubtaskWatermark)
	}
	return out
}

// subtaskReadings turns the values read into one sample per subtask asked
// for; what Flink did not answer is Unknown (a source has no input
// watermark, Long.MIN_VALUE is none yet).
func subtaskReadings(subs []int, values map[string]string, at, jmNow time.Time) []subtaskReading {
	out := make([]subtaskReading, 0, len(subs))
	for _, i := range subs {
		s := api.SubtaskSample{At: at, Backpressure: api.Unknown, WatermarkDelay: api.Unknown}
		k := strconv.Itoa(i) + "."
		if f, err := strconv.ParseFloat(values[k+mSubtaskBackpressure], 64); err == nil {
			s.Backpressure = clampRatio(f / 1000)
		}
		if wm, err := strconv.ParseInt(values[k+mSubtaskWatermark], 10, 64); err == nil && wm > 0 {
			s.WatermarkDelay = max(jmNow.Sub(time.UnixMilli(wm)), 0)
		}
		out = append(out, subtaskReading{index: i, sample: s})
	}
	return out
}

// keepSubtasks records a round's samples of a job's vertices.
func (jm *jobMetrics) keepSubtasks(read map[string][]subtaskReading, errs map[string]string, interval time.Duration, now time.Time) {
	if len(read) == 0 && len(errs) == 0 {
		return
	}
	if jm.history == nil {
		jm.history = map[string]*subtaskHistory{}
	}
	capacity := int((recentSpan+interval-1)/max(interval, time.Millisecond)) + 1
	for vid, rs := range read {
		h := jm.historyOf(vid)
		h.shownAt, h.lastErr = now, ""
		for _, r := range rs {
			rg := h.subtasks[r.index]
			if rg == nil {
				rg = newRing[api.SubtaskSample](capacity)
				h.subtasks[r.index] = rg
			}
			rg.push(r.sample)
		}
	}
	for vid, e := range errs {
		h := jm.historyOf(vid)
		h.shownAt, h.lastErr = now, e
	}
}

func (jm *jobMetrics) historyOf(vid string) *subtaskHistory {
	h := jm.history[vid]
	if h == nil {
		h = &subtaskHistory{subtasks: map[int]*ring[api.SubtaskSample]{}}
		jm.history[vid] = h
	}
	return h
}

// pruneSubtasks forgets vertices nobody showed for the history's span,
// and subtasks not sampled as long (they scrolled away).
func (jm *jobMetrics) pruneSubtasks(now time.Time) {
	for vid, h := range jm.history {
		if now.Sub(h.shownAt) > recentSpan {
			delete(jm.history, vid)
			continue
		}
		for i, rg := range h.subtasks {
			items := rg.items()
			if len(items) == 0 || now.Sub(items[len(items)-1].At) > recentSpan {
				delete(h.subtasks, i)
			}
		}
	}
}

// SubtaskHistory implements Service.
func (o *Observer) SubtaskHistory(ctx context.Context, r api.VertexRequest) (api.SubtaskHistory, error) {
	var j model.Job
	if err := o.st.View(ctx, func(tx store.ReadTx) (err error) { j, err = journal.FindJob(tx, r.JobRef); return err }); err != nil {
		return api.SubtaskHistory{}, fmt.Errorf("subtask history of %s: %w", r.JobRef, err)
	}
	now := o.now()
	out := api.SubtaskHistory{JobID: j.ID, VertexID: r.VertexID, Interval: o.interval}
	o.mu.Lock()
	defer o.mu.Unlock()
	jm := o.jobs[j.ID]
	if jm == nil || jm.history[r.VertexID] == nil {
		return out, nil
	}
	h := jm.history[r.VertexID]
	out.LastError = h.lastErr
	since := now.Add(-recentSpan)
	for i, rg := range h.subtasks {
		var samples []api.SubtaskSample
		for _, s := range rg.items() {
			if !s.At.Before(since) {
				samples = append(samples, s)
			}
		}
		if len(samples) > 0 {
			out.Subtasks = append(out.Subtasks, api.SubtaskSeries{Index: i, Samples: samples})
		}
	}
	sort.Slice(out.Subtasks, func(a, b int) bool { return out.Subtasks[a].Index < out.Subtasks[b].Index })
	return out, nil
}
