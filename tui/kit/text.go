package kit

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TextScreen shows read-only text in a box, scrolled with a Pager: raw
// JSON, a command's log. A line wider than the box is never cut without a
// way to see it: ←/→ scroll sideways, and w wraps the lines instead.
type TextScreen struct {
	env   *Env
	title string
	lines []string
	// rows are the lines as shown: lines, or lines wrapped to the width;
	// first[i] is the row where line i starts.
	rows  []string
	first []int
	wrap  bool
	xoff  int // the first column shown, when not wrapping
	pager Pager
	// note, when set, leads the box's note (e.g. "JSON · y YAML").
	note          string
	width, height int
}

// NewTextScreen shows text under a title.
func NewTextScreen(e *Env, title, text string) *TextScreen {
	return NewTextLines(e, title, TextLines(text))
}

// TextLines splits text into the lines a TextScreen shows.
func TextLines(text string) []string {
	return strings.Split(strings.TrimRight(text, "\n"), "\n")
}

// NewTextLines shows lines under a title.
func NewTextLines(e *Env, title string, lines []string) *TextScreen {
	m := &TextScreen{env: e, title: title, pager: NewPager()}
	m.SetLines(lines)
	return m
}

// Title implements Screen.
func (m *TextScreen) Title() string { return m.title }

// SetTitle renames the screen.
func (m *TextScreen) SetTitle(t string) { m.title = t }

// SetNote sets what leads the box's note.
func (m *TextScreen) SetNote(n string) { m.note = n }

// Capturing implements Screen.
func (m *TextScreen) Capturing() bool { return false }

// ShortHelp implements Screen.
func (m *TextScreen) ShortHelp() []key.Binding {
	k := m.env.Keys
	return []key.Binding{k.Nav.Up, k.Nav.Down, k.Nav.Top, k.Nav.Bottom, k.Log.Wrap, k.Log.ScrollSide}
}

// FullHelp implements Screen.
func (m *TextScreen) FullHelp() [][]key.Binding {
	k := m.env.Keys
	return [][]key.Binding{k.Nav.Bindings(), {k.Log.Wrap, k.Log.ScrollSide}}
}

// SetLines replaces the text, keeping the view where it is (in range).
func (m *TextScreen) SetLines(lines []string) {
	m.lines = lines
	m.layout(m.topLine())
}

// topLine is the line of the row on top.
func (m *TextScreen) topLine() int {
	off := m.pager.Offset()
	i, found := slices.BinarySearch(m.first, off)
	if !found {
		i--
	}
	return max(i, 0)
}

// cols is the width of the text.
func (m *TextScreen) cols() int { return max(m.width-2, 1) }

// layout makes the rows from the lines, with line top on top.
func (m *TextScreen) layout(top int) {
	m.rows, m.first = m.rows[:0], m.first[:0]
	for _, l := range m.lines {
		m.first = append(m.first, len(m.rows))
		if m.wrap && Width(l) > m.cols() {
			m.rows = append(m.rows, strings.Split(ansi.Hardwrap(l, m.cols(), true), "\n")...)
			continue
		}
		m.rows = append(m.rows, l)
	}
	m.pager.SetLines(slices.Clone(m.rows)) // the viewport may split lines in place
	m.pager.ToTop()
	if top > 0 && top < len(m.first) {
		m.pager.vp.SetYOffset(m.first[top])
	}
}

// AtEnd reports that the last line is on screen.
func (m *TextScreen) AtEnd() bool { return m.pager.AtEnd() }

// ToEnd scrolls to the last page.
func (m *TextScreen) ToEnd() { m.pager.ToEnd() }

func (m *TextScreen) page() int { return max(m.height-2, 1) }

// widest is the width of the widest line.
func (m *TextScreen) widest() int {
	w := 0
	for _, l := range m.lines {
		w = max(w, Width(l))
	}
	return w
}

// Update implements Screen.
func (m *TextScreen) Update(msg tea.Msg) (Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		top := m.topLine()
		m.width, m.height = msg.Width, msg.Height
		m.pager.SetSize(m.cols(), m.page())
		m.layout(top)
	case tea.KeyPressMsg:
		k := m.env.Keys
		switch {
		case m.pager.Key(k.Nav, msg):
		case key.Matches(msg, k.Log.Wrap):
			m.wrap, m.xoff = !m.wrap, 0
			m.layout(m.topLine())
		case key.Matches(msg, k.Log.ScrollSide) && !m.wrap:
			step := max(m.cols()/2, 1)
			if msg.String() == "left" {
				step = -step
			}
			m.xoff = Clamp(m.xoff+step, 0, max(m.widest()-m.cols(), 0))
		}
	}
	return m, nil
}

// View implements Screen.
func (m *TextScreen) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.env.Styles
	from, to := m.pager.Window(len(m.rows))
	shown := make([]string, 0, to-from)
	cols, wider := m.cols(), false
	for _, r := range m.rows[from:to] {
		w := Width(r)
		if m.xoff > 0 {
			r = ansi.Cut(r, m.xoff, m.xoff+w)
			w -= m.xoff
		}
		if w > cols {
			wider = true
			// The cut says so at the edge; → shows the rest.
			r = ansi.Truncate(r, cols-1, "") + st.Dim.Render("→")
		}
		shown = append(shown, r)
	}
	var notes []string
	if m.note != "" {
		notes = append(notes, m.note)
	}
	switch {
	case m.xoff > 0:
		notes = append(notes, st.Dim.Render(fmt.Sprintf("col %d · ← →", m.xoff+1)))
	case wider:
		notes = append(notes, st.Dim.Render("→ scrolls · w wraps"))
	case m.wrap:
		notes = append(notes, st.Dim.Render("wrapped"))
	}
	if len(m.rows) > m.page() {
		notes = append(notes, fmt.Sprintf("%d–%d/%d", from+1, to, len(m.rows)))
	}
	return Box(st, st.Title.Render(m.title), strings.Join(notes, st.Border.Render(" ─ ")), shown, m.width, m.height)
}
