package diagnose

import (
	"context"
	"fmt"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/yarn"
)

// FlameGraph implements api.DiagnoseService: one request for the graph
// (read as a stream within caps) and one for the vertex's name.
func (rd *Inspector) FlameGraph(ctx context.Context, r api.FlameGraphRequest) (api.FlameGraph, error) {
	t, err := rd.live(ctx, r.JobRef, "flame graph")
	if err != nil {
		return api.FlameGraph{}, err
	}
	typ := strings.ToUpper(r.Type)
	switch typ {
	case "":
		typ = api.FlameFull
	case api.FlameFull, api.FlameOnCPU, api.FlameOffCPU:
	default:
		return api.FlameGraph{}, fmt.Errorf("flame graph of job %s: type %q: want FULL, ON_CPU or OFF_CPU", t.job.Name, r.Type)
	}
	sub := r.Subtask
	if sub < 0 {
		sub = -1
	}
	out := api.FlameGraph{JobID: t.job.ID, VertexID: r.VertexID, Type: typ, Subtask: sub}
	var (
		g   yarn.FlameGraph
		det yarn.JobDetails
	)
	errs := rd.fanOut(ctx, 2, func(ctx context.Context, i int) (err error) {
		if i == 1 {
			det, err = t.flink.Job(ctx, t.job.FlinkJobID)
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, rd.opts.StreamBudget)
		defer cancel()
		g, err = t.flink.FlameGraph(ctx, t.job.FlinkJobID, r.VertexID, yarn.FlameGraphRequest{Type: typ, Subtask: sub})
		return err
	})
	if errs[0] != nil {
		return out, fmt.Errorf("flame graph of vertex %s of job %s: %w", r.VertexID, t.job.Name, errs[0])
	}
	for _, v := range det.Vertices {
		if v.ID == r.VertexID {
			out.VertexName = v.Name
		}
	}
	if errs[1] != nil {
		out.Notes = append(out.Notes, "vertex name: "+shortCause(errs[1]))
	}
	out.Status, out.Message = flameStatus(g.Status)
	out.SampledAt = ms(g.EndTimestamp)
	out.Truncated, out.TruncatedWhy = g.Truncated, g.Why
	out.Frames = flameFrames(g.Frames)
	out.HotPath = hotPath(out.Frames)
	return out, nil
}

// flameStatus names a graph's state and says what to do about one that
// is not ready.
func flameStatus(s string) (string, string) {
	switch s {
	case yarn.FlameDisabled:
		return api.FlameDisabled, "flame graphs are off on this cluster: set rest.flamegraph.enabled: true in its Flink configuration"
	case yarn.FlameWaiting:
		return api.FlameWaiting, "Flink is sampling the vertex's threads: ask again in a few seconds"
	case yarn.FlameTerminated:
		return api.FlameTerminated, "the vertex's tasks are no longer running"
	}
	return api.FlameReady, ""
}

// flameFrames copies the frames and computes each one's self samples (its
// value less its children's).
func flameFrames(fs []yarn.FlameFrame) []api.FlameFrame {
	out := make([]api.FlameFrame, len(fs))
	for i, f := range fs {
		out[i] = api.FlameFrame{Name: f.Name, Value: f.Value, Self: f.Value, Depth: f.Depth, Parent: f.Parent}
	}
	for _, f := range out {
		if f.Parent >= 0 && f.Parent < len(out) {
			out[f.Parent].Self -= f.Value
		}
	}
	for i := range out {
		out[i].Self = max(out[i].Self, 0)
	}
	return out
}

// hotPath follows, from the root, the child with the most samples.
func hotPath(fs []api.FlameFrame) []int {
	if len(fs) == 0 {
		return nil
	}
	best := make([]int, len(fs)) // each frame's hottest child, or -1
	for i := range best {
		best[i] = -1
	}
	for i, f := range fs {
		if p := f.Parent; p >= 0 && p < len(fs) && (best[p] < 0 || f.Value > fs[best[p]].Value) {
			best[p] = i
		}
	}
	path := []int{0}
	for i := 0; best[i] >= 0; i = best[i] {
		path = append(path, best[i])
	}
	return path
}
