package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/palink/palink/tui/kit"
)

// View renders the frame: header, the top screen (with a dialog over it),
// footer and flash line.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "palink"
	return v
}

// minWidth and minHeight are the smallest frame palink draws; below it says so.
const minWidth, minHeight = 40, 8

func (m *Model) render() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		return ""
	}
	if w < minWidth || h < minHeight {
		return kit.PadLines(fmt.Sprintf("palink needs at least %d×%d (now %d×%d)", minWidth, minHeight, w, h), w, h)
	}
	header := renderHeader(st, headerData{
		version:     m.opts.Version,
		context:     m.opts.Context,
		user:        m.opts.User,
		readOnly:    m.env.ReadOnly(),
		clusters:    m.clusters,
		clustersErr: m.clustersErr,
		jobsLoaded:  m.jobs.Loaded(),
		counts:      m.jobs.Counts(),
		watching:    m.stream.live,
		now:         m.env.Now,
		alerts:      m.obs.firing,
		lead:        m.lead,
	}, w)
	body := m.top().View()
	if m.dialog != nil {
		body = overlay(body, m.dialog.View(w, h-3), w, h-3)
	}
	var bottom string
	if m.cmd.active {
		bottom = m.cmd.View(st, w)
	} else {
		bottom = m.flash.View(st, w)
	}
	// Screens render exactly their size; padding is a safety net for a
	// screen that does not (it costs a width measure per line).
	if strings.Count(body, "\n") != h-4 {
		body = kit.PadLines(body, w, h-3)
	}
	return strings.Join([]string{header, body, m.footer(), bottom}, "\n")
}

// footer shows the keys of what has the keyboard: the dialog, the command
// line, or the top screen. `? help` always keeps its place at the end, so
// the way to every other key never scrolls off a narrow terminal.
func (m *Model) footer() string {
	var keys []key.Binding
	tail := ""
	switch {
	case m.dialog != nil:
		keys = m.dialog.ShortHelp()
	case m.cmd.active:
		keys = commandLineShort(m.env.Keys)
	default:
		keys = m.top().ShortHelp()
		if !m.top().Capturing() {
			tail = shortHelp(m.env.Styles.Help, []key.Binding{m.env.Keys.Global.Help}, m.width)
		}
	}
	prefix := ""
	if n := m.jobs.Marked(); n > 0 && m.dialog == nil {
		prefix = m.env.Styles.Mark.Render(fmt.Sprintf("✓ %d marked", n)) + "  "
	}
	room := m.width - 1 - lipgloss.Width(prefix)
	if tail != "" {
		room -= lipgloss.Width(tail) + 3
	}
	line := " " + prefix + shortHelp(m.env.Styles.Help, keys, room)
	if tail != "" {
		line += m.env.Styles.Help.ShortSeparator.Render(" • ") + tail
	}
	return kit.Fit(line, m.width)
}

// shortHelp renders key hints that fit width, ending in … when some do
// not (bubbles' help can overflow when even the ellipsis does not fit).
func shortHelp(st help.Styles, keys []key.Binding, width int) string {
	sep := st.ShortSeparator.Render(" • ")
	var b strings.Builder
	used := 0
	for _, k := range keys {
		if !k.Enabled() {
			continue
		}
		item := st.ShortKey.Render(k.Help().Key) + " " + st.ShortDesc.Render(k.Help().Desc)
		if used > 0 {
			item = sep + item
		}
		w := lipgloss.Width(item)
		if used+w > width {
			if used+2 <= width {
				b.WriteString(" " + st.Ellipsis.Render("…"))
			}
			break
		}
		b.WriteString(item)
		used += w
	}
	return b.String()
}

// overlay draws a dialog box centred over the body.
func overlay(body, box string, w, h int) string {
	bw, bh := lipgloss.Size(box)
	x, y := max((w-bw)/2, 0), max((h-bh)/3, 0)
	// The compositor trims trailing blanks; pad back to the frame's size.
	return kit.PadLines(lipgloss.NewCompositor(
		lipgloss.NewLayer(kit.PadLines(body, w, h)),
		lipgloss.NewLayer(box).X(x).Y(y).Z(1),
	).Render(), w, h)
}
