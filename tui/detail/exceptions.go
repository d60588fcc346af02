package detail

import (
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

// exceptionsTab is the job detail's Exceptions tab: the latest failure's
// root cause first, then the earlier failures, each with its stack trace
// folded to one line; enter on any line of a failure expands or folds it.
type exceptionsTab struct {
	env *kit.Env
	// open holds the expanded failures, by exceptionKey, so that a reload
	// of the detail keeps them open.
	open          map[string]bool
	cur           kit.LineCursor
	width, height int
}

func newExceptionsTab(e *kit.Env) *exceptionsTab {
	return &exceptionsTab{env: e, open: map[string]bool{}}
}

func (t *exceptionsTab) Title() string            { return "Exceptions" }
func (t *exceptionsTab) Capturing() bool          { return false }
func (t *exceptionsTab) ShortHelp() []key.Binding { return []key.Binding{t.env.Keys.Detail.Fold} }

func exceptionKey(ex api.ExceptionInfo) string {
	return ex.Time.Format(time.RFC3339Nano) + " " + ex.Name
}

// exLine is one line of the tab; entry is the failure it belongs to (-1
// for none).
type exLine struct {
	text  string
	entry int
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

// innermostCause is the last "Caused by:" of a stack trace: the cause
// nearest the fault, which the trace's first line often hides.
func innermostCause(stack []string) string {
	for i := len(stack) - 1; i >= 0; i-- {
		if c, ok := strings.CutPrefix(strings.TrimSpace(stack[i]), "Caused by: "); ok {
			return c
		}
	}
	return ""
}

func (t *exceptionsTab) lines(d *jobData) []exLine {
	st, now, w := t.env.Styles, t.env.Now, t.width
	dim := func(s string) exLine { return exLine{text: " " + st.Dim.Render(s), entry: -1} }
	switch {
	case d.detail == nil:
		return []exLine{dim("loading…")}
	case (d.detail.Live == nil || len(d.detail.Live.Exceptions) == 0) && d.job.Diagnostics != "":
		// The JobManager is gone with the application: YARN's diagnostics
		// are what is left of the failure, shown whole.
		out := []exLine{{text: " " + st.Section.Render("Root cause") + st.Dim.Render(" · YARN's diagnostics, as Flink has none to show"), entry: -1}}
		for _, l := range stackLines(d.job.Diagnostics) {
			for _, part := range strings.Split(ansi.Hardwrap(l, max(w-6, 20), true), "\n") {
				out = append(out, exLine{text: "   " + part, entry: -1})
			}
		}
		return out
	case d.detail.Live == nil:
		return []exLine{dim("no live facts: " + kit.OrDash(d.detail.LiveError))}
	case len(d.detail.Live.Exceptions) == 0:
		return []exLine{dim("no exceptions recorded")}
	}
	exs := d.detail.Live.Exceptions
	var out []exLine
	for i, ex := range exs {
		switch i {
		case 0:
			out = append(out, exLine{text: " " + st.Section.Render("Root cause") + st.Dim.Render(" · the latest failure, "+kit.Ago(now, ex.Time)), entry: -1})
		case 1:
			out = append(out, exLine{entry: -1}, exLine{text: " " + st.Section.Render(fmt.Sprintf("History · %d earlier %s", len(exs)-1, countNoun(len(exs)-1, "failure", "failures"))), entry: -1})
		}
		name := ex.Name
		if name == "" {
			name = kit.FirstLine(ex.Stacktrace)
		}
		head := fmt.Sprintf("   %-12s %s", kit.ClockTime(now, ex.Time), kit.Truncate(name, max(w-17, 10)))
		if i == 0 {
			head = fmt.Sprintf("   %-12s %s", kit.ClockTime(now, ex.Time), st.Error.Render(kit.Truncate(name, max(w-17, 10))))
		}
		out = append(out, exLine{text: head, entry: i})
		var where []string
		for _, x := range []string{ex.Task, ex.Location} {
			if x != "" {
				where = append(where, x)
			}
		}
		if len(where) > 0 {
			out = append(out, exLine{text: "                " + st.Dim.Render("in "+strings.Join(where, " @ ")), entry: i})
		}
		stack := stackLines(ex.Stacktrace)
		if c := innermostCause(stack); c != "" && !strings.HasPrefix(name, c) {
			out = append(out, exLine{text: "                " + st.Warn.Render(kit.Truncate("caused by "+c, max(w-17, 10))), entry: i})
		}
		if len(stack) == 0 {
			continue
		}
		if !t.open[exceptionKey(ex)] {
			out = append(out, exLine{text: "                " + st.Dim.Render(fmt.Sprintf("▸ stack trace, %d %s", len(stack), countNoun(len(stack), "line", "lines"))), entry: i})
			continue
		}
		out = append(out, exLine{text: "                " + st.Dim.Render("▾ stack trace"), entry: i})
		for _, l := range stack {
			style := st.Text
			if strings.HasPrefix(strings.TrimSpace(l), "Caused by:") {
				style = st.Warn
			} else if strings.HasPrefix(l, "  at ") || strings.HasPrefix(l, "  ...") {
				style = st.Dim
			}
			// A frame wider than the screen wraps, so that none is cut.
			for k, part := range strings.Split(ansi.Hardwrap(l, max(w-20, 20), true), "\n") {
				indent := "                  "
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
	case tea.KeyPressMsg:
		lines := t.lines(d)
		sel := exSelectable(lines) // none for text only (diagnostics): it scrolls
		if t.cur.Key(t.env.Keys, msg, sel, len(lines), t.height) {
			return t, nil
		}
		if on := t.cur.On(sel); on >= 0 && key.Matches(msg, t.env.Keys.Detail.Fold) {
			e := lines[on].entry
			k := exceptionKey(d.detail.Live.Exceptions[e])
			t.open[k] = !t.open[k]
			// Keep the cursor on the failure's first line, which stays put.
			lines = t.lines(d)
			t.cur.Cursor = slices.IndexFunc(lines, func(l exLine) bool { return l.entry == e })
			t.cur.Offset = kit.ScrollTo(t.cur.Cursor, t.cur.Offset, t.height, len(lines))
		}
	}
	return t, nil
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
