package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// jobsScreen is the default view: one table of the jobs of every cluster.
//
// The order holds while the operator is choosing (held): while jobs are
// marked or a dialog is open over the table, live changes refresh the rows
// in place but do not move them, so that space, and the dialog, act on the
// jobs the operator sees. When the marks are cleared or the dialog closes,
// the order catches up.
//
// It is virtualized: the filtered, sorted index (rows) is rebuilt only when
// the jobs, the filter, the scope or the sort change, never per frame, and
// View renders only the rows on screen, so a frame costs the same for a
// hundred jobs as for a hundred thousand. Every job is kept sorted (all),
// so a filter keystroke costs one pass over the jobs, not a sort, and a
// job whose sort key changes moves by binary search.
type jobsScreen struct {
	env *kit.Env

	byID   map[string]*api.JobView
	all    []*api.JobView // every job, in the current sort order
	rows   []*api.JobView // the index: all, scoped and filtered
	counts [numStates]int // all jobs by state, for the header

	scope     string // a cluster name from `:jobs @NAME`, or "" for all
	query     jobQuery
	queryText string
	queryErr  error
	input     textinput.Model
	filtering bool

	sortCol  column
	sortDesc bool

	cursor, offset int
	marks          map[string]bool

	dialogOpen bool       // the root has a dialog over the table (holdOrder)
	held       *heldOrder // the order on screen when it began to hold, or nil

	loaded  bool
	loads   kit.Refresher
	loadErr error

	dirty         bool // the index is out of date
	rebuildQueued bool

	width, height int
}

// heldOrder is the order of every job as the table showed it when the
// order began to hold, by id: ids are what survive a reload.
type heldOrder struct {
	ids []string
	has map[string]bool
}

// numStates sizes per-state counters (model.JobState values are small ints).
const numStates = int(model.StateFailed) + 1

// rebuildNowBelow is the job count under which a change rebuilds the index at
// once; above it, changes within rebuildDelay are coalesced into one rebuild,
// so a burst of changes does not sort 100,000 rows per change.
const (
	rebuildNowBelow = 2000
	rebuildDelay    = 150 * time.Millisecond
)

type rebuildMsg struct{}

func newJobsScreen(e *kit.Env, scope string) *jobsScreen {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "name, state:FAILED, cluster:prod"
	in.SetStyles(e.Styles.Input)
	in.SetVirtualCursor(true)
	return &jobsScreen{
		env:   e,
		byID:  map[string]*api.JobView{},
		scope: scope,
		input: in,
		marks: map[string]bool{},
		loads: kit.NewRefresher(e, func(seq int) tea.Cmd { return loadJobsCmd(e.Call(), seq) }),
	}
}

// load asks for the job list (one load in flight at most).
func (m *jobsScreen) load() tea.Cmd { return m.loads.Refresh() }

func (m *jobsScreen) Title() string {
	if m.scope != "" {
		return "Jobs @" + m.scope
	}
	return "Jobs · all clusters"
}

func (m *jobsScreen) Capturing() bool { return m.filtering }

func (m *jobsScreen) ShortHelp() []key.Binding {
	if m.filtering {
		return []key.Binding{m.env.Keys.Form.Confirm, m.env.Keys.Form.Cancel}
	}
	return jobsShort(m.env.Keys)
}

func (m *jobsScreen) FullHelp() [][]key.Binding { return jobsFull(m.env.Keys) }

// page is the number of table rows on screen.
func (m *jobsScreen) page() int { return max(m.height-3, 1) }

func (m *jobsScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	cmd := m.update(msg)
	m.syncHold() // marks may have come or gone
	return m, cmd
}

func (m *jobsScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.fitInput()
		m.offset = kit.ScrollTo(m.cursor, m.offset, m.page(), len(m.rows))
	case jobsLoadedMsg:
		return m.loaded_(msg)
	case kit.ChangeMsg:
		return m.applyChange(msg.Change)
	case kit.CreatedMsg:
		if msg.Err == nil {
			return m.upsert(api.JobView{Job: msg.Job})
		}
	case kit.AdoptedMsg:
		if msg.Err == nil {
			return m.upsert(api.JobView{Job: msg.Job})
		}
	case kit.ActedMsg:
		// Marks served their purpose once the bulk action is recorded.
		for _, r := range msg.Results {
			if r.Err == nil {
				delete(m.marks, r.Job.ID)
			}
		}
	case rebuildMsg:
		m.rebuildQueued = false
		if m.dirty {
			m.rebuild()
		}
	case tea.KeyPressMsg:
		if m.filtering {
			return m.filterKey(msg)
		}
		return m.key(msg)
	case tea.PasteMsg:
		if m.filtering {
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(msg)
			m.setQuery(m.input.Value())
			m.fitInput()
			return cmd
		}
	}
	return nil
}

// loaded_ takes a full job list.
func (m *jobsScreen) loaded_(msg jobsLoadedMsg) tea.Cmd {
	current, again := m.loads.Done(msg.seq)
	if !current {
		return nil // an answer to a load that a newer one replaced
	}
	if msg.err != nil {
		m.loadErr = msg.err
		return tea.Batch(again, kit.Flash(kit.FlashError, msg.err.Error()))
	}
	m.loadErr = nil
	m.loaded = true
	m.byID = make(map[string]*api.JobView, len(msg.jobs))
	m.counts = [numStates]int{}
	for i := range msg.jobs {
		j := &msg.jobs[i]
		m.byID[j.ID] = j
		m.count(j.State, 1)
	}
	for id := range m.marks {
		if _, ok := m.byID[id]; !ok {
			delete(m.marks, id)
		}
	}
	m.resort()
	return again
}

func (m *jobsScreen) count(s model.JobState, d int) {
	if int(s) >= 0 && int(s) < numStates {
		m.counts[s] += d
	}
}

func (m *jobsScreen) applyChange(c api.Change) tea.Cmd {
	switch c.Kind {
	case api.JobChanged:
		if c.Job != nil {
			return m.upsert(*c.Job)
		}
	case api.Resync:
		return m.load()
	}
	return nil
}

// upsert applies one job's new state. A job that keeps its place in the
// index is updated where it is; otherwise it moves within the sorted list
// and the index is rebuilt, at once for small tables and coalesced for
// large ones.
func (m *jobsScreen) upsert(v api.JobView) tea.Cmd {
	less := lessFunc(m.sortCol, m.sortDesc)
	old, ok := m.byID[v.ID]
	if ok {
		m.count(old.State, -1)
		m.count(v.State, 1)
		wasIn, isIn := m.inView(old), m.inView(&v)
		if less(old, &v) != 0 {
			if i, found := slices.BinarySearchFunc(m.all, old, less); found {
				m.all = slices.Delete(m.all, i, i+1)
			}
			*old = v
			i, _ := slices.BinarySearchFunc(m.all, old, less)
			m.all = slices.Insert(m.all, i, old)
		} else {
			*old = v
			if wasIn == isIn {
				return nil // same place, same visibility: the row shows the new data as it is
			}
		}
		if !wasIn && !isIn {
			return nil
		}
	} else {
		nv := v
		m.byID[v.ID] = &nv
		m.count(v.State, 1)
		i, _ := slices.BinarySearchFunc(m.all, &nv, less)
		m.all = slices.Insert(m.all, i, &nv)
		if !m.inView(&nv) {
			return nil
		}
	}
	m.dirty = true
	if len(m.byID) < rebuildNowBelow {
		m.rebuild()
		return nil
	}
	if m.rebuildQueued {
		return nil
	}
	m.rebuildQueued = true
	return m.env.After(rebuildDelay, func(time.Time) tea.Msg { return rebuildMsg{} })
}

func (m *jobsScreen) inView(j *api.JobView) bool {
	return (m.scope == "" || j.Cluster == m.scope) && m.query.match(j)
}

// resort sorts every job by the current column, then rebuilds the index.
func (m *jobsScreen) resort() {
	all := make([]*api.JobView, 0, len(m.byID))
	for _, j := range m.byID {
		all = append(all, j)
	}
	sortJobs(all, m.sortCol, m.sortDesc)
	m.all = all
	m.rebuild()
}

// resortNow applies a sort the operator asked for, even while the order
// holds: the rows move because they said so, and the new order holds.
func (m *jobsScreen) resortNow() {
	held := m.held != nil
	m.held = nil
	m.resort()
	if held {
		m.held = m.orderOnScreen()
	}
}

// rebuild recomputes the index from the sorted jobs — one pass, no sort —
// or, while the order holds, from the held order; and keeps the cursor on
// the same job (followCursor).
func (m *jobsScreen) rebuild() {
	prev := m.rows
	rows := make([]*api.JobView, 0, len(m.rows))
	if m.held != nil {
		for _, id := range m.held.ids {
			if j, ok := m.byID[id]; ok && m.inView(j) {
				rows = append(rows, j)
			}
		}
	}
	for _, j := range m.all {
		// Held, a job new to the table goes after the held ones.
		if (m.held == nil || !m.held.has[j.ID]) && m.inView(j) {
			rows = append(rows, j)
		}
	}
	m.rows = rows
	m.dirty = false
	m.cursor = followCursor(prev, m.cursor, rows)
	m.offset = kit.ScrollTo(m.cursor, m.offset, m.page(), len(rows))
}

// followCursor is where the cursor goes when the rows change from prev to
// rows: to the row of the job it was on; when that job is gone or filtered
// out, to the nearest of its old neighbours still shown, the one below
// first (it takes the job's place); with nothing to go by, it stays in range.
func followCursor(prev []*api.JobView, cursor int, rows []*api.JobView) int {
	if cursor < 0 || cursor >= len(prev) || len(rows) == 0 {
		return kit.Clamp(cursor, 0, len(rows)-1)
	}
	id := prev[cursor].ID
	if i := slices.IndexFunc(rows, func(j *api.JobView) bool { return j.ID == id }); i >= 0 {
		return i
	}
	at := make(map[string]int, len(rows))
	for i, j := range rows {
		at[j.ID] = i
	}
	for d := 1; d < len(prev); d++ {
		if i := cursor + d; i < len(prev) {
			if r, ok := at[prev[i].ID]; ok {
				return r
			}
		}
		if i := cursor - d; i >= 0 {
			if r, ok := at[prev[i].ID]; ok {
				return r
			}
		}
	}
	return kit.Clamp(cursor, 0, len(rows)-1)
}

// toFirst puts the cursor on the first row: a new filter or scope shows a
// new list, and the first match is what the operator acts on next.
func (m *jobsScreen) toFirst() {
	m.cursor, m.offset = 0, 0
}

// holdOrder tells the table whether a dialog is open over it (the root
// calls it after every message).
func (m *jobsScreen) holdOrder(dialogOpen bool) {
	m.dialogOpen = dialogOpen
	m.syncHold()
}

// syncHold starts holding the order when the operator begins to choose
// (a mark, a dialog), and lets it catch up when they are done.
func (m *jobsScreen) syncHold() {
	hold := m.dialogOpen || len(m.marks) > 0
	switch {
	case hold && m.held == nil:
		m.held = m.orderOnScreen()
	case !hold && m.held != nil:
		m.held = nil
		m.rebuild()
	}
}

// orderOnScreen is the order of every job as the table shows it: the rows
// in their order, and the jobs they do not show where they sort. (The rows
// can lag the sorted jobs while a coalesced rebuild is pending; what the
// operator sees is what holds.)
func (m *jobsScreen) orderOnScreen() *heldOrder {
	shown := make(map[string]bool, len(m.rows))
	for _, j := range m.rows {
		shown[j.ID] = true
	}
	h := &heldOrder{ids: make([]string, 0, len(m.all)), has: make(map[string]bool, len(m.all))}
	next := 0
	for _, j := range m.all {
		id := j.ID
		if shown[id] && next < len(m.rows) {
			id = m.rows[next].ID // a shown job's place takes the next row as shown
			next++
		}
		h.ids = append(h.ids, id)
		h.has[id] = true
	}
	return h
}

// selected is the job under the cursor, or nil.
func (m *jobsScreen) selected() *api.JobView {
	if m.cursor >= 0 && m.cursor < len(m.rows) {
		return m.rows[m.cursor]
	}
	return nil
}

func (m *jobsScreen) setScope(cluster string) {
	m.scope = cluster
	m.rebuild()
	m.toFirst()
}

// setQuery applies a filter and puts the cursor on its first match.
// Clearing the filter keeps the cursor on its job: it was a match, and it
// is still there.
func (m *jobsScreen) setQuery(s string) {
	m.queryText = s
	m.query, m.queryErr = parseQuery(s)
	m.rebuild()
	if s != "" {
		m.toFirst()
	}
}

func (m *jobsScreen) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Form.Confirm):
		m.filtering = false
		m.input.Blur()
		if m.queryText != "" {
			m.toFirst() // rows may have come and gone while it was typed
		}
		return nil
	case key.Matches(msg, k.Form.Cancel):
		m.filtering = false
		m.input.Blur()
		m.input.SetValue("")
		m.setQuery("")
		return nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != m.queryText {
		m.setQuery(m.input.Value())
	}
	m.fitInput()
	return cmd
}

// fitInput sizes the filter field to its text, so the title keeps room
// for the count and for a filter error.
func (m *jobsScreen) fitInput() {
	m.input.SetWidth(kit.Clamp(ansi.StringWidth(m.input.Value())+1, ansi.StringWidth(m.input.Placeholder)+1, max(m.width/2, 20)))
}

func (m *jobsScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	if kit.ListNav(k, msg, &m.cursor, len(m.rows), m.page()) {
		m.offset = kit.ScrollTo(m.cursor, m.offset, m.page(), len(m.rows))
		return nil
	}
	switch {
	case key.Matches(msg, k.Jobs.Filter):
		m.filtering = true
		m.input.SetValue(m.queryText)
		m.input.CursorEnd()
		m.fitInput()
		return m.input.Focus()
	case key.Matches(msg, k.Global.Back):
		// esc at the bottom of the stack clears, most recent first.
		switch {
		case m.queryText != "":
			m.input.SetValue("")
			m.setQuery("")
		case len(m.marks) > 0:
			clear(m.marks)
		}
		return nil
	case key.Matches(msg, k.Jobs.Mark):
		if j := m.selected(); j != nil {
			if m.marks[j.ID] {
				delete(m.marks, j.ID)
			} else {
				m.marks[j.ID] = true
			}
			m.cursor = kit.Clamp(m.cursor+1, 0, len(m.rows)-1)
			m.offset = kit.ScrollTo(m.cursor, m.offset, m.page(), len(m.rows))
		}
		return nil
	case key.Matches(msg, k.Jobs.ClearMarks):
		clear(m.marks)
		return nil
	case key.Matches(msg, k.Jobs.Sort):
		m.sortCol = (m.sortCol + 1) % numCols
		m.resortNow()
		return kit.Flash(kit.FlashInfo, "sorted by "+jobColumns[m.sortCol].title)
	case key.Matches(msg, k.Jobs.SortReverse):
		m.sortDesc = !m.sortDesc
		m.resortNow()
		return nil
	case key.Matches(msg, k.Nav.Refresh):
		return m.load()
	case key.Matches(msg, k.Jobs.Create):
		return kit.Send(kit.OpenCreateMsg{})
	}
	j := m.selected()
	if j == nil {
		if kit.IsActionKey(k, msg) || key.Matches(msg, k.Nav.Enter) {
			return kit.Flash(kit.FlashWarn, "no job selected")
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Nav.Enter):
		return kit.Send(kit.OpenDetailMsg{Job: *j})
	case key.Matches(msg, k.Open.EditSQL):
		return kit.Send(kit.OpenEditorMsg{Job: *j})
	case key.Matches(msg, k.Open.Metrics):
		return kit.Send(kit.OpenDetailMsg{Job: *j, Tab: "Metrics"})
	case key.Matches(msg, k.Open.Logs):
		return kit.Send(kit.OpenDetailMsg{Job: *j, Tab: "Logs"})
	}
	if kind, ok := kit.ActionFor(k, msg, j.State); ok {
		return kit.Send(kit.StartActionMsg{Kind: kind, Jobs: m.actionTargets(j)})
	}
	if m.env.RefusedAction(msg) {
		return kit.Flash(kit.FlashWarn, "read-only: actions are disabled")
	}
	return nil
}

// actionTargets are the marked jobs, or the selected one when none is
// marked: copies, taken now, which the action carries by id to Plan, the
// dialog and Act, whatever the table does meanwhile. Marked rows come in
// the order the table shows them, then the marked jobs the filter hides
// (they still count: the user marked them) in sort order.
func (m *jobsScreen) actionTargets(sel *api.JobView) []model.Job {
	if len(m.marks) == 0 {
		return []model.Job{sel.Job}
	}
	var out []model.Job
	for _, j := range m.rows {
		if m.marks[j.ID] {
			out = append(out, j.Job)
		}
	}
	for _, j := range m.all {
		if m.marks[j.ID] && !m.inView(j) {
			out = append(out, j.Job)
		}
	}
	return out
}

func (m *jobsScreen) View() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	inner := w - 2
	lay := jobLayout(inner - 3)

	title := st.Title.Render(m.Title())
	switch {
	case m.filtering:
		title += " " + m.input.View()
	case m.queryText != "":
		title += st.Dim.Render(" filter: ") + m.queryText
	}
	if m.queryErr != nil {
		title += " " + st.Error.Render("✖ "+m.queryErr.Error())
	}
	note := m.note(kit.Width(title), inner)
	lines := make([]string, 0, h-2)
	lines = append(lines, "   "+m.headerRow(lay))
	body := h - 3
	switch {
	case !m.loaded && m.loadErr != nil:
		lines = append(lines, kit.Centered(st.Error.Render("✖ "+m.loadErr.Error())+"\n"+st.Dim.Render("ctrl+r retries"), inner, body)...)
	case !m.loaded:
		lines = append(lines, kit.Centered(st.Dim.Render("loading jobs…"), inner, body)...)
	case len(m.byID) == 0:
		lines = append(lines, kit.Centered(st.Dim.Render("no jobs yet — n creates one, :cluster adopts a running application"), inner, body)...)
	case len(m.rows) == 0:
		lines = append(lines, kit.Centered(st.Dim.Render("no job matches — esc clears the filter"), inner, body)...)
	default:
		end := min(m.offset+body, len(m.rows))
		for i := m.offset; i < end; i++ {
			lines = append(lines, m.renderRow(m.rows[i], lay, i == m.cursor, inner))
		}
	}
	return kit.Box(st, title, note, lines, w, h)
}

// note is the right of the table's top edge: the sort (or that it is
// paused), the marks and the position. When the title leaves too little
// room, the sort label goes first, then the marks (the footer counts them
// too), then the position; "sort paused" stays while the order holds.
func (m *jobsScreen) note(titleWidth, inner int) string {
	st := m.env.Styles
	var parts [3]string // sort, marks, position
	switch {
	case m.held != nil:
		parts[0] = st.Warn.Render("sort paused")
	case m.sortCol != colName || m.sortDesc:
		parts[0] = st.Dim.Render("sort " + sortLabel(m.sortCol, m.sortDesc))
	}
	if n := len(m.marks); n > 0 {
		parts[1] = st.Mark.Render(fmt.Sprintf("✓ %d marked", n))
	}
	parts[2] = fmt.Sprintf("%d/%d", min(m.cursor+1, len(m.rows)), len(m.rows))
	join := func() string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, st.Border.Render(" ─ "))
	}
	room := inner - titleWidth - 4 // the spaces around the title and the note
	drop := []int{1, 2}
	if m.held == nil {
		drop = []int{0, 1, 2}
	}
	for _, i := range drop {
		if kit.Width(join()) <= room {
			break
		}
		parts[i] = ""
	}
	return join()
}

func sortLabel(c column, desc bool) string {
	arrow := "▲"
	if desc {
		arrow = "▼"
	}
	return jobColumns[c].title + arrow
}

func (m *jobsScreen) headerRow(lay layout) string {
	st := m.env.Styles
	cells := make([]string, 0, len(lay.cols))
	for _, c := range lay.cols {
		t := jobColumns[c].title
		if c == m.sortCol {
			t = sortLabel(c, m.sortDesc)
		}
		if jobColumns[c].right {
			cells = append(cells, kit.FitRight(t, lay.widths[c]))
		} else {
			cells = append(cells, kit.Fit(t, lay.widths[c]))
		}
	}
	return st.ColumnHeader.Render(strings.Join(cells, " "))
}

// renderRow renders one visible row: the cursor row is reversed as a whole,
// other rows colour only their state badge.
func (m *jobsScreen) renderRow(j *api.JobView, lay layout, isCursor bool, inner int) string {
	st := m.env.Styles
	cells := jobCells(j, m.env.Now)
	cells[colIn] = inCell(cells[colIn], lay.widths[colIn])
	var b strings.Builder
	switch {
	case isCursor:
		b.WriteString("▸")
	default:
		b.WriteString(" ")
	}
	mark := " "
	if m.marks[j.ID] {
		mark = "✓"
	}
	if !isCursor && mark != " " {
		mark = st.Mark.Render(mark)
	}
	b.WriteString(mark)
	b.WriteByte(' ')
	for i, c := range lay.cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		var cell string
		if jobColumns[c].right {
			cell = kit.FitRight(cells[c], lay.widths[c])
		} else {
			cell = kit.Fit(cells[c], lay.widths[c])
		}
		if c == colState && !isCursor {
			cell = st.JobState(j.State, j.FlinkState).Render(cell)
		}
		b.WriteString(cell)
	}
	if isCursor {
		return st.Cursor.Render(kit.Fit(b.String(), inner))
	}
	return b.String()
}
