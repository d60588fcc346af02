package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/create"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// actCalls are the Act calls the fake saw.
func actCalls(f *tuitest.Fake) []string {
	var out []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "Act ") {
			out = append(out, c)
		}
	}
	return out
}

func TestConfirmDefaultsToCancel(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("user-features")
	h.Press("p")
	if !f.Called("Plan PAUSE j004") {
		t.Fatalf("p did not ask Plan; calls %v", f.Calls())
	}
	h.MustShow("Pause user-features?", "Flink will stop user-features with a savepoint", "Cancel")
	h.Press("enter")
	if h.m.dialog != nil {
		t.Fatal("enter on the default button left the dialog open")
	}
	if got := actCalls(f); len(got) != 0 {
		t.Fatalf("enter on the default button acted: %v", got)
	}
	// esc cancels too.
	h.Press("p", "esc")
	if h.m.dialog != nil || len(actCalls(f)) != 0 {
		t.Fatal("esc did not cancel")
	}
}

func TestPauseEndToEnd(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("user-features")
	h.Press("p", "tab", "enter")
	if got := actCalls(f); !slices.Equal(got, []string{"Act PAUSE j004 - "}) {
		t.Fatalf("confirmed pause made the calls %v", got)
	}
	if h.Flash() != "PAUSE #42 queued for user-features…" {
		t.Errorf("flash says %q", h.Flash())
	}
	// The fake's Act pushed the pending command through Watch.
	for _, msg := range drain(f) {
		h.Change(msg)
	}
	h.MustShow("RESTARTING ›PAUSE") // the badge of the pending command, whole
	f.Finish("c000042", true, "savepoint hdfs:///flink/sp/user-features/savepoint-1")
	for _, msg := range drain(f) {
		h.Change(msg)
	}
	if want := "PAUSE #42 of user-features succeeded: savepoint hdfs:///flink/sp/user-features/savepoint-1"; h.Flash() != want {
		t.Errorf("flash says %q, want %q", h.Flash(), want)
	}
	if j, _ := h.m.jobs.Job("j004"); j.State != model.StateFinished || j.Pending != nil {
		t.Errorf("user-features is %s with pending %v after its pause", j.State, j.Pending)
	}
}

// drain takes the changes the fake pushed to its watchers.
func drain(f *tuitest.Fake) []api.Change {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	var out []api.Change
	for _, w := range f.Watchers {
		for {
			select {
			case c := <-w:
				out = append(out, c)
				continue
			default:
			}
			break
		}
	}
	return out
}

func TestKillOnProtectedClusterAsksForTheName(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("orders-enrich")
	h.Press("ctrl+k")
	h.MustShow("Kill orders-enrich?", "YARN will kill application_1732000000000_0042", "State is NOT saved", "Type orders-enrich to kill")
	h.Press("enter")
	h.MustShow("that is not orders-enrich")
	h.Type("orders")
	h.Press("enter")
	if len(actCalls(f)) != 0 || h.m.dialog == nil {
		t.Fatal("a partial name confirmed the kill")
	}
	h.Type("-enrich")
	h.Press("enter")
	if got := actCalls(f); !slices.Equal(got, []string{"Act KILL j001 - "}) {
		t.Fatalf("typed name made the calls %v", got)
	}
	if !strings.Contains(h.Flash(), "KILL #42 queued for orders-enrich") {
		t.Errorf("flash says %q", h.Flash())
	}
}

func TestKillOnUnprotectedClusterUsesButtons(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("user-features") // staging is not protected
	h.Press("ctrl+k")
	h.MustShow("Kill user-features?", "Prefer p pause")
	h.MustNotShow("Type user-features")
	h.Press("right", "enter")
	if got := actCalls(f); !slices.Equal(got, []string{"Act KILL j004 - "}) {
		t.Fatalf("calls %v", got)
	}
}

// TestKillOffersPauseOnlyWhereItWorks: the kill dialog of a job that core
// would not pause (it is DEPLOYING, its submit pending) does not suggest
// `p pause` instead.
func TestKillOffersPauseOnlyWhereItWorks(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("inventory-sync")
	h.Press("ctrl+k")
	h.MustShow("Kill inventory-sync?")
	h.MustNotShow("Prefer p pause")
}

func TestLocallyBlockedActionAnswersAtOnce(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetDelay(0)
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("sessionize")
	before := len(f.Calls())
	h.Press("s")
	if want := "savepoint sessionize: job is FINISHED, not RUNNING"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	h.Press("ctrl+k")
	if h.Flash() != "kill sessionize: job is FINISHED; nothing runs to kill" {
		t.Errorf("flash %q", h.Flash())
	}
	if calls := f.Calls()[before:]; len(calls) != 0 {
		t.Errorf("blocked actions called the service: %v", calls)
	}
}

func TestServiceRefusalIsFlashed(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	// The service knows better than the table: the job has just finished.
	f.Jobs[3].State = model.StateFinished
	h.SelectJob("user-features")
	h.Press("p")
	if h.m.dialog != nil {
		t.Fatal("a refused plan opened the confirmation")
	}
	if want := "pause user-features refused: job is FINISHED, not RUNNING"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
}

func TestActFailureIsFlashedNotFatal(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("user-features")
	h.Press("p", "tab")
	f.SetFail(tuitest.ErrClusterDown)
	h.Press("enter")
	if want := "pause user-features: connection refused"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	h.MustShow("user-features", "connection refused")
	// Plan failing is reported the same way.
	h.Press("p")
	if !strings.Contains(h.Flash(), "plan pause of user-features: connection refused") {
		t.Errorf("flash %q", h.Flash())
	}
}

func TestSavepointNeedsNoConfirmation(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("clicks-to-hudi")
	h.Press("s")
	if h.m.dialog != nil {
		t.Fatal("a savepoint asked for confirmation")
	}
	if got := actCalls(f); !slices.Equal(got, []string{"Act SAVEPOINT j003 - "}) {
		t.Fatalf("calls %v", got)
	}
}

func TestBulkPauseShowsDryRunThenActsOnAllowedOnly(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("clicks-to-hudi")
	h.Press("space", "space") // clicks-to-hudi, fraud-scoring (FAILED)
	h.SelectJob("user-features")
	h.Press("space", "p")
	h.MustShow("Pause 2 of 3 marked jobs?", "Dry run", "✓ clicks-to-hudi", "✗ fraud-scoring", "job is FAILED, not RUNNING", "✓ user-features", "Pause 2 jobs")
	if f.Called("Plan PAUSE j005") {
		t.Error("a locally refused job was planned anyway")
	}
	h.Press("tab", "enter")
	got := actCalls(f)
	slices.Sort(got)
	if !slices.Equal(got, []string{"Act PAUSE j003 - ", "Act PAUSE j004 - "}) {
		t.Fatalf("bulk pause acted on %v", got)
	}
	if want := "PAUSE queued for 2 jobs (#42–#43)"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	// What was done is unmarked; what was refused stays marked, to be seen to.
	if h.m.jobs.Marked() != 1 || !h.m.jobs.IsMarked("j005") {
		t.Errorf("%d marks after the bulk action, want only the refused j005", h.m.jobs.Marked())
	}
}

// TestBulkActionEndsWithASummary: the commands of a bulk action end one
// by one; the flash counts them, and the last says how the whole action
// went, naming the jobs whose command failed.
func TestBulkActionEndsWithASummary(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("clicks-to-hudi")
	h.Press("space")
	h.SelectJob("user-features")
	h.Press("space", "p", "tab", "enter")
	if want := "PAUSE queued for 2 jobs (#42–#43)"; h.Flash() != want {
		t.Fatalf("flash %q, want %q", h.Flash(), want)
	}
	for _, msg := range drain(f) {
		h.Change(msg)
	}
	f.Finish("c000042", true, "savepoint hdfs:///sp/1")
	for _, msg := range drain(f) {
		h.Change(msg)
	}
	if want := "PAUSE: 1 of 2 ended (1 succeeded, 0 failed)…"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	f.Finish("c000043", false, "stop-with-savepoint timed out")
	for _, msg := range drain(f) {
		h.Change(msg)
	}
	if got := h.Flash(); !strings.HasPrefix(got, "PAUSE: 1 succeeded, 1 failed (") || !strings.Contains(got, "first: stop-with-savepoint timed out") {
		t.Errorf("flash %q, want the bulk action's summary", got)
	}
}

func TestBulkKillWithProtectedJobsAsksForPhrase(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("orders-enrich")
	h.Press("space")
	h.SelectJob("user-features")
	h.Press("space", "ctrl+k")
	h.MustShow("Kill 2 of 2 marked jobs?", "Type kill 2 jobs to kill")
	h.Type("kill 2 jobs")
	h.Press("enter")
	if got := actCalls(f); len(got) != 2 {
		t.Fatalf("calls %v", got)
	}
}

func TestBulkWithNothingAllowed(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("sessionize")
	h.Press("space")
	h.SelectJob("ad-clicks-agg")
	h.Press("space", "p")
	if h.m.dialog != nil {
		t.Fatal("a bulk action with nothing to do opened a dialog")
	}
	if !strings.Contains(h.Flash(), "none of the 2 marked jobs can be done") {
		t.Errorf("flash %q", h.Flash())
	}
}

func TestReadOnlyHidesAndRefusesActions(t *testing.T) {
	for name, setup := range map[string]func(f *tuitest.Fake) Options{
		"--read-only":     func(f *tuitest.Fake) Options { return Options{ReadOnly: true} },
		"service refuses": func(f *tuitest.Fake) Options { f.Viewer = true; return Options{} },
	} {
		t.Run(name, func(t *testing.T) {
			f := tuitest.NewFixture()
			h := newHarness(t, f, 120, 40, setup(f))
			h.MustNotShow("p pause", "ctrl+k kill")
			h.SelectJob("user-features")
			h.Press("p")
			if h.Flash() != "read-only: actions are disabled" {
				t.Errorf("flash %q", h.Flash())
			}
			h.Press("n")
			if _, ok := h.m.top().(*create.Form); ok {
				t.Error("n opened the create form in read-only mode")
			}
			h.OpenDetail("user-features")
			h.Press("ctrl+k")
			if h.m.dialog != nil || f.Called("Plan") {
				t.Error("kill from the detail reached Plan in read-only mode")
			}
			// A message from elsewhere is refused at the root too.
			h.Send(kit.StartActionMsg{Kind: model.CmdKill, Jobs: []api.JobView{f.Jobs[3]}})
			if f.Called("Plan") || !strings.Contains(h.Flash(), "read-only") {
				t.Errorf("read-only root let an action through; flash %q", h.Flash())
			}
		})
	}
}

func TestResubmitPicksRestorePoint(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("sessionize")
	h.Press("R")
	if !f.Called("Job j006") {
		t.Error("the resubmit dialog did not load the restore history")
	}
	h.MustShow("Resubmit sessionize — restore from?", "latest savepoint", "savepoint-01ab", "none — start with empty state")
	h.Press("G", "enter") // none
	if !f.Called("Plan RESUBMIT j006 none") {
		t.Fatalf("calls %v", f.Calls())
	}
	h.MustShow("Resubmit sessionize?", "Start with empty state.")
	h.Press("tab", "enter")
	if got := actCalls(f); !slices.Equal(got, []string{"Act RESUBMIT j006 none "}) {
		t.Fatalf("calls %v", got)
	}
}

func TestResubmitDefaultIsLatestSavepoint(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("sessionize")
	h.Press("R", "enter")
	h.MustShow("Restore state from hdfs:///flink/sp/sessionize/savepoint-01ab · 5h ago.")
	h.Press("tab", "enter")
	if got := actCalls(f); !slices.Equal(got, []string{"Act RESUBMIT j006 savepoint "}) {
		t.Fatalf("calls %v", got)
	}
}

func TestRestartOfACreatedJobSubmitsIt(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("new-pipeline")
	h.Press("r")
	if !f.Called("Plan SUBMIT j009") {
		t.Fatalf("r on a CREATED job: calls %v", f.Calls())
	}
	h.MustShow("Submit new-pipeline?")
}

func TestLatePlanIsDropped(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	stale := plannedMsg{seq: h.m.actions.seq, items: []planItem{{
		req: api.ActionRequest{JobRef: "j004", Kind: model.CmdPause}, job: f.Jobs[3].Job,
		plan: api.ActionPlan{Allowed: true, Confirm: api.ConfirmDestructive}}}}
	h.m.actions.seq++ // the user started another action meanwhile
	h.Send(stale)
	if h.m.dialog != nil {
		t.Fatal("a plan for an abandoned action opened a dialog")
	}
}

func TestActResultIsNeverDropped(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.m.actions.seq = 7
	h.Send(kit.ActedMsg{Seq: 3, Results: []kit.ActResult{{Job: f.Jobs[3].Job,
		Cmd: model.Command{ID: "c9", Seq: 9, Kind: model.CmdPause}}}})
	if h.Flash() != "PAUSE #9 queued for user-features…" {
		t.Errorf("a command recorded for an older action was not reported: %q", h.Flash())
	}
}

func TestFlashClearsItself(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Send(kit.FlashMsg{Level: kit.FlashInfo, Text: "first"})
	h.Send(kit.FlashMsg{Level: kit.FlashError, Text: "second"})
	// The first flash's expiry must not clear the second.
	var expiries []kit.FlashExpiredMsg
	var lives []time.Duration
	for _, tm := range h.Timers {
		if e, ok := tm.Msg(tuitest.Now).(kit.FlashExpiredMsg); ok {
			expiries = append(expiries, e)
			lives = append(lives, tm.D)
		}
	}
	if len(expiries) != 2 {
		t.Fatalf("%d flash expiries scheduled, want 2", len(expiries))
	}
	h.Send(expiries[0])
	if h.Flash() != "second" {
		t.Fatalf("the first flash's expiry cleared %q", h.Flash())
	}
	h.Send(expiries[1])
	if h.Flash() != "" {
		t.Fatalf("flash %q did not clear", h.Flash())
	}
	if lives[1] <= lives[0] {
		t.Error("errors do not stay longer than results")
	}
}

func TestQuitKeys(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
		_, cmd := h.m.Update(tuitest.Key(k))
		if cmd == nil {
			t.Fatalf("%s returned no Cmd", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s does not quit", k)
		}
	}
}

// A bulk dialog lists the jobs it will act on: the marked rows in the order
// the table shows them, then marked jobs the filter hides, in sort order —
// the same order every time — and past the first few, how many more.
func TestBulkDialogListsTheMarkedJobsInOrder(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press("g")
	for range 10 {
		h.Press("space") // every job, in name order
	}
	h.Press("/")
	h.Type("state:RUNNING")
	h.Press("enter", "p")
	d, ok := h.m.dialog.(*confirmDialog)
	if !ok {
		t.Fatalf("p with marks opened %T", h.m.dialog)
	}
	var got []string
	for _, it := range d.items {
		got = append(got, it.job.Name)
	}
	want := []string{"clicks-to-hudi", "orders-enrich", "payments-dedup", "user-features", // shown
		"ad-clicks-agg", "fraud-scoring", "geo-enrich", "inventory-sync", "new-pipeline", "sessionize"} // hidden
	if !slices.Equal(got, want) {
		t.Fatalf("the dialog is about %v, want %v", got, want)
	}
	h.MustShow("Pause 4 of 10 marked jobs?", "✓ clicks-to-hudi", "✗ inventory-sync", "+2 more")
	h.MustNotShow("new-pipeline", "sessionize")
}

// The confirmation acts on the job it names even when the table changed
// while it was open: the target is the job's id, taken when the key was
// pressed, not a row.
func TestConfirmActsOnTheJobItNamesAfterTheTableChanged(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.Press("o", "o", "o", "o", "o", "o", "o", "o") // name → … → IN/s
	h.SelectJob("payments-dedup")
	h.Press("p")
	h.MustShow("Pause payments-dedup?")
	// Meanwhile payments-dedup is renamed and sinks, and a job arrives above it.
	f.Jobs[1].Name = "payments-dedup-v2"
	f.Jobs[1].Figures.RecordsInPerSec = 1
	f.Jobs = append(f.Jobs, api.JobView{Job: model.Job{ID: "j050", Name: "aaa-new", Cluster: "prod", State: model.StateRunning},
		Figures: api.Figures{At: tuitest.Now, RecordsInPerSec: 0.5}})
	h.Change(api.Change{Kind: api.Resync})
	h.MustShow("Pause payments-dedup?")
	h.Press("tab", "enter")
	if got := actCalls(f); !slices.Equal(got, []string{"Act PAUSE j002 - "}) {
		t.Fatalf("the confirmation acted with %v, want a pause of j002", got)
	}
}

// Read-only is the service's say at each moment, not only at the start: a
// session the service turns read-only loses its actions at the next
// message, and they say why.
func TestReadOnlyFollowsTheService(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("user-features")
	h.MustShow("p pause")
	f.Viewer = true
	h.Send(tuitest.SizeMsg(120, 40))
	h.MustNotShow("p pause", "ctrl+k kill")
	h.SelectJob("user-features")
	h.Press("p")
	if h.Flash() != "read-only: actions are disabled" || f.Called("Plan") {
		t.Fatalf("p after the service turned read-only: flash %q", h.Flash())
	}
}

// planCalls are the Plan calls the fake saw.
func planCalls(f *tuitest.Fake) []string {
	var out []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "Plan ") {
			out = append(out, c)
		}
	}
	return out
}

// Core refuses to restart a KILLED job (after a kill, the restore point is
// chosen: resubmit); the TUI says so at once, in core's words, and does
// not offer r for it.
func TestRestartOfAKilledJobIsRefusedAsCoreSays(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("ad-clicks-agg") // KILLED
	h.MustNotShow("r restart")
	h.Press("r")
	if want := "restart ad-clicks-agg: after a kill, choose a restore point: use resubmit"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	if h.m.dialog != nil || len(planCalls(f)) != 0 {
		t.Fatalf("r on a KILLED job went on: dialog %T, calls %v", h.m.dialog, planCalls(f))
	}
	// Resubmit is what core offers instead.
	h.MustShow("R resubmit")
}

// Core lets a job whose deploy failed be submitted again; the TUI offers
// it on r (which restarts a job that ran, and submits one core says to
// submit) and asks Plan.
func TestSubmitAfterAFailedDeployIsOffered(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("geo-enrich") // DEPLOY_FAILED
	h.MustShow("r submit")
	h.Press("r")
	if got := planCalls(f); !slices.Equal(got, []string{"Plan SUBMIT j010 -"}) {
		t.Fatalf("r on a DEPLOY_FAILED job: plan calls %v, flash %q", got, h.Flash())
	}
	h.MustShow("Submit geo-enrich?")
}

// p pause is offered for a job core lets pause, and neither shown nor done
// for a FAILED one: the key says core's reason.
func TestPauseIsOfferedOnlyWhereCoreAllowsIt(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("user-features")
	h.MustShow("p pause")
	h.SelectJob("fraud-scoring") // FAILED
	h.MustNotShow("p pause")
	h.Press("p")
	if want := "pause fraud-scoring: job is FAILED, not RUNNING"; h.Flash() != want {
		t.Errorf("flash %q, want %q", h.Flash(), want)
	}
	if len(planCalls(f)) != 0 {
		t.Errorf("p on a FAILED job asked Plan: %v", planCalls(f))
	}
	// The detail answers the same.
	h.OpenDetail("fraud-scoring")
	h.MustNotShow("p pause")
	h.Press("p")
	if want := "pause fraud-scoring: job is FAILED, not RUNNING"; h.Flash() != want {
		t.Errorf("detail: flash %q, want %q", h.Flash(), want)
	}
}
