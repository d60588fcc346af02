package scheduler

import (
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// TestConfirmLevel is the one confirmation policy the TUI and the CLI
// follow: a savepoint asks nothing, what stops or starts a job asks, what
// loses state asks harder, and a protected cluster wants the job's name.
func TestConfirmLevel(t *testing.T) {
	for _, tc := range []struct {
		kind                   model.CommandKind
		destructive, protected bool
		want                   api.Confirm
	}{
		{model.CmdSavepoint, false, false, api.ConfirmNone},
		{model.CmdPause, false, false, api.ConfirmAsk},
		{model.CmdSubmit, false, false, api.ConfirmAsk},
		{model.CmdRestart, false, false, api.ConfirmAsk},
		{model.CmdResubmit, true, false, api.ConfirmDestructive},
		{model.CmdKill, true, false, api.ConfirmDestructive},
		{model.CmdKill, true, true, api.ConfirmName},
	} {
		if got := confirmLevel(tc.kind, tc.destructive, tc.protected); got != tc.want {
			t.Errorf("%s destructive=%v protected=%v: %v, want %v", tc.kind, tc.destructive, tc.protected, got, tc.want)
		}
	}
}
