package diagnose

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// TaskManager is one TaskManager in depth: slots, memory used and
// configured, garbage collectors, its jobs. t fetches its thread dump and
// has the root show it in the log viewer (searchable, as a log is), l opens its log,
// c the Flink configuration.
type TaskManager struct {
	env *kit.Env
	job api.JobView
	id  string
	loadState
	tm            *api.TaskManagerDetail
	dumping       bool
	pager         kit.Pager
	width, height int
}

// NewTaskManager opens TaskManager id of job j's cluster; its Cmd
// fetches it.
func NewTaskManager(e *kit.Env, j api.JobView, id string) (*TaskManager, tea.Cmd) {
	m := &TaskManager{env: e, job: j, id: id, pager: kit.NewPager()}
	m.start(e)
	m.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return loadTaskManagerCmd(m.call(e), j.ID, j.Name, id, false, seq) })
	return m, m.loads.Refresh()
}

type taskManagerLoadedMsg struct {
	jobID, id string
	seq       int
	dump      bool
	tm        api.TaskManagerDetail
	err       error
}

func loadTaskManagerCmd(c kit.Call[Service], jobID, jobName, id string, dump bool, seq int) tea.Cmd {
	what := fmt.Sprintf("TaskManager %s of %s", id, jobName)
	if dump {
		what = "thread dump of " + what
	}
	return func() tea.Msg {
		d, err := kit.Diagnose(c, what, func(ctx context.Context, d api.DiagnoseService) (api.TaskManagerDetail, error) {
			return d.TaskManager(ctx, api.TaskManagerRequest{JobRef: jobID, ID: id, ThreadDump: dump})
		})
		return taskManagerLoadedMsg{jobID: jobID, id: id, seq: seq, dump: dump, tm: d, err: err}
	}
}

// Title implements kit.Screen.
func (m *TaskManager) Title() string {
	return m.job.Name + " · TaskManager " + kit.ContainerShort(m.id)
}

// Capturing implements kit.Screen.
func (m *TaskManager) Capturing() bool { return false }

// ShortHelp implements kit.Screen.
func (m *TaskManager) ShortHelp() []key.Binding {
	k := m.env.Keys
	return []key.Binding{k.Diag.ThreadDump, k.Diag.TaskManagerLog, k.Diag.Config, k.Open.MetricBrowser, k.Nav.Refresh}
}

// FullHelp implements kit.Screen.
func (m *TaskManager) FullHelp() [][]key.Binding { return TaskManagerHelp(m.env.Keys) }

// Update implements kit.Screen.
func (m *TaskManager) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.pager.SetSize(msg.Width, max(msg.Height-1, 1))
	case taskManagerLoadedMsg:
		if msg.jobID != m.job.ID || msg.id != m.id {
			return m, nil
		}
		if msg.dump {
			return m, m.dumped(msg)
		}
		ok, next := m.done(msg.seq, msg.err)
		if ok && msg.err == nil {
			tm := msg.tm
			m.tm = &tm
		}
		return m, next
	case tea.KeyPressMsg:
		k := m.env.Keys
		switch {
		case key.Matches(msg, k.Nav.Refresh):
			return m, m.loads.Refresh()
		case key.Matches(msg, k.Diag.ThreadDump):
			if m.dumping {
				return m, nil
			}
			m.dumping = true
			return m, kit.Busy("dump:"+m.id, "taking a thread dump of "+kit.ContainerShort(m.id)+"…",
				loadTaskManagerCmd(m.call(m.env), m.job.ID, m.job.Name, m.id, true, m.env.NextSeq()))
		case key.Matches(msg, k.Diag.TaskManagerLog):
			return m, kit.Send(kit.OpenLogMsg{JobID: m.job.ID, JobName: m.job.Name, Source: TaskManagerLog(m.id)})
		case key.Matches(msg, k.Diag.Config):
			return m, kit.Send(kit.OpenDiagMsg{View: kit.DiagConfig, Job: m.job})
		case key.Matches(msg, k.Open.MetricBrowser):
			return m, kit.Send(kit.OpenMetricsMsg{Job: m.job, Scope: model.MetricScopeTaskManager, TaskManager: m.id})
		}
		m.pager.Key(k.Nav, msg)
	}
	return m, nil
}

// TaskManagerLog is the log source of a TaskManager's main log.
func TaskManagerLog(id string) api.LogSource {
	return api.LogSource{Kind: api.LogTaskManager, Ref: api.LogRef{TaskManager: id}, Title: "TaskManager " + id + " log", Size: -1}
}

// dumped shows a thread dump in the log viewer, or says why there is none.
func (m *TaskManager) dumped(msg taskManagerLoadedMsg) tea.Cmd {
	m.dumping = false
	key := "dump:" + m.id
	if msg.err != nil {
		return kit.FlashFor(key, kit.FlashError, msg.err.Error())
	}
	if msg.tm.ThreadDump == nil {
		return kit.FlashFor(key, kit.FlashWarn, "TaskManager "+kit.ContainerShort(m.id)+" sent no thread dump")
	}
	title := fmt.Sprintf("thread dump of TaskManager %s (%s)", m.id, kit.Plural(len(msg.tm.ThreadDump.Threads), "thread"))
	if msg.tm.ThreadDump.Truncated {
		title += ", cut at " + kit.Bytes(msg.tm.ThreadDump.Bytes)
	}
	return tea.Batch(kit.ClearFlash(key), kit.Send(kit.OpenTextLogMsg{JobID: m.job.ID, JobName: m.job.Name, Title: title, Text: []byte(ThreadDumpText(msg.tm.ThreadDump))}))
}

// ThreadDumpText prints a thread dump as jstack does: each thread's
// stack, a blank line between.
func ThreadDumpText(d *api.ThreadDump) string {
	var b strings.Builder
	for _, t := range d.Threads {
		text := strings.TrimRight(t.Text, "\n")
		if text == "" {
			text = fmt.Sprintf("%q %s", t.Name, t.State)
		}
		b.WriteString(text)
		b.WriteString("\n\n")
	}
	return b.String()
}

// TaskManagerLines are the facts of a TaskManager, for its view. Pure,
// for the tests.
func TaskManagerLines(st *kit.Styles, tm *api.TaskManagerDetail, w int) []string {
	kv := func(k, v string) string { return " " + st.Label.Render(fmt.Sprintf("%-12s", k)) + " " + v }
	used := func(u, of int64) string {
		if of <= 0 {
			return kit.Bytes(u)
		}
		return fmt.Sprintf("%s of %s (%s)", kit.Bytes(u), kit.Bytes(of), kit.Percent(float64(u)/float64(of)))
	}
	out := []string{
		" " + st.Section.Render("TaskManager"),
		kv("id", tm.ID),
		kv("host", kit.OrDash(tm.Host)),
		kv("slots", fmt.Sprintf("%d free of %d · %s", tm.FreeSlots, tm.Slots, kit.Plural(tm.CPUCores, "CPU core"))),
		kv("jobs", kit.OrDash(strings.Join(tm.Jobs, ", "))),
		"",
		" " + st.Section.Render("Memory"),
		kv("heap", used(tm.HeapUsed, tm.HeapMax)),
		kv("non-heap", kit.Bytes(tm.NonHeapUsed)),
		kv("direct", kit.Bytes(tm.DirectUsed)),
		kv("network", used(tm.NetworkUsed, tm.NetworkTotal)),
		kv("managed", kit.Bytes(tm.ManagedMemory)),
	}
	if len(tm.Memory) > 0 {
		keys := slices.Sorted(maps.Keys(tm.Memory))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + " " + kit.Bytes(tm.Memory[k])
		}
		// Flink's memory model has a dozen parts: they flow over lines
		// under their label rather than being cut.
		for i, l := range kit.Flow(parts, " · ", max(w-15, 20)) {
			label := ""
			if i == 0 {
				label = "configured"
			}
			out = append(out, kv(label, st.Dim.Render(l)))
		}
	}
	out = append(out, "", " "+st.Section.Render("Garbage collection"))
	gcs := slices.Clone(tm.GarbageCollectors)
	slices.SortStableFunc(gcs, func(a, b api.GarbageCollector) int { return cmp.Compare(b.Time, a.Time) })
	for _, g := range gcs {
		out = append(out, " "+st.Label.Render(fmt.Sprintf("%-20s", kit.Truncate(g.Name, 20)))+" "+fmt.Sprintf("%d collections · %s", g.Count, kit.Duration(g.Time)))
	}
	if len(gcs) == 0 {
		out = append(out, kv("total", fmt.Sprintf("%d collections · %s", tm.GCCount, kit.Duration(tm.GCTime))))
	}
	for _, n := range tm.Notes {
		out = append(out, " "+st.Warn.Render("⚠ "+n))
	}
	return out
}

// View implements kit.Screen.
func (m *TaskManager) View() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	title := " " + st.Title.Render("TaskManager "+m.id)
	if m.tm == nil {
		return placeholder(st, title, m.loads.Busy(), m.err, "fetching the TaskManager…", w, h)
	}
	title += st.Dim.Render(" · heartbeat " + kit.Ago(m.env.Now, m.tm.Heartbeat))
	if m.tm.Blocked {
		title += st.Warn.Render(" · blocked")
	}
	title += statusNote(st, m.loads.Busy(), m.err, nil)
	lines := TaskManagerLines(st, m.tm, w)
	m.pager.SetLines(lines)
	from, to := m.pager.Window(len(lines))
	return kit.Fit(title, w) + "\n" + kit.PadLines(strings.Join(lines[from:to], "\n"), w, h-1)
}
