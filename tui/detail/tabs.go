package detail

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// tabLine is one rendered line of a tab; a line with a target can be
// selected, and enter acts on the target.
type tabLine struct {
	text   string
	target any
}

// linesTab is a tab whose content is a list of lines, scrolled, with an
// optional cursor over the selectable ones. Its content comes from a pure
// render function of the job data, so it is always current.
type linesTab struct {
	env           *kit.Env
	title         string
	render        func(e *kit.Env, d *jobData, w int) []tabLine
	enter         func(e *kit.Env, d *jobData, target any) tea.Cmd
	cur           kit.LineCursor
	width, height int
}

func newLinesTab(e *kit.Env, title string, render func(*kit.Env, *jobData, int) []tabLine, enter func(*kit.Env, *jobData, any) tea.Cmd) *linesTab {
	return &linesTab{env: e, title: title, render: render, enter: enter}
}

func (t *linesTab) Title() string   { return t.title }
func (t *linesTab) Capturing() bool { return false }

func (t *linesTab) ShortHelp() []key.Binding {
	if t.enter != nil {
		if t.title == "Commands" {
			return []key.Binding{t.env.Keys.Detail.OpenLog}
		}
		return []key.Binding{t.env.Keys.Nav.Enter}
	}
	return nil
}

// selectable lists the indexes of the lines with a target; none when the
// tab has nothing to do with one.
func (t *linesTab) selectable(lines []tabLine) []int {
	if t.enter == nil {
		return nil
	}
	var out []int
	for i, l := range lines {
		if l.target != nil {
			out = append(out, i)
		}
	}
	return out
}

func (t *linesTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		t.width, t.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		lines := t.render(t.env, d, t.width)
		sel := t.selectable(lines)
		if t.cur.Key(t.env.Keys, msg, sel, len(lines), t.height) {
			return t, nil
		}
		if on := t.cur.On(sel); on >= 0 && key.Matches(msg, t.env.Keys.Nav.Enter) {
			t.cur.Cursor = on
			return t, t.enter(t.env, d, lines[on].target)
		}
	}
	return t, nil
}

func (t *linesTab) View(d *jobData) string {
	lines := t.render(t.env, d, t.width)
	sel := t.selectable(lines)
	t.cur.Fix(sel, len(lines), t.height)
	from, to := t.cur.Window(len(lines), t.height)
	out := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		l := lines[i].text
		if len(sel) > 0 && i == t.cur.Cursor {
			l = t.env.Styles.Cursor.Render(kit.Fit("▸"+strings.TrimPrefix(l, " "), t.width))
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// kv renders a label and a value for the overview.
func kv(st *kit.Styles, label, value string) tabLine {
	return tabLine{text: " " + st.Label.Render(fmt.Sprintf("%-12s", label)) + " " + value}
}

func section(st *kit.Styles, title string) tabLine {
	return tabLine{text: " " + st.Section.Render(title)}
}

// pythonEntry is how a PyFlink spec starts: -py FILE or -pym MODULE, with
// its extra files and program arguments.
func pythonEntry(s model.Spec) string {
	parts := []string{"-py " + s.PyFile}
	if s.PyModule != "" {
		parts = []string{"-pym " + s.PyModule}
	}
	if len(s.PyFiles) > 0 {
		parts = append(parts, "-pyfs "+strings.Join(s.PyFiles, ","))
	}
	if s.PyRequirements != "" {
		parts = append(parts, "-pyreq "+s.PyRequirements)
	}
	return strings.Join(append(parts, s.Args...), " ")
}

func overviewLines(e *kit.Env, d *jobData, w int) []tabLine {
	st, now, j := e.Styles, e.Now, d.job
	var out []tabLine
	out = append(out, section(st, "Job"))
	spec := kit.NoValue
	if d.detail != nil {
		s := d.detail.Spec
		switch j.Kind {
		case model.KindSQL:
			spec = fmt.Sprintf("SQL v%d · %s", s.Version, kit.Truncate(kit.FirstLine(s.SQL), max(w-40, 20)))
		case model.KindJAR:
			spec = fmt.Sprintf("JAR v%d · %s · %s %s", s.Version, s.JarPath, s.EntryClass, strings.Join(s.Args, " "))
		case model.KindPython:
			spec = fmt.Sprintf("PYTHON v%d · %s", s.Version, kit.Truncate(pythonEntry(s), max(w-40, 20)))
		}
		if s.Note != "" {
			spec += st.Dim.Render(" — " + s.Note)
		}
	} else if j.Kind != 0 {
		spec = fmt.Sprintf("%s v%d", j.Kind, j.SpecVersion)
	}
	out = append(out, kv(st, "spec", spec))
	state := st.Job(&j.Job).Render(j.State.String()) + pauseNote(st, now, d)
	if flinkStateShown(j.Job) {
		state += st.Dim.Render(" · Flink " + j.FlinkState)
	}
	if p := j.Pending; p != nil && !p.State.Final() {
		state += st.Warn.Render(fmt.Sprintf(" · %s #%d %s", p.Kind, p.Seq, p.State))
	}
	out = append(out, kv(st, "state", state))
	if dr := j.Drift; dr != nil {
		out = append(out, kv(st, "drift", st.Warn.Render(fmt.Sprintf("⚠ expected %s, cluster says %s (since %s)", dr.Expected, dr.Observed, kit.Ago(now, dr.Since)))))
	}
	mode := "per-job cluster"
	if j.Session {
		mode = "session cluster (kill cancels the Flink job only)"
	}
	par := ""
	if j.Parallelism > 0 {
		par = fmt.Sprintf(" · parallelism %d", j.Parallelism)
	}
	out = append(out,
		kv(st, "cluster", j.Cluster+" · "+mode+par),
		kv(st, "ids", fmt.Sprintf("job %s · app %s · flink %s", j.ID, kit.OrDash(j.AppID), kit.OrDash(j.FlinkJobID))),
		kv(st, "tracking", kit.OrDash(j.TrackingURL)),
		kv(st, "jobmanager", kit.OrDash(j.JMAddress)),
		kv(st, "restarts", fmt.Sprintf("platform %d · Flink %d", j.PlatformRestarts, j.FlinkRestarts)+nextRestart(now, j.NextRestart)),
		kv(st, "times", fmt.Sprintf("started %s · synced %s · created %s", kit.Ago(now, j.StartedAt), kit.Ago(now, j.SyncedAt), kit.Ago(now, j.CreatedAt))),
	)
	if j.Diagnostics != "" {
		out = append(out, kv(st, "diagnostics", st.Error.Render(kit.Truncate(kit.FirstLine(j.Diagnostics), max(w-16, 20)))))
	}
	if f := j.Figures; !f.At.IsZero() {
		out = append(out, kv(st, "figures", fmt.Sprintf("in %s/s · out %s/s · backpressure %s · watermark delay %s · as of %s",
			kit.Rate(f.RecordsInPerSec), kit.Rate(f.RecordsOutPerS), kit.Backpressure(f.Backpressure), kit.Duration(f.WatermarkDelay), kit.Ago(now, f.At))))
	}
	switch {
	case d.detail == nil:
		out = append(out, kv(st, "live", st.Dim.Render("syncing with the cluster…")))
	case d.detail.Live != nil:
		l := d.detail.Live
		out = append(out, kv(st, "live", fmt.Sprintf("YARN %s/%s · Flink %s · fetched %s", kit.OrDash(l.YARNState), kit.OrDash(l.FinalStatus), kit.OrDash(l.FlinkState), kit.Ago(now, l.FetchedAt))))
		for _, v := range l.Vertices {
			out = append(out, tabLine{text: fmt.Sprintf("              %s ×%d %s", v.Name, v.Parallelism, st.Dim.Render(v.Status))})
		}
	default:
		out = append(out, kv(st, "live", st.Warn.Render("⚠ no live facts: "+kit.OrDash(d.detail.LiveError))))
	}

	out = append(out, tabLine{}, section(st, "Restore points"))
	rps := restorePointRows(now, j.Job, w)
	if len(rps) == 0 {
		out = append(out, tabLine{text: "  " + st.Dim.Render("none yet — a restart would start with empty state")})
	}
	return wrapHanging(append(out, rps...), w, kvIndent)
}

// kvIndent is where an overview value starts: under it go the rest of a
// value too long for one line.
const kvIndent = 14

// wrapHanging breaks the lines wider than w at their words, the rest of
// each under its value (indent cells in), so that a long value is read
// whole rather than cut.
func wrapHanging(lines []tabLine, w, indent int) []tabLine {
	if w <= indent+10 {
		return lines
	}
	pad := strings.Repeat(" ", indent)
	var out []tabLine
	for _, l := range lines {
		if kit.Width(l.text) <= w {
			out = append(out, l)
			continue
		}
		head := ansi.Truncate(l.text, indent, "")
		value := ansi.TruncateLeft(l.text, indent, "")
		for i, r := range strings.Split(ansi.Wrap(value, w-indent, " "), "\n") {
			if i == 0 {
				out = append(out, tabLine{text: head + r, target: l.target})
				continue
			}
			out = append(out, tabLine{text: pad + strings.TrimLeft(r, " ")})
		}
	}
	return out
}

// pauseNote tells a paused job from one that ended: the pause, when, and
// the savepoint a restart resumes from; for a FINISHED job that no pause
// stopped, that it ended by itself.
func pauseNote(st *kit.Styles, now time.Time, d *jobData) string {
	j := d.job.Job
	if j.State != model.StateFinished {
		return ""
	}
	if sp, ok := kit.Paused(&j); ok {
		return st.StatePaused.Render(" ‖ paused") + st.Dim.Render(fmt.Sprintf(" by %s %s · savepoint %s · r resumes from it", sp.Origin, kit.Ago(now, sp.Time), lastPathPart(sp.Path)))
	}
	if c, ok := lastEventCommand(d); ok && c.Kind == model.CmdPause {
		return st.StatePaused.Render(" ‖ paused") + st.Dim.Render(fmt.Sprintf(" by %s #%d %s · its savepoint's path is unknown (see its log)", c.Kind, c.Seq, kit.Ago(now, c.EndedAt)))
	}
	return st.Dim.Render(" · ended by itself, not paused")
}

// lastEventCommand is the command of the job's last event, when a command
// made it and the detail has it.
func lastEventCommand(d *jobData) (model.Command, bool) {
	if d.detail == nil || len(d.detail.Events) == 0 {
		return model.Command{}, false
	}
	last := slices.MaxFunc(d.detail.Events, func(a, b model.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	if last.CommandID == "" {
		return model.Command{}, false
	}
	i := slices.IndexFunc(d.detail.Commands, func(c model.Command) bool { return c.ID == last.CommandID })
	if i < 0 {
		return model.Command{}, false
	}
	return d.detail.Commands[i], true
}

// flinkStateShown reports whether Flink's state, as palink last saw it,
// is still worth showing beside the job's: always while the job is live,
// and after only when Flink's is final too. A FAILED job never shows
// "Flink RUNNING": that was seen before the application went.
func flinkStateShown(j model.Job) bool {
	switch {
	case j.FlinkState == "":
		return false
	case j.State.Live():
		return true
	}
	switch j.FlinkState {
	case "FINISHED", "FAILED", "CANCELED", "SUSPENDED":
		return true
	}
	return false
}

func nextRestart(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if t.After(now) {
		return " · next policy restart in " + kit.Age(t.Sub(now))
	}
	return " · policy restart due"
}

// restorePointRows lists the job's latest restore points, newest first,
// and the one it restored from, w cells wide: a path gives way in its
// middle, keeping the part that names it.
func restorePointRows(now time.Time, j model.Job, w int) []tabLine {
	type row struct {
		label, age, path string
		at               time.Time
	}
	var rows []row
	for _, r := range []struct {
		label string
		rp    *model.RestorePoint
	}{{"latest checkpoint", j.LatestCheckpoint}, {"latest savepoint", j.LatestSavepoint}} {
		if r.rp != nil {
			rows = append(rows, row{r.label, kit.Ago(now, r.rp.Time), r.rp.Path, r.rp.Time})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return b.at.Compare(a.at) })
	if j.RestoredFrom != "" {
		rows = append(rows, row{label: "restored from", path: j.RestoredFrom})
	}
	cols := kit.Columns[row]{
		{Width: 18, Cell: func(r row) string { return r.label }},
		{Width: 10, Cell: func(r row) string { return r.age }},
		{Flex: true, Cell: func(r row) string { return r.path }, Cut: cutPath[row]},
	}
	lay := cols.Lay(rows, w-kit.Gutter)
	var out []tabLine
	for _, r := range rows {
		out = append(out, tabLine{text: strings.TrimRight("  "+cols.Cells(nil, lay, r), " ")})
	}
	return out
}

// timelineIndent is where an event's reason starts: a long one wraps
// under itself.
const timelineIndent = 31

func timelineLines(e *kit.Env, d *jobData, w int) []tabLine {
	st, now := e.Styles, e.Now
	if d.detail == nil {
		return []tabLine{{text: " " + st.Dim.Render("loading the job's history…")}}
	}
	evs := slices.Clone(d.detail.Events)
	if len(evs) == 0 {
		return []tabLine{{text: " " + st.Dim.Render("no events yet")}}
	}
	slices.SortStableFunc(evs, func(a, b model.Event) int { return cmp.Compare(b.Seq, a.Seq) })
	out := make([]tabLine, 0, len(evs))
	for _, ev := range evs {
		to := st.JobState(ev.To, "").Render(fmt.Sprintf("%-16s", ev.To))
		out = append(out, tabLine{text: fmt.Sprintf(" %-12s %s %s", kit.ClockTime(now, ev.Time), to, ev.Reason)})
	}
	return wrapHanging(out, w, timelineIndent)
}

func commandLines(e *kit.Env, d *jobData, w int) []tabLine {
	st, now := e.Styles, e.Now
	if d.detail == nil {
		return []tabLine{{text: " " + st.Dim.Render("loading…")}}
	}
	cs := slices.Clone(d.detail.Commands)
	if len(cs) == 0 {
		return []tabLine{{text: " " + st.Dim.Render("no commands yet")}}
	}
	slices.SortStableFunc(cs, func(a, b model.Command) int { return cmp.Compare(b.Seq, a.Seq) })
	cols := jobCommandColumns(now)
	lay := cols.Lay(cs, w)
	out := []tabLine{{text: " " + st.ColumnHeader.Render(cols.Titles(lay))}}
	before := catalogBefore(cs)
	for _, c := range cs {
		out = append(out, tabLine{text: kit.Truncate(" "+cols.Cells(st, lay, c), w), target: c})
		if l, ok := catalogLine(st, c, before, w); ok {
			out = append(out, l)
		}
	}
	return out
}

// jobCommandColumns are a job's commands, newest first: what and how it
// went, when, who issued it and what it came to (`:cmd` lists every job's
// with more room).
func jobCommandColumns(now time.Time) kit.Columns[model.Command] {
	type c = model.Command
	return kit.Columns[c]{
		{Title: "#", Width: 6, Cell: func(c c) string { return fmt.Sprintf("#%d", c.Seq) }},
		{Title: "KIND", Width: 9, Cell: func(c c) string { return c.Kind.String() }},
		{Title: "STATE", Width: 10, Cell: func(c c) string { return c.State.String() },
			Style: func(st *kit.Styles, c c, s string) string { return st.CommandState(c.State).Render(s) }},
		{Title: "AGE", Width: 8, Cell: func(c c) string { return kit.Since(now, c.CreatedAt) }},
		{Title: "BY", Width: 10, Cell: func(c c) string { return kit.OrDash(c.Issuer) }},
		{Title: "RESULT", Cell: func(c c) string { return kit.CommandResult(c, now) },
			Style: func(st *kit.Styles, c c, s string) string {
				if c.State == model.CmdFailed {
					return st.Error.Render(s)
				}
				return st.Dim.Render(s)
			}},
	}
}

func openCommandLog(e *kit.Env, d *jobData, target any) tea.Cmd {
	c, ok := target.(model.Command)
	if !ok {
		return nil
	}
	return kit.Send(kit.OpenCommandLogMsg{Cmd: c})
}
