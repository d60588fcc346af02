package alerts_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/alerts"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

func TestAlertsViewListsAndOpensTheJob(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetAlerts(tuitest.FixtureAlerts())
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press(":")
	h.Type("alerts")
	h.Press("enter")
	if _, ok := h.Top().(*alerts.Screen); !ok {
		t.Fatalf(":alerts opened %T", h.Top())
	}
	h.MustShow("Alerts", "2 firing · 1 resolved", "job-failed", "fraud-scoring", "backpressure 87% at Sink: hudi[5]", "RESOLVED", "30m")
	// A new alert fires while the view is open: it reloads.
	more := append(tuitest.FixtureAlerts(), model.Alert{Rule: "lag", JobID: "j001", JobName: "orders-enrich", Cluster: "prod", State: model.AlertFiring,
		Since: tuitest.Now, Severity: "warning", Value: "consumer lag 1.2M records (limit 100.0k)"})
	f.SetAlerts(more)
	h.Change(api.Change{Kind: api.AlertsChanged})
	h.MustShow("3 firing · 1 resolved", "consumer lag 1.2M records")
	h.Press("j")
	h.Press("enter")
	if h.Top().Title() != "clicks-to-hudi" {
		t.Fatalf("enter on the second alert opened %T", h.Top())
	}
}

func TestGoldenAlerts(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetAlerts(tuitest.FixtureAlerts())
		h := apptest.New(t, f, sz.W, sz.H, tui.Options{Context: "test"})
		h.Press(":")
		h.Type("alerts")
		h.Press("enter")
		tuitest.Golden(t, "alerts_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}

// An on-call engineer takes the failed job's alert in hand, silences the
// backpressure one for two hours, then lifts it: each is asked of the
// service, said in the flash, and shown on the list for everyone.
func TestAlertsAckAndSilence(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetAlerts(tuitest.FixtureAlerts())
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press(":")
	h.Type("alerts")
	h.Press("enter")
	h.MustShow("HANDLED")

	h.Press("a") // the cursor is on job-failed of fraud-scoring
	if !slices.Contains(f.Calls(), "ActOnAlert job-failed j005 ack=true silence=0s unsilence=false undo=false") {
		t.Fatalf("calls %v: want the acknowledgement", f.Calls())
	}
	if got := h.Flash(); got != "acknowledged job-failed of fraud-scoring — u to undo" {
		t.Errorf("flash %q", got)
	}
	h.MustShow("✓ ops", "acked by ops")
	h.Press("a")
	if got := h.Flash(); !strings.Contains(got, "already acknowledged by ops") {
		t.Errorf("a second a: flash %q", got)
	}

	h.Press("j", "s")
	h.MustShow("silence backpressure of clicks-to-hudi for:")
	h.Type("2x")
	h.Press("enter")
	if got := h.Flash(); !strings.Contains(got, `give a duration such as 30m, 2h or 1d`) {
		t.Errorf("a bad duration: flash %q", got)
	}
	h.Press("backspace", "backspace")
	h.Type("2h")
	h.Press("enter")
	if !slices.Contains(f.Calls(), "ActOnAlert backpressure j003 ack=false silence=2h0m0s unsilence=false undo=false") {
		t.Fatalf("calls %v: want a silence of 2h", f.Calls())
	}
	if got := h.Flash(); !strings.HasPrefix(got, "backpressure of clicks-to-hudi silenced for 2h") {
		t.Errorf("flash %q", got)
	}
	h.MustShow("⏸ 2h", "silenced until")
	h.MustNotShow("silence backpressure of clicks-to-hudi for:")

	h.Press("U")
	if !slices.Contains(f.Calls(), "ActOnAlert backpressure j003 ack=false silence=0s unsilence=true undo=false") {
		t.Fatalf("calls %v: want the silence lifted", f.Calls())
	}
	h.MustNotShow("⏸ 2h")
	h.Press("U")
	if got := h.Flash(); got != "backpressure of clicks-to-hudi is not silenced" {
		t.Errorf("u on a quiet alert: flash %q", got)
	}

	// Resolved alerts need no hand, and esc leaves a silence prompt.
	h.Press("j", "a")
	if got := h.Flash(); !strings.Contains(got, "is resolved: nothing to acknowledge") {
		t.Errorf("a on a resolved alert: flash %q", got)
	}
	h.Press("s", "esc")
	h.MustNotShow("for:")
	if _, ok := h.Top().(*alerts.Screen); !ok {
		t.Fatalf("esc in the prompt left the view for %T", h.Top())
	}
}

// A read-only session shows who handles an alert but cannot act.
func TestAlertsReadOnlyCannotAct(t *testing.T) {
	f := tuitest.NewFixture()
	f.SetAlerts(tuitest.FixtureAlerts())
	h := apptest.New(t, f, 120, 40, tui.Options{ReadOnly: true})
	h.Press(":")
	h.Type("alerts")
	h.Press("enter")
	h.Press("a")
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "ActOnAlert") {
			t.Fatalf("read-only acted: %v", f.Calls())
		}
	}
	if got := h.Flash(); !strings.Contains(got, "read-only") {
		t.Errorf("flash %q, want it to say read-only", got)
	}
}

func TestGoldenAlertsHandled(t *testing.T) {
	as := tuitest.FixtureAlerts()
	as[0].AckedBy, as[0].AckedAt = "alice", tuitest.Now.Add(-5*time.Minute)
	as[1].SilencedBy, as[1].SilencedUntil = "bob", tuitest.Now.Add(2*time.Hour)
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetAlerts(as)
		h := apptest.New(t, f, sz.W, sz.H, tui.Options{Context: "test"})
		h.Press(":")
		h.Type("alerts")
		h.Press("enter")
		tuitest.Golden(t, "alerts_handled_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}

// openAlerts opens `:alerts` over the fixture's alerts.
func openAlerts(t *testing.T, f *tuitest.Fake) *tuitest.Harness {
	t.Helper()
	f.SetAlerts(tuitest.FixtureAlerts())
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press(":")
	h.Type("alerts")
	h.Press("enter")
	h.MustShow("HANDLED")
	return h
}

// alertCalls are the ActOnAlert calls the fake saw.
func alertCalls(f *tuitest.Fake) []string {
	var out []string
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, "ActOnAlert") {
			out = append(out, c)
		}
	}
	return out
}

// The cursor stays on its alert when a new firing lists above it: a
// acknowledges the alert the operator chose, not the one that took its
// row, and the flash names it.
func TestAlertsCursorFollowsItsAlert(t *testing.T) {
	f := tuitest.NewFixture()
	h := openAlerts(t, f)
	h.Press("j") // backpressure of clicks-to-hudi
	lag := model.Alert{Rule: "consumer-lag", Kind: "lag", Severity: "warning", JobID: "j002", JobName: "payments-dedup", Cluster: "prod",
		State: model.AlertFiring, Since: tuitest.Now, Value: "consumer lag 2.1M records (limit 100.0k)"}
	f.SetAlerts(append([]model.Alert{lag}, tuitest.FixtureAlerts()...))
	h.Change(api.Change{Kind: api.AlertsChanged})
	h.MustShow("consumer-lag", "3 firing · 1 resolved")
	h.Press("a")
	if got := alertCalls(f); len(got) != 1 || !strings.HasPrefix(got[0], "ActOnAlert backpressure j003 ack=true") {
		t.Fatalf("a after a new firing listed above the cursor: calls %v, want the acknowledgement of backpressure of clicks-to-hudi", got)
	}
	if got, want := h.Flash(), "acknowledged backpressure of clicks-to-hudi — u to undo"; got != want {
		t.Errorf("flash %q, want %q", got, want)
	}
	// Still on it: the story under the list is its.
	h.MustShow("acked by ops")
}

// An acknowledgement or a silence can be taken back with u for ten
// seconds: the service puts the alert back as it was, and the flash says
// what was undone. After that, u has nothing to undo.
func TestAlertsUndoWithinTenSeconds(t *testing.T) {
	f := tuitest.NewFixture()
	h := openAlerts(t, f)
	h.Press("a") // job-failed of fraud-scoring
	if got, want := h.Flash(), "acknowledged job-failed of fraud-scoring — u to undo"; got != want {
		t.Errorf("flash %q, want %q", got, want)
	}
	h.MustShow("✓ ops")
	h.Press("u")
	if got := alertCalls(f); len(got) != 2 || !strings.HasPrefix(got[1], "ActOnAlert job-failed j005") || !strings.HasSuffix(got[1], "undo=true") {
		t.Fatalf("u: calls %v, want the acknowledgement undone", got)
	}
	h.MustNotShow("✓ ops", "acked by")
	if got, want := h.Flash(), "acknowledgement of job-failed of fraud-scoring undone"; got != want {
		t.Errorf("flash %q, want %q", got, want)
	}
	h.Press("u")
	if got := h.Flash(); !strings.HasPrefix(got, "nothing to undo") || len(alertCalls(f)) != 2 {
		t.Errorf("a second u: flash %q, calls %v", got, alertCalls(f))
	}

	// A silence, the same way.
	h.Press("j", "s")
	h.Type("2h")
	h.Press("enter")
	if got := h.Flash(); !strings.HasPrefix(got, "backpressure of clicks-to-hudi silenced for 2h") || !strings.HasSuffix(got, "— u to undo") {
		t.Errorf("flash %q", got)
	}
	h.MustShow("⏸ 2h")
	h.Press("u")
	h.MustNotShow("⏸ 2h", "silenced until")
	if got, want := h.Flash(), "silence of backpressure of clicks-to-hudi undone"; got != want {
		t.Errorf("flash %q, want %q", got, want)
	}

	// Ten seconds after an acknowledgement, u has nothing to undo.
	h.Press("k", "a")
	h.MustShow("✓ ops")
	h.Elapse(api.AlertUndoWindow)
	calls := len(alertCalls(f))
	h.Press("u")
	if got := h.Flash(); !strings.HasPrefix(got, "nothing to undo") {
		t.Errorf("u after 10s: flash %q", got)
	}
	if len(alertCalls(f)) != calls {
		t.Errorf("u after 10s called the service: %v", alertCalls(f)[calls:])
	}
	h.MustShow("✓ ops")
}

// The silence prompt shows the format it takes as a placeholder, not as
// text to delete; an empty answer silences nothing.
func TestAlertsSilencePromptShowsTheFormat(t *testing.T) {
	f := tuitest.NewFixture()
	h := openAlerts(t, f)
	h.Press("s")
	h.MustShow("silence job-failed of fraud-scoring for: 30m, 2h, 1d")
	h.Press("enter")
	if got := h.Flash(); !strings.Contains(got, "30m, 2h or 1d") || len(alertCalls(f)) != 0 {
		t.Errorf("enter on an empty prompt: flash %q, calls %v", got, alertCalls(f))
	}
	h.Type("30m")
	h.MustShow("silence job-failed of fraud-scoring for: 30m")
	h.MustNotShow("30m, 2h, 1d")
}

// The silence prompt, its format a dim placeholder.
func TestGoldenAlertsSilencePrompt(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetAlerts(tuitest.FixtureAlerts())
		h := apptest.New(t, f, sz.W, sz.H, tui.Options{Context: "test"})
		h.Press(":")
		h.Type("alerts")
		h.Press("enter", "s")
		tuitest.Golden(t, "alerts_silence_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}

// Whatever order the program delivers an action's busy flash and its
// answer in, the flash ends with the answer: which alert, and u to undo.
func TestAlertsFlashEndsWithTheAnswer(t *testing.T) {
	f := tuitest.NewFixture()
	h := openAlerts(t, f)
	h.RunBatchesBackwards()
	h.Press("a")
	if got, want := h.Flash(), "acknowledged job-failed of fraud-scoring — u to undo"; got != want {
		t.Errorf("flash after a: %q, want %q", got, want)
	}
	h.Press("u")
	if got, want := h.Flash(), "acknowledgement of job-failed of fraud-scoring undone"; got != want {
		t.Errorf("flash after u: %q, want %q", got, want)
	}
}

// The silence prompt without colour: its format a faint placeholder.
func TestGoldenAlertsSilencePromptNoColor(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetAlerts(tuitest.FixtureAlerts())
		h := apptest.New(t, f, sz.W, sz.H, tui.Options{Context: "test"})
		h.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
		h.Press(":")
		h.Type("alerts")
		h.Press("enter", "s")
		tuitest.Golden(t, "alerts_silence_no_color_"+tuitest.SizeName(sz.W, sz.H), tuitest.NoColor(h.Render()))
	}
}
