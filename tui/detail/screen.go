package detail

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// jobData is what the detail's tabs read: the job as the list last saw it
// (always there) and its detail (nil until Job(ref) answers).
type jobData struct {
	job    api.JobView
	detail *api.JobDetail
}

// detailTab is one tab of the job detail. Tabs are pluggable: a later issue
// adds its own (metrics, logs, the SQL editor) by implementing this and
// listing it in detailTabs. A tab gets every key while it is active, and
// the detail's size as a WindowSizeMsg.
type detailTab interface {
	Title() string
	Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd)
	View(d *jobData) string
	ShortHelp() []key.Binding
	Capturing() bool
}

// detailTabs builds the tabs, in order; call is what the tabs that find
// the cause fetch with (the detail's context, which leaving it cancels).
func detailTabs(e *kit.Env, call func() kit.Call[Service]) []detailTab {
	return []detailTab{
		newLinesTab(e, "Overview", overviewLines, nil),
		newLinesTab(e, "Timeline", timelineLines, nil),
		newCheckpointsTab(e, call),
		newExceptionsTab(e, call),
		newLinesTab(e, "Commands", commandLines, openCommandLog),
		newMetricsTab(e),
		newLogsTab(e),
		newSQLTab(e),
		newGraphTab(e, call),
		newTaskManagersTab(e, call),
	}
}

// Screen is one job in depth. Opening it asks Job(ref), which syncs
// the job with its cluster at once; until the answer arrives it shows what
// the list knew. Watch changes for the job keep it current.
type Screen struct {
	env  *kit.Env
	data jobData
	tabs []detailTab
	tab  int

	loads kit.Refresher
	err   error
	// ctx is the detail's own: leaving the detail (Close) cancels what its
	// tabs still fetch (a graph of 200 vertices, a container log lookup).
	ctx    context.Context
	cancel context.CancelFunc

	width, height int
}

// New opens job j's detail on the tab titled tab ("" for Overview); its
// Cmd asks for the job (which syncs it) and loads what the tab shows.
func New(e *kit.Env, j api.JobView, tab string) (*Screen, tea.Cmd) {
	d := &Screen{env: e, data: jobData{job: j}}
	d.ctx, d.cancel = context.WithCancel(e.Ctx)
	d.tabs = detailTabs(e, d.call)
	d.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return Load(call(e), d.data.job.ID, seq) })
	for i, t := range d.tabs {
		if strings.EqualFold(t.Title(), tab) {
			d.tab = i
		}
	}
	return d, tea.Batch(d.load(), d.show(d.tab))
}

// call is what the diagnostic tabs' Cmds capture: the session's, under
// the detail's context.
func (d *Screen) call() kit.Call[Service] {
	c := call(d.env)
	c.Ctx = d.ctx
	return c
}

// Close implements kit.Closer: the tabs' requests in flight end.
func (d *Screen) Close() { d.cancel() }

// shownTab is a tab that fetches its content when it is shown (Logs), so
// that nothing is fetched for a tab the user never opens.
type shownTab interface {
	shown(d *jobData) tea.Cmd
}

// hiddenTab is a tab that keeps itself current while it is shown (the
// Graph tab): it is told when another tab replaces it.
type hiddenTab interface{ hidden() }

// show makes tab i the active one.
func (d *Screen) show(i int) tea.Cmd {
	if h, ok := d.tabs[d.tab].(hiddenTab); ok && i != d.tab {
		h.hidden()
	}
	d.tab = i
	if t, ok := d.tabs[i].(shownTab); ok {
		return t.shown(&d.data)
	}
	return nil
}

// load asks for the detail, one request at a time.
func (d *Screen) load() tea.Cmd { return d.loads.Refresh() }

// Title implements kit.Screen.
func (d *Screen) Title() string { return d.data.job.Name }

// Capturing implements kit.Screen.
func (d *Screen) Capturing() bool { return d.tabs[d.tab].Capturing() }

// refreshTab is a tab that fetches its own data (the diagnostic tabs):
// ctrl+r fetches it again with the job.
type refreshTab interface {
	refresh(d *jobData) tea.Cmd
}

// backTab is a tab that takes esc for itself at times (a kept filter).
type backTab interface{ back() bool }

// Back implements kit.Backer: esc clears the tab's filter before it
// leaves the detail.
func (d *Screen) Back() (tea.Cmd, bool) {
	if t, ok := d.tabs[d.tab].(backTab); ok && t.back() {
		return nil, true
	}
	return nil, false
}

// keyTab is a tab that takes a key of the detail's for its selected line
// (the Checkpoints tab's r restores from the selected point, where r
// elsewhere restarts the job).
type keyTab interface {
	takes(msg tea.KeyPressMsg, d *jobData) bool
}

// ShortHelp implements kit.Screen: the tab's keys, then the detail's that
// no key of the tab's hides.
func (d *Screen) ShortHelp() []key.Binding {
	own := d.tabs[d.tab].ShortHelp()
	return append(slices.Clone(own), withoutKeysOf(shortHelp(d.env.Keys), own)...)
}

// withoutKeysOf is bs less the bindings that share a key with one of own.
func withoutKeysOf(bs, own []key.Binding) []key.Binding {
	taken := map[string]bool{}
	for _, b := range own {
		for _, k := range b.Keys() {
			taken[k] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(bs), func(b key.Binding) bool {
		return slices.ContainsFunc(b.Keys(), func(k string) bool { return taken[k] })
	})
}

// FullHelp implements kit.Screen.
func (d *Screen) FullHelp() [][]key.Binding {
	return append([][]key.Binding{d.tabs[d.tab].ShortHelp()}, Help(d.env.Keys)...)
}

// tabSize is the area under the title, tab bar and rule.
func (d *Screen) tabSize() tea.WindowSizeMsg {
	return tea.WindowSizeMsg{Width: d.width, Height: max(d.height-3, 1)}
}

// UpdateKeys implements kit.KeyUpdater: the actions core refuses for the
// job are off, with core's reason.
func (d *Screen) UpdateKeys(k *kit.KeyMap) { k.BlockRefusedActions([]api.JobView{d.data.job}) }

// Update implements kit.Screen.
func (d *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		d.width, d.height = msg.Width, msg.Height
		return d, d.toAllTabs(d.tabSize())
	case LoadedMsg:
		if msg.JobID != d.data.job.ID {
			return d, nil
		}
		current, again := d.loads.Done(msg.Seq)
		if !current {
			return d, nil
		}
		cmds = append(cmds, again, kit.LoadFlash("load:job:"+d.data.job.ID, msg.Err, d.err != nil))
		if msg.Err != nil {
			d.err = msg.Err
			return d, tea.Batch(cmds...)
		}
		d.err = nil
		det := msg.Detail
		d.data.detail = &det
		d.data.job = kit.Renew(d.data.job, det.Job)
	case kit.ChangeMsg:
		cmds = append(cmds, d.applyChange(msg.Change))
	case kit.ActedMsg:
		for _, r := range msg.Results {
			if r.Err == nil && r.Cmd.JobID == d.data.job.ID {
				d.upsertCommand(r.Cmd)
			}
		}
	case tea.KeyPressMsg:
		return d, d.key(msg)
	}
	cmds = append(cmds, d.toAllTabs(msg))
	return d, tea.Batch(cmds...)
}

func (d *Screen) toAllTabs(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i, t := range d.tabs {
		var cmd tea.Cmd
		d.tabs[i], cmd = t.Update(msg, &d.data)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

func (d *Screen) applyChange(c api.Change) tea.Cmd {
	switch c.Kind {
	case api.JobChanged:
		if c.Job == nil || c.Job.ID != d.data.job.ID {
			return nil
		}
		d.data.job = *c.Job
		if d.data.detail == nil {
			return nil
		}
		d.data.detail.Job = c.Job.Job
		if e := c.Event; e != nil {
			evs := d.data.detail.Events
			last := int64(0)
			if len(evs) > 0 {
				last = evs[len(evs)-1].Seq
			}
			switch {
			case e.Seq <= last:
			case e.Seq == last+1 || last == 0:
				d.data.detail.Events = append(evs, *e)
			default:
				// Watch coalesced away some events: fetch the whole history.
				return d.load()
			}
		}
	case api.CommandChanged:
		if c.Command != nil && c.Command.JobID == d.data.job.ID {
			d.upsertCommand(*c.Command)
		}
	case api.Resync:
		return d.load()
	}
	return nil
}

func (d *Screen) upsertCommand(c model.Command) {
	if d.data.detail == nil {
		return
	}
	cs := d.data.detail.Commands
	if i := slices.IndexFunc(cs, func(x model.Command) bool { return x.ID == c.ID }); i >= 0 {
		cs[i] = c
		return
	}
	d.data.detail.Commands = append(cs, c)
}

func (d *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := d.env.Keys
	if d.tabs[d.tab].Capturing() {
		var cmd tea.Cmd
		d.tabs[d.tab], cmd = d.tabs[d.tab].Update(msg, &d.data)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Detail.NextTab):
		return d.show((d.tab + 1) % len(d.tabs))
	case key.Matches(msg, k.Detail.PrevTab):
		return d.show((d.tab + len(d.tabs) - 1) % len(d.tabs))
	case key.Matches(msg, k.Nav.Refresh):
		if t, ok := d.tabs[d.tab].(refreshTab); ok {
			return tea.Batch(d.load(), t.refresh(&d.data))
		}
		return d.load()
	case key.Matches(msg, k.Open.RawJSON):
		return kit.Send(kit.PushMsg{Screen: newRaw(d.env, d.data)})
	case key.Matches(msg, k.Open.Describe):
		return d.selectTab("Overview")
	case key.Matches(msg, k.Open.EditSQL):
		return kit.Send(kit.OpenEditorMsg{Job: d.data.job})
	case key.Matches(msg, k.Open.Metrics):
		return d.selectTab("Metrics")
	case key.Matches(msg, k.Open.MetricBrowser):
		return kit.Send(kit.OpenMetricsMsg{Job: d.data.job, Scope: model.MetricScopeJob})
	case key.Matches(msg, k.Open.Logs):
		return d.selectTab("Logs")
	case key.Matches(msg, k.Open.Exceptions):
		return d.selectTab("Exceptions")
	}
	if t, ok := d.tabs[d.tab].(keyTab); ok && t.takes(msg, &d.data) {
		var cmd tea.Cmd
		d.tabs[d.tab], cmd = d.tabs[d.tab].Update(msg, &d.data)
		return cmd
	}
	if kind, ok := kit.ActionFor(k, msg, d.data.job); ok {
		var hist []model.RestorePoint
		if d.data.detail != nil {
			hist = d.data.detail.RestorePoints
			if hist == nil {
				hist = []model.RestorePoint{}
			}
		}
		return kit.Send(kit.StartActionMsg{Kind: kind, Jobs: []api.JobView{d.data.job}, History: hist})
	}
	if why, ok := k.Refused(msg, kit.AllKeys.Action.Bindings()...); ok && why != "" {
		return kit.Flash(kit.FlashWarn, why)
	}
	var cmd tea.Cmd
	d.tabs[d.tab], cmd = d.tabs[d.tab].Update(msg, &d.data)
	return cmd
}

func (d *Screen) selectTab(title string) tea.Cmd {
	for i, t := range d.tabs {
		if t.Title() == title {
			return d.show(i)
		}
	}
	return nil
}

// rawJSON is Flink's own job JSON when the cluster answered, else palink's
// record of the job, indented.
func rawJSON(d jobData) string {
	if d.detail != nil && d.detail.Live != nil && d.detail.Live.RawJSON != "" {
		var b bytes.Buffer
		if json.Indent(&b, []byte(d.detail.Live.RawJSON), "", "  ") == nil {
			return b.String()
		}
		return d.detail.Live.RawJSON
	}
	var v any = d.job
	head := "// palink's record of the job (no live Flink JSON"
	if d.detail != nil {
		v = d.detail.Job
		if d.detail.LiveError != "" {
			head += ": " + d.detail.LiveError
		}
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "cannot render the job as JSON: " + err.Error()
	}
	return head + ")\n" + string(out)
}

// View implements kit.Screen.
func (d *Screen) View() string {
	st := d.env.Styles
	w := d.width
	if w <= 0 || d.height <= 0 {
		return ""
	}
	j := d.data.job
	title := " " + st.Title.Render(j.Name) + "  " + st.Job(&j.Job).Render(kit.StateCell(&j))
	facts := []string{j.Cluster}
	if j.AppID != "" {
		facts = append(facts, j.AppID)
	}
	if j.FlinkJobID != "" {
		facts = append(facts, "job "+kit.ShortID(j.FlinkJobID, 4))
	}
	if j.Kind != 0 {
		facts = append(facts, fmt.Sprintf("%s v%d", j.Kind, j.SpecVersion))
	}
	if j.RestoredFrom != "" {
		facts = append(facts, "restored from "+lastPathPart(j.RestoredFrom))
	}
	// The sync status goes before the facts, so a narrow terminal keeps it.
	switch {
	case d.loads.Busy() && d.data.detail == nil:
		title += "  " + st.Info.Render("syncing…")
	case d.loads.Busy():
		title += "  " + st.Dim.Render("refreshing…")
	case d.err != nil:
		title += "  " + st.Error.Render("✖ not current")
	}
	title += "  " + st.Dim.Render(strings.Join(facts, " · "))

	titles := make([]string, len(d.tabs))
	for i, t := range d.tabs {
		titles[i] = t.Title()
	}
	body := d.tabs[d.tab].View(&d.data)
	if d.err != nil && d.data.detail == nil {
		body = strings.Join(kit.Centered(st.LoadFailed(d.err), w, d.height-3), "\n")
	}
	return strings.Join([]string{
		kit.Fit(title, w),
		kit.Fit(tabBar(st, titles, d.tab, w), w),
		st.Border.Render(strings.Repeat("─", w)),
		kit.PadLines(body, w, d.height-3),
	}, "\n")
}

// tabBar renders the tab titles in w cells. When they do not all fit, it
// shows a run of whole titles that holds the active one, with ‹ and ›
// where titles are off the bar: a tab scrolls into view, it is never cut
// ("Me…").
func tabBar(st *kit.Styles, titles []string, active, w int) string {
	cell := func(i int) int { return len(titles[i]) + 2 }
	total := 1
	for i := range titles {
		total += cell(i)
	}
	from, to := 0, len(titles)
	if total > w {
		// Grow a window around the active tab, rightwards first, leaving
		// room for the markers.
		from, to = active, active+1
		used := 2 + cell(active) + 2
		for grew := true; grew; {
			grew = false
			if to < len(titles) && used+cell(to) <= w {
				used += cell(to)
				to++
				grew = true
			}
			if from > 0 && used+cell(from-1) <= w {
				from--
				used += cell(from)
				grew = true
			}
		}
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString(st.Dim.Render("‹"))
	} else {
		b.WriteString(" ")
	}
	for i := from; i < to; i++ {
		if i == active {
			b.WriteString(st.TabActive.Render(" " + titles[i] + " "))
		} else {
			b.WriteString(st.TabInactive.Render(" " + titles[i] + " "))
		}
	}
	if to < len(titles) {
		b.WriteString(st.Dim.Render(" ›"))
	}
	return b.String()
}

// lastPathPart is the last element of a restore path: "savepoint-7f3a21".
func lastPathPart(p string) string { return kit.PathName(p) }

// Tab is the title of the tab on screen.
func (d *Screen) Tab() string { return d.tabs[d.tab].Title() }

// SelectTab shows the tab titled title; its Cmd loads what the tab shows.
func (d *Screen) SelectTab(title string) tea.Cmd { return d.selectTab(title) }

// JobID is the job the detail shows.
func (d *Screen) JobID() string { return d.data.job.ID }
