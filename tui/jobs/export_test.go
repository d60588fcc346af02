package jobs

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
)

// What the tests of package jobs_test look at.

// Column is a column of the table.
type Column = column

// The columns.
const (
	ColName  = colName
	ColState = colState
	ColUp    = colUp
	ColIn    = colIn
	ColOut   = colOut
	ColBP    = colBP
	ColLag   = colLag
	ColApp   = colApp
	ColKind  = colKind
	ColRst   = colRestarts
	NumCols  = numCols
)

// ColTitle is a column's heading.
func ColTitle(c Column) string { return jobColumns[c].title }

// RebuildMsg is the coalesced rebuild's timer; RebuildNowBelow the job
// count under which changes rebuild at once.
type RebuildMsg = rebuildMsg

const RebuildNowBelow = rebuildNowBelow

// LoadedMsg is the answer of load seq.
func LoadedMsg(seq int, jobs []api.JobView) tea.Msg { return jobsLoadedMsg{seq: seq, jobs: jobs} }

func (m *Screen) Rows() []*api.JobView        { return m.rows }
func (m *Screen) ByID(id string) *api.JobView { return m.byID[id] }
func (m *Screen) QueryText() string           { return m.queryText }
func (m *Screen) Marks() map[string]bool      { return m.marks }
func (m *Screen) SortCol() Column             { return m.sortCol }
func (m *Screen) SortDesc() bool              { return m.sortDesc }
func (m *Screen) Cursor() int                 { return m.cursor }
func (m *Screen) Offset() int                 { return m.offset }
func (m *Screen) Page() int                   { return m.page() }
func (m *Screen) Dirty() bool                 { return m.dirty }
func (m *Screen) Held() bool                  { return m.held != nil }
func (m *Screen) LoadSeq() int                { return m.loads.Seq() }
func (m *Screen) SetQuery(s string)           { m.setQuery(s) }

// FreshIndex is what the index must be: every job filtered and sorted
// from scratch, and a recount of the states.
func (m *Screen) FreshIndex() ([]*api.JobView, [NumStates]int) {
	var want []*api.JobView
	var counts [NumStates]int
	for _, j := range m.byID {
		counts[j.State]++
		if m.inView(j) {
			want = append(want, j)
		}
	}
	slices.SortFunc(want, lessFunc(m.sortCol, m.sortDesc))
	return want, counts
}
