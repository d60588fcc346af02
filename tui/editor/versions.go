package editor

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// versionsScreen lists every saved version of a job's SQL (or PyFlink
// script, pyversions.go), newest first,
// with the editor's unsaved text on top when there is one. enter diffs the
// selected version with the one marked with space, or with the version
// before it; o puts a version's text in the editor.
type versionsScreen struct {
	env *kit.Env
	job api.JobView
	// working is the editor's text; dirty says it differs from the saved one.
	working string
	dirty   bool

	specs   []model.Spec // newest first
	loading bool
	err     error
	seq     int

	list          kit.List
	mark          int // row marked to compare with; -1 for none
	width, height int
}

// versionRow is one row: a saved version, or the working copy (spec nil).
type versionRow struct {
	spec *model.Spec
}

func newVersionsScreen(e *kit.Env, j api.JobView, working string, dirty bool) (*versionsScreen, tea.Cmd) {
	m := &versionsScreen{env: e, job: j, working: working, dirty: dirty, loading: true, mark: -1}
	m.seq = e.NextSeq()
	return m, loadSpecsCmd(call(e), j.ID, m.seq)
}

func (m *versionsScreen) Title() string             { return m.job.Name + " · versions" }
func (m *versionsScreen) Capturing() bool           { return false }
func (m *versionsScreen) ShortHelp() []key.Binding  { return versionsShort(m.env.Keys) }
func (m *versionsScreen) FullHelp() [][]key.Binding { return VersionsHelp(m.env.Keys) }

func (m *versionsScreen) rows() []versionRow {
	var out []versionRow
	if m.dirty {
		out = append(out, versionRow{})
	}
	for i := range m.specs {
		out = append(out, versionRow{spec: &m.specs[i]})
	}
	return out
}

func (r versionRow) name() string {
	if r.spec == nil {
		return "unsaved edits"
	}
	return fmt.Sprintf("v%d", r.spec.Version)
}

func (m *versionsScreen) text(r versionRow) string {
	if r.spec == nil {
		return m.working
	}
	return specText(m.job.Kind, *r.spec)
}

func (m *versionsScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case specsLoadedMsg:
		if msg.seq != m.seq || msg.jobID != m.job.ID {
			return m, nil
		}
		m.loading = false
		m.err = msg.err
		m.specs = slices.Clone(msg.specs)
		slices.SortFunc(m.specs, func(a, b model.Spec) int { return b.Version - a.Version })
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *versionsScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.env.Keys
	rows := m.rows()
	if len(rows) == 0 {
		return nil
	}
	if m.list.Key(k, msg, len(rows), m.page()) {
		return nil
	}
	switch {
	case key.Matches(msg, k.Versions.Mark):
		if m.mark == m.list.Cursor {
			m.mark = -1
		} else {
			m.mark = m.list.Cursor
		}
	case key.Matches(msg, k.Versions.Diff):
		// Older on the left: rows go newest first, so the higher row index.
		a, b := m.list.Cursor+1, m.list.Cursor
		if m.mark >= 0 && m.mark != m.list.Cursor {
			a, b = max(m.mark, m.list.Cursor), min(m.mark, m.list.Cursor)
		}
		newer := rows[b]
		oldName, oldText := "empty", ""
		if a < len(rows) {
			oldName, oldText = rows[a].name(), m.text(rows[a])
		}
		s := newDiffScreen(m.env, m.job.Name, oldName, newer.name(), oldText, m.text(newer))
		return kit.Send(kit.PushMsg{Screen: s})
	case key.Matches(msg, k.Versions.Open):
		r := rows[m.list.Cursor]
		if m.job.Kind == model.KindPython {
			return kit.Flash(kit.FlashInfo, "a PyFlink script is changed with: palink job edit "+m.job.Name+" --py FILE")
		}
		if r.spec == nil {
			return kit.Flash(kit.FlashInfo, "the unsaved edits are in the editor already")
		}
		// Either order works: the open reaches the editor below or on top.
		return tea.Batch(kit.Send(kit.PopMsg{}), kit.Send(versionOpenMsg{jobID: m.job.ID, spec: *r.spec}))
	}
	return nil
}

func (m *versionsScreen) page() int { return max(m.height-3, 1) }

func (m *versionsScreen) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.env.Styles
	rows := m.rows()
	var lines []string
	switch {
	case m.loading:
		lines = kit.Centered(st.Dim.Render("loading versions…"), m.width-2, m.height-2)
	case m.err != nil:
		lines = kit.Centered(st.Error.Render("✖ "+m.err.Error()), m.width-2, m.height-2)
	default:
		lines = append(lines, " "+st.ColumnHeader.Render(fmt.Sprintf("  %-14s %-9s %-10s %s", "VERSION", "SAVED", "BY", "NOTE")))
		m.list.Fit(len(rows), m.page())
		for i := m.list.Offset; i < min(m.list.Offset+m.page(), len(rows)); i++ {
			r := rows[i]
			name, saved, by, note := r.name(), kit.NoValue, kit.NoValue, ""
			if r.spec != nil {
				saved, by, note = kit.Ago(m.env.Now, r.spec.CreatedAt), kit.OrDash(r.spec.Author), r.spec.Note
				if r.spec.Version == m.job.SpecVersion {
					name += " current"
				}
			}
			mark := " "
			if i == m.mark {
				mark = st.Mark.Render("◆")
			}
			line := fmt.Sprintf("%s %-14s %-9s %-10s %s", mark, name, saved, kit.Truncate(by, 10), note)
			if i == m.list.Cursor {
				line = st.Cursor.Render(kit.Fit("▸"+line, m.width-2))
			} else {
				line = " " + line
			}
			lines = append(lines, line)
		}
	}
	note := fmt.Sprintf("%d versions", len(m.specs))
	if m.mark >= 0 && m.mark < len(rows) {
		note = "comparing with " + rows[m.mark].name()
	}
	what := "SQL"
	if m.job.Kind == model.KindPython {
		what = "Python"
	}
	return kit.Box(st, st.Title.Render(what+" versions of "+m.job.Name), note, lines, m.width, m.height)
}
