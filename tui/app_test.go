package tui

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func TestCommandLine(t *testing.T) {
	f := newFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.press(":")
	if !h.m.cmd.active {
		t.Fatal(": did not open the command line")
	}
	h.mustShow("tab complete")
	h.typeText("cl")
	h.press("tab") // completes to the first match
	if got := h.m.cmd.input.Value(); got != "cluster" {
		t.Errorf("tab completed cl to %q", got)
	}
	h.press("enter")
	if _, ok := h.m.top().(*clusterScreen); !ok {
		t.Fatalf(":cluster opened %T", h.m.top())
	}
	h.mustShow("Cluster prod", "legacy-etl")

	h.press(":")
	h.typeText("cmd")
	h.press("enter")
	if _, ok := h.m.top().(*commandsScreen); !ok {
		t.Fatalf(":cmd opened %T", h.m.top())
	}

	h.press(":")
	h.typeText("sql orders-enrich")
	h.press("enter")
	if ed, ok := h.m.top().(*editorScreen); !ok || ed.job.Name != "orders-enrich" {
		t.Fatalf(":sql opened %T", h.m.top())
	}
	h.mustShow("LEFT JOIN users FOR SYSTEM_TIME AS OF")
	h.press("esc") // the editor has the keyboard: leave it for the next command

	h.press(":")
	h.typeText("sql nothing-like-it")
	h.press("enter")
	if !strings.Contains(h.flashText(), ":sql nothing-like-it: no such job") {
		t.Errorf("flash %q", h.flashText())
	}

	h.press(":")
	h.typeText("bogus")
	h.press("enter")
	if !strings.Contains(h.flashText(), "unknown command :bogus") {
		t.Errorf("flash %q", h.flashText())
	}

	h.press(":", "esc")
	if h.m.cmd.active {
		t.Error("esc did not close the command line")
	}

	// :jobs goes back to the jobs view from anywhere.
	h.press(":")
	h.typeText("jobs")
	h.press("enter")
	if len(h.m.stack) != 1 {
		t.Errorf(":jobs left %d screens on the stack", len(h.m.stack))
	}

	h.press(":")
	h.typeText("theme light")
	h.press("enter")
	if h.m.env.Styles.Dark {
		t.Error(":theme light kept the dark theme")
	}

	h.press(":")
	h.typeText("q")
	h.press("enter")
	if !slices.ContainsFunc(h.seen, func(m tea.Msg) bool { _, ok := m.(tea.QuitMsg); return ok }) {
		t.Error(":q did not quit")
	}
}

func TestCompletionsOfferClustersAndJobs(t *testing.T) {
	got := completions([]string{"prod"}, []string{"orders-enrich"})
	for _, want := range []string{"jobs", "jobs @prod", "cmd", "cluster prod", "sql orders-enrich", "q"} {
		if !slices.Contains(got, want) {
			t.Errorf("completions lack %q: %v", want, got)
		}
	}
}

func TestHelpShowsEveryKeyOfTheView(t *testing.T) {
	h := newHarness(t, newFixture(), 120, 40, Options{})
	h.press("?")
	if _, ok := h.m.top().(*helpScreen); !ok {
		t.Fatalf("? opened %T", h.m.top())
	}
	screen := h.screen()
	for _, g := range h.m.jobs.FullHelp() {
		for _, b := range g {
			if !strings.Contains(screen, b.Help().Desc) {
				t.Errorf("help lacks %s %s", b.Help().Key, b.Help().Desc)
			}
		}
	}
	h.press("?")
	if _, ok := h.m.top().(*jobsScreen); !ok {
		t.Error("? did not close the help")
	}
	// The keys listed in help work: o sorts, as help says.
	h.press("o")
	if h.m.jobs.sortCol == colName {
		t.Error("o, listed in help, did nothing")
	}
}

func TestClusterViewSwitchesAndAdopts(t *testing.T) {
	f := newFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.press(":")
	h.typeText("cluster")
	h.press("enter")
	h.mustShow("Cluster prod", "apps     running 12", "streaming", "legacy-etl", "ad-hoc-backfill")
	h.press("]")
	h.mustShow("Cluster staging", "none: every Flink application on this cluster is a palink job")
	h.press("a")
	if h.m.dialog != nil || !strings.Contains(h.flashText(), "no unmanaged Flink application on staging") {
		t.Errorf("a with nothing to adopt: flash %q", h.flashText())
	}
	h.press("[")
	h.press("j", "a")
	h.mustShow("Adopt application_1732000000000_0088?", "name: ad-hoc-backfill")
	h.press("backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	h.typeText("backfill-2026")
	h.press("enter")
	if !f.called("Adopt prod application_1732000000000_0088 ad-hoc-backfill-2026") {
		t.Fatalf("calls %v", f.Calls())
	}
	if !strings.Contains(h.flashText(), "adopted application_1732000000000_0088 as job ad-hoc-backfill-2026") {
		t.Errorf("flash %q", h.flashText())
	}
	h.mustNotShow("ad-hoc-backfill ") // reloaded: it is no longer unmanaged
	if _, ok := h.m.jobs.byID["j011"]; !ok {
		t.Error("the adopted job is not in the jobs table")
	}
}

func TestClusterChangeReloadsOverview(t *testing.T) {
	f := newFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.press(":")
	h.typeText("cluster prod")
	h.press("enter")
	before := strings.Count(strings.Join(f.Calls(), ","), "ClusterOverview prod")
	st := api.ClusterStatus{Name: "prod", Connected: false, LastOK: testNow.Add(-40 * 1e9)}
	h.change(api.Change{Kind: api.ClusterChanged, Cluster: &st})
	if n := strings.Count(strings.Join(f.Calls(), ","), "ClusterOverview prod"); n != before+1 {
		t.Errorf("a cluster change made %d reloads, want 1", n-before)
	}
	h.mustShow("✖ prod down 40s")
}

func TestCreateJobForm(t *testing.T) {
	f := newFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.press("n")
	if _, ok := h.m.top().(*createScreen); !ok {
		t.Fatalf("n opened %T", h.m.top())
	}
	h.press("ctrl+s")
	h.mustShow("name is required", "SQL is required")
	if f.called("CreateJob") {
		t.Fatal("an invalid form was sent")
	}
	// q and ? are text in the form, not global keys.
	h.typeText("q?")
	if _, ok := h.m.top().(*createScreen); !ok {
		t.Fatal("typing q or ? in the form left it")
	}
	h.press("backspace", "backspace")
	h.typeText("orders-v2")
	h.press("tab", "right") // cluster: staging
	h.press("tab", "tab")   // parallelism
	h.typeText("x")
	h.press("tab")
	h.typeText("INSERT INTO a SELECT * FROM b;")
	h.press("ctrl+s")
	h.mustShow(`parallelism "x" is not a whole number`)
	h.press("shift+tab", "backspace")
	h.typeText("8")
	h.press("ctrl+s")
	if !f.called("CreateJob orders-v2 staging SQL") {
		t.Fatalf("calls %v", f.Calls())
	}
	if _, ok := h.m.top().(*jobsScreen); !ok {
		t.Fatalf("after creating, the form is still open (%T)", h.m.top())
	}
	if !strings.Contains(h.flashText(), "created job orders-v2 on staging (CREATED) — r submits it") {
		t.Errorf("flash %q", h.flashText())
	}
	h.mustShow("orders-v2")

	// A refusal keeps the form open with the reason.
	h.press("n")
	h.typeText("orders-v2")
	h.press("tab", "tab", "tab", "tab")
	h.typeText("SELECT 1;")
	h.press("ctrl+s")
	h.mustShow("create job orders-v2 on prod: job orders-v2: already exists")
	h.press("esc")
	if _, ok := h.m.top().(*jobsScreen); !ok {
		t.Error("esc did not leave the form")
	}
}

func TestCreateJarJob(t *testing.T) {
	f := newFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.press("n")
	h.typeText("etl-jar")
	h.press("tab", "tab", "right") // kind: JAR
	h.mustShow("entry class")
	h.press("tab", "tab")
	h.typeText("/jobs/etl.jar")
	h.press("tab")
	h.typeText("com.example.Etl")
	h.press("tab")
	h.typeText("--date today")
	h.press("ctrl+s")
	if !f.called("CreateJob etl-jar prod JAR") {
		t.Fatalf("calls %v", f.Calls())
	}
}

func TestTinyTerminalSaysSo(t *testing.T) {
	h := newHarness(t, newFixture(), 30, 6, Options{})
	h.mustShow("palink needs at least 40×8")
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.mustShow("orders-enrich")
}

func TestEveryScreenFitsTheTerminal(t *testing.T) {
	// Walk the screens at odd sizes: no line may be wider than the
	// terminal and the frame must have exactly its height.
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {41, 9}, {200, 60}} {
		h := newHarness(t, newFixture(), sz[0], sz[1], Options{Context: "demo"})
		check := func(where string) {
			t.Helper()
			lines := strings.Split(h.m.render(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d %s: %d lines", sz[0], sz[1], where, len(lines))
			}
			for i, l := range lines {
				if w := len([]rune(stripped(l))); w > sz[0] {
					t.Fatalf("%dx%d %s: line %d is %d wide", sz[0], sz[1], where, i+1, w)
				}
			}
		}
		check("jobs")
		h.openDetail("orders-enrich")
		for range 8 {
			check("detail")
			h.press("tab")
		}
		h.press("ctrl+k")
		check("kill dialog")
		h.press("esc", "esc", "?")
		check("help")
		h.press("esc", ":")
		h.typeText("cmd")
		h.press("enter")
		check("commands")
		h.press(":")
		h.typeText("cluster")
		h.press("enter")
		check("cluster")
		h.press(":")
		h.typeText("jobs")
		h.press("enter", "n")
		check("create")
	}
}

func TestCommandsViewFollowsWatch(t *testing.T) {
	f := newFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.press(":")
	h.typeText("cmd")
	h.press("enter")
	h.mustShow("#41", "#38", "1/4")
	c := model.Command{ID: "c000099", Seq: 99, JobID: "j003", Kind: model.CmdSavepoint, State: model.CmdDoing, Issuer: "alice", CreatedAt: testNow}
	h.change(api.Change{Kind: api.CommandChanged, Command: &c})
	h.mustShow("#99", "clicks-to-hudi", "alice", "2/5")
	if h.m.top().(*commandsScreen).cmds[h.m.top().(*commandsScreen).cursor].Seq != 41 {
		t.Error("a new command moved the cursor off the command it was on")
	}
	c.State = model.CmdSucceeded
	h.change(api.Change{Kind: api.CommandChanged, Command: &c})
	if n := len(h.m.top().(*commandsScreen).cmds); n != 5 {
		t.Errorf("an update of a known command added a row: %d rows", n)
	}
	h.press("g", "enter")
	h.mustShow("SAVEPOINT #99 of clicks-to-hudi · log", "SUCCEEDED")
}

// TestImportBoundary proves the TUI reaches HTTP, bbolt and the store and
// cluster clients only through core, never by its own imports: the TUI talks
// to api.Service and nothing else (DESIGN.md, STYLE.md "Rooms and doors").
func TestImportBoundary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	// tui talks to core only through core/api, which declares the Service
	// interface and imports nothing but model: no path from tui may reach
	// HTTP, bbolt, the cluster clients, the store or core's implementation.
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		graph[f[0]] = f[1:]
	}
	const self = "github.com/palink/palink/tui"
	forbidden := func(p string) bool {
		return p == "net/http" || strings.HasPrefix(p, "go.etcd.io/bbolt") || p == "github.com/palink/palink/core" ||
			strings.HasPrefix(p, "github.com/palink/palink/yarn") || strings.HasPrefix(p, "github.com/palink/palink/store")
	}
	seen := map[string]string{self: ""}
	queue := []string{self}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if forbidden(p) {
			path := []string{p}
			for q := seen[p]; q != ""; q = seen[q] {
				path = append([]string{q}, path...)
			}
			t.Errorf("tui reaches %s: %s", p, strings.Join(path, " → "))
			continue
		}
		for _, imp := range graph[p] {
			if _, ok := seen[imp]; !ok {
				seen[imp] = p
				queue = append(queue, imp)
			}
		}
	}
	if _, ok := seen["github.com/palink/palink/core/api"]; !ok {
		t.Error("tui does not import core/api: the test walks the wrong graph")
	}
}
