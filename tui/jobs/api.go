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
func (x *index) Job(id string) (api.JobView, bool) {
	if j, ok := x.byID[id]; ok {
		return *j, true
	}
	return api.JobView{}, false
}

// Find is a job named name, or whose id is name.
func (x *index) Find(name string) (api.JobView, bool) {
	for _, j := range x.byID {
		if j.Name == name || j.ID == name {
			return *j, true
		}
	}
	return api.JobView{}, false
}

// Names lists the jobs' names, sorted.
func (x *index) Names() []string {
	names := make([]string, 0, len(x.byID))
	for _, j := range x.byID {
		names = append(names, j.Name)
	}
	slices.Sort(names)
	return names
}

// Marked is how many jobs are marked.
func (m *Screen) Marked() int { return len(m.marks) }

// Loaded reports that the list has loaded.
func (x *index) Loaded() bool { return x.loaded }

// Counts are every job by state, for the header.
func (x *index) Counts() [NumStates]int { return x.counts }

// Scope is the cluster the table is narrowed to, "" for all.
func (x *index) Scope() string { return x.scope }

// Len is the number of rows the table shows.
func (x *index) Len() int { return len(x.rows) }

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
func (m *Screen) SetStyles(st *kit.Styles) { m.filter.input.SetStyles(st.Input) }

// IsMarked reports that job id is marked.
func (m *Screen) IsMarked(id string) bool { return m.marks[id] }
