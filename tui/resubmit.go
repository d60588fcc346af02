package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/kit"
)

// resubmitDialog picks where a resubmitted job restores from: its latest
// savepoint, its latest checkpoint, one from its history, or none. The
// choice then goes through Plan and the confirmation like any action.
type resubmitDialog struct {
	env     *kit.Env
	job     api.JobView
	history []model.RestorePoint
	loading bool
	loadErr error
	seq     int
	cursor  int
	moved   bool // the person moved the cursor: a load keeps it
}

// restoreOption is one line of the picker: what the point is to the job
// (label) and the point, or a choice without one (none).
type restoreOption struct {
	label  string
	point  *model.RestorePoint
	choice model.RestoreChoice
	path   string
	// loops: the point the job's crash loop restored from (core's
	// model.Job.CrashLoop): restoring it replays the failure.
	loops bool
}

// restoreOptionColumns lay out the picker's points: what each is, its age
// and its path, which gives way in its middle so that its last part
// (chk-N, savepoint-…) stays at every width.
func restoreOptionColumns(now time.Time) kit.Columns[restoreOption] {
	type o = restoreOption
	return kit.Columns[o]{
		{Fit: true, Cell: func(o o) string { return o.label }},
		{Fit: true, Cell: func(o o) string { return kit.Ago(now, o.point.Time) }},
		{Flex: true, Cell: func(o o) string { return o.point.Path }, Cut: func(_ o, s string, w int) string { return kit.ElidePath(s, w) }},
	}
}

func newResubmitDialog(e *kit.Env, j api.JobView, history []model.RestorePoint) (*resubmitDialog, tea.Cmd) {
	d := &resubmitDialog{env: e, job: j, history: history}
	var cmd tea.Cmd
	if history == nil {
		d.loading = true
		d.seq = e.NextSeq()
		cmd = detail.Load(kit.CallOf[detail.Service](e, e.Svc), j.ID, d.seq)
	}
	d.cursor = d.firstChoice()
	return d, cmd
}

// firstChoice is where the cursor starts: the first option is the safest,
// the newest restore point there is, unless the job crash-loops from it;
// then the newest point that is not the loop's (never empty state unasked).
func (d *resubmitDialog) firstChoice() int {
	for i, o := range d.options() {
		if o.choice == model.RestoreNone {
			break
		}
		if !o.loops {
			return i
		}
	}
	return 0
}

// options lists the choices, the usual ones first. History entries that
// are the latest savepoint or checkpoint are not listed twice.
func (d *resubmitDialog) options() []restoreOption {
	loops := func(path string) bool { return d.job.CrashLoop != nil && d.job.CrashLoop.RestorePoint == path }
	var out []restoreOption
	seen := map[string]bool{}
	if sp := d.job.LatestSavepoint; sp != nil {
		out = append(out, restoreOption{"latest savepoint", sp, model.RestoreSavepoint, "", loops(sp.Path)})
		seen[sp.Path] = true
	}
	if cp := d.job.LatestCheckpoint; cp != nil {
		out = append(out, restoreOption{"latest checkpoint", cp, model.RestoreCheckpoint, "", loops(cp.Path)})
		seen[cp.Path] = true
	}
	hist := slices.Clone(d.history)
	slices.SortFunc(hist, func(a, b model.RestorePoint) int { return b.Time.Compare(a.Time) })
	for _, rp := range hist {
		if seen[rp.Path] {
			continue
		}
		seen[rp.Path] = true
		out = append(out, restoreOption{rp.Kind.String(), &rp, model.RestorePath, rp.Path, loops(rp.Path)})
	}
	out = append(out, restoreOption{"none — start with empty state", nil, model.RestoreNone, "", false})
	return out
}

func (d *resubmitDialog) ShortHelp() []key.Binding { return pickerShort(d.env.Keys) }

func (d *resubmitDialog) Update(msg tea.Msg) (kit.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case detail.LoadedMsg:
		if msg.Seq != d.seq || msg.JobID != d.job.ID {
			return d, nil
		}
		d.loading = false
		if msg.Err != nil {
			d.loadErr = msg.Err
			return d, nil
		}
		d.history = msg.Detail.RestorePoints
		d.job = kit.Renew(d.job, msg.Detail.Job)
		if !d.moved {
			d.cursor = d.firstChoice()
		}
	case tea.KeyPressMsg:
		k := d.env.Keys
		opts := d.options()
		switch {
		case key.Matches(msg, k.Form.Cancel):
			return nil, nil
		case key.Matches(msg, k.Form.Confirm):
			o := opts[kit.Clamp(d.cursor, 0, len(opts)-1)]
			return nil, kit.Send(kit.StartActionMsg{Kind: model.CmdResubmit, Jobs: []api.JobView{d.job}, Restore: o.choice, Path: o.path})
		default:
			before := d.cursor
			kit.ListNav(k, msg, &d.cursor, len(opts), 5)
			d.moved = d.moved || d.cursor != before
		}
	}
	return d, nil
}

func (d *resubmitDialog) View(width, height int) string {
	st := d.env.Styles
	w := min(width-4, 96)
	inner := w - 4
	opts := d.options()
	lines := []string{
		st.DialogTitle.Render("Resubmit " + d.job.Name + " — restore from?"),
		st.Dim.Render(fmt.Sprintf("spec v%d on %s; the choice is confirmed on the next screen", d.job.SpecVersion, d.job.Cluster)),
	}
	if loop := d.job.CrashLoop; loop != nil {
		for _, l := range kit.Wrap("⚠ "+loop.Sentence()+"; ↻ marks it below. If no other point helps, edit the job first.", inner) {
			lines = append(lines, st.Warn.Render(l))
		}
	}
	lines = append(lines, "")
	mark := 0 // the crash loop's column
	if d.job.CrashLoop != nil {
		mark = 2
	}
	points := slices.DeleteFunc(slices.Clone(opts), func(o restoreOption) bool { return o.point == nil })
	cols := restoreOptionColumns(d.env.Now)
	lay := cols.Lay(points, inner-kit.Gutter-mark)
	// Keep the cursor visible when the history is long.
	room := max(height-10-(len(lines)-3), 3) // less the warning's lines
	first := kit.ScrollTo(d.cursor, 0, room, len(opts))
	for i := first; i < min(first+room, len(opts)); i++ {
		text := opts[i].label
		if opts[i].point != nil {
			text = cols.Cells(nil, lay, opts[i])
		}
		if mark > 0 {
			// A column of its own, so that the labels stay aligned.
			if opts[i].loops {
				text = "↻ " + text
			} else {
				text = "  " + text
			}
		}
		l := "  " + text
		if i == d.cursor {
			l = st.Cursor.Render(kit.Fit("▸ "+text, inner))
		}
		lines = append(lines, kit.Truncate(l, inner))
	}
	switch {
	case d.loading:
		lines = append(lines, st.Dim.Render("loading restore point history…"))
	case d.loadErr != nil:
		lines = append(lines, kit.Wrap(st.Error.Render("✖ "+d.loadErr.Error()), inner)...)
	}
	return st.Dialog.Width(w).Render(strings.Join(lines, "\n"))
}
