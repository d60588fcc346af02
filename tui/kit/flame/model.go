package flame

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/kit"
)

// KeyMap is the chart's keys.
type KeyMap struct {
	Left, Right, Up, Down key.Binding
	Zoom, Unzoom          key.Binding
	NextMatch, PrevMatch  key.Binding
}

// DefaultKeyMap is the arrows and hjkl, enter to zoom in, esc or backspace
// to zoom out, n and N between search matches.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Left:      b("←/h", "previous frame", "left", "h"),
		Right:     b("→/l", "next frame", "right", "l"),
		Up:        b("↑/k", "caller", "up", "k"),
		Down:      b("↓/j", "hottest callee", "down", "j"),
		Zoom:      b("enter", "zoom in", "enter"),
		Unzoom:    b("esc", "zoom out", "esc", "backspace"),
		NextMatch: b("n", "next match", "n"),
		PrevMatch: b("N", "prev match", "N"),
	}
}

// ShortHelp is the footer's keys.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Left, k.Right, k.Up, k.Down, k.Zoom, k.Unzoom}
}

// FullHelp is the help screen's keys.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{k.ShortHelp(), {k.NextMatch, k.PrevMatch}}
}

// Frame describes a frame: the one under the cursor.
type Frame struct {
	Name    string
	Family  Family
	Samples int64   // on the stack in: its width
	Self    int64   // of which in no callee
	Share   float64 // of all samples
	Depth   int     // 0 for the root
	Path    []string
}

// Model shows a flame graph: a header (where the zoom is, the search or
// the colours' legend), the chart, and the frame under the cursor.
type Model struct {
	Keys KeyMap

	styles        Styles
	paint         *painter
	t             *Tree
	zoom          []int32 // frames zoomed into, innermost last
	cursor        int32
	came          int32 // the callee ↑ left, where ↓ goes back to
	top           int   // depths scrolled past, below the zoom root
	width, height int
	query         string
	match         []bool // by frame, nil without a search
	matched       int
	matchShare    float64
}

// New shows a flame graph built by Build; call SetSize (or send a
// tea.WindowSizeMsg) before View.
func New(t *Tree, st Styles) Model {
	return Model{Keys: DefaultKeyMap(), styles: st, paint: st.painter(), t: t, came: -1}
}

// SetTree replaces the flame graph with a new sample of it, keeping the
// zoom and the cursor on frames of the same names where they still are.
func (m *Model) SetTree(t *Tree) {
	zooms := make([][]string, len(m.zoom))
	for i, z := range m.zoom {
		zooms[i] = m.t.path(z)
	}
	cur := m.t.path(m.cursor)
	m.t = t
	m.zoom = nil // a copy of the model may share the old array
	for _, p := range zooms {
		if z := m.t.find(p); z != m.root() {
			m.zoom = append(m.zoom, z)
		}
	}
	m.cursor, m.came = m.t.find(cur), -1
	m.SetSearch(m.query)
	m.fix()
}

// SetStyles changes the looks (the theme changed).
func (m *Model) SetStyles(st Styles) { m.styles, m.paint = st, st.painter() }

// SetSize sets the view's size, header and status lines included.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.fix()
}

// SetSearch highlights the frames whose name contains q, ignoring case;
// "" clears the search.
func (m *Model) SetSearch(q string) {
	m.query, m.match, m.matched, m.matchShare = q, nil, 0, 0
	if q == "" {
		return
	}
	t := m.t
	m.match = make([]bool, len(t.f))
	// A match under a match takes no more samples: count the outer one.
	under := make([]bool, len(t.f))
	var samples int64
	for i := range t.f {
		f := &t.f[i]
		if p := f.parent; p >= 0 {
			under[i] = under[p] || m.match[p]
		}
		if containsFold(f.name, q) {
			m.match[i] = true
			m.matched++
			if !under[i] {
				samples += f.ext
			}
		}
	}
	if total := t.f[0].ext; total > 0 {
		m.matchShare = float64(samples) / float64(total)
	}
}

// Search is how many frames match the search, and their share of the
// samples.
func (m Model) Search() (frames int, share float64) { return m.matched, m.matchShare }

// Zoomed reports a zoom to step out of: while it holds, esc is the chart's.
func (m Model) Zoomed() bool { return len(m.zoom) > 0 }

// Cursor describes the frame under the cursor.
func (m Model) Cursor() Frame {
	t := m.t
	f := &t.f[m.cursor]
	fr := Frame{Name: f.name, Family: f.family, Samples: f.ext, Self: f.ext - f.sub, Depth: int(f.depth), Path: t.path(m.cursor)}
	if total := t.f[0].ext; total > 0 {
		fr.Share = float64(f.ext) / float64(total)
	}
	return fr
}

func (m *Model) root() int32 {
	if len(m.zoom) > 0 {
		return m.zoom[len(m.zoom)-1]
	}
	return 0
}

func (m *Model) rows() int {
	if m.height >= 3 {
		return m.height - 2
	}
	return max(m.height, 0)
}

// fix keeps the cursor on a frame drawn under the zoom root, climbing to
// the nearest such caller, and scrolls its depth into view.
func (m *Model) fix() {
	z := m.root()
	for m.cursor != z && !m.t.visible(z, m.cursor, m.width) {
		if m.cursor = m.t.f[m.cursor].parent; m.cursor < 0 {
			m.cursor = z
		}
	}
	rel := int(m.t.f[m.cursor].depth - m.t.f[z].depth)
	rows := max(m.rows(), 1)
	if rel < m.top {
		m.top = rel
	}
	if rel >= m.top+rows {
		m.top = rel - rows + 1
	}
}

// Update moves the cursor, zooms, and steps between matches.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.SetSize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		m.key(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) {
	k, t, z := m.Keys, m.t, m.root()
	switch {
	case key.Matches(msg, k.Left, k.Right):
		row := t.row(z, t.f[m.cursor].depth, m.width)
		for i, n := range row {
			if n != m.cursor {
				continue
			}
			if key.Matches(msg, k.Left) && i > 0 {
				m.cursor, m.came = row[i-1], -1
			} else if key.Matches(msg, k.Right) && i+1 < len(row) {
				m.cursor, m.came = row[i+1], -1
			}
			break
		}
	case key.Matches(msg, k.Up):
		if m.cursor != z {
			m.came, m.cursor = m.cursor, t.f[m.cursor].parent
		}
	case key.Matches(msg, k.Down):
		next := int32(-1)
		if m.came >= 0 && t.f[m.came].parent == m.cursor {
			next = m.came
		} else if ks := t.children(m.cursor); len(ks) > 0 {
			next = ks[0]
		}
		if next >= 0 && t.visible(z, next, m.width) {
			m.cursor, m.came = next, -1
		}
	case key.Matches(msg, k.Zoom):
		if m.cursor != z {
			// Capped, so that append copies: an earlier copy of the
			// model keeps its own zoom.
			m.zoom = append(m.zoom[:len(m.zoom):len(m.zoom)], m.cursor)
			m.top = 0
		}
	case key.Matches(msg, k.Unzoom):
		if len(m.zoom) > 0 {
			m.zoom = m.zoom[:len(m.zoom)-1]
			m.top = 0
		}
	case key.Matches(msg, k.NextMatch, k.PrevMatch):
		m.stepMatch(key.Matches(msg, k.NextMatch))
	}
	m.fix()
}

// stepMatch moves to the next (or previous) match drawn, in the chart's
// order: depth first, left to right.
func (m *Model) stepMatch(forward bool) {
	if m.match == nil {
		return
	}
	t, z := m.t, m.root()
	var seq []int32
	at := -1
	stack := []int32{z}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == m.cursor {
			at = len(seq)
		}
		if m.match[n] && n != m.cursor {
			seq = append(seq, n)
		}
		ks := t.children(n)
		for j := len(ks) - 1; j >= 0; j-- {
			if t.f[ks[j]].ext*int64(m.width) >= t.f[z].ext {
				stack = append(stack, ks[j])
			}
		}
	}
	if len(seq) == 0 {
		return
	}
	// seq[at] is the first match after the cursor.
	i := at
	if !forward {
		i = at - 1
	}
	i = (i%len(seq) + len(seq)) % len(seq)
	m.cursor, m.came = seq[i], -1
}

// View draws the header, the chart and the status line, exactly the size
// set.
func (m Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(m.width * m.height * 4)
	rows := m.rows()
	if m.height >= 3 {
		b.WriteString(m.header())
		b.WriteByte('\n')
	}
	z := m.root()
	if m.t.f[z].ext <= 0 {
		lines := kit.Centered("no samples", m.width, rows)
		for i := range rows {
			if i > 0 {
				b.WriteByte('\n')
			}
			l := ""
			if i < len(lines) {
				l = lines[i]
			}
			b.WriteString(kit.Fit(l, m.width))
		}
	} else {
		m.t.draw(&b, m.t.layout(z, m.top, rows, m.width), m.width, m.paint, m.cursor, m.match)
	}
	if m.height >= 3 {
		b.WriteByte('\n')
		b.WriteString(m.status())
	}
	return b.String()
}

// header says what the chart spans, and on the right the search or the
// colours' legend, which gives way when the line is short.
func (m Model) header() string {
	t, z := m.t, m.root()
	total := t.f[0].ext
	var right string
	if m.query != "" {
		right = m.styles.Match.Render(fmt.Sprintf("/%s: %d frames · %.1f%%", m.query, m.matched, 100*m.matchShare))
	} else {
		var parts []string
		for _, f := range []Family{FamilyJVM, FamilyFlink, FamilyLibrary, FamilyUser} {
			parts = append(parts, m.styles.Narrow[f].Render("■")+" "+m.styles.Dim.Render(f.String()))
		}
		right = strings.Join(parts, " ")
	}
	room := m.width - kit.Width(right) - 2
	if room < 40 {
		right, room = "", m.width
	}
	left := fmt.Sprintf("all · %s samples", count(total))
	if z != 0 {
		rest := fmt.Sprintf(" · %s of all", percent(t.f[z].ext, total))
		left = "zoomed on " + label(t.f[z].name, room-kit.Width(rest)-10) + rest
	}
	return spread(m.styles.Heading.Render(kit.Truncate(left, room)), right, m.width)
}

func (m Model) status() string {
	t := m.t
	f := &t.f[m.cursor]
	total := t.f[0].ext
	right := fmt.Sprintf("%s samples · %s", count(f.ext), percent(f.ext, total))
	if self := f.ext - f.sub; self > 0 {
		right += " · self " + percent(self, total)
	}
	room := m.width - kit.Width(right) - 2
	if room < 12 {
		return m.styles.Dim.Render(kit.Fit(label(f.name, m.width), m.width))
	}
	return spread(label(f.name, room), m.styles.Dim.Render(right), m.width)
}

// spread puts left and right at the two ends of a line of width cells,
// dropping right when both do not fit.
func spread(left, right string, width int) string {
	gap := width - kit.Width(left) - kit.Width(right)
	if gap < 1 {
		return kit.Fit(left, width)
	}
	return left + strings.Repeat(" ", gap) + right
}

func percent(part, total int64) string {
	if total <= 0 {
		return "0%"
	}
	return strconv.FormatFloat(100*float64(part)/float64(total), 'f', 1, 64) + "%"
}

// count writes n with thousands separators: 12,345.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// containsFold reports that sub is in s, ignoring ASCII case, without
// allocating: a search runs over every frame.
func containsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}
