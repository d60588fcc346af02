package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestFlowsAddUpAlongEveryEdge: for any graph (fan-out, fan-in, broadcast,
// an iteration's feedback edge, parallelisms that differ, a hot subtask),
// what a vertex reads per second is what its inputs send it, and its
// totals grow by its rates: two samples of the totals give the rates
// within sampling.
func TestFlowsAddUpAlongEveryEdge(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		start := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
		clock := NewManualClock(start)
		c, err := New(Options{Seed: int64(rapid.IntRange(1, 1000).Draw(rt, "seed")), Clock: clock})
		if err != nil {
			rt.Fatal(err)
		}
		n := rapid.IntRange(2, 6).Draw(rt, "vertices")
		var g Graph
		for i := 0; i < n; i++ {
			gv := GraphVertex{Name: fmt.Sprintf("v%d", i), Parallelism: rapid.IntRange(1, 8).Draw(rt, "parallelism")}
			if i > 0 {
				for _, from := range rapid.SliceOfNDistinct(rapid.IntRange(0, i-1), 1, 2, rapid.ID[int]).Draw(rt, "inputs") {
					gv.Inputs = append(gv.Inputs, GraphInput{From: from, ShipStrategy: rapid.SampledFrom([]string{"HASH", "FORWARD", "REBALANCE", "BROADCAST"}).Draw(rt, "strategy")})
				}
			}
			g.Vertices = append(g.Vertices, gv)
		}
		if n > 2 && rapid.Bool().Draw(rt, "iteration") {
			g.Vertices[1].Inputs = append(g.Vertices[1].Inputs, GraphInput{From: n - 1, ShipStrategy: "FEEDBACK"})
		}
		c.mu.Lock()
		a, err := c.yarn.newApp(clock.Now(), SubmitRequest{Name: "flows"})
		if err != nil {
			c.mu.Unlock()
			rt.Fatal(err)
		}
		j := c.flink.addJob(a, jobSpec{name: "flows", parallelism: 2}, clock.Now())
		c.mu.Unlock()
		if err := c.SetJobGraph(j.id, g); err != nil {
			rt.Fatal(err)
		}
		if rapid.Bool().Draw(rt, "hot key") {
			v := rapid.IntRange(1, n-1).Draw(rt, "skew vertex")
			d := Diagnosis{SkewVertex: v, SkewSubtask: rapid.IntRange(0, g.Vertices[v].Parallelism-1).Draw(rt, "skew subtask"), SkewFactor: 6}
			if err := c.Diagnose(j.id, d); err != nil {
				rt.Fatal(err)
			}
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		j.state, j.running = jobRunning, start.Add(-time.Duration(rapid.IntRange(0, 7200).Draw(rt, "up s"))*time.Second)

		type sums struct{ in, out, inTotal, outTotal float64 }
		at := func(tm time.Time) []sums {
			out := make([]sums, n)
			for i, v := range j.vertices {
				for s := 0; s < v.parallelism; s++ {
					f := j.figures(v, s, tm)
					out[i].in += f.inRate
					out[i].out += f.outRate
					out[i].inTotal += f.inTotal
					out[i].outTotal += f.outTotal
				}
			}
			return out
		}
		t1 := start.Add(time.Duration(rapid.IntRange(0, 3600).Draw(rt, "t1 s")) * time.Second)
		window := time.Duration(rapid.IntRange(5, 60).Draw(rt, "window s")) * time.Second
		first, second := at(t1), at(t1.Add(window))
		close := func(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))+1e-9 }
		for i, v := range j.vertices {
			if v.role == roleSource && len(v.inputs) == 0 {
				continue
			}
			want, wantTotal := 0.0, 0.0
			var from []string
			for _, e := range v.inputs {
				k := 1.0
				if strings.EqualFold(e.strategy, "BROADCAST") {
					k = float64(v.parallelism)
				}
				want += first[e.from].out * k
				wantTotal += (second[e.from].outTotal - first[e.from].outTotal) * k
				from = append(from, fmt.Sprintf("%s %s out %.1f/s", g.Vertices[e.from].Name, e.strategy, first[e.from].out))
			}
			if !close(first[i].in, want, 1e-6) {
				rt.Fatalf("%s reads %.1f/s, its inputs send %.1f/s (%s)", v.name, first[i].in, want, strings.Join(from, ", "))
			}
			if got := second[i].inTotal - first[i].inTotal; !close(got, wantTotal, 1e-6) {
				rt.Fatalf("%s read %.0f records in %v, its inputs sent %.0f", v.name, got, window, wantTotal)
			}
		}
		// Two samples of the totals give the rates: what a vertex read
		// over the window is its rate summed over the window.
		for i, v := range j.vertices {
			sum := 0.0
			for s := time.Duration(0); s < window; s += time.Second {
				for k := 0; k < v.parallelism; k++ {
					sum += j.figures(v, k, t1.Add(s+time.Second/2)).outRate
				}
			}
			if got := second[i].outTotal - first[i].outTotal; !close(got, sum, 0.02) {
				rt.Fatalf("%s wrote %.0f records in %v, its rate summed over them says %.0f", v.name, got, window, sum)
			}
		}
	})
}
