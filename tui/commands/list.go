package commands

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// commandsLimit is how much history `:cmd` loads: the recent past is what
// an operator asks about; older commands stay in `palink cmd list`.
const commandsLimit = 1000

// Screen is `:cmd`: every command, newest first, with its state, age
// and issuer; enter opens its log.
type Screen struct {
	env           *kit.Env
	list          kit.Table[model.Command] // newest first
	width, height int
}

// New opens `:cmd`; its Cmd loads the commands.
func New(e *kit.Env) (*Screen, tea.Cmd) {
	m := &Screen{env: e}
	m.list = kit.NewTable(e, kit.TableOf[model.Command]{
		Key: "load:commands",
		Load: func(seq int) tea.Cmd {
			return loadCommandsCmd(call(e), api.CommandFilter{Limit: commandsLimit}, seq)
		},
		ID:     func(c model.Command) string { return c.ID },
		Page:   m.page,
		Filter: "job, kind, state, who",
		// The filter looks in the cells as shown.
		Match: func(c model.Command) []string { return m.columns(wideFrom).Texts(c) },
		Noun:  "command",
	})
	return m, m.list.Refresh()
}

// Title implements kit.Screen.
func (m *Screen) Title() string { return "Commands" }

// Capturing implements kit.Screen: the filter's prompt has the keyboard.
func (m *Screen) Capturing() bool { return m.list.Capturing() }

// Back implements kit.Backer: esc clears a filter before it leaves.
func (m *Screen) Back() (tea.Cmd, bool) { return m.list.Back() }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding { return m.list.ShortHelp(shortHelp(m.env.Keys)...) }

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }
func (m *Screen) page() int                 { return max(m.height-3, 1) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	cmd := m.update(msg)
	m.list.Fit()
	return m, cmd
}

func (m *Screen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case commandsLoadedMsg:
		cmds := slices.Clone(msg.cmds)
		slices.SortStableFunc(cmds, func(a, b model.Command) int { return cmp.Compare(b.Seq, a.Seq) })
		_, cmd := m.list.Loaded(msg.seq, cmds, msg.err)
		return cmd
	case kit.ChangeMsg:
		switch msg.Change.Kind {
		case api.CommandChanged:
			if msg.Change.Command != nil {
				m.upsert(*msg.Change.Command)
			}
		case api.Resync:
			return m.list.Refresh()
		}
	case kit.ActedMsg:
		for _, r := range msg.Results {
			if r.Err == nil {
				m.upsert(r.Cmd)
			}
		}
	}
	if cmd, ok := m.list.Update(msg, m.width); ok {
		return cmd
	}
	if kp, ok := msg.(tea.KeyPressMsg); ok && key.Matches(kp, m.env.Keys.Nav.Enter) {
		if c, ok := m.list.Selected(); ok {
			return kit.Send(kit.OpenCommandLogMsg{Cmd: c})
		}
	}
	return nil
}

// upsert keeps the list newest first; the cursor stays on its command.
func (m *Screen) upsert(c model.Command) {
	if !m.list.IsLoaded() {
		return
	}
	cmds := slices.Clone(m.list.Items())
	if i := slices.IndexFunc(cmds, func(x model.Command) bool { return x.ID == c.ID }); i >= 0 {
		cmds[i] = c
	} else {
		i, _ := slices.BinarySearchFunc(cmds, c.Seq, func(x model.Command, seq int64) int { return cmp.Compare(seq, x.Seq) })
		cmds = slices.Insert(cmds, i, c)
	}
	m.list.Set(cmds)
}

// wideFrom is the inner width from which the table shows when each
// command was created, as a time (a wide screen has the room to match
// commands with logs and alerts).
const wideFrom = 110

// minResult is the least room RESULT keeps before BY, the creation time
// and TRY take any.
const minResult = 24

// columns are the table's for an inner width w: #, KIND, JOB, STATE and
// AGE as wide as their values, RESULT the rest; BY, the creation time
// (wide screens) and TRY only where RESULT keeps minResult. BY is who
// issued it (an OS user, or "policy"); RESULT what it came to
// (kit.CommandResult), which the state does not say.
func (m *Screen) columns(w int) kit.Columns[model.Command] {
	return commandColumns(w, m.env.JobName, m.env.Now)
}

func commandColumns(w int, jobName func(id string) string, now time.Time) kit.Columns[model.Command] {
	type c = model.Command
	cols := kit.Columns[c]{
		{Title: "#", Fit: true, Cell: func(c c) string { return fmt.Sprintf("#%d", c.Seq) }},
		{Title: "KIND", Fit: true, Cell: func(c c) string { return c.Kind.String() }},
		{Title: "JOB", Fit: true, Max: 28, Cell: func(c c) string { return jobName(c.JobID) }},
		{Title: "STATE", Fit: true, Cell: func(c c) string { return c.State.String() },
			Style: func(st *kit.Styles, c c, s string) string { return st.CommandState(c.State).Render(s) }},
		{Title: "CREATED", Fit: true, Right: true, Drop: 2, Cell: func(c c) string { return kit.Stamp(now, c.CreatedAt) }},
		{Title: "AGE", Fit: true, Right: true, Cell: func(c c) string { return kit.Since(now, c.CreatedAt) }},
		{Title: "BY", Fit: true, Drop: 1, Cell: func(c c) string { return kit.OrDash(c.Issuer) }},
		{Title: "TRY", Fit: true, Right: true, Drop: 3, Cell: func(c c) string { return fmt.Sprint(c.Attempts) }},
		{Title: "RESULT", Flex: true, Min: minResult, Cell: func(c c) string { return kit.CommandResult(c, now) },
			Style: func(st *kit.Styles, c c, s string) string {
				if c.Error != "" {
					return st.Error.Render(s)
				}
				return st.Dim.Render(s)
			}},
	}
	if w < wideFrom {
		cols = slices.Delete(cols, 4, 5) // CREATED
	}
	return cols
}

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	inner := m.width - 2
	body := m.height - 3
	rows, from := m.list.Rows(), m.list.Offset()
	lines := m.columns(inner).Lines(st, rows, m.list.Cursor(), from, from+body, inner)
	if text, show := m.list.Placeholder(st, "loading commands…", "no commands yet"); show {
		lines = append(lines, kit.Centered(text, inner, body)...)
	}
	note := fmt.Sprintf("%d/%d", min(m.list.Cursor()+1, len(rows)), len(rows))
	return kit.Box(st, m.list.Title(st, m.Title()), note, lines, m.width, m.height)
}

func loadCommandsCmd(c kit.Call[Service], f api.CommandFilter, seq int) tea.Cmd {
	commands := func(ctx context.Context) ([]model.Command, error) { return c.Service.Commands(ctx, f) }
	return kit.Get(c, "list commands", commands, func(cmds []model.Command, err error) tea.Msg {
		return commandsLoadedMsg{seq: seq, cmds: cmds, err: err}
	})
}

type commandsLoadedMsg struct {
	seq  int
	cmds []model.Command
	err  error
}

// shortHelp is the footer's keys.
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Detail.OpenLog, k.Nav.Filter, k.Nav.Refresh}
}

// Help is the view's keys, for its `?` help and the keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Detail.OpenLog, k.Nav.Filter, k.Nav.Refresh}}
}
