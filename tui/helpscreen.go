package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/jobs"
	"github.com/palink/palink/tui/kit"
)

// helpScreen is `?`: every key of the view below it, rendered from the same
// bindings that handle the keys, plus the global ones.
type helpScreen struct {
	env           *kit.Env
	of            kit.Screen
	pager         kit.Pager
	width, height int
}

func newHelpScreen(e *kit.Env, of kit.Screen) *helpScreen {
	return &helpScreen{env: e, of: of, pager: kit.NewPager()}
}

func (m *helpScreen) Title() string             { return "Help · " + m.of.Title() }
func (m *helpScreen) Capturing() bool           { return false }
func (m *helpScreen) ShortHelp() []key.Binding  { return []key.Binding{m.env.Keys.Global.Back} }
func (m *helpScreen) FullHelp() [][]key.Binding { return nil }

func (m *helpScreen) page() int { return max(m.height-2, 1) }

func (m *helpScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.pager.SetSize(m.width-2, m.page())
	case tea.KeyPressMsg:
		m.pager.SetLines(m.lines()) // the keys below may have changed
		m.pager.Key(m.env.Keys.Nav, msg)
	}
	return m, nil
}

func (m *helpScreen) View() string {
	st := m.env.Styles
	lines := m.lines()
	m.pager.SetLines(lines)
	note := "esc or ? closes"
	if len(lines) > m.page() {
		note = "j/k scroll · " + note
	}
	from, to := m.pager.Window(len(lines))
	return kit.Box(st, st.Title.Render(m.Title()), st.Dim.Render(note), lines[from:to], m.width, m.height)
}

// lines is the help text, wrapped to the width.
func (m *helpScreen) lines() []string {
	st := m.env.Styles
	groups := append(m.of.FullHelp(), m.env.Keys.Global.Bindings())
	lines := []string{""}
	for _, l := range fullHelp(st.Help, groups, m.width-6) {
		lines = append(lines, "  "+l)
	}
	if _, ok := m.of.(*jobs.Screen); ok {
		lines = append(lines, "",
			"  "+st.Section.Render("Filter")+st.Dim.Render("  /"))
		for _, l := range kit.Wrap("words match the name or application id; state:FAILED,KILLED  cluster:prod  kind:SQL narrow", m.width-6) {
			lines = append(lines, "  "+l)
		}
	}
	if !m.of.Capturing() {
		// `:` works wherever the keyboard is not in a text field.
		lines = append(lines, "",
			"  "+st.Section.Render("Commands")+st.Dim.Render("  :"),
		)
		// A line breaks between commands, never inside one (":sql NAME").
		line := ""
		for _, u := range commandUsage {
			if line != "" && ansi.StringWidth(line+"  "+u) > m.width-6 {
				lines, line = append(lines, "  "+line), ""
			}
			if line != "" {
				line += "  "
			}
			line += u
		}
		lines = append(lines, "  "+line)
	}
	if m.env.ReadOnly() {
		lines = append(lines, "", "  "+st.Warn.Render("read-only: actions are hidden and refused"))
	}
	return lines
}

// fullHelp lays key groups out as columns, starting a new band of columns
// below when the width is used up, so that no key is ever cut off.
func fullHelp(st help.Styles, groups [][]key.Binding, width int) []string {
	var cols [][]string
	for _, g := range groups {
		kw := 0
		for _, k := range g {
			if k.Enabled() {
				kw = max(kw, ansi.StringWidth(k.Help().Key))
			}
		}
		var col []string
		for _, k := range g {
			if k.Enabled() {
				col = append(col, st.FullKey.Render(kit.Fit(k.Help().Key, kw))+" "+st.FullDesc.Render(k.Help().Desc))
			}
		}
		if len(col) > 0 {
			cols = append(cols, col)
		}
	}
	var out []string
	for len(cols) > 0 {
		// Take as many columns as fit side by side.
		n, used := 0, 0
		widths := []int{}
		for n < len(cols) {
			cw := 0
			for _, l := range cols[n] {
				cw = max(cw, ansi.StringWidth(l))
			}
			if n > 0 && used+4+cw > width {
				break
			}
			if n > 0 {
				used += 4
			}
			used += cw
			widths = append(widths, cw)
			n++
		}
		rows := 0
		for _, c := range cols[:n] {
			rows = max(rows, len(c))
		}
		for r := range rows {
			var b strings.Builder
			for i, c := range cols[:n] {
				cell := ""
				if r < len(c) {
					cell = c[r]
				}
				if i > 0 {
					b.WriteString("    ")
				}
				if i < n-1 {
					cell = kit.Fit(cell, widths[i])
				}
				b.WriteString(cell)
			}
			out = append(out, b.String())
		}
		cols = cols[n:]
		if len(cols) > 0 {
			out = append(out, "")
		}
	}
	return out
}

// UpdateKeys implements kit.KeyUpdater: the help shows the keys of the
// screen below as that screen has them.
func (m *helpScreen) UpdateKeys(k *kit.KeyMap) {
	if s, ok := m.of.(kit.KeyUpdater); ok {
		s.UpdateKeys(k)
	}
}
