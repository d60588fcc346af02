package cluster

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Screen is `:cluster`: one cluster's YARN metrics and queues, and
// the Flink applications on it that palink does not manage yet, which `a`
// adopts: the one under the cursor, or all those marked (marks.go).
type Screen struct {
	env   *kit.Env
	names []string
	name  string
	ov    *api.ClusterOverview

	apps  kit.Table[api.Application] // the unmanaged ones
	marks map[string]bool            // the applications marked, by id
	// adopted are the applications adopted since the list was loaded, by
	// id, with their jobs' names: their rows go at the next load.
	adopted       map[string]string
	planSeq       int // the dry run awaited (plan)
	width, height int
}

// New opens cluster name's view (names are every cluster, for ] and [);
// its Cmd loads the overview.
func New(e *kit.Env, names []string, name string) (*Screen, tea.Cmd) {
	m := &Screen{env: e, names: names, name: name, marks: map[string]bool{}, adopted: map[string]string{}}
	m.apps = kit.NewTable(e, kit.TableOf[api.Application]{
		Key:    "load:cluster",
		Load:   func(seq int) tea.Cmd { return loadOverviewCmd(call(e), m.name, seq) },
		ID:     func(a api.Application) string { return a.ID },
		Page:   func() int { return 5 },
		Filter: "application, name, user, queue",
		Match:  func(a api.Application) []string { return []string{a.ID, a.Name, a.User, a.Queue, a.State} },
		Noun:   "application",
	})
	return m, m.load()
}

func (m *Screen) load() tea.Cmd { return m.apps.Refresh() }

// Title implements kit.Screen.
func (m *Screen) Title() string { return "Cluster " + m.name }

// Capturing implements kit.Screen: the filter's prompt has the keyboard.
func (m *Screen) Capturing() bool { return m.apps.Capturing() }

// Back implements kit.Backer: esc clears a filter, then the marks, before
// it leaves.
func (m *Screen) Back() (tea.Cmd, bool) {
	if cmd, ok := m.apps.Back(); ok {
		return cmd, true
	}
	if len(m.marks) > 0 {
		clear(m.marks)
		return nil, true
	}
	return nil, false
}

// ShortHelp implements kit.Screen.
func (m *Screen) ShortHelp() []key.Binding { return m.apps.ShortHelp(shortHelp(m.env.Keys)...) }

// FullHelp implements kit.Screen.
func (m *Screen) FullHelp() [][]key.Binding { return Help(m.env.Keys) }

// Update implements kit.Screen.
func (m *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case overviewLoadedMsg:
		if msg.cluster != m.name {
			return m, nil
		}
		keep, cmd := m.apps.Loaded(msg.seq, msg.ov.Unmanaged, msg.err)
		if keep {
			ov := msg.ov
			m.ov = &ov
			m.loadedApps()
		}
		return m, cmd
	case plannedMsg:
		return m, m.planned(msg)
	case kit.AdoptedAllMsg:
		return m, m.adoptedAll(msg)
	case kit.ChangeMsg:
		if c := msg.Change; (c.Kind == api.ClusterChanged && c.Cluster != nil && c.Cluster.Name == m.name) || c.Kind == api.Resync {
			return m, m.load()
		}
	case kit.AdoptedMsg:
		if msg.Err == nil && msg.Req.Cluster == m.name {
			m.adopted[msg.Req.AppID] = msg.Job.Name
			delete(m.marks, msg.Req.AppID)
			return m, m.load()
		}
	case tea.KeyPressMsg, tea.PasteMsg:
		if cmd, ok := m.apps.Update(msg, m.width); ok {
			return m, cmd
		}
		if kp, ok := msg.(tea.KeyPressMsg); ok {
			return m, m.key(kp)
		}
	}
	return m, nil
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Cluster.Next), key.Matches(msg, k.Cluster.Prev):
		if len(m.names) < 2 {
			return nil
		}
		step := 1
		if key.Matches(msg, k.Cluster.Prev) {
			step = len(m.names) - 1
		}
		i := max(slices.Index(m.names, m.name), 0)
		m.name = m.names[(i+step)%len(m.names)]
		m.ov = nil
		m.apps.Reset() // the answer for the old cluster is dropped
		clear(m.marks) // marks are of one cluster's applications
		clear(m.adopted)
		return m.load()
	case key.Matches(msg, k.Cluster.Mark):
		return m.mark()
	case key.Matches(msg, k.Cluster.MarkAll):
		return m.markAll()
	case key.Matches(msg, k.Cluster.ClearMarks):
		clear(m.marks)
		return nil
	case key.Matches(msg, k.Cluster.Adopt):
		if len(m.marks) > 0 {
			return m.plan()
		}
		if a, ok := m.apps.Selected(); ok {
			if job, ok := m.adopted[a.ID]; ok {
				return kit.Flash(kit.FlashWarn, fmt.Sprintf("adopt: %s is job %s's already", a.ID, job))
			}
			return kit.Send(kit.AdoptMsg{Cluster: m.name, App: a})
		}
	case key.Matches(msg, k.Cluster.Nodes):
		s, init := NewNodes(m.env, m.name)
		return kit.Send(kit.PushMsg{Screen: s, Init: init})
	}
	if why, ok := k.Refused(msg, kit.AllKeys.Cluster.Adopt, kit.AllKeys.Cluster.Mark, kit.AllKeys.Cluster.MarkAll); ok {
		return kit.Flash(kit.FlashWarn, why)
	}
	return nil
}

// UpdateKeys implements kit.KeyUpdater: with no application to adopt, a
// and the marks say so instead; x shows only with marks to clear.
func (m *Screen) UpdateKeys(k *kit.KeyMap) {
	if len(m.apps.Rows()) == 0 && len(m.marks) == 0 {
		why := "no unmanaged Flink application on " + m.name
		k.Block(&k.Cluster.Adopt, kit.AllKeys.Cluster.Adopt, "adopt: "+why)
		k.Block(&k.Cluster.Mark, kit.AllKeys.Cluster.Mark, "mark: "+why)
		k.Block(&k.Cluster.MarkAll, kit.AllKeys.Cluster.MarkAll, "mark: "+why)
	}
	if len(m.marks) == 0 {
		k.Block(&k.Cluster.ClearMarks, kit.AllKeys.Cluster.ClearMarks, "")
	}
}

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	inner := w - 2
	note := ""
	var lines []string
	switch {
	case m.ov == nil && m.apps.Err() != nil:
		lines = kit.Centered(st.LoadFailed(m.apps.Err()), inner, h-2)
	case m.ov == nil:
		lines = kit.Centered(st.Dim.Render("loading cluster "+m.name+"…"), inner, h-2)
	default:
		note = "fetched " + kit.Ago(m.env.Now, m.ov.FetchedAt)
		if m.apps.Err() != nil {
			note = st.Error.Render("✖ refresh failed") + " · " + note
		}
		lines = clusterLines(st, m.ov, m.apps.Rows(), m.apps.Filtered(), m.apps.Cursor(), m.marks, inner, h-2)
	}
	if len(m.names) > 1 {
		note = st.Dim.Render(fmt.Sprintf("%d/%d clusters", slices.Index(m.names, m.name)+1, len(m.names))) + " · " + note
	}
	if n := len(m.marks); n > 0 {
		note = st.Mark.Render(fmt.Sprintf("✓ %d marked", n)) + " · " + note
	}
	return kit.Box(st, m.apps.Title(st, m.Title()), note, lines, w, h)
}

// flinkCapacity puts Flink's slots beside YARN's memory: the session
// clusters' sum, which the overview reads anyway. Per-job clusters' slots
// would cost a request to every JobManager, so the line says where they
// are instead.
func flinkCapacity(st *kit.Styles, sessions []api.SessionCluster) string {
	var tms, total, free, n int
	for _, sc := range sessions {
		if sc.Error == "" {
			tms, total, free, n = tms+sc.TaskManagers, total+sc.SlotsTotal, free+sc.SlotsFree, n+1
		}
	}
	perJob := st.Dim.Render("per-job clusters: a job's TaskManagers tab")
	if n == 0 {
		return "  flink    " + perJob
	}
	used := float64(total-free) / float64(max(total, 1))
	return fmt.Sprintf("  flink    slots %d used of %d %s · %s in %s · ", total-free, total, meter(used, 12), kit.Plural(tms, "TaskManager"), kit.Plural(n, "session cluster")) + perJob
}

// clusterLines renders the overview (pure): metrics, queues, and the
// unmanaged applications shown (apps: all, or those a filter lets through)
// with the cursor and the marks, fitted to h lines so the applications
// stay visible on a small terminal.
func clusterLines(st *kit.Styles, ov *api.ClusterOverview, apps []api.Application, filtered bool, cursor int, marks map[string]bool, w, h int) []string {
	cm := ov.Metrics
	memPct := 0.0
	if cm.MemoryTotalMB > 0 {
		memPct = float64(cm.MemoryUsedMB) / float64(cm.MemoryTotalMB)
	}
	top := []string{
		" " + st.Section.Render("YARN"),
		fmt.Sprintf("  apps     running %d · pending %d · failed %d · killed %d · completed %d",
			cm.AppsRunning, cm.AppsPending, cm.AppsFailed, cm.AppsKilled, cm.AppsCompleted),
		fmt.Sprintf("  memory   %s / %s %s   vcores %d / %d",
			kit.Bytes(cm.MemoryUsedMB<<20), kit.Bytes(cm.MemoryTotalMB<<20), meter(memPct, 12), cm.VCoresUsed, cm.VCoresTotal),
		fmt.Sprintf("  nodes    %d active · %s", cm.ActiveNodes, unhealthy(st, cm.UnhealthyNodes)) + st.Dim.Render("  n lists them"),
		flinkCapacity(st, ov.Sessions),
	}
	for _, sc := range ov.Sessions {
		line := fmt.Sprintf("  session  %s %s  ", sc.AppID, kit.Truncate(sc.Name, 24))
		if sc.Error != "" {
			line += st.Error.Render("✖ " + kit.Truncate(sc.Error, max(w-len(line)-4, 10)))
		} else {
			used := 0.0
			if sc.SlotsTotal > 0 {
				used = float64(sc.SlotsTotal-sc.SlotsFree) / float64(sc.SlotsTotal)
			}
			line += fmt.Sprintf("%d TaskManagers · slots %d free of %d %s · %d jobs",
				sc.TaskManagers, sc.SlotsFree, sc.SlotsTotal, meter(used, 10), sc.Jobs)
		}
		top = append(top, line)
	}
	top = append(top, "")
	count := fmt.Sprint(len(ov.Unmanaged))
	if filtered {
		count = fmt.Sprintf("%d of %d", len(apps), len(ov.Unmanaged))
	}
	appCols := appColumns(ov.FetchedAt)
	appLay := appCols.Lay(apps, w-kit.MarkGutter)
	hint := "  a adopts"
	if n := len(marks); n > 0 {
		hint = fmt.Sprintf("  a adopts the %d marked", n)
	}
	appsHead := []string{
		" " + st.Section.Render(fmt.Sprintf("Flink applications palink does not manage (%s)", count)) + st.Dim.Render(hint),
		"   " + st.ColumnHeader.Render(appCols.Titles(appLay)),
	}
	var rows []string
	switch {
	case len(ov.Unmanaged) == 0:
		rows = append(rows, "  "+st.Dim.Render("none: every Flink application on this cluster is a palink job"))
	case len(apps) == 0:
		rows = append(rows, "  "+st.Dim.Render("no application matches — esc clears the filter"))
	}
	for i, a := range apps {
		rows = append(rows, appCols.MarkedRow(st, appLay, a, i == cursor, marks[a.ID], w))
	}
	queueLay := queueColumns.Lay(ov.Queues, w-kit.Gutter)
	queues := []string{
		" " + st.Section.Render("Queues"),
		"  " + st.ColumnHeader.Render(queueColumns.Titles(queueLay)),
	}
	for _, q := range ov.Queues {
		queues = append(queues, queueColumns.Row(st, queueLay, q, false, w))
	}
	queues = append(queues, "")
	// Applications matter most (they can be acted on); queues give way,
	// and a long application list shows the window around the cursor.
	if avail := max(h-len(top)-len(appsHead), 1); len(rows) > avail {
		first := kit.ScrollTo(cursor, 0, avail, len(rows))
		rows = rows[first : first+avail]
	}
	room := h - len(top) - len(appsHead) - len(rows)
	if room < len(queues) {
		queues = queues[:max(room, 0)]
	}
	out := append(top, queues...)
	out = append(out, appsHead...)
	return append(out, rows...)
}

// appColumns are the unmanaged applications' columns; their age is as of
// the overview's fetch.
func appColumns(fetched time.Time) kit.Columns[api.Application] {
	type a = api.Application
	return kit.Columns[a]{
		{Title: "APPLICATION", Width: 32, Cell: func(a a) string { return a.ID }},
		{Title: "NAME", Width: 24, Cell: func(a a) string { return a.Name }},
		{Title: "USER", Width: 10, Cell: func(a a) string { return a.User }},
		{Title: "QUEUE", Width: 10, Cell: func(a a) string { return a.Queue }},
		{Title: "STATE", Width: 10, Cell: func(a a) string { return a.State }},
		{Title: "STARTED", Cell: func(a a) string { return kit.Ago(fetched, a.StartedAt) }},
	}
}

// queueColumns are the queues' columns: a child indented under its
// parent, the capacities as percentages, and the used one as a meter.
var queueColumns = kit.Columns[api.Queue]{
	{Title: "QUEUE", Width: 24, Cell: func(q api.Queue) string { return strings.Repeat("  ", q.Depth) + q.Name }},
	{Title: "CAPACITY", Width: 9, Right: true, Cell: func(q api.Queue) string { return percent(q.Capacity) }},
	{Title: "USED", Width: 9, Right: true, Cell: func(q api.Queue) string { return percent(q.UsedCapacity) }},
	{Title: "MAX", Width: 9, Right: true, Cell: func(q api.Queue) string { return percent(q.MaxCapacity) }},
	{Title: "APPS", Width: 5, Right: true, Cell: func(q api.Queue) string { return strconv.Itoa(q.Apps) }},
	{Cell: func(q api.Queue) string { return meter(q.UsedCapacity/100, 10) }},
}

// percent is a capacity as YARN gives it, in percent to a tenth.
func percent(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "%" }

func unhealthy(st *kit.Styles, n int) string {
	s := fmt.Sprintf("%d unhealthy", n)
	if n > 0 {
		return st.Warn.Render(s)
	}
	return s
}

// meter draws a ratio as a bar of n cells.
func meter(ratio float64, n int) string {
	full := int(ratio*float64(n) + 0.5)
	full = kit.Clamp(full, 0, n)
	return "▕" + strings.Repeat("█", full) + strings.Repeat("░", n-full) + "▏"
}

func loadOverviewCmd(c kit.Call[Service], cluster string, seq int) tea.Cmd {
	overview := func(ctx context.Context) (api.ClusterOverview, error) { return c.Service.ClusterOverview(ctx, cluster) }
	return kit.Get(c, "read cluster "+cluster, overview, func(ov api.ClusterOverview, err error) tea.Msg {
		return overviewLoadedMsg{cluster: cluster, seq: seq, ov: ov, err: err}
	})
}

type overviewLoadedMsg struct {
	cluster string
	seq     int
	ov      api.ClusterOverview
	err     error
}

// shortHelp is the footer's keys.
func shortHelp(k kit.KeyMap) []key.Binding {
	return []key.Binding{k.Cluster.Adopt, k.Cluster.Mark, k.Cluster.ClearMarks, k.Cluster.Nodes, k.Cluster.Next, k.Nav.Filter, k.Nav.Refresh}
}

// Help is the view's keys, for its `?` help and the keymap (docs/keys.md).
func Help(k kit.KeyMap) [][]key.Binding {
	return [][]key.Binding{k.Nav.Bindings(), {k.Cluster.Adopt, k.Cluster.Mark, k.Cluster.MarkAll, k.Cluster.ClearMarks,
		k.Cluster.Nodes, k.Cluster.Next, k.Cluster.Prev, k.Nav.Filter, k.Nav.Refresh}}
}
