package detail

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// logsTab is the job detail's Logs tab: the logs the job's application
// offers through Flink (the JobManager's, each TaskManager's) and the
// files of each of its YARN containers (from their NodeManagers while it
// runs, from the log server once it ended, when Flink's are gone), listed
// when the tab is shown; enter opens one in the log viewer.
type logsTab struct {
	env   *kit.Env
	jobID string
	list  *api.LogList
	err   error
	loads kit.Refresher

	conts     *api.ContainerLogList
	contsErr  error
	contLoads kit.Refresher

	filter kit.Filter
	cur    kit.LineCursor // over the lines; it rests on sources
	// moved reports that the operator moved the cursor since the tab was
	// shown: a list that arrives then keeps it on its source.
	moved         bool
	width, height int
}

func newLogsTab(e *kit.Env) *logsTab {
	t := &logsTab{env: e, filter: kit.NewFilter(e.Styles, "JobManager, stdout, container id")}
	t.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return listLogsCmd(call(e), t.jobID, seq) })
	t.contLoads = kit.NewRefresher(e, func(seq int) tea.Cmd { return listContainersCmd(call(e), t.jobID, seq) })
	return t
}

func (t *logsTab) Title() string   { return "Logs" }
func (t *logsTab) Capturing() bool { return t.filter.Active() }

func (t *logsTab) ShortHelp() []key.Binding {
	if t.filter.Active() {
		return t.filter.ShortHelp(t.env.Keys)
	}
	return []key.Binding{t.env.Keys.Detail.OpenLog, t.env.Keys.Nav.Filter}
}

// back clears the filter, reporting whether there was one.
func (t *logsTab) back() bool { return t.filter.Clear() }

// shown lists the job's logs each time the tab is shown: the TaskManagers
// come and go, so an old list would offer logs that are gone.
func (t *logsTab) shown(d *jobData) tea.Cmd {
	t.jobID, t.moved = d.job.ID, false
	return tea.Batch(t.loads.Refresh(), t.contLoads.Refresh())
}

// logLine is one line of the tab: a heading, or a source.
type logLine struct {
	text string
	src  *api.LogSource
}

func (t *logsTab) lines(d *jobData) []logLine {
	var out []logLine
	if f := t.filter.Title(t.env.Styles); f != "" {
		out = append(out, logLine{text: " " + f}, logLine{})
	}
	flink, shownF := t.flinkLines(d)
	yarn, shownY := t.containerLines()
	out = append(out, flink...)
	if len(yarn) > 0 {
		out = append(out, logLine{})
		out = append(out, yarn...)
	}
	if t.filter.Title(t.env.Styles) != "" && shownF+shownY == 0 && t.list != nil {
		out = append(out, logLine{}, logLine{text: " " + t.env.Styles.Dim.Render("no log matches — esc clears the filter")})
	}
	return out
}

// flinkLines are the logs Flink serves, by process, and how many of them
// the filter lets through. Without a YARN container list, the YARN
// containers' pages follow (enter copies their links).
func (t *logsTab) flinkLines(d *jobData) ([]logLine, int) {
	st := t.env.Styles
	switch {
	case t.list == nil && t.err != nil:
		return []logLine{{text: " " + st.Error.Render("✖ "+t.err.Error())}, {text: " " + st.Dim.Render("show the tab again to retry")}}, 0
	case t.list == nil:
		return []logLine{{text: " " + st.Dim.Render("listing the logs of "+d.job.Name+"…")}}, 0
	}
	var out []logLine
	if t.list.FlinkError != "" {
		out = append(out, t.warnLines(t.list.FlinkError)...)
	}
	owner := ""
	shown, flinks := 0, 0
	links := t.conts == nil || len(t.conts.Containers) == 0
	for i := range t.list.Sources {
		s := &t.list.Sources[i]
		if s.Kind == api.LogContainer {
			if !links {
				continue // the containers' files are listed below
			}
		} else {
			flinks++
		}
		if !t.filter.Match(sourceOwner(s), sourceName(s), s.Title, s.URL) {
			continue
		}
		shown++
		if o := sourceOwner(s); o != owner {
			if owner != "" || len(out) > 0 {
				out = append(out, logLine{})
			}
			owner = o
			out = append(out, logLine{text: " " + st.Section.Render(o)})
		}
		if s.Kind == api.LogContainer {
			out = append(out, t.linkLines(s)...)
			continue
		}
		out = append(out, t.fileLine(s, sourceName(s)))
	}
	if flinks == 0 && t.list.FlinkError == "" {
		out = append(out, logLine{text: " " + st.Dim.Render("Flink lists no logs")})
	}
	return out, shown
}

// linkLines are a YARN container page's title and link: side by side when
// they fit, else the link under its title, whole, to be read (enter copies
// it).
func (t *logsTab) linkLines(s *api.LogSource) []logLine {
	st := t.env.Styles
	nameW := t.nameWidth()
	if 3+nameW+22+1+kit.Width(s.URL) <= t.width {
		return []logLine{{text: fmt.Sprintf("   %-*s %s", nameW+22, kit.Truncate(s.Title, nameW+22), st.Dim.Render(s.URL)), src: s}}
	}
	out := []logLine{{text: "   " + s.Title, src: s}}
	for _, l := range kit.Wrap(s.URL, max(t.width-5, 10)) {
		out = append(out, logLine{text: "     " + st.Dim.Render(l)})
	}
	return out
}

// nameWidth is what a file's name takes: what the size and the age
// leave, up to 30 cells.
func (t *logsTab) nameWidth() int { return kit.Clamp(t.width-34, 8, 30) }

// fileLine is one log file: its name, size and age.
func (t *logsTab) fileLine(s *api.LogSource, name string) logLine {
	nameW := t.nameWidth()
	size := kit.NoValue
	if s.Size >= 0 {
		size = kit.Bytes(s.Size)
	}
	mod := ""
	if !s.MTime.IsZero() {
		mod = "modified " + kit.Ago(t.env.Now, s.MTime)
	}
	return logLine{text: fmt.Sprintf("   %-*s %10s   %s", nameW, kit.Truncate(name, nameW), size, t.env.Styles.Dim.Render(mod)), src: s}
}

// containerLines are the YARN containers of the job's application, the
// JobManager's first, each with its log files, and how many files the
// filter lets through.
func (t *logsTab) containerLines() ([]logLine, int) {
	st := t.env.Styles
	switch {
	case t.conts == nil && t.contsErr != nil:
		return []logLine{{text: " " + st.Title.Render("YARN containers")}, {text: " " + st.Error.Render("✖ "+t.contsErr.Error())}}, 0
	case t.conts == nil:
		return []logLine{{text: " " + st.Dim.Render("listing the YARN containers' logs…")}}, 0
	}
	l := t.conts
	from := "from their NodeManagers"
	if l.Aggregated {
		from = "from the log server (the application ended)"
	}
	out := []logLine{{text: " " + st.Title.Render("YARN containers") + st.Dim.Render(" · "+from)}}
	if kit.Width("YARN containers · "+from) > t.width-1 {
		out = []logLine{{text: " " + st.Title.Render("YARN containers")}, {text: " " + st.Dim.Render(kit.Truncate(from, t.width-1))}}
	}
	shown := 0
	for i := range l.Containers {
		c := &l.Containers[i]
		head := c.Role + " " + c.ID
		first := true
		for _, k := range mainFirst(c.Files) {
			f := &c.Files[k]
			if !t.filter.Match(head, f.Ref.Name, f.Title, c.Node) {
				continue
			}
			if first {
				line := " " + st.Section.Render(head)
				if c.Node != "" && 1+kit.Width(head)+3+kit.Width(c.Node) <= t.width {
					line += st.Dim.Render(" · " + c.Node)
				}
				out = append(out, logLine{text: line})
				first = false
			}
			shown++
			out = append(out, t.fileLine(f, f.Ref.Name))
		}
	}
	for _, n := range l.Notes {
		out = append(out, t.warnLines(n)...)
	}
	if len(l.Containers) == 0 && len(l.Notes) == 0 {
		out = append(out, logLine{text: " " + st.Dim.Render("no container logs to show")})
	}
	return out, shown
}

// mainFirst orders a container's files for the list: its main log
// (jobmanager.log, taskmanager.log) first, where the cursor rests, then
// its other *.log, then the rest, each group as listed. It returns
// indexes into files.
func mainFirst(files []api.LogSource) []int {
	rank := func(name string) int {
		switch {
		case name == "jobmanager.log" || name == "taskmanager.log":
			return 0
		case strings.HasSuffix(name, ".log"):
			return 1
		}
		return 2
	}
	out := make([]int, len(files))
	for i := range out {
		out[i] = i
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(rank(files[a].Ref.Name), rank(files[b].Ref.Name)) })
	return out
}

// warnLines are a warning, wrapped under its sign: it says why logs are
// missing, which a cut would hide.
func (t *logsTab) warnLines(text string) []logLine {
	var out []logLine
	for i, w := range kit.Wrap(text, max(t.width-4, 10)) {
		sign := "  "
		if i == 0 {
			sign = "⚠ "
		}
		out = append(out, logLine{text: " " + t.env.Styles.Warn.Render(sign+w)})
	}
	return out
}

// sources lists the indexes of the lines that are sources.
func sources(lines []logLine) []int {
	var out []int
	for i, l := range lines {
		if l.src != nil {
			out = append(out, i)
		}
	}
	return out
}

// sourceOwner is the heading a source goes under.
func sourceOwner(s *api.LogSource) string {
	switch s.Kind {
	case api.LogJobManager:
		return "JobManager"
	case api.LogTaskManager:
		return "TaskManager " + s.Ref.TaskManager
	}
	return "YARN containers · the NodeManager's pages (enter copies the link)"
}

// sourceName is a source's name under its heading.
func sourceName(s *api.LogSource) string {
	switch {
	case s.Ref.Stdout:
		return "stdout"
	case s.Ref.Name != "":
		return s.Ref.Name
	}
	return "log"
}

// sameSource reports whether a and b name the same log.
func sameSource(a, b *api.LogSource) bool {
	return a.Kind == b.Kind && a.Ref == b.Ref && a.URL == b.URL
}

// keepCursor runs a change of the lists and puts the cursor back on the
// source the operator moved it to, which the change may have moved; else
// on the first source, the lists arriving in either order.
func (t *logsTab) keepCursor(d *jobData, change func()) {
	if !t.moved {
		change()
		t.cur = kit.LineCursor{}
		return
	}
	lines := t.lines(d)
	var was *api.LogSource
	if sel := sources(lines); len(sel) > 0 {
		if s := lines[t.cur.On(sel)].src; s != nil {
			c := *s
			was = &c
		}
	}
	change()
	if was == nil {
		return
	}
	for i, l := range t.lines(d) {
		if l.src != nil && sameSource(l.src, was) {
			t.cur.Cursor = i
			return
		}
	}
}

func (t *logsTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		t.width, t.height = msg.Width, msg.Height
	case logsListedMsg:
		if msg.jobID != d.job.ID {
			return t, nil
		}
		current, again := t.loads.Done(msg.seq)
		if !current {
			return t, nil
		}
		err := msg.err
		if err != nil {
			err = fmt.Errorf("logs of %s: %w", d.job.Name, err)
		}
		flash := kit.LoadFlash("load:logs:"+d.job.ID, err, t.err != nil)
		t.keepCursor(d, func() {
			if msg.err != nil {
				t.err = msg.err
				return
			}
			t.err = nil
			l := msg.list
			t.list = &l
		})
		return t, tea.Batch(again, flash)
	case containersListedMsg:
		if msg.jobID != d.job.ID {
			return t, nil
		}
		current, again := t.contLoads.Done(msg.seq)
		if !current {
			return t, nil
		}
		// Its error shows in its place in the list: Flink's logs may
		// still be there to read.
		t.keepCursor(d, func() {
			if msg.err != nil {
				t.contsErr = msg.err
				return
			}
			t.contsErr = nil
			l := msg.list
			t.conts = &l
		})
		return t, again
	case tea.KeyPressMsg:
		return t, t.key(msg, d)
	case tea.PasteMsg:
		if t.filter.Active() {
			cmd, _ := t.filter.Update(t.env.Keys, msg, t.width)
			return t, cmd
		}
	}
	return t, nil
}

func (t *logsTab) key(msg tea.KeyPressMsg, d *jobData) tea.Cmd {
	if t.filter.Active() {
		cmd, changed := t.filter.Update(t.env.Keys, msg, t.width)
		if changed {
			t.cur = kit.LineCursor{}
		}
		return cmd
	}
	if key.Matches(msg, t.env.Keys.Nav.Filter) {
		return t.filter.Open(t.width)
	}
	lines := t.lines(d)
	sel := sources(lines)
	if len(sel) == 0 {
		return nil
	}
	if t.cur.Key(t.env.Keys, msg, sel, len(lines), t.height) {
		t.moved = true
		return nil
	}
	if !key.Matches(msg, t.env.Keys.Detail.OpenLog) {
		return nil
	}
	src := lines[t.cur.On(sel)].src
	if src.Kind == api.LogContainer && src.Ref.Container == "" {
		return tea.Batch(tea.SetClipboard(src.URL), kit.Send(kit.FlashMsg{Level: kit.FlashInfo,
			Text: "copied to the clipboard: " + src.URL + " (YARN serves container logs on the NodeManager; `yarn logs` reads them after the end)"}))
	}
	return kit.Send(kit.OpenLogMsg{JobID: d.job.ID, JobName: d.job.Name, Source: *src})
}

func (t *logsTab) View(d *jobData) string {
	lines := t.lines(d)
	sel := sources(lines)
	t.cur.Fix(sel, len(lines), t.height)
	from, to := t.cur.Window(len(lines), t.height)
	out := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		l := lines[i].text
		if len(sel) > 0 && i == t.cur.Cursor {
			l = t.env.Styles.Cursor.Render(kit.Fit(" ▸"+strings.TrimPrefix(ansi.Strip(l), "  "), t.width))
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
