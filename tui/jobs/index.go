package jobs

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// index is the table's data: every job by id and in sort order (all), the
// rows that the scope and the filter let through, in that order or, while
// it holds, in the order the operator saw (held), and the jobs by state.
// It has no cursor: rebuild returns the rows it replaced, so that the
// screen can keep its cursor on its job.
type index struct {
	byID map[string]*api.JobView
	all  []*api.JobView // every job, in the current sort order
	// byName is every job by name, then id: where each sort ends on ties,
	// kept so that a sort compares no strings (sorter).
	byName nameOrder
	sorter sorter
	rows   []*api.JobView // all, scoped and filtered
	counts [NumStates]int // all jobs by state, for the header
	// fits are the widths of the jobs' values, which size the fit
	// columns: measured at each full load and grown by each change, so
	// that a rebuild (a filter keystroke) costs no measuring and the
	// columns stay put while the operator filters and scrolls.
	fits fits
	// clusters are the clusters of the jobs, grown like fits: one
	// cluster's jobs need no CLUSTER column first.
	clusters map[string]bool
	loaded   bool

	scope    string          // a cluster name from `:jobs @NAME`, or "" for all
	only     map[string]bool // the jobs a screen narrowed the table to (Narrow), or nil
	onlyWhy  string          // which they are: "calling mask_pan"
	query    jobQuery
	sortCol  column
	sortDesc bool
	held     *heldOrder // the order on screen when it began to hold, or nil

	dirty         bool // rows are out of date
	rebuildQueued bool
}

// heldOrder is the order of every job as the table showed it when the
// order began to hold, by id: ids are what survive a reload.
type heldOrder struct {
	ids []string
	has map[string]bool
}

// count adds d to the jobs in state s.
func (x *index) count(s model.JobState, d int) {
	if int(s) >= 0 && int(s) < NumStates {
		x.counts[s] += d
	}
}

// set takes a full job list.
func (x *index) set(jobs []api.JobView) {
	x.loaded = true
	prev := x.byID
	x.byID = make(map[string]*api.JobView, len(jobs))
	x.counts = [NumStates]int{}
	if len(jobs) > 0 { // an empty table keeps its columns as they were
		x.fits = fits{}
		x.clusters = map[string]bool{}
	}
	for i := range jobs {
		j := &jobs[i]
		if old, ok := prev[j.ID]; ok {
			holdFigures(old, j)
		}
		x.byID[j.ID] = j
		x.count(j.State, 1)
		x.fits.grow(measure(j))
		x.clusters[j.Cluster] = true
	}
	// In the list's order, which is the order in memory, skipping an id
	// the list repeats (the last one holds, as in byID).
	byName := make([]*api.JobView, 0, len(x.byID))
	for i := range jobs {
		if j := &jobs[i]; x.byID[j.ID] == j {
			byName = append(byName, j)
		}
	}
	x.byName = newNameOrder(byName)
}

// oneCluster reports a table of one cluster's jobs: scoped to it, or the
// jobs are all on one.
func (x *index) oneCluster() bool { return x.scope != "" || len(x.clusters) <= 1 }

// holdFigures keeps the figures a row shows when a new view of the same
// running application carries none. The service measures only the jobs on
// screen, and a view made while the row was off screen (the operator was
// in a job's detail) has no figures until the next collection: the row
// keeps its sparkline meanwhile, dimmed once it is old (staleFigures),
// rather than going blank.
func holdFigures(old, v *api.JobView) {
	if v.Figures.At.IsZero() && !old.Figures.At.IsZero() &&
		v.State == model.StateRunning && old.State == model.StateRunning && v.AppID == old.AppID {
		v.Figures = old.Figures
	}
}

// put applies one job's new state. A job that keeps its place is updated
// where it is; otherwise it moves within the sorted list. It reports that
// the rows are out of date.
func (x *index) put(v api.JobView) bool {
	less := lessFunc(x.sortCol, x.sortDesc)
	old, ok := x.byID[v.ID]
	if ok {
		holdFigures(old, &v)
		x.fits.grow(measure(&v))
		x.addCluster(v.Cluster)
		x.count(old.State, -1)
		x.count(v.State, 1)
		wasIn, isIn := x.inView(old), x.inView(&v)
		if less(old, &v) != 0 { // a rename is always a move
			if i, found := slices.BinarySearchFunc(x.all, old, less); found {
				x.all = slices.Delete(x.all, i, i+1)
			}
			renamed := old.Name != v.Name
			if renamed {
				x.byName.unplace(old)
			}
			*old = v
			i, _ := slices.BinarySearchFunc(x.all, old, less)
			x.all = slices.Insert(x.all, i, old)
			if renamed {
				x.byName.place(old)
			}
		} else {
			*old = v
			if wasIn == isIn {
				return false // same place, same visibility: the row shows the new data as it is
			}
		}
		if !wasIn && !isIn {
			return false
		}
	} else {
		nv := v
		x.fits.grow(measure(&nv))
		x.addCluster(v.Cluster)
		x.byID[v.ID] = &nv
		x.count(v.State, 1)
		i, _ := slices.BinarySearchFunc(x.all, &nv, less)
		x.all = slices.Insert(x.all, i, &nv)
		x.byName.place(&nv)
		if !x.inView(&nv) {
			return false
		}
	}
	x.dirty = true
	return true
}

func (x *index) addCluster(name string) {
	if x.clusters == nil {
		x.clusters = map[string]bool{}
	}
	x.clusters[name] = true
}

// upsert applies one job's new state; when the rows change, they are
// rebuilt, at once for small tables and coalesced for large ones.
func (m *Screen) upsert(v api.JobView) tea.Cmd {
	if !m.put(v) {
		return nil
	}
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

func (x *index) inView(j *api.JobView) bool {
	return (x.scope == "" || j.Cluster == x.scope) && (x.only == nil || x.only[j.ID]) && x.query.match(j)
}

// sortAll sorts every job by the current column.
func (x *index) sortAll() {
	// The sorted jobs before are not referred to once replaced: their
	// array takes the new order.
	x.all = x.sorter.sort(x.all[:0], x.byName, x.sortCol, x.sortDesc)
}

// resort sorts every job by the current column, then rebuilds the rows.
func (m *Screen) resort() {
	m.sortAll()
	m.rebuild()
}

// resortNow applies a sort the operator asked for, even while the order
// holds: the rows move because they said so, and the new order holds.
func (m *Screen) resortNow() {
	held := m.held != nil
	m.held = nil
	m.resort()
	if held {
		m.held = m.orderOnScreen()
	}
}

// rebuildRows recomputes the rows from the sorted jobs — one pass, no sort — or,
// while the order holds, from the held order, and returns the rows it
// replaced.
func (x *index) rebuildRows() (prev []*api.JobView) {
	prev = x.rows
	rows := make([]*api.JobView, 0, len(x.rows))
	if x.held != nil {
		for _, id := range x.held.ids {
			if j, ok := x.byID[id]; ok && x.inView(j) {
				rows = append(rows, j)
			}
		}
	}
	for _, j := range x.all {
		// Held, a job new to the table goes after the held ones.
		if (x.held == nil || !x.held.has[j.ID]) && x.inView(j) {
			rows = append(rows, j)
		}
	}
	x.rows = rows
	x.dirty = false
	return prev
}

// rebuild recomputes the rows and keeps the cursor on the same job
// (followCursor).
func (m *Screen) rebuild() {
	prev := m.rebuildRows()
	m.cursor = followCursor(prev, m.cursor, m.rows)
	m.offset = kit.ScrollTo(m.cursor, m.offset, m.page(), len(m.rows))
}

// followCursor is where the cursor goes when the rows change from prev to
// rows: it follows its job (kit.Follow).
func followCursor(prev []*api.JobView, cursor int, rows []*api.JobView) int {
	if cursor >= 0 && cursor < len(prev) {
		// The same job, when no full load came between: a scan of
		// pointers, not of ids (a sort of 100,000 rows does this).
		if i := slices.Index(rows, prev[cursor]); i >= 0 {
			return i
		}
	}
	return kit.Follow(prev, cursor, rows, func(j *api.JobView) string { return j.ID })
}

// toFirst puts the cursor on the first row: a new filter or scope shows a
// new list, and the first match is what the operator acts on next.
func (m *Screen) toFirst() {
	m.cursor, m.offset = 0, 0
}

// HoldOrder tells the table whether a dialog is open over it (the root
// calls it after every message).
func (m *Screen) HoldOrder(dialogOpen bool) {
	m.dialogOpen = dialogOpen
	m.syncHold()
}

// syncHold starts holding the order when the operator begins to choose
// (a mark, a dialog), and lets it catch up when they are done.
func (m *Screen) syncHold() {
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
func (x *index) orderOnScreen() *heldOrder {
	shown := make(map[string]bool, len(x.rows))
	for _, j := range x.rows {
		shown[j.ID] = true
	}
	h := &heldOrder{ids: make([]string, 0, len(x.all)), has: make(map[string]bool, len(x.all))}
	next := 0
	for _, j := range x.all {
		id := j.ID
		if shown[id] && next < len(x.rows) {
			id = x.rows[next].ID // a shown job's place takes the next row as shown
			next++
		}
		h.ids = append(h.ids, id)
		h.has[id] = true
	}
	return h
}

// Selected is the job under the cursor, or nil.
func (m *Screen) Selected() *api.JobView {
	if m.cursor >= 0 && m.cursor < len(m.rows) {
		return m.rows[m.cursor]
	}
	return nil
}

// SetScope narrows the table to a cluster ("" for all), cursor on the
// first row; it ends a Narrow.
func (m *Screen) SetScope(cluster string) {
	m.scope, m.only, m.onlyWhy = cluster, nil, ""
	m.rebuild()
	m.toFirst()
}

// Narrow shows only the jobs ids, of every cluster, with no filter: why
// says which they are, in the title ("calling mask_pan"). esc ends it.
func (m *Screen) Narrow(why string, ids []string) {
	m.only = make(map[string]bool, len(ids))
	for _, id := range ids {
		m.only[id] = true
	}
	m.onlyWhy, m.scope = why, ""
	m.filter.input.SetValue("")
	m.setQuery("")
	m.rebuild()
	m.toFirst()
}

// setQuery applies a filter and puts the cursor on its first match.
// Clearing the filter keeps the cursor on its job: it was a match, and it
// is still there.
func (m *Screen) setQuery(s string) {
	m.queryText = s
	m.query, m.queryErr = parseQuery(s)
	m.rebuild()
	if s != "" {
		m.toFirst()
	}
}

// targets are the marked jobs, or the selected one when none is
// marked: copies, taken now, which the action carries by id to Plan, the
// dialog and Act, whatever the table does meanwhile. Marked rows come in
// the order the table shows them, then the marked jobs the filter hides
// (they still count: the user marked them) in sort order.
func (x *index) targets(marks map[string]bool, sel *api.JobView) []api.JobView {
	if len(marks) == 0 {
		return []api.JobView{*sel}
	}
	var out []api.JobView
	for _, j := range x.rows {
		if marks[j.ID] {
			out = append(out, *j)
		}
	}
	for _, j := range x.all {
		if marks[j.ID] && !x.inView(j) {
			out = append(out, *j)
		}
	}
	return out
}
