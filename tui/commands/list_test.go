package commands_test

import (
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/commands"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

func TestCommandsViewFollowsWatch(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press(":")
	h.Type("cmd")
	h.Press("enter")
	h.MustShow("#41", "#38", "1/4")
	c := model.Command{ID: "c000099", Seq: 99, JobID: "j003", Kind: model.CmdSavepoint, State: model.CmdDoing, Issuer: "alice", CreatedAt: tuitest.Now}
	h.Change(api.Change{Kind: api.CommandChanged, Command: &c})
	h.MustShow("#99", "clicks-to-hudi", "alice", "2/5")
	if h.Top().(*commands.Screen).Selected().Seq != 41 {
		t.Error("a new command moved the cursor off the command it was on")
	}
	c.State = model.CmdSucceeded
	h.Change(api.Change{Kind: api.CommandChanged, Command: &c})
	if n := len(h.Top().(*commands.Screen).Rows()); n != 5 {
		t.Errorf("an update of a known command added a row: %d rows", n)
	}
	h.Press("g", "enter")
	h.MustShow("SAVEPOINT #99 of clicks-to-hudi · log", "SUCCEEDED")
}

func TestGoldenCommands(t *testing.T) {
	apptest.GoldenFrame(t, "commands", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press(":")
		h.Type("cmd")
		h.Press("enter")
	})
}

func TestGoldenCommandLog(t *testing.T) {
	apptest.GoldenFrame(t, "command_log", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press(":")
		h.Type("cmd")
		h.Press("enter", "j", "enter")
	})
}
