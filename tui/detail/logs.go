package detail

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// logsTab is the job detail's Logs tab: the logs the job's application
// offers (the JobManager's, each TaskManager's, the YARN containers'
// pages), listed when the tab is shown; enter opens one in the log viewer.
type logsTab struct {
	env   *kit.Env
	jobID string
	list  *api.LogList
	err   error
	loads kit.Refresher

	filter        kit.Filter
	cur           kit.LineCursor // over the lines; it rests on sources
	width, height int
}

func newLogsTab(e *kit.Env) *logsTab {
	t := &logsTab{env: e, filter: kit.NewFilter(e.Styles, "JobManager, stdout, container id")}
	t.loads = kit.NewRefresher(e, func(seq int) tea.Cmd { return listLogsCmd(call(e), t.jobID, seq) })
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
	t.jobID = d.job.ID
	return t.loads.Refresh()
}

// logLine is one line of the tab: a heading, or a source.
type logLine struct {
	text string
	src  *api.LogSource
}

func (t *logsTab) lines(d *jobData) []logLine {
	st := t.env.Styles
	switch {
	case t.list == nil && t.err != nil:
		return []logLine{{text: " " + st.Error.Render("✖ "+t.err.Error())}, {text: " " + st.Dim.Render("show the tab again to retry")}}
	case t.list == nil:
		return []logLine{{text: " " + st.Dim.Render("listing the logs of "+d.job.Name+"…")}}
	}
	var out []logLine
	if f := t.filter.Title(st); f != "" {
		out = append(out, logLine{text: " " + f}, logLine{})
	}
	if t.list.FlinkError != "" {
		out = append(out, logLine{text: " " + st.Warn.Render("⚠ "+t.list.FlinkError)}, logLine{})
	}
	owner := ""
	// The name takes what the size and the age leave, up to 30 cells.
	nameW := kit.Clamp(t.width-34, 8, 30)
	shown := 0
	for i := range t.list.Sources {
		s := &t.list.Sources[i]
		if !t.filter.Match(sourceOwner(s), sourceName(s), s.Title, s.URL) {
			continue
		}
		shown++
		if o := sourceOwner(s); o != owner {
			if owner != "" {
				out = append(out, logLine{})
			}
			owner = o
			out = append(out, logLine{text: " " + st.Section.Render(o)})
		}
		if s.Kind == api.LogContainer {
			if 3+nameW+22+1+kit.Width(s.URL) <= t.width {
				out = append(out, logLine{text: fmt.Sprintf("   %-*s %s", nameW+22, kit.Truncate(s.Title, nameW+22), st.Dim.Render(s.URL)), src: s})
				continue
			}
			// Narrow: the link goes under its title, whole, to be read
			// (enter copies it).
			out = append(out, logLine{text: "   " + s.Title, src: s})
			for _, l := range kit.Wrap(s.URL, max(t.width-5, 10)) {
				out = append(out, logLine{text: "     " + st.Dim.Render(l)})
			}
			continue
		}
		size := kit.NoValue
		if s.Size >= 0 {
			size = kit.Bytes(s.Size)
		}
		mod := ""
		if !s.MTime.IsZero() {
			mod = "modified " + kit.Ago(t.env.Now, s.MTime)
		}
		out = append(out, logLine{text: fmt.Sprintf("   %-*s %10s   %s", nameW, kit.Truncate(sourceName(s), nameW), size, st.Dim.Render(mod)), src: s})
	}
	switch {
	case len(t.list.Sources) == 0:
		out = append(out, logLine{text: " " + st.Dim.Render("no logs to show")})
	case shown == 0:
		out = append(out, logLine{text: " " + st.Dim.Render("no log matches — esc clears the filter")})
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
		if msg.err != nil {
			t.err = msg.err
			return t, tea.Batch(again, flash)
		}
		t.err = nil
		l := msg.list
		t.list = &l
		return t, tea.Batch(again, flash)
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
		return nil
	}
	if !key.Matches(msg, t.env.Keys.Detail.OpenLog) {
		return nil
	}
	src := lines[t.cur.On(sel)].src
	if src.Kind == api.LogContainer {
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
