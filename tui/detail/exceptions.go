package detail

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// exceptionsTab is the job detail's Exceptions tab: each failure's first
// line is its innermost cause, class and message (what failed, which the
// outermost exception — "Recovery is suppressed…" — hides), then where
// it ran, then its cause chain and stack trace folded to one line; enter
// unfolds them, L opens the failing TaskManager's log at the failure's
// time (for an application that ended, its YARN container's log).
//
// The history comes from DiagnoseService.Exceptions when the tab is
// shown: what the JobManager has, merged with what palink kept, so that a
// FAILED job whose application is gone still shows its cause. Until it
// answers (or when the service has no diagnostics) the tab shows the
// exceptions the job's detail carries.
type exceptionsTab struct {
	env  *kit.Env
	call func() kit.Call[Service]
	live *diagFetch[api.ExceptionHistory]
	// open holds the unfolded failures, by exceptionKey, so that a reload
	// keeps them open.
	open map[string]bool
	// jumping is the failure whose log is being looked up.
	jumping       bool
	cur           kit.LineCursor
	width, height int
}

func newExceptionsTab(e *kit.Env, call func() kit.Call[Service]) *exceptionsTab {
	return &exceptionsTab{env: e, call: call, open: map[string]bool{},
		live: newDiagFetch(e, call, "exceptions", api.DiagnoseService.Exceptions)}
}

func (t *exceptionsTab) Title() string   { return "Exceptions" }
func (t *exceptionsTab) Capturing() bool { return false }
func (t *exceptionsTab) ShortHelp() []key.Binding {
	return []key.Binding{t.env.Keys.Diag.Chain, t.env.Keys.Diag.FailureLog}
}

func (t *exceptionsTab) shown(d *jobData) tea.Cmd   { return t.live.show(d.job) }
func (t *exceptionsTab) refresh(d *jobData) tea.Cmd { return t.live.show(d.job) }

func exceptionKey(ex api.ExceptionEntry) string {
	return ex.Time.Format(time.RFC3339Nano) + " " + ex.RootCause
}

// entries are the failures to show, newest first: the service's history,
// or else what the detail carries, each read down to its innermost cause.
func (t *exceptionsTab) entries(d *jobData) []api.ExceptionEntry {
	if h := t.live.got; h != nil && h.JobID == d.job.ID {
		return h.Entries
	}
	if d.detail == nil || d.detail.Live == nil {
		return nil
	}
	out := make([]api.ExceptionEntry, len(d.detail.Live.Exceptions))
	for i, ex := range d.detail.Live.Exceptions {
		out[i] = EntryOf(ex)
	}
	return out
}

// EntryOf reads a failure as the detail carries it (Flink's name and
// stack trace) into an entry with its cause chain and innermost cause.
func EntryOf(ex api.ExceptionInfo) api.ExceptionEntry {
	e := api.ExceptionEntry{Time: ex.Time, Name: ex.Name, Stacktrace: ex.Stacktrace, Task: ex.Task, Endpoint: ex.Location}
	stack := stackLines(ex.Stacktrace)
	head := ex.Name
	if head == "" {
		head = kit.FirstLine(ex.Stacktrace)
	}
	e.Chain = append(e.Chain, causeOf(head))
	for _, l := range stack {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "Caused by: "); ok {
			e.Chain = append(e.Chain, causeOf(c))
		}
	}
	e.RootCause = e.Chain[len(e.Chain)-1].String()
	return e
}

// causeOf splits "class: message".
func causeOf(s string) api.ExceptionCause {
	class, msg, _ := strings.Cut(s, ": ")
	return api.ExceptionCause{Class: class, Message: msg}
}

// stackLines are a stack trace's non-blank lines, tabs made spaces.
func stackLines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if l = strings.TrimRight(l, " \t\r"); l != "" {
			out = append(out, strings.ReplaceAll(l, "\t", "  "))
		}
	}
	return out
}

// exLine is one line of the tab; entry is the failure it belongs to (-1
// for none).
type exLine struct {
	text  string
	entry int
}

const exIndent = "                "

func (t *exceptionsTab) lines(d *jobData) []exLine {
	st, now, w := t.env.Styles, t.env.Now, t.width
	hist, err := t.live.got, t.live.err
	dim := func(s string) exLine { return exLine{text: " " + st.Dim.Render(s), entry: -1} }
	exs := t.entries(d)
	if len(exs) == 0 {
		switch {
		case d.job.Diagnostics != "":
			// The JobManager is gone with the application and palink kept
			// nothing: YARN's diagnostics are what is left of the failure.
			out := []exLine{{text: " " + st.Section.Render("Root cause") + st.Dim.Render(" · YARN's diagnostics, as Flink has none to show"), entry: -1}}
			for _, l := range stackLines(d.job.Diagnostics) {
				for _, part := range strings.Split(ansi.Hardwrap(l, max(w-6, 20), true), "\n") {
					out = append(out, exLine{text: "   " + part, entry: -1})
				}
			}
			return out
		case hist == nil && t.live.busy():
			return []exLine{dim("fetching the exception history…")}
		case err != nil:
			return []exLine{{text: " " + st.Error.Render("✖ "+err.Error()), entry: -1}, dim("ctrl+r retries")}
		case d.detail == nil:
			return []exLine{dim("loading…")}
		case hist == nil && d.detail.Live == nil:
			return []exLine{dim("no live facts: " + kit.OrDash(d.detail.LiveError))}
		}
		return []exLine{dim("no exceptions recorded")}
	}
	var out []exLine
	if hist == nil && err != nil {
		out = append(out, exLine{text: " " + kit.Truncate(st.Error.Render("✖ "+err.Error())+st.Dim.Render(" · these are from the job's last sync"), max(w-2, 10)), entry: -1})
	}
	if hist != nil {
		var notes []string
		if err != nil {
			notes = append(notes, st.Error.Render("✖ not current: "+err.Error()))
		}
		for _, n := range hist.Notes {
			notes = append(notes, st.Warn.Render("⚠ "+n))
		}
		if hist.Truncated {
			notes = append(notes, st.Dim.Render("the JobManager holds more than it sent"))
		}
		for _, n := range notes {
			out = append(out, exLine{text: " " + kit.Truncate(n, max(w-2, 10)), entry: -1})
		}
	}
	for i, ex := range exs {
		switch i {
		case 0:
			out = append(out, exLine{text: " " + st.Section.Render("Root cause") + st.Dim.Render(" · the latest failure, "+kit.Ago(now, ex.Time)), entry: -1})
		case 1:
			out = append(out, exLine{entry: -1}, exLine{text: " " + st.Section.Render(fmt.Sprintf("History · %d earlier %s", len(exs)-1, countNoun(len(exs)-1, "failure", "failures"))), entry: -1})
		}
		cause := kit.Truncate(kit.OrDash(ex.RootCause), max(w-17, 10))
		if i == 0 {
			cause = st.Error.Render(cause)
		}
		out = append(out, exLine{text: fmt.Sprintf("   %-12s %s", kit.ClockTime(now, ex.Time), cause), entry: i})
		var where []string
		if ex.Task != "" {
			where = append(where, "in "+ex.Task)
		}
		if ex.Endpoint != "" {
			where = append(where, "@ "+ex.Endpoint)
		}
		if len(where) > 0 {
			out = append(out, exLine{text: exIndent + st.Dim.Render(kit.Truncate(strings.Join(where, " "), max(w-17, 10))), entry: i})
		}
		if ex.TaskManager != "" || ex.Stored {
			var on []string
			if ex.TaskManager != "" {
				on = append(on, "TaskManager "+ex.TaskManager)
			}
			if ex.Stored {
				on = append(on, "kept by palink")
			}
			out = append(out, exLine{text: exIndent + st.Dim.Render(kit.Truncate(strings.Join(on, " · "), max(w-17, 10))), entry: i})
		}
		stack := stackLines(ex.Stacktrace)
		if !t.open[exceptionKey(ex)] {
			if n := len(ex.Chain); n > 1 || len(stack) > 0 {
				what := fmt.Sprintf("▸ cause chain of %d", n)
				if len(stack) > 0 {
					what += fmt.Sprintf(", stack trace of %d %s", len(stack), countNoun(len(stack), "line", "lines"))
				}
				out = append(out, exLine{text: exIndent + st.Dim.Render(what), entry: i})
			}
			continue
		}
		out = append(out, exLine{text: exIndent + st.Dim.Render("▾ cause chain, outermost first"), entry: i})
		for k, c := range ex.Chain {
			style := st.Text
			if k == len(ex.Chain)-1 {
				style = st.Warn
			}
			for n, part := range strings.Split(ansi.Hardwrap(c.String(), max(w-22, 20), true), "\n") {
				lead := fmt.Sprintf("%s%d ", exIndent+"  ", k+1)
				if n > 0 {
					lead = exIndent + "    "
				}
				out = append(out, exLine{text: lead + style.Render(part), entry: i})
			}
		}
		if len(stack) == 0 {
			continue
		}
		out = append(out, exLine{text: exIndent + st.Dim.Render("▾ stack trace"), entry: i})
		for _, l := range stack {
			style := st.Text
			if strings.HasPrefix(strings.TrimSpace(l), "Caused by:") {
				style = st.Warn
			} else if strings.HasPrefix(l, "  at ") || strings.HasPrefix(l, "  ...") {
				style = st.Dim
			}
			// A frame wider than the screen wraps, so that none is cut.
			for k, part := range strings.Split(ansi.Hardwrap(l, max(w-20, 20), true), "\n") {
				indent := exIndent + "  "
				if k > 0 {
					indent += "    "
				}
				out = append(out, exLine{text: indent + style.Render(part), entry: i})
			}
		}
	}
	return out
}

func countNoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (t *exceptionsTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		t.width, t.height = msg.Width, msg.Height
	case diagFetchedMsg[api.ExceptionHistory]:
		_, next := t.live.take(msg)
		return t, next
	case failureLogMsg:
		if msg.jobID != t.live.job.ID {
			return t, nil
		}
		t.jumping = false
		return t, msg.open
	case tea.KeyPressMsg:
		lines := t.lines(d)
		sel := exSelectable(lines) // none for text only (diagnostics): it scrolls
		if t.cur.Key(t.env.Keys, msg, sel, len(lines), t.height) {
			return t, nil
		}
		on := t.cur.On(sel)
		if on < 0 {
			return t, nil
		}
		e := lines[on].entry
		ex := t.entries(d)[e]
		switch {
		case key.Matches(msg, t.env.Keys.Diag.Chain):
			k := exceptionKey(ex)
			t.open[k] = !t.open[k]
			// Keep the cursor on the failure's first line, which stays put.
			lines = t.lines(d)
			t.cur.Cursor = slices.IndexFunc(lines, func(l exLine) bool { return l.entry == e })
			t.cur.Offset = kit.ScrollTo(t.cur.Cursor, t.cur.Offset, t.height, len(lines))
		case key.Matches(msg, t.env.Keys.Diag.FailureLog):
			return t, t.failureLog(d, failingTask(t.entries(d), e))
		}
	}
	return t, nil
}

// failingTask is the failure whose TaskManager's log tells of entry i: the
// entry itself, or, for a job-wide failure (Flink's "Recovery is
// suppressed" names no task), a concurrent one or the nearest one within
// ten seconds with the same cause that names its TaskManager.
func failingTask(exs []api.ExceptionEntry, i int) api.ExceptionEntry {
	ex := exs[i]
	if ex.TaskManager != "" {
		return ex
	}
	for _, c := range ex.Concurrent {
		if c.TaskManager != "" {
			return c
		}
	}
	best, gap := -1, 10*time.Second
	for k, o := range exs {
		d := o.Time.Sub(ex.Time).Abs()
		if k != i && o.TaskManager != "" && o.RootCause == ex.RootCause && d <= gap {
			best, gap = k, d
		}
	}
	if best >= 0 {
		return exs[best]
	}
	return ex
}

// failureLogMsg carries the Cmd that opens a failure's log, once its
// container's file is known.
type failureLogMsg struct {
	jobID string
	open  tea.Cmd
}

// failureLog opens the log of the TaskManager a failure happened on, at
// the failure's time: Flink's copy while the application runs, the YARN
// container's file (found through ContainerLogs) once it ended.
func (t *exceptionsTab) failureLog(d *jobData, ex api.ExceptionEntry) tea.Cmd {
	if ex.TaskManager == "" {
		return kit.Flash(kit.FlashWarn, "this failure names no TaskManager (a job-wide failure): the JobManager's log has it, under Logs")
	}
	if t.jumping {
		return nil
	}
	id, name, live := d.job.ID, d.job.Name, d.job.State.Live()
	// Flink logs lines in UTC by default, to the second, as the simulator does.
	find := api.LogQuery{Text: ex.Time.UTC().Format(time.DateTime)}
	if live && !ex.Stored {
		return kit.Send(kit.OpenLogMsg{JobID: id, JobName: name, Source: taskManagerLog(ex.TaskManager), Find: find})
	}
	t.jumping = true
	c := t.call()
	tm := ex.TaskManager
	return kit.Busy("failurelog:"+id, "finding the log of container "+kit.ContainerShort(tm)+"…", func() tea.Msg {
		l, err := kit.Diagnose(c, "container logs of "+name, func(ctx context.Context, s api.DiagnoseService) (api.ContainerLogList, error) {
			return s.ContainerLogs(ctx, id)
		})
		key := "failurelog:" + id
		if err != nil {
			return failureLogMsg{jobID: id, open: kit.FlashFor(key, kit.FlashError, err.Error())}
		}
		src, ok := ContainerLogFile(l, tm)
		if !ok {
			why := fmt.Sprintf("container %s of %s has no log to read", tm, name)
			if app := ContainerApp(tm); app != "" && l.AppID != "" && app != l.AppID {
				why = fmt.Sprintf("container %s ran in %s, an earlier run of %s, whose logs palink does not list: yarn logs -applicationId %s -containerId %s", kit.ContainerShort(tm), app, name, app, tm)
			} else if len(l.Notes) > 0 {
				why += ": " + l.Notes[0]
			}
			return failureLogMsg{jobID: id, open: kit.FlashFor(key, kit.FlashWarn, why)}
		}
		return failureLogMsg{jobID: id, open: tea.Batch(kit.ClearFlash(key), kit.Send(kit.OpenLogMsg{JobID: id, JobName: name, Source: src, Find: find}))}
	})
}

// ContainerLogFile is a container's main log file: taskmanager.log (or
// jobmanager.log), else its first *.log, else its first file.
func ContainerLogFile(l api.ContainerLogList, container string) (api.LogSource, bool) {
	i := slices.IndexFunc(l.Containers, func(c api.ContainerLog) bool { return c.ID == container })
	if i < 0 || len(l.Containers[i].Files) == 0 {
		return api.LogSource{}, false
	}
	files := l.Containers[i].Files
	for _, pick := range []func(string) bool{
		func(n string) bool { return n == "taskmanager.log" || n == "jobmanager.log" },
		func(n string) bool { return strings.HasSuffix(n, ".log") },
	} {
		if k := slices.IndexFunc(files, func(s api.LogSource) bool { return pick(s.Ref.Name) }); k >= 0 {
			return files[k], true
		}
	}
	return files[0], true
}

// ContainerApp is the application a YARN container id belongs to
// (container_e01_1732000000000_0042_01_000002 → application_1732000000000_0042),
// or "" for an id of another shape.
func ContainerApp(id string) string {
	parts := strings.Split(id, "_")
	if len(parts) > 0 && parts[0] == "container" && len(parts) >= 5 && strings.HasPrefix(parts[1], "e") {
		parts = append(parts[:1], parts[2:]...) // the epoch
	}
	if len(parts) != 5 || parts[0] != "container" {
		return ""
	}
	return "application_" + parts[1] + "_" + parts[2]
}

// taskManagerLog is a TaskManager's main log through Flink.
func taskManagerLog(id string) api.LogSource {
	return api.LogSource{Kind: api.LogTaskManager, Ref: api.LogRef{TaskManager: id}, Title: "TaskManager " + id + " log", Size: -1}
}

// exSelectable lists the lines the cursor may rest on: those of a failure.
func exSelectable(lines []exLine) []int {
	var out []int
	for i, l := range lines {
		if l.entry >= 0 {
			out = append(out, i)
		}
	}
	return out
}

func (t *exceptionsTab) View(d *jobData) string {
	lines := t.lines(d)
	sel := exSelectable(lines)
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
