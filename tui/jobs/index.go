package jobs

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// heldOrder is the order of every job as the table showed it when the
// order began to hold, by id: ids are what survive a reload.
type heldOrder struct {
	ids []string
	has map[string]bool
}

func (m *Screen) count(s model.JobState, d int) {
	if int(s) >= 0 && int(s) < NumStates {
		m.counts[s] += d
	}
}

// upsert applies one job's new state. A job that keeps its place in the
// index is updated where it is; otherwise it moves within the sorted list
// and the index is rebuilt, at once for small tables and coalesced for
// large ones.
func (m *Screen) upsert(v api.JobView) tea.Cmd {
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

func (m *Screen) inView(j *api.JobView) bool {
	return (m.scope == "" || j.Cluster == m.scope) && m.query.match(j)
}

// resort sorts every job by the current column, then rebuilds the index.
func (m *Screen) resort() {
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
func (m *Screen) resortNow() {
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
func (m *Screen) rebuild() {
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
func (m *Screen) orderOnScreen() *heldOrder {
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

// Selected is the job under the cursor, or nil.
func (m *Screen) Selected() *api.JobView {
	if m.cursor >= 0 && m.cursor < len(m.rows) {
		return m.rows[m.cursor]
	}
	return nil
}

// SetScope narrows the table to a cluster ("" for all), cursor on the
// first row.
func (m *Screen) SetScope(cluster string) {
	m.scope = cluster
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
