package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// textScreen shows read-only text with scrolling: raw JSON, a command's log.
type textScreen struct {
	env           *kit.Env
	title         string
	lines         []string
	offset        int
	width, height int
	// follow keeps the view at the end as lines arrive (for logs).
	follow bool
}

func newTextScreen(e *kit.Env, title, text string) *textScreen {
	return &textScreen{env: e, title: title, lines: strings.Split(strings.TrimRight(text, "\n"), "\n")}
}

func (m *textScreen) Title() string                            { return m.title }
func (m *textScreen) Capturing() bool                          { return false }
func (m *textScreen) ShortHelp() []key.Binding                 { return textShort(m.env.Keys) }
func (m *textScreen) FullHelp() [][]key.Binding                { return textFull(m.env.Keys) }
func (m *textScreen) page() int                                { return max(m.height-2, 1) }
func (m *textScreen) maxOffset() int                           { return max(len(m.lines)-m.page(), 0) }
func (m *textScreen) setLines(lines []string)                  { m.lines = lines; m.clampOffset() }
func (m *textScreen) clampOffset()                             { m.offset = kit.Clamp(m.offset, 0, m.maxOffset()) }
func (m *textScreen) atEnd() bool                              { return m.offset >= m.maxOffset() }
func (m *textScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) { return m, m.update(msg) }

func (m *textScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.clampOffset()
	case tea.KeyPressMsg:
		// The top line is the cursor here: every move scrolls.
		kit.ListNav(m.env.Keys, msg, &m.offset, m.maxOffset()+1, m.page())
	}
	return nil
}

func (m *textScreen) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	end := min(m.offset+m.page(), len(m.lines))
	note := ""
	if len(m.lines) > m.page() {
		note = fmt.Sprintf("%d–%d/%d", m.offset+1, end, len(m.lines))
	}
	return kit.Box(m.env.Styles, m.env.Styles.Title.Render(m.title), note, m.lines[m.offset:end], m.width, m.height)
}

// logScreen is a command's log, kept current while the command runs.
type logScreen struct {
	textScreen
	cmd model.Command
}

func newLogScreen(e *kit.Env, c model.Command) *logScreen {
	m := &logScreen{textScreen: textScreen{env: e, follow: true}, cmd: c}
	m.title = fmt.Sprintf("%s #%d of %s · log", c.Kind, c.Seq, e.JobName(c.JobID))
	m.lines = commandLogLines(e.Styles, c, e.Now)
	return m
}

// commandLogLines renders a command's log with its outcome first.
func commandLogLines(st *kit.Styles, c model.Command, now time.Time) []string {
	lines := []string{
		fmt.Sprintf("%s  %s  attempts %d  by %s", st.CommandState(c.State).Render(c.State.String()), c.Kind, c.Attempts, kit.OrDash(c.Issuer)),
	}
	if c.Error != "" {
		lines = append(lines, st.Error.Render("✖ "+c.Error))
	}
	if c.Params.Restore != 0 {
		lines = append(lines, st.Dim.Render("restore: "+c.Params.Restore.String()+" "+c.Params.RestorePath))
	}
	lines = append(lines, "")
	if len(c.Log) == 0 {
		lines = append(lines, st.Dim.Render("(no log yet)"))
	}
	for _, l := range c.Log {
		for i, t := range strings.Split(l.Text, "\n") {
			stamp := fmt.Sprintf("%-12s", kit.ClockTime(now, l.Time))
			if i > 0 {
				stamp = strings.Repeat(" ", 12)
			}
			lines = append(lines, st.Dim.Render(stamp)+"  "+t)
		}
	}
	return lines
}

func (m *logScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	if cm, ok := msg.(kit.ChangeMsg); ok && cm.Change.Kind == api.CommandChanged && cm.Change.Command != nil && cm.Change.Command.ID == m.cmd.ID {
		end := m.atEnd()
		m.cmd = *cm.Change.Command
		m.setLines(commandLogLines(m.env.Styles, m.cmd, m.env.Now))
		if end && m.follow {
			m.offset = m.maxOffset()
		}
		return m, nil
	}
	return m, m.update(msg)
}
