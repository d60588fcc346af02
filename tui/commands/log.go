package commands

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// LogScreen is a command's log, kept current while the command runs; at
// the end, it follows the lines that arrive.
type LogScreen struct {
	*kit.TextScreen
	env *kit.Env
	cmd model.Command
}

// NewLog shows command c's log.
func NewLog(e *kit.Env, c model.Command) *LogScreen {
	title := fmt.Sprintf("%s #%d of %s · log", c.Kind, c.Seq, e.JobName(c.JobID))
	return &LogScreen{TextScreen: kit.NewTextLines(e, title, commandLogLines(e.Styles, c, e.Now)), env: e, cmd: c}
}

// commandLogLines renders a command's log with its outcome first: who
// issued it, where it runs while it runs, when, and what it came to. A
// lease owner shows as the host and pid a person can look for.
func commandLogLines(st *kit.Styles, c model.Command, now time.Time) []string {
	head := fmt.Sprintf("%s  %s  attempts %d  issued by %s", st.CommandState(c.State).Render(c.State.String()), c.Kind, c.Attempts, kit.OrDash(c.Issuer))
	if c.State == model.CmdDoing && c.LeaseOwner != "" {
		head += "  running on " + kit.OwnerPlace(c.LeaseOwner)
	}
	when := "created " + kit.Stamp(now, c.CreatedAt)
	if !c.StartedAt.IsZero() {
		when += " · started " + kit.Stamp(now, c.StartedAt)
	}
	if !c.EndedAt.IsZero() {
		when += " · ended " + kit.Stamp(now, c.EndedAt)
		if !c.StartedAt.IsZero() {
			when += " (took " + kit.Duration(c.EndedAt.Sub(c.StartedAt)) + ")"
		}
	}
	lines := []string{head, st.Dim.Render(when)}
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
		for i, t := range strings.Split(kit.HumanOwners(l.Text), "\n") {
			stamp := fmt.Sprintf("%-12s", kit.ClockTime(now, l.Time))
			if i > 0 {
				stamp = strings.Repeat(" ", 12)
			}
			lines = append(lines, st.Dim.Render(stamp)+"  "+t)
		}
	}
	return lines
}

// Update implements kit.Screen.
func (m *LogScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	if cm, ok := msg.(kit.ChangeMsg); ok && cm.Change.Kind == api.CommandChanged && cm.Change.Command != nil && cm.Change.Command.ID == m.cmd.ID {
		end := m.AtEnd()
		m.cmd = *cm.Change.Command
		m.SetLines(commandLogLines(m.env.Styles, m.cmd, m.env.Now))
		if end {
			m.ToEnd()
		}
		return m, nil
	}
	_, cmd := m.TextScreen.Update(msg)
	return m, cmd
}
