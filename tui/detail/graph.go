package detail

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/kit/dag"
)

// graphTab is the Graph tab: the job's plan as kit/dag draws it, each
// vertex with its rates, busy and backpressure, watermark and state, the
// bottleneck highlighted (and under the cursor until the user moves it).
// Enter opens the vertex subtask by subtask, f its flame graph.
//
// The graph is fetched when the tab is shown, never before, and again
// every graphEvery while it stays shown: reading every vertex's metrics
// costs the JobManager a request per vertex, which is worth it only for
// the job someone is looking at.
type graphTab struct {
	env           *kit.Env
	live          *diagFetch[api.JobGraph]
	dag           dag.Model
	styled        *kit.Styles // the theme dag's styles come from
	visible       bool
	tickGen       int // the refresh timer's generation: hiding the tab ends it
	width, height int
}

// graphEvery is how often the shown graph is fetched again.
const graphEvery = 5 * time.Second

// graphTickMsg asks for the graph again, while the tab of generation gen
// is still shown.
type graphTickMsg struct {
	jobID string
	gen   int
}

func newGraphTab(e *kit.Env, call func() kit.Call[Service]) *graphTab {
	t := &graphTab{env: e, dag: dag.New(dag.Graph{}, dag.NewStyles(e.Styles)), styled: e.Styles,
		live: newDiagFetch(e, call, "graph", api.DiagnoseService.JobGraph)}
	t.dag.Keys = graphKeys(e.Keys)
	return t
}

// graphKeys are the graph's moves without h and l, which the detail
// gives to the Logs tab (l) and which are not worth a second meaning.
func graphKeys(k kit.KeyMap) dag.KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return dag.KeyMap{
		Left:   b("←", "upstream", "left"),
		Right:  b("→", "downstream", "right"),
		Up:     b("↑/k", "up", "up", "k"),
		Down:   b("↓/j", "down", "down", "j"),
		Open:   k.Diag.OpenVertex,
		Layout: k.Diag.Layout,
	}
}

func (t *graphTab) Title() string   { return "Graph" }
func (t *graphTab) Capturing() bool { return false }

func (t *graphTab) ShortHelp() []key.Binding {
	k := t.env.Keys
	return []key.Binding{t.dag.Keys.Left, t.dag.Keys.Right, k.Diag.OpenVertex, k.Diag.Flame, k.Diag.Layout}
}

// shown fetches the graph afresh each time the tab comes up.
func (t *graphTab) shown(d *jobData) tea.Cmd {
	load := t.live.show(d.job)
	t.visible = true
	t.tickGen++
	return tea.Batch(load, t.tick())
}

// tick is the timer of the next refresh.
func (t *graphTab) tick() tea.Cmd {
	id, gen := t.live.job.ID, t.tickGen
	return t.env.After(graphEvery, func(time.Time) tea.Msg { return graphTickMsg{jobID: id, gen: gen} })
}

// hidden stops the refreshes: another tab is shown.
func (t *graphTab) hidden() {
	t.visible = false
	t.tickGen++
}

func (t *graphTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		t.width, t.height = msg.Width, msg.Height
		t.dag.SetSize(msg.Width, max(msg.Height-1, 1))
	case graphTickMsg:
		if msg.jobID != t.live.job.ID || msg.gen != t.tickGen || !t.visible {
			return t, nil
		}
		return t, tea.Batch(t.live.refresh(), t.tick())
	case diagFetchedMsg[api.JobGraph]:
		fresh, next := t.live.take(msg)
		if fresh {
			g := t.live.got
			t.dag.SetGraph(graphOf(g))
			hot := ""
			if g.Bottleneck >= 0 && g.Bottleneck < len(g.Vertices) {
				hot = g.Vertices[g.Bottleneck].ID
			}
			t.dag.SetHighlight(hot)
		}
		return t, next
	case tea.KeyPressMsg:
		k := t.env.Keys
		var resume tea.Cmd
		if !t.visible {
			// Back from a view it opened: the tab is looked at again.
			t.visible = true
			t.tickGen++
			resume = tea.Batch(t.live.refresh(), t.tick())
		}
		if t.live.got == nil {
			return t, resume
		}
		switch {
		case key.Matches(msg, k.Diag.OpenVertex):
			return t, tea.Batch(resume, t.open(kit.DiagVertex))
		case key.Matches(msg, k.Diag.Flame):
			return t, tea.Batch(resume, t.open(kit.DiagFlame))
		}
		var cmd tea.Cmd
		t.dag, cmd = t.dag.Update(msg)
		return t, tea.Batch(resume, cmd)
	}
	return t, nil
}

// open asks the root for a view of the vertex under the cursor. The view
// covers the tab, which stops refreshing until a key reaches it again.
func (t *graphTab) open(v kit.DiagView) tea.Cmd {
	t.hidden()
	id := t.dag.Selected()
	for _, gv := range t.live.got.Vertices {
		if gv.ID == id {
			return kit.Send(kit.OpenDiagMsg{View: v, Job: t.live.job, VertexID: id, VertexName: gv.Name})
		}
	}
	return nil
}

// graphOf turns the job's graph into boxes: each vertex's figures in three
// short lines, toned by what they mean, so that the eye finds the busy
// and the backpressured at once.
func graphOf(g *api.JobGraph) dag.Graph {
	out := dag.Graph{Vertices: make([]dag.Vertex, len(g.Vertices))}
	for i, v := range g.Vertices {
		out.Vertices[i] = dag.Vertex{ID: v.ID, Title: fmt.Sprintf("%s ×%d", v.Name, v.Parallelism), Lines: vertexLines(v)}
	}
	for _, e := range g.Edges {
		if e.From < 0 || e.To < 0 || e.From >= len(g.Vertices) || e.To >= len(g.Vertices) {
			continue
		}
		out.Edges = append(out.Edges, dag.Edge{From: g.Vertices[e.From].ID, To: g.Vertices[e.To].ID, Label: e.ShipStrategy})
	}
	return out
}

// vertexLines are a vertex box's figures: rates, then busy and
// backpressure, then watermark and state.
func vertexLines(v api.GraphVertex) []dag.Line {
	if !v.Measured {
		return []dag.Line{{Text: "figures unread", Tone: dag.ToneDim}, {Text: v.State, Tone: stateTone(v.State)}}
	}
	rates := fmt.Sprintf("in %s/s out %s/s", kit.Rate(v.RecordsIn), kit.Rate(v.RecordsOut))
	switch {
	case v.Source:
		rates = fmt.Sprintf("out %s/s", kit.Rate(v.RecordsOut))
	case v.Sink:
		rates = fmt.Sprintf("in %s/s", kit.Rate(v.RecordsIn))
	}
	load := dag.Line{Text: fmt.Sprintf("busy %s bp %s", kit.Percent(v.Busy), kit.Percent(v.Backpressure))}
	switch {
	case v.Backpressure >= 0.5:
		load.Tone = dag.ToneBad
	case v.Busy >= 0.8:
		load.Tone = dag.ToneWarn
	}
	wm := "wm " + kit.NoValue
	if !v.Watermark.IsZero() {
		wm = "wm -" + kit.Duration(v.WatermarkDelay)
	}
	return []dag.Line{{Text: rates}, load, {Text: wm + " · " + v.State, Tone: stateTone(v.State)}}
}

// stateTone reads a vertex's state: running is the normal case and stays
// quiet; a failing one is bad.
func stateTone(s string) dag.Tone {
	switch s {
	case "RUNNING":
		return dag.ToneNormal
	case "FAILED", "CANCELED":
		return dag.ToneBad
	case "FINISHED":
		return dag.ToneDim
	}
	return dag.ToneWarn
}

func (t *graphTab) View(d *jobData) string {
	st := t.env.Styles
	if t.styled != st { // :theme swapped the styles
		t.dag.SetStyles(dag.NewStyles(st))
		t.styled = st
	}
	if text, show := t.live.placeholder(st, t.width, t.height, "fetching the graph and every vertex's figures…", "ctrl+r retries"); show {
		return text
	}
	g := t.live.got
	var head string
	switch {
	case t.live.err != nil:
		head = st.Error.Render("✖ not current: " + t.live.err.Error())
	case g.Bottleneck >= 0 && g.Bottleneck < len(g.Vertices):
		head = st.Warn.Render("▲ bottleneck "+kit.VertexShort(g.Vertices[g.Bottleneck].Name)) + st.Dim.Render(" · "+g.BottleneckWhy)
	default:
		head = st.Dim.Render("no bottleneck stands out")
	}
	if n := len(g.Notes); n > 0 {
		head += st.Warn.Render(" · ⚠ " + g.Notes[0])
	}
	if t.live.busy() {
		head += st.Dim.Render(" · refreshing…")
	}
	return kit.Fit(" "+head, t.width) + "\n" + t.dag.View()
}

// refresh reloads the graph (ctrl+r while the tab is up).
func (t *graphTab) refresh(d *jobData) tea.Cmd { return t.live.refresh() }
