package detail

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// TestDiagFetch: a diagnostic tab's fetch goes out when the tab shows,
// one at a time; a failed refresh keeps the last answer and says why; a
// tab shown for another job forgets the old job's answer and drops a late
// one; until the first answer, the tab says it fetches, or why it could
// not.
func TestDiagFetch(t *testing.T) {
	f := tuitest.NewFixture()
	e := tuitest.Env(f)
	tms := newDiagFetch(e, func() kit.Call[Service] { return call(e) }, "TaskManagers", api.DiagnoseService.TaskManagers)
	answer := func(cmd tea.Cmd) diagFetchedMsg[api.TaskManagerList] {
		t.Helper()
		if cmd == nil {
			t.Fatal("no fetch went out")
		}
		return cmd().(diagFetchedMsg[api.TaskManagerList])
	}
	placeholder := func() string {
		text, show := tms.placeholder(e.Styles, 60, 3, "fetching the TaskManagers…", "ctrl+r retries")
		if !show {
			return ""
		}
		return strings.Join(strings.Fields(ansi.Strip(text)), " ")
	}
	orders, payments := f.Jobs[0], f.Jobs[1]

	first := tms.show(orders)
	if got := placeholder(); got != "fetching the TaskManagers…" {
		t.Errorf("before the answer the tab shows %q", got)
	}
	if tms.refresh() != nil {
		t.Error("a second fetch went out while one was in flight")
	}
	fresh, next := tms.take(answer(first))
	if !fresh || tms.got == nil || len(tms.got.TaskManagers) == 0 || next == nil {
		t.Fatalf("the answer: fresh %v, got %v, the asked-for refresh follows %v", fresh, tms.got, next != nil)
	}
	tms.take(answer(next))

	f.SetFail(errors.New("agent: connection refused"))
	if fresh, _ := tms.take(answer(tms.refresh())); fresh || tms.got == nil || tms.err == nil {
		t.Errorf("a failed refresh: fresh %v, kept %v, err %v", fresh, tms.got != nil, tms.err)
	}
	if got := placeholder(); got != "" {
		t.Errorf("a failed refresh hid the last answer behind %q", got)
	}
	f.SetFail(nil)

	late := tms.refresh()
	other := tms.show(payments)
	if tms.got != nil || tms.err != nil {
		t.Error("the tab shown for another job kept the old job's answer")
	}
	if fresh, _ := tms.take(answer(late)); fresh || tms.got != nil {
		t.Error("a late answer for the old job was taken")
	}
	f.SetFail(errors.New("agent: connection refused"))
	tms.take(answer(other))
	if got := placeholder(); !strings.Contains(got, "fetch TaskManagers of payments-dedup: agent: connection refused ctrl+r retries") {
		t.Errorf("a failed first fetch shows %q", got)
	}
}
