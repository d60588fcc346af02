package commands_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/commands"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// In the real program loop, enter on a command opens its log, not its
// job, and the log names the host that runs it, not a lease id (#12).
func TestProgramCommandsEnterOpensTheLog(t *testing.T) {
	f := tuitest.NewFixture()
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type(":cmd")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "#38", "running on ops-1 (pid 4242)")
	tm.Type("G") // #38, the oldest
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "SUBMIT #38 of inventory-sync · log", "running on ops-1 (pid 4242)", "started by ops-1 (pid 4242)")
	m := tuitest.Final(t, tm)
	top := tuitest.ProbeTop(m)
	if _, ok := top.(*commands.LogScreen); !ok {
		t.Fatalf("enter opened %T, want the command's log", top)
	}
}
