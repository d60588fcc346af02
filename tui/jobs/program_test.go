package jobs_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/probe"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/jobs"
)

// withOrdersFamily adds jobs whose names extend orders-enrich, so that a
// filter for orders-enrich matches several rows.
func withOrdersFamily(f *tuitest.Fake) *tuitest.Fake {
	for i := 2; i <= 5; i++ {
		j := model.Job{ID: fmt.Sprintf("j1%02d", i), Name: fmt.Sprintf("orders-enrich-%d", i), Kind: model.KindSQL,
			Cluster: "staging", State: model.StateRunning, StartedAt: tuitest.Now.Add(-time.Hour)}
		f.Jobs = append(f.Jobs, api.JobView{Job: j})
	}
	return f
}

// Issue 9a: a filter puts the cursor on its first match, so the action
// that follows names that job and is done to it, wherever the cursor was.
func TestProgramFilterThenActNamesTheFirstMatch(t *testing.T) {
	f := withOrdersFamily(tuitest.NewFixture())
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich-5")
	tm.Type("jjjjjjjjj") // the cursor on orders-enrich-4, a match but not the first
	tuitest.WaitFor(t, tm, "10/14")
	tm.Type("/orders-enrich")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "filter: orders-enrich", "1/5")
	tm.Type("p")
	tuitest.WaitFor(t, tm, "Pause orders-enrich?", "Cancel")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "queued for orders-enrich")
	tuitest.Final(t, tm)
	var acts []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "Act ") {
			acts = append(acts, c)
		}
	}
	if !slices.Equal(acts, []string{"Act PAUSE j001 - "}) {
		t.Errorf("Act calls %v, want one pause of orders-enrich (j001)", acts)
	}
}

// Issue 9b: sorted by backpressure, the figures change between two marks,
// so the rows would move under the operator. While jobs are marked the
// order holds (and says so), the marks land on the rows the operator saw,
// and the bulk dialog lists exactly those jobs, which are the ones acted on.
func TestProgramMarksHoldALiveSort(t *testing.T) {
	f := tuitest.NewFixture()
	tm := apptest.Program(t, f, tui.Options{})
	tuitest.WaitFor(t, tm, "orders-enrich")
	tm.Type("B") // by BP, highest first
	tuitest.WaitFor(t, tm, "BP▼")
	space := tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	tm.Type("g")
	tm.Send(space) // clicks-to-hudi (87%); the cursor goes to payments-dedup (31%)
	tuitest.WaitFor(t, tm, "✓ 1 marked", "sort paused")

	// user-features' backpressure rises above all; payments-dedup's falls.
	f.Mu.Lock()
	f.Jobs[3].Figures.Backpressure = 0.95
	f.Jobs[1].Figures.Backpressure = 0.01
	users, payments := f.Jobs[3], f.Jobs[1]
	f.Mu.Unlock()
	// The stream is read in order: once the second change shows, both are in.
	f.Emit(api.Change{Kind: api.JobChanged, Job: &payments})
	f.Emit(api.Change{Kind: api.JobChanged, Job: &users})
	tuitest.WaitFor(t, tm, "95%") // the values refresh in place

	tm.Send(space) // payments-dedup, where it was seen
	tm.Send(space) // orders-enrich, the next row as seen
	tuitest.WaitFor(t, tm, "✓ 3 marked")
	tm.Type("p")
	tuitest.WaitFor(t, tm, "Pause 3 of 3 marked jobs?", "sort paused",
		"✓ clicks-to-hudi  Flink will stop", "✓ payments-dedup  Flink will stop", "✓ orders-enrich  Flink will stop")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tuitest.WaitFor(t, tm, "PAUSE queued for 3 jobs")
	table := probe.Of(tuitest.Final(t, tm)).Table().(*jobs.Screen)
	var acts []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "Act ") {
			acts = append(acts, c)
		}
	}
	slices.Sort(acts)
	if want := []string{"Act PAUSE j001 - ", "Act PAUSE j002 - ", "Act PAUSE j003 - "}; !slices.Equal(acts, want) {
		t.Errorf("Act calls %v, want %v", acts, want)
	}
	// The marks are spent, and the order catches up.
	if len(table.Marks()) != 0 || table.Held() {
		t.Errorf("after the action: marks %v, order held %v", table.Marks(), table.Held())
	}
	if got := table.Rows()[0].Name; got != "user-features" {
		t.Errorf("the order did not catch up: %s first", got)
	}
}
