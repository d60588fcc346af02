package detail

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/tui/sqlview"
)

// sqlTab is the detail's SQL tab: the current version, highlighted, with
// the validator's markers; e (or enter) opens it in the editor.
type sqlTab struct {
	env *kit.Env
	id  int

	// The checked text: its job, version and diagnostics.
	checkedJob     string
	checkedVersion int
	diags          []flinksql.Diagnostic
	hl             [][]sqlview.Span
	hlText         string

	pager         kit.Pager
	width, height int
	kind          model.JobKind // the job's, for the footer
}

// sqlTabCheckedMsg carries the tab's validation of a version.
type sqlTabCheckedMsg struct {
	id      int
	jobID   string
	version int
	res     flinksql.Result
}

func newSQLTab(e *kit.Env) *sqlTab { return &sqlTab{env: e, id: e.NextSeq(), pager: kit.NewPager()} }

func (t *sqlTab) Title() string   { return "SQL" }
func (t *sqlTab) Capturing() bool { return false }

func (t *sqlTab) ShortHelp() []key.Binding {
	if t.kind == model.KindPython {
		return []key.Binding{t.env.Keys.Editor.Versions}
	}
	return []key.Binding{t.env.Keys.Detail.EditSQL, t.env.Keys.Open.EditSQL}
}

func (t *sqlTab) Update(msg tea.Msg, d *jobData) (detailTab, tea.Cmd) {
	t.kind = d.job.Kind
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		t.width, t.height = msg.Width, msg.Height
		t.pager.SetSize(t.width, t.height-1) // under the head line
	case sqlTabCheckedMsg:
		if msg.id == t.id && d.detail != nil && msg.jobID == d.job.ID && msg.version == d.detail.Spec.Version {
			t.diags = msg.res.Diagnostics
		}
	case tea.KeyPressMsg:
		if d.job.Kind == model.KindPython && key.Matches(msg, t.env.Keys.Editor.Versions) {
			// A PyFlink script has no editor here: its versions diff.
			return t, kit.Send(kit.OpenVersionsMsg{Job: d.job})
		}
		if key.Matches(msg, t.env.Keys.Detail.EditSQL) {
			return t, kit.Send(kit.OpenEditorMsg{Job: d.job})
		}
		t.pager.SetLines(t.lines(d))
		t.pager.Key(t.env.Keys.Nav, msg)
	}
	// A new version (the first load, a save elsewhere) is checked again.
	if d.detail != nil && d.job.Kind == model.KindSQL &&
		(t.checkedJob != d.job.ID || t.checkedVersion != d.detail.Spec.Version) {
		t.checkedJob, t.checkedVersion, t.diags = d.job.ID, d.detail.Spec.Version, nil
		id, job, v, text := t.id, d.job.ID, d.detail.Spec.Version, d.detail.Spec.SQL
		return t, func() tea.Msg {
			return sqlTabCheckedMsg{id: id, jobID: job, version: v, res: flinksql.Check(text, flinksql.Options{})}
		}
	}
	return t, nil
}

func (t *sqlTab) lines(d *jobData) []string {
	if d.detail == nil {
		return nil
	}
	if d.job.Kind == model.KindPython {
		return strings.Split(strings.TrimRight(d.detail.Spec.Python, "\n"), "\n")
	}
	return strings.Split(d.detail.Spec.SQL, "\n")
}

// pythonView shows a PyFlink spec: how it starts, then its entry script
// (versioned like SQL), paged, with line numbers and no highlighting.
func (t *sqlTab) pythonView(d *jobData) string {
	st, ed, s := t.env.Styles, &t.env.Styles.Editor, d.detail.Spec
	out := []string{" " + st.Dim.Render(fmt.Sprintf("spec v%d (current) · saved %s by %s · ctrl+o versions", s.Version, kit.Ago(t.env.Now, s.CreatedAt), kit.OrDash(s.Author))),
		kv(st, "entry", pythonEntry(s)).text}
	if s.PyExecutable != "" {
		out = append(out, kv(st, "python", s.PyExecutable).text)
	}
	if s.PyModule != "" {
		return strings.Join(out, "\n")
	}
	lines := t.lines(d)
	digits := max(len(fmt.Sprint(len(lines))), 3)
	t.pager.SetSize(t.width, max(t.height-len(out), 1))
	t.pager.SetLines(lines)
	from, to := t.pager.Window(len(lines))
	for i := from; i < to; i++ {
		out = append(out, " "+ed.LineNumber.Render(fmt.Sprintf("%*d", digits, i+1))+ed.Gutter.Render(" │ ")+kit.Truncate(lines[i], max(t.width-digits-4, 1)))
	}
	return strings.Join(out, "\n")
}

func (t *sqlTab) View(d *jobData) string {
	st := t.env.Styles
	ed := &st.Editor
	if d.detail == nil {
		return " " + st.Dim.Render("loading…")
	}
	s := d.detail.Spec
	if d.job.Kind == model.KindPython {
		return t.pythonView(d)
	}
	if d.job.Kind != model.KindSQL {
		head := " " + st.Dim.Render(fmt.Sprintf("spec v%d (current) · saved %s by %s", s.Version, kit.Ago(t.env.Now, s.CreatedAt), kit.OrDash(s.Author)))
		return strings.Join([]string{head, "", kv(st, "jar", kit.OrDash(s.JarPath)).text, kv(st, "entry class", kit.OrDash(s.EntryClass)).text,
			kv(st, "args", kit.OrDash(strings.Join(s.Args, " "))).text}, "\n")
	}
	problems := ""
	errs, warns := sqlview.CountSeverity(t.diags, flinksql.SeverityError), sqlview.CountSeverity(t.diags, flinksql.SeverityWarning)
	if errs > 0 {
		problems += "  " + ed.ErrorMark.Render("✖ "+kit.Plural(errs, "error"))
	}
	if warns > 0 {
		problems += "  " + ed.WarnMark.Render("⚠ "+kit.Plural(warns, "warning"))
	}
	head := " " + st.Dim.Render(fmt.Sprintf("spec v%d (current) · saved %s by %s · e or enter edits", s.Version, kit.Ago(t.env.Now, s.CreatedAt), kit.OrDash(s.Author))) + problems
	if t.hlText != s.SQL || t.hl == nil {
		t.hl, t.hlText = sqlview.Highlight(s.SQL), s.SQL
	}
	lines := t.lines(d)
	digits := max(len(fmt.Sprint(len(lines))), 3)
	sty := sqlview.NewStyler(ed)
	t.pager.SetLines(lines)
	from, to := t.pager.Window(len(lines))
	out := []string{head}
	for i := from; i < to; i++ {
		mk := sqlview.Marks{Cursor: -1}
		marker := " "
		for _, dg := range t.diags {
			if dg.Pos.Line-1 != i {
				continue
			}
			sev := 1
			if dg.Severity == flinksql.SeverityError {
				sev = 2
			}
			to := dg.End.Col - 1
			if dg.End.Line != dg.Pos.Line || to <= dg.Pos.Col-1 {
				to = dg.Pos.Col
			}
			mk.Diags = append(mk.Diags, [3]int{dg.Pos.Col - 1, to, sev})
			if sev == 2 || marker == " " {
				marker = map[int]string{1: ed.WarnMark.Render("⚠"), 2: ed.ErrorMark.Render("✖")}[sev]
			}
		}
		var spans []sqlview.Span
		if i < len(t.hl) {
			spans = t.hl[i]
		}
		gutter := marker + ed.LineNumber.Render(fmt.Sprintf("%*d", digits, i+1)) + ed.Gutter.Render(" │ ")
		out = append(out, gutter+sqlview.RenderLine(sty, []rune(lines[i]), spans, mk, 0, max(t.width-digits-4, 1)))
	}
	return strings.Join(out, "\n")
}
