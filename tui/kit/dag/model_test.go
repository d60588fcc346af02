package dag

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

func newModel(g Graph, w, h int, md Mode) Model {
	m := New(g, NewStyles(kit.DarkStyles()))
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	if md != Auto {
		m.SetMode(md)
	}
	return m
}

// press sends keys and returns where the cursor went after each.
func press(m *Model, keys ...string) []string {
	var at []string
	for _, k := range keys {
		*m, _ = m.Update(tuitest.Key(k))
		at = append(at, m.Selected())
	}
	return at
}

func TestKeysFollowEdgesLeftToRight(t *testing.T) {
	m := newModel(lookupJoin(), 120, 40, Auto)
	if m.Drawing().Mode() != LeftRight {
		t.Fatalf("the lookup join at 120 columns is laid out %v, want left to right", m.Drawing().Mode())
	}
	got := press(&m, "right", "l", "right", "right", "left", "h", "h", "left")
	want := []string{"calc", "join", "sink", "sink", "join", "calc", "src", "src"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cursor went %v, want %v", got, want)
	}
}

func TestKeysTopDown(t *testing.T) {
	m := newModel(fanInOut(), 80, 24, Auto)
	if m.Drawing().Mode() != TopDown {
		t.Fatalf("the fan at 80 columns is laid out %v, want top down", m.Drawing().Mode())
	}
	m.Select("join")
	// Down takes the sink nearest below, the middle one; across the layer
	// moves left and right; up goes back to join.
	got := press(&m, "down", "left", "left", "right", "right", "l", "up")
	want := []string{"kafka", "hudi", "hudi", "kafka", "agg", "agg", "join"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cursor went %v, want %v", got, want)
	}
}

// Going upstream and back downstream returns to the vertex left, not to
// the nearest of the fan-out.
func TestKeysReturnWhereTheyCameFrom(t *testing.T) {
	m := newModel(fanInOut(), 120, 40, LeftRight)
	m.Select("agg")
	got := press(&m, "left", "right")
	if want := []string{"join", "agg"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cursor went %v, want %v", got, want)
	}
	m.Select("hudi")
	got = press(&m, "left", "right")
	if want := []string{"join", "hudi"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cursor went %v, want %v", got, want)
	}
}

func TestKeysInTheList(t *testing.T) {
	m := newModel(lookupJoin(), 40, 20, List)
	got := press(&m, "down", "j", "j", "j", "k", "right", "left", "left")
	want := []string{"calc", "join", "sink", "sink", "join", "sink", "join", "calc"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cursor went %v, want %v", got, want)
	}
}

func TestEnterReportsTheVertex(t *testing.T) {
	m := newModel(lookupJoin(), 120, 40, Auto)
	press(&m, "right", "right")
	_, cmd := m.Update(tuitest.Key("enter"))
	if cmd == nil {
		t.Fatal("enter sent nothing")
	}
	if msg, ok := cmd().(OpenMsg); !ok || msg.ID != "join" {
		t.Errorf("enter sent %#v, want OpenMsg{join}", cmd())
	}
}

func TestLayoutKeyCyclesModes(t *testing.T) {
	m := newModel(lookupJoin(), 120, 40, Auto)
	var got []Mode
	for range 4 {
		m, _ = m.Update(tuitest.Key("v"))
		got = append(got, m.Drawing().Mode())
	}
	if want := []Mode{LeftRight, TopDown, List, LeftRight}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("v cycled through %v, want %v", got, want)
	}
}

// The highlight takes the cursor until the user moves it, and a new graph
// keeps the cursor on its vertex.
func TestHighlightAndRefresh(t *testing.T) {
	m := newModel(lookupJoin(), 120, 40, Auto)
	m.SetHighlight("join")
	if m.Selected() != "join" {
		t.Fatalf("cursor on %q, want the highlighted join", m.Selected())
	}
	press(&m, "right")
	m.SetHighlight("calc")
	if m.Selected() != "sink" {
		t.Errorf("the highlight moved the cursor the user had moved, to %q", m.Selected())
	}
	g := lookupJoin()
	g.Vertices[3].Lines[0].Text = "in 2.2k/s"
	m.SetGraph(g)
	if m.Selected() != "sink" {
		t.Errorf("a refresh moved the cursor to %q", m.Selected())
	}
	if !strings.Contains(ansi.Strip(m.View()), "in 2.2k/s") {
		t.Error("the refreshed figures are not shown")
	}
}

// At every width and in every mode, the view is exactly its size, and the
// cursor's box is on screen when it fits.
func TestEveryWidthFits(t *testing.T) {
	graphs := map[string]Graph{"lookup": lookupJoin(), "fan": fanInOut(), "cycle": iteration(), "big": big(60)}
	for name, g := range graphs {
		for _, md := range []Mode{Auto, LeftRight, TopDown, List} {
			for w := 12; w <= 130; w += 7 {
				h := 8 + w%13
				t.Run(fmt.Sprintf("%s/%v/%d", name, md, w), func(t *testing.T) {
					m := newModel(g, w, h, md)
					for _, k := range []string{"", "right", "down", "down", "left", "up", "right", "right"} {
						if k != "" {
							press(&m, k)
						}
						out := m.View()
						checkFrame(t, out, w, h)
						b, _ := m.Drawing().Box(m.Selected())
						if b.W <= w && b.H <= h-1 && !(Rect{m.offX, m.offY, w, h - 1}).contains(b.X, b.Y) {
							t.Fatalf("after %q the cursor's box %+v is off the view at %d,%d", k, b, m.offX, m.offY)
						}
					}
				})
			}
		}
	}
}

// Auto picks a picture only when it fits the width, and boxes never
// overlap whatever the mode.
func TestLayoutInvariants(t *testing.T) {
	graphs := []Graph{lookupJoin(), fanInOut(), iteration(), big(200)}
	for gi, g := range graphs {
		for _, w := range []int{0, 40, 60, 80, 120, 200} {
			for _, md := range []Mode{Auto, LeftRight, TopDown, List} {
				d := Layout(g, Options{Width: w, Mode: md})
				if md == Auto && w > 0 && d.Mode() != List {
					if dw, _ := d.Size(); dw > w {
						t.Errorf("graph %d at %d: auto chose %v, %d wide", gi, w, d.Mode(), dw)
					}
				}
				for i, a := range d.boxes {
					for j := i + 1; j < len(d.boxes); j++ {
						b := d.boxes[j]
						if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
							t.Fatalf("graph %d at %d in %v: boxes %d %+v and %d %+v overlap", gi, w, d.Mode(), i, a, j, b)
						}
					}
				}
			}
		}
	}
}

func TestCyclesUnknownsAndSelfLoops(t *testing.T) {
	d := Layout(iteration(), Options{Width: 120})
	if d.Dropped() != 1 {
		t.Errorf("dropped %d edges, want the one to a vertex that is not there", d.Dropped())
	}
	lg := build(iteration())
	back := 0
	for _, l := range lg.links {
		if l.back {
			back++
			if lg.verts[l.from].ID != "tail" || lg.verts[l.to].ID != "head" {
				t.Errorf("reversed %s→%s, want the feedback edge tail→head", lg.verts[l.from].ID, lg.verts[l.to].ID)
			}
		}
	}
	if back != 1 {
		t.Errorf("%d back edges, want 1", back)
	}
	if !lg.self[lg.ids["step"]] {
		t.Error("the step's edge to itself is not kept as a self loop")
	}
	out := ansi.Strip(d.Render(&Styles{}, Rect{W: 120, H: 12}, "", ""))
	for _, want := range []string{"↻", "◄", "╌", "FEEDBACK_PA…"} {
		if !strings.Contains(out, want) {
			t.Errorf("the cycle's drawing has no %q:\n%s", want, out)
		}
	}
}

// Two edges drawn crossing in input order come out uncrossed.
func TestOrderingUncrosses(t *testing.T) {
	g := Graph{
		Vertices: []Vertex{{ID: "a"}, {ID: "b"}, {ID: "x"}, {ID: "y"}},
		Edges:    []Edge{{From: "a", To: "y"}, {From: "b", To: "x"}},
	}
	if c := build(g).crossings(); c != 0 {
		t.Errorf("%d crossings left", c)
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct {
		in   string
		w    int
		want string
	}{
		{"Sink: enriched", 20, "Sink: enriched"},
		{"LookupJoin(table=[default_catalog.default_database.users], joinType=[LeftOuterJoin])", 20, "LookupJoin"},
		{"Source: orders -> Calc(select=[a, b]) -> LookupJoin(table=[users]) -> Sink: out", 30, "Source: orders → … → Sink: out"},
		{"Source: orders -> Calc(select=[a, b]) -> LookupJoin(table=[users]) -> Sink: out", 26, "Source: orders…Sink: out"},
		{"Source: orders -> Calc -> Sink: out", 10, "Source: o…"},
		{"  spaced\nout  name ", 20, "spaced out name"},
	} {
		if got := shorten(c.in, c.w); got != c.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
	}
}

func TestSpread(t *testing.T) {
	for _, c := range []struct {
		k, lo, hi, center, step int
		want                    string
	}{
		{1, 1, 4, 2, 1, "[2]"},
		{2, 1, 4, 2, 1, "[2 3]"},
		{3, 2, 20, 11, 7, "[4 11 18]"},
		{3, 2, 10, 6, 7, "[2 6 10]"},
		{6, 1, 3, 2, 1, "[1 1 1 2 2 3]"},
	} {
		if got := fmt.Sprint(spread(c.k, c.lo, c.hi, c.center, c.step)); got != c.want {
			t.Errorf("spread(%d, %d, %d, %d, %d) = %s, want %s", c.k, c.lo, c.hi, c.center, c.step, got, c.want)
		}
	}
}

func TestEmptyGraph(t *testing.T) {
	m := newModel(Graph{}, 40, 5, Auto)
	out := m.View()
	checkFrame(t, out, 40, 5)
	if !strings.Contains(out, "no vertices") {
		t.Errorf("empty graph shows:\n%s", out)
	}
	if _, cmd := m.Update(tuitest.Key("enter")); cmd != nil {
		t.Error("enter on an empty graph sent something")
	}
}
