package tuitest

import (
	"fmt"
	"time"

	"github.com/palink/palink/core/api"
)

// Big diagnostic inputs for the scale tests and benchmarks: every one
// looks alike whatever its size, so that costs compare across sizes.

// BigGraph is a job graph of n vertices in layers of up to eight, each
// vertex fed by one or two of the layer before, the middle one the
// bottleneck.
func BigGraph(n int) api.JobGraph {
	g := api.JobGraph{JobID: "j001", JobName: "orders-enrich", FlinkState: "RUNNING", FetchedAt: Now, Bottleneck: n / 2, BottleneckWhy: "busy 99% with backpressure upstream"}
	for i := range n {
		g.Vertices = append(g.Vertices, api.GraphVertex{ID: fmt.Sprintf("v%04d", i), Name: fmt.Sprintf("Calc[%d](select=[a, b, c])", i), Parallelism: 1000,
			State: "RUNNING", Source: i < 8, RecordsIn: float64(1000 + i), RecordsOut: float64(1000 + i), Busy: float64(i%100) / 100, Backpressure: float64(i%7) / 10, Measured: true})
		if i >= 8 {
			g.Edges = append(g.Edges, api.GraphEdge{From: i - 8, To: i, ShipStrategy: "HASH"})
			if i%3 == 0 {
				g.Edges = append(g.Edges, api.GraphEdge{From: i - 8 - i%8 + (i+1)%8, To: i, ShipStrategy: "REBALANCE"})
			}
		}
	}
	return g
}

// BigVertex is the lookup join at parallelism p, its subtask p/3 hot.
func BigVertex(p int) api.VertexDetail {
	v := api.VertexDetail{JobID: "j001", VertexID: LookupVertex, Name: "LookupJoin[3]", Parallelism: p, FetchedAt: Now,
		Skew: api.Skew{Of: "records in/s", Max: 7700, Median: 2400, Ratio: 3.2, Subtask: p / 3, Window: 5 * time.Second}}
	for i := range p {
		v.Subtasks = append(v.Subtasks, api.SubtaskRow{Index: i, State: "RUNNING", RecordsIn: int64(1_000_000 + i), RecordsOut: int64(1_000_000 + i),
			BytesIn: int64(100_000_000 + i), RecordsInPerSec: 2400, Busy: 0.5, Idle: 0.5, Watermark: Now.Add(-4 * time.Second), WatermarkDelay: 4 * time.Second,
			TaskManager: fmt.Sprintf("container_e01_1732000000000_0042_01_%06d", 2+i/4), Host: fmt.Sprintf("node%d.prod", i%50), Hot: i == p/3})
	}
	return v
}

// BigFlame is a flame graph of about n frames: a deep hot path and a wide
// spread of cold callees, as a busy operator's is.
func BigFlame(n int) api.FlameGraph {
	frames := []api.FlameFrame{{Name: "root", Parent: -1}}
	for len(frames) < n {
		parent := len(frames) - 1
		if len(frames)%40 == 0 {
			parent = (len(frames) * 7919) % len(frames)
		}
		frames = append(frames, api.FlameFrame{Name: fmt.Sprintf("com.acme.pkg%d.Class%d.method:%d", len(frames)%97, len(frames)%13, len(frames)),
			Self: int64(1 + len(frames)%5), Depth: frames[parent].Depth + 1, Parent: parent})
	}
	// A frame's value is its own samples and its callees'. Every parent
	// comes before its children (all FlameTree needs), so summing from the
	// last frame up adds each callee before its caller is read.
	for i := len(frames) - 1; i >= 0; i-- {
		frames[i].Value += frames[i].Self
		if p := frames[i].Parent; p >= 0 {
			frames[p].Value += frames[i].Value
		}
	}
	return api.FlameGraph{JobID: "j001", VertexID: LookupVertex, VertexName: "LookupJoin[3]", Type: api.FlameOnCPU, Subtask: -1, Status: api.FlameReady,
		SampledAt: Now, Frames: frames, HotPath: HotPath(frames)}
}
