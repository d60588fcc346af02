package jobs

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// Screen is the default view: one table of the jobs of every cluster.
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
type Screen struct {
	index // the jobs, the rows, the counts (index.go)

	env *kit.Env

	queryText string
	queryErr  error
	filter    filterField

	cursor, offset int
	marks          map[string]bool

	dialogOpen bool // the root has a dialog over the table (HoldOrder)

	loads   kit.Refresher
	loadErr error

	width, height int
}

// NumStates sizes per-state counters (model.JobState values are small ints).
const NumStates = int(model.StateFailed) + 1

// rebuildNowBelow is the job count under which a change rebuilds the index at
// once; above it, changes within rebuildDelay are coalesced into one rebuild,
// so a burst of changes does not sort 100,000 rows per change.
const (
	rebuildNowBelow = 2000
	rebuildDelay    = 150 * time.Millisecond
)

type rebuildMsg struct{}

// New makes the table, scoped to a cluster or not; Load fills it.
func New(e *kit.Env, scope string) *Screen {
	return &Screen{
		index:  index{byID: map[string]*api.JobView{}, scope: scope, fits: typicalFits},
		env:    e,
		filter: newFilterField(e.Styles),
		marks:  map[string]bool{},
		loads:  kit.NewRefresher(e, func(seq int) tea.Cmd { return loadJobsCmd(call(e), seq) }),
	}
}

// Load asks for the job list (one load in flight at most).
func (m *Screen) Load() tea.Cmd { return m.loads.Refresh() }

// Title implements kit.Screen.
func (m *Screen) Title() string {
	if m.only != nil {
		return "Jobs " + m.onlyWhy
	}
	if m.scope != "" {
		return "Jobs @" + m.scope
	}
	return "Jobs · all clusters"
}

// Capturing implements kit.Screen.
func (m *Screen) Capturing() bool { return m.filter.active }

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding {
	if m.filter.active {
		return []key.Binding{m.env.Keys.Form.Confirm, m.env.Keys.Form.Cancel}
	}
	return shortHelp(m.env.Keys)
}

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// page is the number of table rows on screen.
func (m *Screen) page() int { return max(m.height-3, 1) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	cmd := m.update(msg)
	m.syncHold() // marks may have come or gone
	return m, cmd
}

func (m *Screen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.filter.fit(m.width)
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
		if m.filter.active {
			return m.filterKey(msg)
		}
		return m.key(msg)
	case tea.PasteMsg:
		if m.filter.active {
			cmd := m.filter.typed(msg, m.width)
			m.setQuery(m.filter.input.Value())
			return cmd
		}
	}
	return nil
}

// loaded_ takes a full job list.
func (m *Screen) loaded_(msg jobsLoadedMsg) tea.Cmd {
	current, again := m.loads.Done(msg.seq)
	if !current {
		return nil // an answer to a load that a newer one replaced
	}
	if msg.err != nil {
		m.loadErr = msg.err
		return tea.Batch(again, kit.FlashFor(loadKey, kit.FlashError, msg.err.Error()))
	}
	clearErr := kit.ClearFlash(loadKey) // the list loads again: its error is gone
	if m.loadErr == nil {
		clearErr = nil
	}
	m.loadErr = nil
	m.set(msg.jobs)
	for id := range m.marks {
		if _, ok := m.byID[id]; !ok {
			delete(m.marks, id)
		}
	}
	m.resort()
	return tea.Batch(again, clearErr)
}

// loadKey is the key of the flash of a failed load of the list.
const loadKey = "load:jobs"

func (m *Screen) applyChange(c api.Change) tea.Cmd {
	switch c.Kind {
	case api.JobChanged:
		if c.Job != nil {
			return m.upsert(*c.Job)
		}
	case api.Resync:
		return m.Load()
	}
	return nil
}

func (m *Screen) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Form.Confirm):
		m.filter.close(false)
		if m.queryText != "" {
			m.toFirst() // rows may have come and gone while it was typed
		}
		return nil
	case key.Matches(msg, k.Form.Cancel):
		m.filter.close(true)
		m.setQuery("")
		return nil
	}
	cmd := m.filter.typed(msg, m.width)
	if v := m.filter.input.Value(); v != m.queryText {
		m.setQuery(v)
	}
	return cmd
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	if kit.ListNav(k, msg, &m.cursor, len(m.rows), m.page()) {
		m.offset = kit.ScrollTo(m.cursor, m.offset, m.page(), len(m.rows))
		return nil
	}
	switch {
	case key.Matches(msg, k.Nav.Filter):
		return m.filter.open(m.queryText, m.width)
	case key.Matches(msg, k.Global.Back):
		// esc at the bottom of the stack clears, most recent first.
		switch {
		case m.queryText != "":
			m.filter.input.SetValue("")
			m.setQuery("")
		case m.only != nil:
			m.only, m.onlyWhy = nil, ""
			m.rebuild()
		case len(m.marks) > 0:
			clear(m.marks)
		}
		return nil
	case key.Matches(msg, k.Jobs.Mark):
		if j := m.Selected(); j != nil {
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
		// The next column on screen: only what is shown sorts.
		lay := m.layout()
		next := m.sortCol
		for range numCols {
			next = (next + 1) % numCols
			if lay.shown(next) {
				break
			}
		}
		return m.sortBy(next, jobColumns[next].desc)
	case key.Matches(msg, k.Jobs.SortReverse):
		return m.sortBy(m.sortCol, !m.sortDesc)
	case key.Matches(msg, k.Nav.Refresh):
		return m.Load()
	case key.Matches(msg, k.Jobs.Create):
		return kit.Send(kit.OpenCreateMsg{})
	}
	for c := range numCols {
		if b, ok := sortKey(&k, c); ok && key.Matches(msg, *b) {
			desc := jobColumns[c].desc
			if c == m.sortCol {
				desc = !m.sortDesc // again: the other way
			}
			return m.sortBy(c, desc)
		}
	}
	if why, ok := k.Refused(msg, kit.AllKeys.Sort.Bindings()...); ok {
		return kit.Flash(kit.FlashWarn, why)
	}
	j := m.Selected()
	if j == nil {
		if kit.IsActionKey(k, msg) || key.Matches(msg, k.Nav.Enter, k.Open.Describe, k.Open.RawJSON, k.Open.EditSQL, k.Open.Metrics, k.Open.Logs, k.Open.Exceptions, k.Open.MetricBrowser) {
			return kit.Flash(kit.FlashWarn, "no job selected")
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Nav.Enter):
		return kit.Send(kit.OpenDetailMsg{Job: *j})
	case key.Matches(msg, k.Open.Describe):
		return kit.Send(kit.OpenDetailMsg{Job: *j, Tab: "Overview"})
	case key.Matches(msg, k.Open.RawJSON):
		return kit.Send(kit.OpenRawMsg{Job: *j})
	case key.Matches(msg, k.Open.EditSQL):
		return kit.Send(kit.OpenEditorMsg{Job: *j})
	case key.Matches(msg, k.Open.Metrics):
		return kit.Send(kit.OpenDetailMsg{Job: *j, Tab: "Metrics"})
	case key.Matches(msg, k.Open.Logs):
		return kit.Send(kit.OpenDetailMsg{Job: *j, Tab: "Logs"})
	case key.Matches(msg, k.Open.MetricBrowser):
		return kit.Send(kit.OpenMetricsMsg{Job: *j, Scope: model.MetricScopeJob})
	case key.Matches(msg, k.Open.Exceptions):
		return kit.Send(kit.OpenDetailMsg{Job: *j, Tab: "Exceptions"})
	}
	if kind, ok := kit.ActionFor(k, msg, *j); ok {
		return kit.Send(kit.StartActionMsg{Kind: kind, Jobs: m.targets(m.marks, j)})
	}
	if why, ok := k.Refused(msg, kit.AllKeys.Action.Bindings()...); ok && why != "" {
		return kit.Flash(kit.FlashWarn, why)
	}
	return nil
}

// sortBy sorts the table by column c, and says so with the key that
// reverses it.
func (m *Screen) sortBy(c column, desc bool) tea.Cmd {
	m.sortCol, m.sortDesc = c, desc
	m.resortNow()
	again := "O"
	if b, ok := sortKey(&m.env.Keys, c); ok {
		again = b.Help().Key + " or O"
	}
	return kit.Flash(kit.FlashInfo, fmt.Sprintf("sorted by %s (%s reverses)", sortLabel(c, desc), again))
}

func loadJobsCmd(c kit.Call[Service], seq int) tea.Cmd {
	return func() tea.Msg {
		var jobs []api.JobView
		err := c.With(func(ctx context.Context) (err error) {
			jobs, err = c.Service.ListJobs(ctx, api.JobFilter{})
			return err
		})
		if err != nil {
			err = fmt.Errorf("list jobs: %w", err)
		}
		return jobsLoadedMsg{seq: seq, jobs: jobs, err: err}
	}
}

type jobsLoadedMsg struct {
	seq  int
	jobs []api.JobView
	err  error
}

// shortHelp is the footer's keys.
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Nav.Enter, k.Nav.Filter, k.Jobs.Mark, k.Action.Pause, k.Action.Kill, k.Action.Restart, k.Action.Resubmit, k.Action.Savepoint, k.Open.Metrics, k.Open.Logs}
}

// Help is the table's keys in groups, for its `?` help and the
// keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{
		append(k.Nav.Bindings(), k.Nav.Enter),
		{k.Nav.Filter, k.Jobs.Sort, k.Jobs.SortReverse, k.Jobs.Mark, k.Jobs.ClearMarks, k.Nav.Refresh},
		append(k.Action.Bindings(), k.Jobs.Create),
		{k.Open.Describe, k.Open.RawJSON, k.Open.EditSQL, k.Open.Metrics, k.Open.MetricBrowser, k.Open.Logs, k.Open.Exceptions},
		k.Sort.Bindings(),
	}
}

// UpdateKeys implements kit.KeyUpdater: a resubmit asks where each job
// restores from, so it takes one job, not several marked ones; and the
// actions core refuses for the selected job (or every marked one) are off,
// with core's reason.
func (m *Screen) UpdateKeys(k *kit.KeyMap) {
	if len(m.marks) > 1 {
		k.Block(&k.Action.Resubmit, kit.AllKeys.Action.Resubmit, "resubmit works on one job at a time: its restore point is chosen per job")
	}
	if j := m.Selected(); j != nil {
		k.BlockRefusedActions(m.targets(m.marks, j))
	}
	// Only the columns on screen sort.
	lay := m.layout()
	for c := range numCols {
		if b, ok := sortKey(k, c); ok && !lay.shown(c) && m.width > 0 {
			twin, _ := sortKey(&kit.AllKeys, c)
			k.Block(b, *twin, fmt.Sprintf("%s is not shown at this width: only the columns on screen sort (o cycles them)", jobColumns[c].title))
		}
	}
}
