package dag

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/kit"
)

// KeyMap is the graph's keys. The arrows follow the picture: left to right,
// ←/→ go upstream and downstream along edges and ↑/↓ move within a layer;
// top down, ↑/↓ follow edges and ←/→ the layer; in the list, ↑/↓ walk the
// list and ←/→ follow edges.
type KeyMap struct {
	Left, Right, Up, Down key.Binding
	Open                  key.Binding
	Layout                key.Binding // cycles auto, left to right, top down, list
}

// DefaultKeyMap is the arrows and hjkl, enter and v.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Left:   b("←/h", "upstream", "left", "h"),
		Right:  b("→/l", "downstream", "right", "l"),
		Up:     b("↑/k", "up", "up", "k"),
		Down:   b("↓/j", "down", "down", "j"),
		Open:   b("enter", "open vertex", "enter"),
		Layout: b("v", "layout", "v"),
	}
}

// ShortHelp is the footer's keys.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Left, k.Right, k.Up, k.Down, k.Open, k.Layout}
}

// FullHelp is the help screen's keys.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// OpenMsg is sent when enter is pressed on a vertex.
type OpenMsg struct{ ID string }

// Model shows a graph in a viewport that keeps the cursor in sight. It lays
// the graph out again only when the graph, the width or the mode change.
type Model struct {
	Keys KeyMap

	styles        Styles
	graph         Graph
	mode          Mode
	draw          *Drawing
	width, height int
	cursor        int  // vertex index in draw; -1 when the graph is empty
	came          int  // where the cursor came from along an edge, to go back
	moved         bool // the user has moved the cursor: the highlight no longer takes it
	hot           string
	offX, offY    int
}

// New shows g; call SetSize (or send a tea.WindowSizeMsg) before View.
func New(g Graph, st Styles) Model {
	m := Model{Keys: DefaultKeyMap(), styles: st, graph: g, cursor: -1, came: -1}
	m.relayout()
	return m
}

// SetGraph replaces the graph, keeping the cursor on the same vertex ID
// when it is still there.
func (m *Model) SetGraph(g Graph) {
	m.graph = g
	m.relayout()
}

// SetSize sets the view's size, the status line included.
func (m *Model) SetSize(w, h int) {
	if w == m.width && h == m.height {
		return
	}
	relay := w != m.width
	m.width, m.height = w, h
	if relay {
		m.relayout()
	} else {
		m.follow()
	}
}

// SetStyles changes the looks (the theme changed).
func (m *Model) SetStyles(st Styles) { m.styles = st }

// SetMode forces a layout; Auto lets the width decide.
func (m *Model) SetMode(md Mode) {
	m.mode = md
	m.relayout()
}

// SetHighlight marks a vertex (the bottleneck) in the warning style; ""
// marks none. Until the user moves the cursor, the cursor goes with it:
// the bottleneck is where one looks first.
func (m *Model) SetHighlight(id string) {
	m.hot = id
	if v, ok := m.draw.ids[id]; ok && !m.moved {
		m.cursor, m.came = v, -1
		m.follow()
	}
}

// Select moves the cursor to a vertex.
func (m *Model) Select(id string) bool {
	v, ok := m.draw.ids[id]
	if ok {
		m.cursor, m.came, m.moved = v, -1, true
		m.follow()
	}
	return ok
}

// Selected is the ID of the vertex under the cursor, "" when none.
func (m Model) Selected() string {
	if m.cursor < 0 {
		return ""
	}
	return m.draw.verts[m.cursor].ID
}

// Drawing is the current layout.
func (m Model) Drawing() *Drawing { return m.draw }

func (m *Model) relayout() {
	sel := m.Selected()
	m.draw = Layout(m.graph, Options{Width: m.width, Mode: m.mode})
	m.cursor, m.came = -1, -1
	for _, id := range []string{sel, m.hot} {
		if v, ok := m.draw.ids[id]; ok && id != "" {
			m.cursor = v
			break
		}
	}
	if m.cursor < 0 && len(m.draw.seq) > 0 {
		m.cursor = m.draw.seq[0]
	}
	m.follow()
}

// Update moves the cursor, changes the layout on v, and sends OpenMsg on
// enter.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.SetSize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.Keys
	if key.Matches(msg, k.Layout) {
		m.SetMode((m.mode + 1) % (List + 1))
		return m, nil
	}
	if m.cursor < 0 {
		return m, nil
	}
	if key.Matches(msg, k.Open) {
		id := m.Selected()
		return m, func() tea.Msg { return OpenMsg{ID: id} }
	}
	// along: upstream (-1) or downstream (+1); across: within the layer
	// (or the list).
	along, across := 0, 0
	switch {
	case key.Matches(msg, k.Left):
		along, across = -1, -1
	case key.Matches(msg, k.Right):
		along, across = 1, 1
	case key.Matches(msg, k.Up):
		along, across = -1, -1
	case key.Matches(msg, k.Down):
		along, across = 1, 1
	default:
		return m, nil
	}
	m.moved = true
	horizontal := key.Matches(msg, k.Left, k.Right)
	if horizontal == (m.draw.mode == TopDown) {
		m.moveAcross(across)
	} else {
		m.moveAlong(along)
	}
	m.follow()
	return m, nil
}

// moveAlong follows an edge: back to where the cursor came from if it can,
// else to the neighbour nearest on the picture.
func (m *Model) moveAlong(dir int) {
	d := m.draw
	cands := d.down[m.cursor]
	if dir < 0 {
		cands = d.up[m.cursor]
	}
	if len(cands) == 0 {
		return
	}
	next := -1
	for _, v := range cands {
		if v == m.came {
			next = v
			break
		}
	}
	if next < 0 {
		from := d.across(m.cursor)
		for _, v := range cands {
			if next < 0 || abs(d.across(v)-from) < abs(d.across(next)-from) {
				next = v
			}
		}
	}
	m.came, m.cursor = m.cursor, next
}

// moveAcross steps within the layer, or along the list.
func (m *Model) moveAcross(dir int) {
	d := m.draw
	line := d.rows[d.layer[m.cursor]]
	if d.mode == List {
		line = d.seq
	}
	for i, v := range line {
		if v == m.cursor {
			if j := i + dir; j >= 0 && j < len(line) {
				m.cursor, m.came = line[j], -1
			}
			return
		}
	}
}

// across is a vertex's centre across the layers, to find the nearest one.
func (d *Drawing) across(v int) int {
	b := d.boxes[v]
	if d.mode == TopDown {
		return b.X + b.W/2
	}
	return b.Y + b.H/2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (m *Model) viewSize() (w, h int) {
	if m.height >= 2 {
		return m.width, m.height - 1
	}
	return m.width, m.height
}

// follow scrolls the least that shows the cursor's box whole, with a
// margin for the edges around it; a drawing narrower than the view is
// centred.
func (m *Model) follow() {
	vw, vh := m.viewSize()
	dw, dh := m.draw.Size()
	switch {
	case dw <= vw && m.draw.mode == List:
		m.offX = -1 // a list reads from the left
	case dw <= vw:
		m.offX = -(vw - dw) / 2
	}
	if dh <= vh {
		m.offY = 0
	}
	if m.cursor < 0 {
		return
	}
	b := m.draw.boxes[m.cursor]
	m.offX = scroll(m.offX, b.X, b.W, vw, dw, 3)
	m.offY = scroll(m.offY, b.Y, b.H, vh, dh, 1)
}

// scroll moves off so that [at, at+size) shows within [off, off+view),
// margin cells clear of the edge when there is room.
func scroll(off, at, size, view, total, margin int) int {
	if total <= view {
		return off
	}
	margin = max(min(margin, (view-size)/2), 0)
	if at-margin < off {
		off = at - margin
	}
	if at+size+margin > off+view {
		off = at + size + margin - view
	}
	if size > view {
		off = at
	}
	return min(max(off, 0), total-view)
}

// View draws the viewport and, under it, the cursor's full title and where
// it is.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	vw, vh := m.viewSize()
	var body string
	if m.cursor < 0 {
		body = blank("no vertices", vw, vh)
	} else {
		body = m.draw.Render(&m.styles, Rect{X: m.offX, Y: m.offY, W: vw, H: vh}, m.Selected(), m.hot)
	}
	if vh == m.height {
		return body
	}
	return body + "\n" + m.status()
}

func (m Model) status() string {
	if m.cursor < 0 {
		return strings.Repeat(" ", m.width)
	}
	d := m.draw
	idx := 0
	for i, v := range d.seq {
		if v == m.cursor {
			idx = i
		}
	}
	right := fmt.Sprintf("%d/%d · %s", idx+1, len(d.seq), d.mode)
	if d.dropped > 0 {
		right = fmt.Sprintf("%s to no known vertex not drawn · %s", plural(d.dropped, "edge"), right)
	}
	left := strings.Join(strings.Fields(d.verts[m.cursor].Title), " ")
	room := m.width - kit.Width(right) - 2
	if room < 8 {
		right, room = "", m.width
	}
	left = kit.Truncate(left, room)
	pad := max(m.width-kit.Width(left)-kit.Width(right), 0)
	return m.styles.Status.Render(left + strings.Repeat(" ", pad) + right)
}

func blank(msg string, w, h int) string {
	lines := make([]string, h)
	for i := range lines {
		lines[i] = strings.Repeat(" ", w)
	}
	if h > 0 {
		msg = kit.Truncate(msg, w)
		pad := (w - kit.Width(msg)) / 2
		lines[h/2] = strings.Repeat(" ", pad) + msg + strings.Repeat(" ", w-pad-kit.Width(msg))
	}
	return strings.Join(lines, "\n")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
