package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// A deploy whose plan restores the point a job's failing runs restored
// from (api.ActionPlan.CrashLoop, core's call) replays their failure. Its
// confirmation says so (the plan's warning) and offers the ways out core
// can take: a resubmit from another restore point, a start that drops
// state no operator takes any more (allowNonRestoredState, for a job
// edited to skip the record), and for a SQL job its editor, to fix the
// job before it resubmits.

// loopOffered reports whether the single item's confirmation offers the
// ways out of a crash loop.
func loopOffered(items []planItem) bool {
	return len(items) == 1 && items[0].plan.CrashLoop != nil && items[0].req.Kind.Deploys()
}

// loopKeys are the ways out the item offers, for the footer.
func loopKeys(k kit.KeyMap, it planItem) []key.Binding {
	keys := []key.Binding{k.Form.Older, k.Form.NonRestored}
	if it.job.Kind == model.KindSQL {
		keys = append(keys, k.Form.EditJob)
	}
	return keys
}

// loopLines say the ways out: with their keys while the buttons have the
// keyboard; while the job's name is typed, how to reach them (esc first).
func loopLines(st *kit.Styles, k kit.KeyMap, it planItem, typed bool, inner int) []string {
	var parts []string
	if typed {
		parts = append(parts, "esc, then R: resubmit from another restore point")
		if it.job.Kind == model.KindSQL {
			parts = append(parts, "e: edit the SQL first")
		}
	} else {
		allow := "off"
		if it.req.AllowNonRestoredState {
			allow = "on"
		}
		parts = append(parts, k.Form.Older.Help().Key+" another restore point",
			k.Form.NonRestored.Help().Key+" allow non-restored state ("+allow+")")
		if it.job.Kind == model.KindSQL {
			parts = append(parts, k.Form.EditJob.Help().Key+" edit the SQL first")
		}
	}
	var out []string
	for i, l := range kit.Flow(parts, " · ", inner-len("Instead: ")) {
		lead := "         "
		if i == 0 {
			lead = "Instead: "
		}
		out = append(out, st.Dim.Render(lead+l))
	}
	return out
}

// loopKey answers a way-out key: the dialog closes and the next step
// opens (the restore point chooser, the same action planned again with
// non-restored state toggled, the editor).
func loopKey(k kit.KeyMap, it planItem, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	jobs := []api.JobView{it.view}
	switch {
	case key.Matches(msg, k.Form.Older):
		return kit.Send(kit.StartActionMsg{Kind: model.CmdResubmit, Jobs: jobs}), true
	case key.Matches(msg, k.Form.NonRestored):
		return kit.Send(kit.StartActionMsg{Kind: it.req.Kind, Jobs: jobs, Restore: it.req.Restore, Path: it.req.RestorePath,
			AllowNonRestoredState: !it.req.AllowNonRestoredState}), true
	case key.Matches(msg, k.Form.EditJob) && it.job.Kind == model.KindSQL:
		return kit.Send(kit.OpenEditorMsg{Job: it.view}), true
	}
	return nil, false
}
