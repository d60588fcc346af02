package jobs

import (
	"slices"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// What the root reads of the table: the header's counts, the footer's
// marks, the jobs on screen it declares to the service, and lookups by id
// or name for the screens and the `:` line.

// Job is the table's view of job id.
func (m *Screen) Job(id string) (api.JobView, bool) {
	if j, ok := m.byID[id]; ok {
		return *j, true
	}
	return api.JobView{}, false
}

// Find is a job named name, or whose id is name.
func (m *Screen) Find(name string) (api.JobView, bool) {
	for _, j := range m.byID {
		if j.Name == name || j.ID == name {
			return *j, true
		}
	}
	return api.JobView{}, false
}

// Names lists the jobs' names, sorted.
func (m *Screen) Names() []string {
	names := make([]string, 0, len(m.byID))
	for _, j := range m.byID {
		names = append(names, j.Name)
	}
	slices.Sort(names)
	return names
}

// Marked is how many jobs are marked.
func (m *Screen) Marked() int { return len(m.marks) }

// Loaded reports that the list has loaded.
func (m *Screen) Loaded() bool { return m.loaded }

// Counts are every job by state, for the header.
func (m *Screen) Counts() [NumStates]int { return m.counts }

// Scope is the cluster the table is narrowed to, "" for all.
func (m *Screen) Scope() string { return m.scope }

// Len is the number of rows the table shows.
func (m *Screen) Len() int { return len(m.rows) }

// OnScreen lists the ids of the rows on screen; false before the list
// has loaded.
func (m *Screen) OnScreen() ([]string, bool) {
	if !m.loaded {
		return nil, false
	}
	var ids []string
	end := min(m.offset+m.page(), len(m.rows))
	for _, j := range m.rows[min(m.offset, end):end] {
		ids = append(ids, j.ID)
	}
	return ids, true
}

// SetStyles restyles the filter field for a theme.
func (m *Screen) SetStyles(st *kit.Styles) { m.input.SetStyles(st.Input) }

// IsMarked reports that job id is marked.
func (m *Screen) IsMarked(id string) bool { return m.marks[id] }
