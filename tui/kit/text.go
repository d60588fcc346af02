package kit

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// TextScreen shows read-only text in a box, scrolled with a Pager: raw
// JSON, a command's log.
type TextScreen struct {
	env           *Env
	title         string
	lines         []string
	pager         Pager
	width, height int
}

// NewTextScreen shows text under a title.
func NewTextScreen(e *Env, title, text string) *TextScreen {
	return NewTextLines(e, title, strings.Split(strings.TrimRight(text, "\n"), "\n"))
}

// NewTextLines shows lines under a title.
func NewTextLines(e *Env, title string, lines []string) *TextScreen {
	m := &TextScreen{env: e, title: title, pager: NewPager()}
	m.SetLines(lines)
	return m
}

// Title implements Screen.
func (m *TextScreen) Title() string { return m.title }

// Capturing implements Screen.
func (m *TextScreen) Capturing() bool { return false }

// ShortHelp implements Screen.
func (m *TextScreen) ShortHelp() []key.Binding {
	k := m.env.Keys.Nav
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom}
}

// FullHelp implements Screen.
func (m *TextScreen) FullHelp() [][]key.Binding { return [][]key.Binding{m.env.Keys.Nav.Bindings()} }

// SetLines replaces the text, keeping the view where it is (in range).
func (m *TextScreen) SetLines(lines []string) {
	m.lines = lines
	m.pager.SetLines(slices.Clone(lines)) // the viewport may split lines in place
}

// AtEnd reports that the last line is on screen.
func (m *TextScreen) AtEnd() bool { return m.pager.AtEnd() }

// ToEnd scrolls to the last page.
func (m *TextScreen) ToEnd() { m.pager.ToEnd() }

func (m *TextScreen) page() int { return max(m.height-2, 1) }

// Update implements Screen.
func (m *TextScreen) Update(msg tea.Msg) (Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.pager.SetSize(m.width-2, m.page())
	case tea.KeyPressMsg:
		m.pager.Key(m.env.Keys.Nav, msg)
	}
	return m, nil
}

// View implements Screen.
func (m *TextScreen) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	from, to := m.pager.Window(len(m.lines))
	note := ""
	if len(m.lines) > m.page() {
		note = fmt.Sprintf("%d–%d/%d", from+1, to, len(m.lines))
	}
	return Box(m.env.Styles, m.env.Styles.Title.Render(m.title), note, m.lines[from:to], m.width, m.height)
}
