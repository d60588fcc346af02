package detail_test

import (
	"context"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/detail"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

func TestDetailSyncsOnOpenAndShowsListDataMeanwhile(t *testing.T) {
	f := tuitest.NewFixture()
	d, cmd := detail.New(tuitest.Env(f), f.Jobs[0], "")
	d.Update(tuitest.SizeMsg(120, 37))
	view := tuitest.Strip(d.View())
	for _, must := range []string{"orders-enrich", "RUNNING", "application_1732000000000_0042", "syncing…", "syncing with the cluster"} {
		if !strings.Contains(view, must) {
			t.Errorf("before Job answers the detail lacks %q:\n%s", must, view)
		}
	}
	msg := cmd()
	if !f.Called("Job j001") {
		t.Fatalf("opening the detail did not call Job (which syncs): %v", f.Calls())
	}
	d.Update(msg)
	view = tuitest.Strip(d.View())
	if strings.Contains(view, "syncing") || !strings.Contains(view, "YARN RUNNING/UNDEFINED") {
		t.Errorf("after Job answered:\n%s", view)
	}
}

func TestDetailTabsAndKeys(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	d := h.Top().(*detail.Screen)
	titles := []string{}
	for range d.Tabs() {
		titles = append(titles, d.Tab())
		h.Press("tab")
	}
	if got := strings.Join(titles, " "); got != "Overview Timeline Checkpoints Exceptions Commands Metrics Logs SQL Graph TaskManagers" {
		t.Errorf("tab walks %q", got)
	}
	if d.Tab() != "Overview" {
		t.Error("tab does not wrap around")
	}
	h.Press("shift+tab")
	if d.Tab() != "TaskManagers" {
		t.Errorf("shift+tab from Overview goes to %s", d.Tab())
	}
	for k, want := range map[string]string{"m": "Metrics", "l": "Logs", "E": "Exceptions"} {
		h.Press(k)
		if got := d.Tab(); got != want {
			t.Errorf("%s selects %s, want %s", k, got, want)
		}
	}
	// e opens the SQL editor over the detail; esc comes back.
	h.Press("e")
	if _, ok := h.Top().(*editor.Screen); !ok {
		t.Fatalf("e in the detail opened %T, want the SQL editor", h.Top())
	}
	h.Press("esc")
	h.Press("esc")
	if !strings.HasPrefix(h.Top().Title(), "Jobs") {
		t.Fatal("esc did not go back to the jobs")
	}
	// m from the jobs table opens the detail on its tab.
	h.Press("m")
	if d, ok := h.Top().(*detail.Screen); !ok || d.Tab() != "Metrics" {
		t.Fatal("m on the jobs table did not open the Metrics tab")
	}
}

func TestDetailFollowsWatch(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("tab") // Timeline
	jobCalls := strings.Count(strings.Join(f.Calls(), ","), "Job j001")

	j := f.Jobs[0]
	j.State = model.StateFinished
	ev := model.Event{JobID: "j001", Seq: 4, Time: tuitest.Now, From: model.StateRunning, To: model.StateFinished, Reason: "PAUSE #42 by ops: savepoint sp-9"}
	h.Change(api.Change{Kind: api.JobChanged, Job: &j, Event: &ev})
	h.MustShow("PAUSE #42 by ops: savepoint sp-9", "orders-enrich  FINISHED")
	if n := strings.Count(strings.Join(f.Calls(), ","), "Job j001"); n != jobCalls {
		t.Error("the next event in sequence made the detail reload")
	}
	// Another job's change does not touch this detail.
	other := f.Jobs[1]
	other.State = model.StateKilled
	h.Change(api.Change{Kind: api.JobChanged, Job: &other})
	h.MustShow("orders-enrich  FINISHED")
	// A gap in the event sequence (Watch coalesced events away) reloads.
	gap := model.Event{JobID: "j001", Seq: 7, Time: tuitest.Now, To: model.StateDeploying, Reason: "RESTART #44"}
	h.Change(api.Change{Kind: api.JobChanged, Job: &j, Event: &gap})
	if n := strings.Count(strings.Join(f.Calls(), ","), "Job j001"); n != jobCalls+1 {
		t.Errorf("an event gap made %d reloads, want 1", n-jobCalls)
	}
	// Commands of this job appear in the Commands tab as they change.
	c := model.Command{ID: "c000050", Seq: 50, JobID: "j001", Kind: model.CmdSavepoint, State: model.CmdDoing, Issuer: "ops", CreatedAt: tuitest.Now}
	h.Change(api.Change{Kind: api.CommandChanged, Command: &c})
	h.Press("tab", "tab", "tab") // Checkpoints, Exceptions, Commands
	h.MustShow("#50", "SAVEPOINT", "DOING")
}

func TestDetailLateAnswerIsDropped(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	d := h.Top().(*detail.Screen)
	other := api.JobDetail{Job: model.Job{ID: "j001", Name: "orders-enrich", State: model.StateKilled}}
	h.Send(detail.LoadedMsg{JobID: "j001", Seq: d.LoadSeq() - 1, Detail: other})
	h.Send(detail.LoadedMsg{JobID: "j002", Seq: d.LoadSeq(), Detail: other})
	if d.Job().State != model.StateRunning {
		t.Errorf("a stale or foreign answer changed the detail to %s", d.Job().State)
	}
}

func TestDetailLoadFailureShowsPanel(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	f.SetFail(tuitest.ErrClusterDown)
	h.SelectJob("orders-enrich")
	h.Press("enter")
	h.MustShow("load job j001: connection refused", "ctrl+r retries")
	f.SetFail(nil)
	h.Press("ctrl+r")
	h.MustShow("Source: orders ×4 RUNNING")
}

func TestCommandsTabOpensLiveLog(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	d := h.Top().(*detail.Screen)
	d.SelectTab("Commands")
	h.Press("j", "enter") // #41 is first (newest), #40 second
	if got := h.Top().Title(); got != "PAUSE #40 of orders-enrich · log" {
		t.Fatalf("enter on a command opened %s", got)
	}
	h.MustShow("PAUSE #40 of orders-enrich · log", "stop-with-savepoint triggered", "savepoint hdfs:///flink/sp/orders-enrich/savepoint-7f3a21")
	c := command(t, f, 40)
	c.Logf(tuitest.Now, "a line that arrived later")
	h.Change(api.Change{Kind: api.CommandChanged, Command: &c})
	h.MustShow("a line that arrived later")
}

func TestCheckpointsTabRestoresFromTheChosenPoint(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Top().(*detail.Screen).SelectTab("Checkpoints")
	h.Press("j", "enter") // the second restore point: the latest savepoint
	// orders-enrich is RUNNING: a resubmit is refused at once, with the reason.
	if want := "resubmit orders-enrich: job is RUNNING; pause or kill it first"; h.Flash() != want {
		t.Fatalf("flash %q, want %q", h.Flash(), want)
	}
	// Once it is paused, the same keys plan a resubmit from that path.
	j := f.Jobs[0]
	j.State = model.StateFinished
	f.Jobs[0].State = model.StateFinished
	h.Change(api.Change{Kind: api.JobChanged, Job: &j})
	h.Press("enter")
	if !f.Called("Plan RESUBMIT j001 path") {
		t.Fatalf("calls %v", f.Calls())
	}
	h.MustShow("Resubmit orders-enrich?", "Restore state from hdfs:///flink/sp/orders-enrich/savepoint-7f3a21 · 3d")
	h.Press("tab", "enter")
	if got := actCalls(f); len(got) != 1 || got[0] != "Act RESUBMIT j001 path hdfs:///flink/sp/orders-enrich/savepoint-7f3a21" {
		t.Fatalf("calls %v", got)
	}
}

func TestRawJSON(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	h.Press("y")
	h.MustShow("orders-enrich · raw JSON", `"jid": "3f9c0d1e2b3a4c5d6e7f8091a2b3a21e"`)
	h.Press("esc")
	// Without live data, y shows palink's own record and says why.
	h.Press("esc")
	h.OpenDetail("sessionize")
	h.Press("y")
	h.MustShow("palink's record of the job", `"Name": "sessionize"`)
}

func TestDetailFooterAndHelpComeFromTheKeymap(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.OpenDetail("orders-enrich")
	d := h.Top().(*detail.Screen)
	for _, b := range d.ShortHelp() {
		if !b.Enabled() {
			continue
		}
		if !strings.Contains(h.Screen(), b.Help().Key+" "+b.Help().Desc) && b.Help().Key != "R" {
			// The footer may cut the tail with …; the first ones must be there.
			if b.Help().Key == "tab" || b.Help().Key == "p" {
				t.Errorf("footer lacks %s %s", b.Help().Key, b.Help().Desc)
			}
		}
	}
	h.Press("?")
	for _, g := range d.FullHelp() {
		for _, b := range g {
			if b.Enabled() && !strings.Contains(h.Screen(), b.Help().Desc) {
				t.Errorf("help lacks %q", b.Help().Desc)
			}
		}
	}
	k := kit.NewKeyMap()
	for _, b := range []key.Binding{k.Global.Quit, k.Global.Command} {
		if !strings.Contains(h.Screen(), b.Help().Desc) {
			t.Errorf("help lacks the global %q", b.Help().Desc)
		}
	}
}

// command is the fake's command of a sequence number.
func command(t *testing.T, f *tuitest.Fake, seq int64) model.Command {
	t.Helper()
	cs, _ := f.Commands(context.Background(), api.CommandFilter{})
	for _, c := range cs {
		if c.Seq == seq {
			return c
		}
	}
	t.Fatalf("no command #%d", seq)
	return model.Command{}
}

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
