package detail

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// taskManagersTab is the TaskManagers tab: the job's Flink cluster's
// TaskManagers, one a row, with slots, memory, CPU and garbage
// collection; enter opens one (its thread dump and log), c the Flink
// configuration. Fetched when shown, as the Graph tab is.
type taskManagersTab struct {
	env           *kit.Env
	live          *diagFetch[api.TaskManagerList]
	cur           kit.List
	width, height int
}

func newTaskManagersTab(e *kit.Env, call func() kit.Call[Service]) *taskManagersTab {
	return &taskManagersTab{env: e, live: newDiagFetch(e, call, "TaskManagers", api.DiagnoseService.TaskManagers)}
}

func (t *taskManagersTab) Title() string   { return "TaskManagers" }
func (t *taskManagersTab) Capturing() bool { return false }

func (t *taskManagersTab) ShortHelp() []key.Binding {
	k := t.env.Keys
	return []key.Binding{k.Diag.OpenTaskManager, k.Diag.Config}
}

func (t *taskManagersTab) shown(d *jobData) tea.Cmd   { return t.live.show(d.job) }
func (t *taskManagersTab) refresh(d *jobData) tea.Cmd { return t.live.show(d.job) }

// page is the rows on screen: under the summary and the heading.
func (t *taskManagersTab) page() int { return max(t.height-3, 1) }

func (t *taskManagersTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		t.width, t.height = msg.Width, msg.Height
	case diagFetchedMsg[api.TaskManagerList]:
		_, next := t.live.take(msg)
		return t, next
	case tea.KeyPressMsg:
		k := t.env.Keys
		if key.Matches(msg, k.Diag.Config) {
			return t, kit.Send(kit.OpenDiagMsg{View: kit.DiagConfig, Job: t.live.job})
		}
		l := t.live.got
		if l == nil || len(l.TaskManagers) == 0 {
			return t, nil
		}
		n := len(l.TaskManagers)
		if t.cur.Key(k, msg, n, t.page()) {
			return t, nil
		}
		if key.Matches(msg, k.Diag.OpenTaskManager) {
			t.cur.Fit(n, t.page())
			return t, kit.Send(kit.OpenDiagMsg{View: kit.DiagTaskManager, Job: t.live.job, TaskManager: l.TaskManagers[t.cur.Cursor].ID})
		}
	}
	return t, nil
}

// TaskManagerRows renders the TaskManagers as the tab's table: a heading
// and one row each, every row w cells at most, a cell's gutter before
// each (the cursor's mark goes there). Pure, for the tests.
func TaskManagerRows(st *kit.Styles, tms []api.TaskManagerInfo, w int) (head string, rows []string) {
	cols := taskManagerColumns(w >= 110)
	lay := cols.Lay(tms, w-1)
	head = st.ColumnHeader.Render(kit.Truncate(" "+cols.Titles(lay), w))
	for _, tm := range tms {
		rows = append(rows, kit.Truncate(" "+cols.Cells(nil, lay, tm), w))
	}
	return head, rows
}

// taskManagerColumns are the TaskManagers' columns; a wide tab has the
// room for the container's whole id and how full the heap is.
func taskManagerColumns(wide bool) kit.Columns[api.TaskManagerInfo] {
	type tm = api.TaskManagerInfo
	id, host, slots, heap, cpu := 14, 10, 8, 7, 3
	heapHead := "HEAP"
	if wide {
		id, host, slots, heap, cpu = 42, 12, 9, 14, 4
		heapHead = "HEAP, USED"
	}
	return kit.Columns[tm]{
		{Title: "TASKMANAGER", Width: id, Cell: func(t tm) string {
			if wide {
				return t.ID
			}
			return kit.ContainerShort(t.ID)
		}},
		{Title: "HOST", Width: host, Cell: func(t tm) string { return t.Host }},
		{Title: "SLOTS", Width: slots, Cell: func(t tm) string { return fmt.Sprintf("%d/%d free", t.FreeSlots, t.Slots) }},
		{Title: heapHead, Width: heap, Right: !wide, Cell: func(t tm) string {
			heap := kit.Bytes(t.HeapMax)
			if wide && t.Detailed && t.HeapMax > 0 {
				heap += " " + kit.Percent(float64(t.HeapUsed)/float64(t.HeapMax))
			}
			return heap
		}},
		{Title: "MANAGED", Width: 9, Right: true, Cell: func(t tm) string { return kit.Bytes(t.ManagedMemory) }},
		{Title: "NETWORK", Width: 9, Right: true, Cell: func(t tm) string { return kit.Bytes(t.NetworkMemory) }},
		{Title: "CPU", Width: cpu, Right: true, Cell: func(t tm) string { return fmt.Sprint(t.CPUCores) }},
		{Title: "GC", Cell: func(t tm) string {
			if !t.Detailed {
				return kit.NoValue
			}
			return fmt.Sprintf("%d · %s", t.GCCount, kit.Duration(t.GCTime))
		}},
	}
}

func (t *taskManagersTab) View(d *jobData) string {
	st := t.env.Styles
	if text, show := t.live.placeholder(st, t.width, t.height, "fetching the TaskManagers…", "ctrl+r retries · c shows the Flink configuration"); show {
		return text
	}
	l := t.live.got
	sum := fmt.Sprintf("%s · slots %d free of %d", kit.Plural(len(l.TaskManagers), "TaskManager"), l.SlotsFree, l.SlotsTotal)
	if l.AppID != "" {
		sum += " · " + l.AppID
	}
	lines := []string{" " + st.Section.Render(sum)}
	if err := t.live.err; err != nil {
		lines[0] += st.Error.Render(" · ✖ not current: " + err.Error())
	}
	for _, n := range l.Notes {
		lines[0] += st.Warn.Render(" · ⚠ " + n)
	}
	if len(l.TaskManagers) == 0 {
		return strings.Join(append(lines, " "+st.Dim.Render("no TaskManagers registered")), "\n")
	}
	head, rows := TaskManagerRows(st, l.TaskManagers, t.width)
	lines = append(lines, head)
	t.cur.Fit(len(rows), t.page())
	for i := t.cur.Offset; i < min(t.cur.Offset+t.page(), len(rows)); i++ {
		r := rows[i]
		if i == t.cur.Cursor {
			r = st.Cursor.Render(kit.Fit("▸"+strings.TrimPrefix(r, " "), t.width))
		}
		lines = append(lines, r)
	}
	return strings.Join(lines, "\n")
}
