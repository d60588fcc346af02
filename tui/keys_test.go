package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/palink/palink/tui/commands"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/jobs"
)

// The keys people reach for do something, or say why not (#12).

func TestDescribeOpensTheOverview(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.SelectJob("orders-enrich")
	h.Press("d")
	d, ok := h.m.top().(*detail.Screen)
	if !ok || d.Title() != "orders-enrich" {
		t.Fatalf("d opened %T", h.m.top())
	}
	h.Press("tab", "tab")
	if d.Tab() != "Checkpoints" {
		t.Fatalf("on tab %s", d.Tab())
	}
	h.Press("d")
	if d.Tab() != "Overview" {
		t.Errorf("d in the detail went to %s, not the Overview", d.Tab())
	}
}

func TestYShowsRawJSONThenYAML(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.SelectJob("orders-enrich")
	h.Press("y")
	if _, ok := h.m.top().(*detail.RawScreen); !ok {
		t.Fatalf("y on the table opened %T", h.m.top())
	}
	if !h.F.Called("Job j001") {
		t.Error("the raw view did not load the job")
	}
	h.MustShow("orders-enrich · raw JSON", `"jid": "3f9c0d1e2b3a4c5d6e7f8091a2b3a21e"`, "y YAML")
	h.Press("y")
	h.MustShow("orders-enrich · raw YAML", "jid: 3f9c0d1e2b3a4c5d6e7f8091a2b3a21e", "y JSON")
	h.Press("esc")
	if _, ok := h.m.top().(*jobs.Screen); !ok {
		t.Fatalf("esc went to %T", h.m.top())
	}

	// A job Flink knows nothing of: palink's record, which says so.
	h.SelectJob("sessionize")
	h.Press("y")
	h.MustShow("// palink's record of the job", `"Name": "sessionize"`)
	h.Press("y")
	h.MustShow("# palink's record of the job", "Name: sessionize")
}

func TestCtrlDKillsFromTheTableAndTheDetail(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.SelectJob("user-features")
	h.Press("ctrl+d")
	h.MustShow("Kill user-features?", "Prefer p pause")
	h.Press("esc")
	if h.m.dialog != nil {
		t.Fatal("esc left the dialog open")
	}
	h.OpenDetail("user-features")
	h.Press("ctrl+d")
	h.MustShow("Kill user-features?")
	h.Press("right", "enter")
	if got := actCalls(h.F); !slices.Equal(got, []string{"Act KILL j004 - "}) {
		t.Fatalf("calls %v", got)
	}

	// Read-only, it is refused as ctrl+k is.
	h = newHarness(t, tuitest.NewFixture(), 120, 40, Options{ReadOnly: true})
	h.SelectJob("user-features")
	h.Press("ctrl+d")
	if h.m.dialog != nil || !strings.Contains(h.Flash(), "read-only") {
		t.Errorf("read-only ctrl+d: dialog %v, flash %q", h.m.dialog, h.Flash())
	}
}

func TestCtrlDElsewhereSaysWhichKeyKills(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press(":")
	h.Type("cmd")
	h.Press("enter", "ctrl+d")
	if _, ok := h.m.top().(*commands.Screen); !ok || h.m.dialog != nil {
		t.Fatalf("ctrl+d in :cmd: %T, dialog %v", h.m.top(), h.m.dialog)
	}
	if f := h.Flash(); !strings.Contains(f, "ctrl+d kills a job from the jobs table or a job's detail") {
		t.Errorf("flash %q", f)
	}
}

func TestCtrlDInTheEditorIsItsDebugRun(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.SelectJob("orders-enrich")
	h.Press("e")
	if _, ok := h.m.top().(*editor.Screen); !ok {
		t.Fatalf("e opened %T", h.m.top())
	}
	h.Press("ctrl+d")
	if h.m.dialog != nil {
		t.Fatal("ctrl+d in the editor opened a dialog")
	}
	if strings.Contains(h.Flash(), "kills") {
		t.Errorf("ctrl+d in the editor hinted at kill: %q", h.Flash())
	}
	if _, ok := h.m.top().(*editor.Screen); ok && !strings.Contains(h.Flash(), "debug") {
		t.Errorf("ctrl+d in the editor: top %T, flash %q", h.m.top(), h.Flash())
	}
}

func TestUnknownKeyGivesAHint(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press("z")
	if f := h.Flash(); f != "z does nothing in Jobs · all clusters; ? lists its keys" {
		t.Errorf("z on the table: flash %q", f)
	}
	// Known keys say nothing of the kind.
	for _, k := range []string{"j", "o", "x", "esc"} {
		h.m.flash.Clear()
		h.Press(k)
		if strings.Contains(h.Flash(), "does nothing") {
			t.Errorf("%s: flash %q", k, h.Flash())
		}
	}
	// In the detail, a tab's own keys are known.
	h.OpenDetail("orders-enrich")
	for _, tab := range []string{"Checkpoints", "Exceptions", "Commands", "Logs", "SQL"} {
		h.m.top().(*detail.Screen).SelectTab(tab)
		h.m.flash.Clear()
		h.Press("enter")
		if strings.Contains(h.Flash(), "does nothing") {
			t.Errorf("enter on the %s tab: flash %q", tab, h.Flash())
		}
		if _, ok := h.m.top().(*detail.Screen); !ok {
			h.Press("esc")
		}
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press("?")
	for _, verb := range commandVerbs {
		h.MustShow(":" + verb)
	}
	// Every view's help has them, but where a text field has the keyboard.
	h.Press("esc", ":")
	h.Type("cmd")
	h.Press("enter", "?")
	h.MustShow(":alerts", ":sql NAME")
}

func TestCommandUsageHasEveryVerb(t *testing.T) {
	for _, verb := range commandVerbs {
		if !slices.ContainsFunc(commandUsage, func(u string) bool { return strings.HasPrefix(u, ":"+verb) }) {
			t.Errorf("commandUsage lacks :%s", verb)
		}
	}
}

// `/` filters every list view; esc clears the filter before it leaves.
func TestSlashFiltersEveryList(t *testing.T) {
	f := tuitest.WithLogs(tuitest.NewFixture())
	f.SetAlerts(tuitest.FixtureAlerts())
	h := newHarness(t, f, 120, 40, Options{})

	open := func(cmd string) {
		h.T.Helper()
		h.Press(":")
		h.Type(cmd)
		h.Press("enter")
	}
	filter := func(text string) {
		h.T.Helper()
		h.Press("/")
		h.Type(text)
		h.Press("enter")
	}

	open("cmd")
	h.MustShow("#41", "#39")
	filter("fraud")
	h.MustShow("filter: fraud", "#39", "1/1")
	h.MustNotShow("#41")
	h.Press("enter")
	h.MustShow("RESTART #39 of fraud-scoring · log")
	h.Press("esc") // the log
	h.Press("esc") // the filter
	if _, ok := h.m.top().(*commands.Screen); !ok {
		t.Fatalf("esc with a filter left :cmd for %T", h.m.top())
	}
	h.MustShow("#41", "#39", "3/4") // the cursor stays on its command
	h.Press("esc")
	if _, ok := h.m.top().(*jobs.Screen); !ok {
		t.Fatalf("esc without a filter stayed on %T", h.m.top())
	}

	open("alerts")
	h.MustShow("fraud-scoring", "clicks-to-hudi")
	filter("backpressure")
	h.MustShow("clicks-to-hudi", "filter: backpressure")
	h.MustNotShow("fraud-scoring")
	h.Press("esc", "esc")

	open("cluster prod")
	h.MustShow("legacy-etl", "ad-hoc-backfill")
	filter("alice")
	h.MustShow("ad-hoc-backfill", "(1 of 2)")
	h.MustNotShow("legacy-etl")
	h.Press("esc", "esc")

	h.SelectJob("orders-enrich")
	h.Press("l")
	h.MustShow("JobManager", "TaskManager "+tuitest.TMID)
	filter("stdout")
	h.MustShow("filter: stdout", "stdout")
	h.MustNotShow("jobmanager.err")
	h.Press("esc")
	if _, ok := h.m.top().(*detail.Screen); !ok {
		t.Fatalf("esc with a filter on the Logs tab left the detail for %T", h.m.top())
	}
	h.MustShow("jobmanager.err")
}
