package diagnose_test

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// budget is what one key and its frame may take with a big input. It is
// generous (the race detector slows everything tenfold); what it catches
// is work that grows with the input, which would take seconds.
const budget = 500 * time.Millisecond

// timed runs fn and fails when it takes longer than the budget.
func timed(t *testing.T, what string, fn func()) {
	t.Helper()
	start := time.Now()
	fn()
	if d := time.Since(start); d > budget {
		t.Errorf("%s took %v, more than %v", what, d, budget)
	}
}

// bigFixture is orders-enrich with 200 vertices of parallelism 1,000 and a
// flame graph of 50k frames at its bottleneck.
func bigFixture() *tuitest.Fake {
	f := tuitest.NewFixture()
	g := tuitest.BigGraph(200)
	f.SetGraph("j001", g)
	hot := g.Vertices[g.Bottleneck].ID
	v := tuitest.BigVertex(1000)
	v.VertexID = hot
	f.SetVertex("j001", v)
	fl := tuitest.BigFlame(50000)
	fl.VertexID = hot
	f.SetFlameGraph("j001", fl)
	return f
}

// A graph of 200 vertices, a vertex of parallelism 1,000 and a flame graph
// of 50k frames answer keys at once, and draw only what is on screen.
func TestBigInputsStayResponsive(t *testing.T) {
	h := apptest.New(t, bigFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab")
	timed(t, "drawing the Graph tab of 200 vertices", func() { h.Render() })
	h.MustShow("bottleneck Calc[100]", "/200")
	timed(t, "moving on the graph", func() { h.Press("right", "down", "left"); h.Render() })

	h.Press("esc")
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab", "enter")
	h.MustShow("skew 3.2×", "333 RUNNING")
	for _, k := range []string{"G", "g", "pgdown", "j"} {
		timed(t, "key "+k+" over 1,000 subtasks", func() { h.Press(k); h.Render() })
	}
	h.Press("G")
	h.MustShow("999 RUNNING")
	h.MustNotShow("  500 RUNNING")
	if rows := strings.Count(h.Screen(), " RUNNING "); rows > 40 {
		t.Errorf("%d subtask rows drawn on a screen of 40 lines", rows)
	}

	// Building the tree is the Cmd's work, off the event loop (the harness
	// runs Cmds in line, so it is not timed here); drawing it is not.
	h.Press("f")
	timed(t, "drawing a 50k-frame flame graph", func() { h.Render() })
	h.MustShow("ON_CPU", "all · ")
	for _, k := range []string{"down", "down", "right", "enter", "backspace"} {
		timed(t, "key "+k+" on a 50k-frame flame graph", func() { h.Press(k); h.Render() })
	}
}

// BenchmarkVertexView1000 is one frame of a vertex of parallelism 1,000.
func BenchmarkVertexView1000(b *testing.B) {
	h := apptest.New(b, bigFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab", "enter", "j")
	b.ReportAllocs()
	for b.Loop() {
		_ = h.Render()
	}
}

// BenchmarkGraphTab200 is one frame of the Graph tab of 200 vertices.
func BenchmarkGraphTab200(b *testing.B) {
	h := apptest.New(b, bigFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("shift+tab", "shift+tab", "right")
	b.ReportAllocs()
	for b.Loop() {
		_ = h.Render()
	}
}

// A vertex's frame costs the same at parallelism 10 and 1,000: only the
// rows on screen are formatted. Allocations, unlike time, cannot flake.
func TestVertexFrameCostDoesNotGrowWithParallelism(t *testing.T) {
	allocs := func(p int) float64 {
		f := tuitest.NewFixture()
		v := tuitest.BigVertex(p)
		f.SetVertex("j001", v)
		h := apptest.New(t, f, 120, 40, tui.Options{})
		h.OpenDetail("orders-enrich")
		h.Press("shift+tab", "shift+tab", "enter", "j")
		h.MustShow("skew 3.2×")
		return testing.AllocsPerRun(20, func() { _ = h.Render() })
	}
	small, big := allocs(40), allocs(1000)
	if big > small*1.1+20 {
		t.Errorf("a frame allocates %.0f times at parallelism 1,000 and %.0f at 40", big, small)
	}
}
