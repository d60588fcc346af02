package kit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/model"
)

// ActionFor maps a key to the action it starts on a job in state s. Restart
// of a job that never ran is its first submit.
func ActionFor(k KeyMap, msg tea.KeyPressMsg, s model.JobState) (model.CommandKind, bool) {
	switch {
	case key.Matches(msg, k.Action.Pause):
		return model.CmdPause, true
	case key.Matches(msg, k.Action.Kill, k.Action.Delete):
		return model.CmdKill, true
	case key.Matches(msg, k.Action.Restart):
		if s == model.StateNone {
			return model.CmdSubmit, true
		}
		return model.CmdRestart, true
	case key.Matches(msg, k.Action.Resubmit):
		return model.CmdResubmit, true
	case key.Matches(msg, k.Action.Savepoint):
		return model.CmdSavepoint, true
	}
	return 0, false
}

// IsActionKey reports a key of an action.
func IsActionKey(k KeyMap, msg tea.KeyPressMsg) bool {
	_, ok := ActionFor(k, msg, model.StateRunning)
	return ok
}
