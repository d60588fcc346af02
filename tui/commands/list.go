package commands

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
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
	env  *kit.Env
	cmds []model.Command // every command loaded, newest first
	rows []model.Command // those the filter lets through

	filter        kit.Filter
	list          kit.List
	loaded        bool
	loads         kit.Refresher
	err           error
	width, height int
}

// New opens `:cmd`; its Cmd loads the commands.
func New(e *kit.Env) (*Screen, tea.Cmd) {
	m := &Screen{env: e, filter: kit.NewFilter(e.Styles, "job, kind, state, who"), loads: kit.NewRefresher(e, func(seq int) tea.Cmd {
		return loadCommandsCmd(e.Call(), api.CommandFilter{Limit: commandsLimit}, seq)
	})}
	return m, m.load()
}

// refilter makes the rows from the commands, the cursor staying on its
// command when it is still shown.
func (m *Screen) refilter() {
	var on string
	if m.list.Cursor < len(m.rows) {
		on = m.rows[m.list.Cursor].ID
	}
	m.rows = m.rows[:0]
	for _, c := range m.cmds {
		if m.filter.Match(m.filterText(c)...) {
			m.rows = append(m.rows, c)
		}
	}
	if i := slices.IndexFunc(m.rows, func(c model.Command) bool { return c.ID == on }); i >= 0 {
		m.list.Cursor = i
	}
}

// filterText is what the filter looks in: the cells as shown.
func (m *Screen) filterText(c model.Command) []string {
	cells := commandCells(c, m.env.JobName(c.JobID), m.env.Now)
	return cells[:]
}

func (m *Screen) load() tea.Cmd { return m.loads.Refresh() }

// Title implements kit.Screen.
func (m *Screen) Title() string { return "Commands" }

// Capturing implements kit.Screen: the filter's prompt has the keyboard.
func (m *Screen) Capturing() bool { return m.filter.Active() }

// Back implements kit.Backer: esc clears a filter before it leaves.
func (m *Screen) Back() (tea.Cmd, bool) {
	if m.filter.Clear() {
		m.refilter()
		return nil, true
	}
	return nil, false
}

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	if m.filter.Active() {
		return m.filter.ShortHelp(m.env.Keys)
	}
	return shortHelp(m.env.Keys)
}

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }
func (m *Screen) page() int                 { return max(m.height-3, 1) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	cmd := m.update(msg)
	m.list.Fit(len(m.rows), m.page())
	return m, cmd
}

func (m *Screen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case commandsLoadedMsg:
		current, again := m.loads.Done(msg.seq)
		if !current {
			return nil
		}
		flash := kit.LoadFlash("load:commands", msg.err, m.err != nil)
		if msg.err != nil {
			m.err = msg.err
			return tea.Batch(again, flash)
		}
		m.err, m.loaded = nil, true
		m.cmds = slices.Clone(msg.cmds)
		slices.SortStableFunc(m.cmds, func(a, b model.Command) int { return cmp.Compare(b.Seq, a.Seq) })
		m.refilter()
		return tea.Batch(again, flash)
	case kit.ChangeMsg:
		switch msg.Change.Kind {
		case api.CommandChanged:
			if msg.Change.Command != nil {
				m.upsert(*msg.Change.Command)
			}
		case api.Resync:
			return m.load()
		}
	case kit.ActedMsg:
		for _, r := range msg.Results {
			if r.Err == nil {
				m.upsert(r.Cmd)
			}
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if m.filter.Active() {
			cmd, changed := m.filter.Update(m.env.Keys, msg, m.width)
			if changed {
				m.refilter()
				m.list.Cursor, m.list.Offset = 0, 0
			}
			return cmd
		}
		if kp, ok := msg.(tea.KeyPressMsg); ok {
			return m.key(kp)
		}
	}
	return nil
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	if m.list.Key(k, msg, len(m.rows), m.page()) {
		return nil
	}
	switch {
	case key.Matches(msg, k.Nav.Filter):
		return m.filter.Open(m.width)
	case key.Matches(msg, k.Nav.Refresh):
		return m.load()
	case key.Matches(msg, k.Nav.Enter):
		if m.list.Cursor < len(m.rows) {
			return kit.Send(kit.OpenCommandLogMsg{Cmd: m.rows[m.list.Cursor]})
		}
	}
	return nil
}

// upsert keeps the list newest first; the cursor stays on its command.
func (m *Screen) upsert(c model.Command) {
	if !m.loaded {
		return
	}
	if i := slices.IndexFunc(m.cmds, func(x model.Command) bool { return x.ID == c.ID }); i >= 0 {
		m.cmds[i] = c
	} else {
		i, _ := slices.BinarySearchFunc(m.cmds, c.Seq, func(x model.Command, seq int64) int { return cmp.Compare(seq, x.Seq) })
		m.cmds = slices.Insert(m.cmds, i, c)
	}
	m.refilter()
}

// Columns of the commands table.
const (
	ccSeq = iota
	ccKind
	ccJob
	ccState
	ccWhen
	ccAge
	ccBy
	ccTry
	ccResult
	numCmdCols
)

var cmdColTitles = [numCmdCols]string{"#", "KIND", "JOB", "STATE", "CREATED", "AGE", "BY", "TRY", "RESULT"}

// commandCells turns a command into the text of its cells (pure). BY is
// who issued it (an OS user, or "policy"); RESULT what it came to
// (kit.CommandResult), which the state does not say.
func commandCells(c model.Command, job string, now time.Time) [numCmdCols]string {
	return [numCmdCols]string{
		ccSeq:    fmt.Sprintf("#%d", c.Seq),
		ccKind:   c.Kind.String(),
		ccJob:    job,
		ccState:  c.State.String(),
		ccWhen:   kit.Stamp(now, c.CreatedAt),
		ccAge:    kit.Since(now, c.CreatedAt),
		ccBy:     kit.OrDash(c.Issuer),
		ccTry:    fmt.Sprint(c.Attempts),
		ccResult: kit.CommandResult(c, now),
	}
}

// wideFrom is the inner width from which the table shows when each
// command was created, as a time (a wide screen has the room to match
// commands with logs and alerts).
const wideFrom = 110

// minResult is the least room RESULT keeps before BY, the creation time
// and TRY take any.
const minResult = 24

// commandWidths sizes the columns for an inner width w from the cells of
// the rows on screen (and the titles): #, KIND, JOB, STATE and AGE are as
// wide as their values, RESULT takes the rest, and BY, the creation time
// (wide screens) and TRY show only where RESULT keeps minResult.
func commandWidths(w int, rows [][numCmdCols]string) [numCmdCols]int {
	var ws [numCmdCols]int
	fit := func(c int) int {
		n := kit.Width(cmdColTitles[c])
		for _, r := range rows {
			n = max(n, kit.Width(r[c]))
		}
		return n
	}
	used := 2 // the cursor column
	for _, c := range []int{ccSeq, ccKind, ccJob, ccState, ccAge} {
		ws[c] = fit(c)
		if c == ccJob {
			ws[c] = min(ws[c], 28)
		}
		used += ws[c] + 1
	}
	for _, c := range []int{ccBy, ccWhen, ccTry} {
		if c == ccWhen && w < wideFrom {
			continue
		}
		if need := fit(c) + 1; w-used-need >= minResult {
			ws[c] = need - 1
			used += need
		}
	}
	ws[ccResult] = max(w-used, 0)
	return ws
}

// commandLine joins cells at their widths; style colours a cell by column.
func joinCommandCells(cells [numCmdCols]string, ws [numCmdCols]int, style func(col int, s string) string) string {
	var parts []string
	for i, c := range cells {
		if ws[i] == 0 {
			continue
		}
		var s string
		if i == ccAge || i == ccTry || i == ccWhen {
			s = kit.FitRight(c, ws[i])
		} else {
			s = kit.Fit(c, ws[i])
		}
		parts = append(parts, style(i, s))
	}
	return strings.Join(parts, " ")
}

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	inner := m.width - 2
	body := m.height - 3
	var cells [][numCmdCols]string
	for i := m.list.Offset; i < min(m.list.Offset+body, len(m.rows)) && m.loaded; i++ {
		c := m.rows[i]
		cells = append(cells, commandCells(c, m.env.JobName(c.JobID), m.env.Now))
	}
	ws := commandWidths(inner, cells)
	plain := func(_ int, s string) string { return s }
	lines := []string{st.ColumnHeader.Render("  " + joinCommandCells(cmdColTitles, ws, plain))}
	switch {
	case !m.loaded && m.err != nil:
		lines = append(lines, kit.Centered(st.LoadFailed(m.err), inner, body)...)
	case !m.loaded:
		lines = append(lines, kit.Centered(st.Dim.Render("loading commands…"), inner, body)...)
	case len(m.cmds) == 0:
		lines = append(lines, kit.Centered(st.Dim.Render("no commands yet"), inner, body)...)
	case len(m.rows) == 0:
		lines = append(lines, kit.Centered(st.Dim.Render("no command matches — esc clears the filter"), inner, body)...)
	}
	for k, cells := range cells {
		i := m.list.Offset + k
		c := m.rows[i]
		if i == m.list.Cursor {
			lines = append(lines, st.Cursor.Render(kit.Fit("▸ "+joinCommandCells(cells, ws, plain), inner)))
			continue
		}
		lines = append(lines, "  "+joinCommandCells(cells, ws, func(col int, s string) string {
			switch {
			case col == ccState:
				return st.CommandState(c.State).Render(s)
			case col == ccResult && c.Error != "":
				return st.Error.Render(s)
			case col == ccResult:
				return st.Dim.Render(s)
			}
			return s
		}))
	}
	note := fmt.Sprintf("%d/%d", min(m.list.Cursor+1, len(m.rows)), len(m.rows))
	title := st.Title.Render("Commands")
	if f := m.filter.Title(st); f != "" {
		title += " " + f
	}
	return kit.Box(st, title, note, lines, m.width, m.height)
}

func loadCommandsCmd(c kit.Call, f api.CommandFilter, seq int) tea.Cmd {
	return func() tea.Msg {
		var cmds []model.Command
		err := c.With(func(ctx context.Context) (err error) {
			cmds, err = c.Svc.Commands(ctx, f)
			return err
		})
		if err != nil {
			err = fmt.Errorf("list commands: %w", err)
		}
		return commandsLoadedMsg{seq: seq, cmds: cmds, err: err}
	}
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

// Help is the view's keys, for its `?` help and the README's keymap.
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Detail.OpenLog, k.Nav.Filter, k.Nav.Refresh}}
}
