package kit

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// ActionFor maps a key to the action it starts on job v (RestartKind for
// r).
func ActionFor(k KeyMap, msg tea.KeyPressMsg, v api.JobView) (model.CommandKind, bool) {
	switch {
	case key.Matches(msg, k.Action.Pause):
		return model.CmdPause, true
	case key.Matches(msg, k.Action.Kill, k.Action.Delete):
		return model.CmdKill, true
	case key.Matches(msg, k.Action.Restart):
		return RestartKind(v), true
	case key.Matches(msg, k.Action.Resubmit):
		return model.CmdResubmit, true
	case key.Matches(msg, k.Action.Savepoint):
		return model.CmdSavepoint, true
	}
	return 0, false
}

// RestartKind is what r starts on job v: a restart, or a submit where core
// refuses the restart and allows a submit (a job never deployed, or whose
// deploy failed). Without core's answer, a job never deployed is
// submitted; Plan has the last word.
func RestartKind(v api.JobView) model.CommandKind {
	restart, rKnown := v.Refusal(model.CmdRestart)
	submit, sKnown := v.Refusal(model.CmdSubmit)
	switch {
	case rKnown && sKnown:
		if restart != "" && submit == "" {
			return model.CmdSubmit
		}
	case v.State == model.StateNone:
		return model.CmdSubmit
	}
	return model.CmdRestart
}

// IsActionKey reports a key of an action.
func IsActionKey(k KeyMap, msg tea.KeyPressMsg) bool {
	_, ok := ActionFor(k, msg, api.JobView{})
	return ok
}

// Verb is an action's name in prose: "pause".
func Verb(k model.CommandKind) string { return strings.ToLower(k.String()) }

// BlockRefusedActions turns off the action keys that core refuses for
// every one of jobs (the selected job, or the marked ones), each with
// core's reason for the flash, so that the footer and the help offer only
// what core would take; and r names what it starts on one job. A job whose
// view does not say (api.JobView.Actions) blocks nothing: Plan answers.
func (k *KeyMap) BlockRefusedActions(jobs []api.JobView) {
	if len(jobs) == 0 {
		return
	}
	a := AllKeys.Action
	fixed := func(kind model.CommandKind) func(api.JobView) model.CommandKind {
		return func(api.JobView) model.CommandKind { return kind }
	}
	for _, b := range []struct {
		key  *key.Binding
		twin key.Binding
		kind func(api.JobView) model.CommandKind
	}{
		{&k.Action.Pause, a.Pause, fixed(model.CmdPause)},
		{&k.Action.Kill, a.Kill, fixed(model.CmdKill)},
		{&k.Action.Delete, a.Delete, fixed(model.CmdKill)},
		{&k.Action.Restart, a.Restart, RestartKind},
		{&k.Action.Resubmit, a.Resubmit, fixed(model.CmdResubmit)},
		{&k.Action.Savepoint, a.Savepoint, fixed(model.CmdSavepoint)},
	} {
		if !b.key.Enabled() {
			continue // read-only, or the screen's own reason
		}
		if why, refused := refusedForAll(jobs, b.kind); refused {
			k.Block(b.key, b.twin, why)
		}
	}
	if len(jobs) == 1 && RestartKind(jobs[0]) == model.CmdSubmit {
		k.Action.Restart.SetHelp(k.Action.Restart.Help().Key, "submit")
	}
}

// refusedForAll reports whether core refuses the action kind says for
// every job, and why, for the flash: "pause fraud-scoring: job is FAILED,
// not RUNNING", or for several "pause: none of the 2 marked jobs can be
// done (…)".
func refusedForAll(jobs []api.JobView, kind func(api.JobView) model.CommandKind) (string, bool) {
	first := ""
	for _, j := range jobs {
		why, known := j.Refusal(kind(j))
		if !known || why == "" {
			return "", false
		}
		if first == "" {
			first = why
		}
	}
	k := kind(jobs[0])
	if len(jobs) == 1 {
		return fmt.Sprintf("%s %s: %s", Verb(k), jobs[0].Name, first), true
	}
	return fmt.Sprintf("%s: none of the %d marked jobs can be done (%s)", Verb(k), len(jobs), first), true
}

// Renew is v with j, its job's record as read since: core's answers stay
// only while the job is in the state they were made for (a record alone
// does not say them); else Plan answers until the next view.
func Renew(v api.JobView, j model.Job) api.JobView {
	if j.State != v.State {
		v.Actions = nil
	}
	v.Job = j
	return v
}
