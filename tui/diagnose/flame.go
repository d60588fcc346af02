package diagnose

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/kit/flame"
)

// Flame is a vertex's flame graph, drawn by kit/flame: t turns between
// ON_CPU, OFF_CPU and FULL, enter zooms into a frame and esc or
// backspace out, the hottest path is highlighted. When the cluster has
// flame graphs off it says so and how to turn them on; while Flink takes
// its first samples it asks again every few seconds.
//
// The tree is built in the Cmd, off the event loop: a 50k-frame graph
// arrives ready to draw.
type Flame struct {
	env      *kit.Env
	job      api.JobView
	id, name string
	typ      string
	loadState
	g             *api.FlameGraph
	chart         flame.Model
	hasChart      bool
	styled        *kit.Styles // the theme the chart's styles come from
	waitGen       int
	width, height int
}

// flameTypes is the order t turns through.
var flameTypes = []string{api.FlameOnCPU, api.FlameOffCPU, api.FlameFull}

// flameRetry is how long to wait before asking again for a graph Flink is
// still sampling.
const flameRetry = 2 * time.Second

// NewFlame opens the flame graph of vertex id (named name) of job j, on
// CPU first: where the time goes when the vertex is busy.
func NewFlame(e *kit.Env, j api.JobView, id, name string) (*Flame, tea.Cmd) {
	m := &Flame{env: e, job: j, id: id, name: name, typ: api.FlameOnCPU}
	m.start(e)
	m.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadFlameCmd(m.call(e), j.ID, j.Name, id, name, m.typ, seq) })
	return m, m.loads.Refresh()
}

type flameLoadedMsg struct {
	jobID, id, typ string
	seq            int
	g              api.FlameGraph
	tree           *flame.Tree
	err            error
}

// flameRetryMsg asks again for a graph that was being sampled.
type flameRetryMsg struct {
	id  string
	gen int
}

func loadFlameCmd(c kit.Call[Service], jobID, jobName, id, name, typ string, seq int) tea.Cmd {
	return func() tea.Msg {
		g, err := kit.Diagnose(c, fmt.Sprintf("%s flame graph of %s in %s", typ, kit.VertexShort(name), jobName), func(ctx context.Context, d api.DiagnoseService) (api.FlameGraph, error) {
			return d.FlameGraph(ctx, api.FlameGraphRequest{JobRef: jobID, VertexID: id, Type: typ, Subtask: -1})
		})
		msg := flameLoadedMsg{jobID: jobID, id: id, typ: typ, seq: seq, g: g, err: err}
		if err == nil && g.Status == api.FlameReady {
			msg.tree = flame.Build(FlameTree(g.Frames))
			msg.g.Frames = nil // the tree has them; the model keeps no second copy
		}
		return msg
	}
}

// FlameTree turns frames in pre-order, each with its parent's index, into
// the tree kit/flame draws. An index out of order is left out.
func FlameTree(frames []api.FlameFrame) flame.Node {
	if len(frames) == 0 {
		return flame.Node{Name: "root"}
	}
	kids := make([][]int, len(frames))
	for i, f := range frames {
		if i > 0 && f.Parent >= 0 && f.Parent < i {
			kids[f.Parent] = append(kids[f.Parent], i)
		}
	}
	var build func(i int) flame.Node
	build = func(i int) flame.Node {
		n := flame.Node{Name: frames[i].Name, Value: frames[i].Value}
		if len(kids[i]) > 0 {
			n.Children = make([]flame.Node, len(kids[i]))
			for k, c := range kids[i] {
				n.Children[k] = build(c)
			}
		}
		return n
	}
	return build(0)
}

// Title implements kit.Screen.
func (m *Flame) Title() string { return m.job.Name + " · flame graph · " + kit.VertexShort(m.name) }

// Capturing implements kit.Screen.
func (m *Flame) Capturing() bool { return false }

// ShortHelp implements kit.Screen.
func (m *Flame) ShortHelp() []key.Binding {
	k, f := m.env.Keys, flame.DefaultKeyMap()
	return []key.Binding{k.Diag.FlameType, k.Diag.ZoomIn, k.Diag.ZoomOut, f.Up, f.Down, k.Nav.Refresh}
}

// FullHelp implements kit.Screen.
func (m *Flame) FullHelp() [][]key.Binding { return FlameHelp(m.env.Keys) }

// Back implements kit.Backer: esc zooms out before it leaves.
func (m *Flame) Back() (tea.Cmd, bool) {
	if m.hasChart && m.chart.Zoomed() {
		m.chart, _ = m.chart.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
		return nil, true
	}
	return nil, false
}

// Update implements kit.Screen.
func (m *Flame) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		if m.hasChart {
			m.chart.SetSize(msg.Width, max(msg.Height-1, 1))
		}
	case flameLoadedMsg:
		if msg.jobID != m.job.ID || msg.id != m.id || msg.typ != m.typ {
			return m, nil
		}
		ok, next := m.done(msg.seq, msg.err)
		if !ok || msg.err != nil {
			return m, next
		}
		g := msg.g
		m.g = &g
		if msg.tree != nil {
			if m.hasChart {
				m.chart.SetTree(msg.tree)
			} else {
				m.chart, m.styled = flame.New(msg.tree, flame.NewStyles(m.env.Styles)), m.env.Styles
				m.chart.SetSize(m.width, max(m.height-1, 1))
				m.hasChart = true
			}
		}
		if g.Status == api.FlameWaiting {
			m.waitGen++
			gen, id := m.waitGen, m.id
			return m, tea.Batch(next, m.env.After(flameRetry, func(time.Time) tea.Msg { return flameRetryMsg{id: id, gen: gen} }))
		}
		return m, next
	case flameRetryMsg:
		if msg.id == m.id && msg.gen == m.waitGen {
			return m, m.loads.Refresh()
		}
	case tea.KeyPressMsg:
		k := m.env.Keys
		switch {
		case key.Matches(msg, k.Nav.Refresh):
			return m, m.loads.Refresh()
		case key.Matches(msg, k.Diag.FlameType):
			for i, t := range flameTypes {
				if t == m.typ {
					m.typ = flameTypes[(i+1)%len(flameTypes)]
					break
				}
			}
			m.loads.Drop()
			m.waitGen++
			return m, m.loads.Refresh()
		}
		if m.hasChart && m.g != nil && m.g.Status == api.FlameReady {
			m.chart, _ = m.chart.Update(msg)
		}
	}
	return m, nil
}

// View implements kit.Screen.
func (m *Flame) View() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	var types []string
	for _, t := range flameTypes {
		if t == m.typ {
			types = append(types, st.TabActive.Render(" "+t+" "))
		} else {
			types = append(types, st.TabInactive.Render(" "+t+" "))
		}
	}
	title := " " + st.Title.Render(kit.VertexShort(m.name)) + " " + strings.Join(types, "")
	if m.g != nil && m.g.Status == api.FlameReady {
		title += st.Dim.Render(" · sampled " + kit.Ago(m.env.Now, m.g.SampledAt))
		if m.g.Truncated {
			title += st.Warn.Render(" · ⚠ cut: " + m.g.TruncatedWhy)
		}
	}
	var notes []string
	if m.g != nil {
		notes = m.g.Notes
	}
	title += statusNote(st, m.loads.Busy() && m.g != nil, m.err, notes)
	title = kit.Fit(title, w)
	if m.g == nil || (m.err != nil && m.g.Status != api.FlameReady) {
		return placeholder(st, title, m.loads.Busy(), m.err, "fetching the "+m.typ+" flame graph…", w, h)
	}
	var msg string
	switch m.g.Status {
	case api.FlameReady:
		if m.hasChart {
			if m.styled != st { // :theme swapped the styles
				m.chart.SetStyles(flame.NewStyles(st))
				m.styled = st
			}
			return title + "\n" + m.chart.View()
		}
		msg = st.Dim.Render("no samples")
	case api.FlameDisabled:
		msg = st.Warn.Render("Flame graphs are off on this cluster:") + "\n" + st.Warn.Render("rest.flamegraph.enabled is false.") + "\n\n" +
			st.Dim.Render("Set rest.flamegraph.enabled: true in the Flink") + "\n" +
			st.Dim.Render("configuration and restart the job to see where its time goes.")
	case api.FlameWaiting:
		msg = st.Info.Render("Flink is taking the first samples of this vertex…") + "\n" + st.Dim.Render("asking again every 2 s")
	case api.FlameTerminated:
		msg = st.Dim.Render("The vertex's tasks no longer run: there is nothing to sample.")
	default:
		msg = st.Dim.Render("no flame graph: " + kit.OrDash(m.g.Status))
	}
	// Flink's own words add to the states palink does not explain itself.
	if m.g.Message != "" && m.g.Status != api.FlameDisabled && m.g.Status != api.FlameWaiting {
		msg += "\n" + st.Dim.Render(m.g.Message)
	}
	return title + "\n" + strings.Join(kit.Centered(msg, w, h-1), "\n")
}
