package diagnose

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/yarn"
)

// Limits of one vertex view.
const (
	// MaxSubtasks caps the subtasks a vertex view shows.
	MaxSubtasks = 4096
	// rateBatch is how many "<subtask>.<metric>" names one request asks
	// for, so that a parallelism of 1,000 costs tens of requests, each with
	// a URL of a few kilobytes.
	rateBatch = 100
	// HotSkew is the skew from which the busiest subtask is marked Hot.
	HotSkew = 2.0
)

// Vertex implements api.DiagnoseService: the vertex's details (subtasks,
// their totals, TaskManagers and attempts), its back pressure and
// watermarks, and the subtasks' rates, read in batches.
func (rd *Inspector) Vertex(ctx context.Context, r api.VertexRequest) (api.VertexDetail, error) {
	t, err := rd.live(ctx, r.JobRef, "vertex")
	if err != nil {
		return api.VertexDetail{}, err
	}
	out := api.VertexDetail{JobID: t.job.ID, VertexID: r.VertexID, FetchedAt: rd.now()}
	v, err := t.flink.Vertex(ctx, t.job.FlinkJobID, r.VertexID)
	if err != nil {
		return out, fmt.Errorf("vertex %s of job %s: %w", r.VertexID, t.job.Name, err)
	}
	out.Name, out.Parallelism = v.Name, v.Parallelism
	subs := v.Subtasks
	if len(subs) > MaxSubtasks {
		out.Notes = append(out.Notes, fmt.Sprintf("%d subtasks: the first %d shown", len(subs), MaxSubtasks))
		subs = subs[:MaxSubtasks]
	}

	var (
		mu    sync.Mutex
		bp    yarn.Backpressure
		wms   []yarn.Metric
		rates = map[string]float64{}
	)
	names := rateNames(len(subs))
	batches := (len(names) + rateBatch - 1) / rateBatch
	errs := rd.fanOut(ctx, 2+batches, func(ctx context.Context, i int) error {
		switch i {
		case 0:
			b, err := t.flink.Backpressure(ctx, t.job.FlinkJobID, r.VertexID)
			mu.Lock()
			bp = b
			mu.Unlock()
			return err
		case 1:
			w, err := t.flink.Watermarks(ctx, t.job.FlinkJobID, r.VertexID)
			mu.Lock()
			wms = w
			mu.Unlock()
			return err
		}
		k := i - 2
		ms, err := t.flink.VertexMetrics(ctx, t.job.FlinkJobID, r.VertexID, names[k*rateBatch:min((k+1)*rateBatch, len(names))]...)
		mu.Lock()
		defer mu.Unlock()
		for _, m := range ms {
			if f, err := strconv.ParseFloat(m.Value, 64); err == nil {
				rates[m.ID] = f
			}
		}
		return err
	})
	out.Notes = append(out.Notes, failureNotes("figures", errs, func(i int) string {
		switch i {
		case 0:
			return "back pressure"
		case 1:
			return "watermarks"
		}
		return fmt.Sprintf("rates of subtasks %d…", (i-2)*rateBatch/2)
	})...)
	jmNow := rd.now()
	if v.Now > 0 {
		jmNow = time.UnixMilli(v.Now)
	}
	out.Subtasks = subtaskRows(subs, bp, wms, rates, jmNow)
	out.RateWindow = rd.rates.measure(t.job.ID+"/"+r.VertexID, out.Subtasks, jmNow)
	out.Skew = skewOf(out.Subtasks, isSource(subs))
	out.Skew.Window = out.RateWindow
	return out, nil
}

// isSource says whether the vertex reads nothing (its records are what it
// emits): no subtask read a record while some wrote.
func isSource(subs []yarn.SubtaskDetails) bool {
	var in, out int64
	for _, s := range subs {
		in += s.Metrics.ReadRecords
		out += s.Metrics.WriteRecords
	}
	return in == 0 && out > 0
}

// rateNames are the per-subtask rate metrics of n subtasks.
func rateNames(n int) []string {
	out := make([]string, 0, 2*n)
	for i := 0; i < n; i++ {
		s := strconv.Itoa(i)
		out = append(out, s+"."+mRecordsIn, s+"."+mRecordsOut)
	}
	return out
}

// subtaskRows turns what was read into one row per subtask.
func subtaskRows(subs []yarn.SubtaskDetails, bp yarn.Backpressure, wms []yarn.Metric, rates map[string]float64, jmNow time.Time) []api.SubtaskRow {
	ratios := map[int]yarn.SubtaskBackpressure{}
	for _, s := range bp.Subtasks {
		ratios[s.Subtask] = s
	}
	watermarks := map[int]int64{}
	for _, m := range wms {
		i, name, ok := strings.Cut(m.ID, ".")
		if !ok || name != mWatermark {
			continue
		}
		n, err1 := strconv.Atoi(i)
		w, err2 := strconv.ParseInt(m.Value, 10, 64)
		if err1 == nil && err2 == nil {
			watermarks[n] = w
		}
	}
	rows := make([]api.SubtaskRow, 0, len(subs))
	for _, s := range subs {
		row := api.SubtaskRow{Index: s.Subtask, State: s.Status, Attempt: s.Attempt,
			RecordsIn: s.Metrics.ReadRecords, RecordsOut: s.Metrics.WriteRecords, BytesIn: s.Metrics.ReadBytes, BytesOut: s.Metrics.WriteBytes,
			RecordsInPerSec: api.Unknown, RecordsOutPerSec: api.Unknown, Busy: api.Unknown, Backpressure: api.Unknown, Idle: api.Unknown,
			WatermarkDelay: api.Unknown, TaskManager: s.TaskManagerID, Host: s.HostName(), Endpoint: s.Endpoint,
			Duration: time.Duration(max(s.Duration, 0)) * time.Millisecond}
		idx := strconv.Itoa(s.Subtask)
		if v, ok := rates[idx+"."+mRecordsIn]; ok {
			row.RecordsInPerSec = v
		}
		if v, ok := rates[idx+"."+mRecordsOut]; ok {
			row.RecordsOutPerSec = v
		}
		if r, ok := ratios[s.Subtask]; ok {
			row.Busy, row.Backpressure, row.Idle = r.BusyRatio, r.Ratio, r.IdleRatio
		}
		if w, ok := watermarks[s.Subtask]; ok && w > 0 {
			row.Watermark = time.UnixMilli(w)
			row.WatermarkDelay = max(jmNow.Sub(row.Watermark), 0)
		}
		rows = append(rows, row)
	}
	return rows
}

// skewOf compares the busiest subtask with the median of the others, by
// their rates of records in (records out for a source): what they do now,
// not what they did since they started, so that a subtask hot an hour ago
// is not hot for ever. It marks the busiest Hot when the skew is HotSkew or
// more. (The median of the others, not of all: with two subtasks, the
// median of all is their mean, and max/mean is never more than 2, however
// hot the key.) A subtask without a rate makes the skew unknown.
func skewOf(rows []api.SubtaskRow, source bool) api.Skew {
	sk := api.Skew{Of: "records in/s", Subtask: -1}
	if source {
		sk.Of = "records out/s"
	}
	if len(rows) == 0 {
		return sk
	}
	vals := make([]float64, len(rows))
	for i, r := range rows {
		v := r.RecordsInPerSec
		if source {
			v = r.RecordsOutPerSec
		}
		if v < 0 {
			return api.Skew{Of: sk.Of, Subtask: -1} // not read
		}
		vals[i] = v
		if sk.Subtask < 0 || v > sk.Max {
			sk.Max, sk.Subtask = v, i
		}
	}
	others := append(append([]float64(nil), vals[:sk.Subtask]...), vals[sk.Subtask+1:]...)
	if len(others) == 0 {
		others = vals
	}
	sk.Median = median(others)
	switch {
	case sk.Max == 0:
		sk.Ratio = 1
	default:
		sk.Ratio = sk.Max / max(sk.Median, 1) // a trickle is no hot key
	}
	if sk.Ratio >= HotSkew {
		rows[sk.Subtask].Hot = true
	}
	sk.Subtask = rows[sk.Subtask].Index
	return sk
}
