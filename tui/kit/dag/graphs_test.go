package dag

import (
	"fmt"
	"math/rand/v2"
)

func lines(s ...string) []Line {
	out := make([]Line, len(s))
	for i, t := range s {
		out[i] = Line{Text: t}
	}
	return out
}

// lookupJoin is the demo's job: orders enriched with users by a lookup,
// the lookup the bottleneck.
func lookupJoin() Graph {
	return Graph{
		Vertices: []Vertex{
			{ID: "src", Title: "Source: orders", Lines: []Line{{Text: "out 1.2k/s"}, {Text: "busy 12% bp 64%", Tone: ToneWarn}, {Text: "RUNNING", Tone: ToneGood}}},
			{ID: "calc", Title: "Calc(select=[order_id, user_id, amount, proc_time])", Lines: []Line{{Text: "in 1.2k/s out 1.2k/s"}, {Text: "busy 9% bp 58%", Tone: ToneWarn}, {Text: "RUNNING", Tone: ToneGood}}},
			{ID: "join", Title: "LookupJoin[users]", Lines: []Line{{Text: "in 1.2k/s out 1.1k/s"}, {Text: "busy 87% bp 0%", Tone: ToneBad}, {Text: "wm 3s · RUNNING", Tone: ToneGood}}},
			{ID: "sink", Title: "Sink: enriched", Lines: []Line{{Text: "in 1.1k/s"}, {Text: "busy 4% bp 0%"}, {Text: "RUNNING", Tone: ToneGood}}},
		},
		Edges: []Edge{
			{From: "src", To: "calc", Label: "FORWARD"},
			{From: "calc", To: "join", Label: "HASH"},
			{From: "join", To: "sink", Label: "FORWARD"},
		},
	}
}

// fanInOut joins two streams, one through a Calc, and feeds three sinks,
// one through an aggregate.
func fanInOut() Graph {
	v := func(id, title string, l ...string) Vertex { return Vertex{ID: id, Title: title, Lines: lines(l...)} }
	return Graph{
		Vertices: []Vertex{
			v("clicks", "Source: clicks", "out 48k/s", "busy 30%"),
			v("orders", "Source: orders", "out 1.2k/s", "busy 3%"),
			v("calc", "Calc[clicks]", "in 48k/s out 20k/s", "busy 41%"),
			v("join", "Join[user_id]", "in 21k/s out 20k/s", "busy 66%"),
			v("hudi", "Sink: hudi", "in 20k/s", "busy 12%"),
			v("kafka", "Sink: kafka", "in 20k/s", "busy 8%"),
			v("agg", "GroupAggregate[minute]", "in 20k/s out 60/s", "busy 22%"),
			v("metrics", "Sink: metrics", "in 60/s", "busy 1%"),
		},
		Edges: []Edge{
			{From: "clicks", To: "calc", Label: "FORWARD"},
			{From: "calc", To: "join", Label: "HASH"},
			{From: "orders", To: "join", Label: "HASH"},
			{From: "join", To: "hudi", Label: "FORWARD"},
			{From: "join", To: "kafka", Label: "REBALANCE"},
			{From: "join", To: "agg", Label: "HASH"},
			{From: "agg", To: "metrics", Label: "FORWARD"},
		},
	}
}

// iteration has a feedback edge, a vertex feeding itself, a ship strategy
// nobody knows and an edge to a vertex that is not there.
func iteration() Graph {
	v := func(id, title string, l ...string) Vertex { return Vertex{ID: id, Title: title, Lines: lines(l...)} }
	return Graph{
		Vertices: []Vertex{
			v("src", "Source: edges", "out 5k/s"),
			v("head", "IterationHead", "in 9k/s"),
			v("step", "Step: relax", "busy 70%"),
			v("tail", "IterationTail", "in 4k/s"),
			v("sink", "Sink: distances", "in 1k/s"),
		},
		Edges: []Edge{
			{From: "src", To: "head", Label: "FORWARD"},
			{From: "head", To: "step", Label: "HASH"},
			{From: "step", To: "tail", Label: "FORWARD"},
			{From: "tail", To: "head", Label: "FEEDBACK_PARTITIONER"},
			{From: "step", To: "step", Label: "FORWARD"},
			{From: "step", To: "sink", Label: "REBALANCE"},
			{From: "step", To: "gone", Label: "HASH"},
		},
	}
}

// big is a deterministic layered graph of n vertices, about eight a layer,
// each fed by one or two vertices of the layer before and now and then by
// one further back: a statement set of many pipelines joined here and
// there.
func big(n int) Graph {
	r := rand.New(rand.NewPCG(13, 200))
	const perLayer = 8
	var g Graph
	strategies := []string{"FORWARD", "HASH", "REBALANCE", "RESCALE", "BROADCAST"}
	for i := range n {
		g.Vertices = append(g.Vertices, Vertex{
			ID:    fmt.Sprintf("v%d", i),
			Title: fmt.Sprintf("Operator %d", i),
			Lines: lines(fmt.Sprintf("in %d/s", r.IntN(9000)+100), fmt.Sprintf("busy %d%%", r.IntN(100))),
		})
		layer := i / perLayer
		if layer == 0 {
			continue
		}
		from := func(back int) string {
			lo := (layer - back) * perLayer
			return fmt.Sprintf("v%d", lo+r.IntN(perLayer))
		}
		g.Edges = append(g.Edges, Edge{From: from(1), To: g.Vertices[i].ID, Label: strategies[r.IntN(len(strategies))]})
		if r.IntN(3) == 0 {
			g.Edges = append(g.Edges, Edge{From: from(1), To: g.Vertices[i].ID, Label: "HASH"})
		}
		if layer >= 3 && r.IntN(6) == 0 {
			g.Edges = append(g.Edges, Edge{From: from(2 + r.IntN(2)), To: g.Vertices[i].ID, Label: "FORWARD"})
		}
	}
	return g
}
