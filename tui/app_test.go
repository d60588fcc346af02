package tui

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/cluster"
	"github.com/palink/palink/tui/commands"
	"github.com/palink/palink/tui/editor"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/jobs"
)

func TestCommandLine(t *testing.T) {
	f := tuitest.NewFixture()
	h := newHarness(t, f, 120, 40, Options{})
	h.Press(":")
	if !h.m.cmd.active {
		t.Fatal(": did not open the command line")
	}
	h.MustShow("tab complete")
	h.Type("cl")
	h.Press("tab") // completes to the first match
	if got := h.m.cmd.input.Value(); got != "cluster" {
		t.Errorf("tab completed cl to %q", got)
	}
	h.Press("enter")
	if _, ok := h.m.top().(*cluster.Screen); !ok {
		t.Fatalf(":cluster opened %T", h.m.top())
	}
	h.MustShow("Cluster prod", "legacy-etl")

	h.Press(":")
	h.Type("cmd")
	h.Press("enter")
	if _, ok := h.m.top().(*commands.Screen); !ok {
		t.Fatalf(":cmd opened %T", h.m.top())
	}

	h.Press(":")
	h.Type("sql orders-enrich")
	h.Press("enter")
	if ed, ok := h.m.top().(*editor.Screen); !ok || ed.Title() != "orders-enrich · SQL" {
		t.Fatalf(":sql opened %T", h.m.top())
	}
	h.MustShow("LEFT JOIN users FOR SYSTEM_TIME AS OF")
	h.Press("esc") // the editor has the keyboard: leave it for the next command

	h.Press(":")
	h.Type("sql nothing-like-it")
	h.Press("enter")
	if !strings.Contains(h.Flash(), ":sql nothing-like-it: no such job") {
		t.Errorf("flash %q", h.Flash())
	}

	h.Press(":")
	h.Type("bogus")
	h.Press("enter")
	if !strings.Contains(h.Flash(), "unknown command :bogus") {
		t.Errorf("flash %q", h.Flash())
	}

	h.Press(":", "esc")
	if h.m.cmd.active {
		t.Error("esc did not close the command line")
	}

	// :jobs goes back to the jobs view from anywhere.
	h.Press(":")
	h.Type("jobs")
	h.Press("enter")
	if len(h.m.stack) != 1 {
		t.Errorf(":jobs left %d screens on the stack", len(h.m.stack))
	}

	h.Press(":")
	h.Type("theme light")
	h.Press("enter")
	if h.m.env.Styles.Dark {
		t.Error(":theme light kept the dark theme")
	}

	h.Press(":")
	h.Type("q")
	h.Press("enter")
	if !slices.ContainsFunc(h.Seen, func(m tea.Msg) bool { _, ok := m.(tea.QuitMsg); return ok }) {
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
	h := newHarness(t, tuitest.NewFixture(), 120, 40, Options{})
	h.Press("?")
	if _, ok := h.m.top().(*helpScreen); !ok {
		t.Fatalf("? opened %T", h.m.top())
	}
	screen := h.Screen()
	for _, g := range h.m.jobs.FullHelp() {
		for _, b := range g {
			if !b.Enabled() {
				continue // off for the screen's state (a column not shown sorts not)
			}
			if !strings.Contains(screen, b.Help().Desc) {
				t.Errorf("help lacks %s %s", b.Help().Key, b.Help().Desc)
			}
		}
	}
	h.Press("?")
	if _, ok := h.m.top().(*jobs.Screen); !ok {
		t.Error("? did not close the help")
	}
	// The keys listed in help work: o sorts, as help says.
	h.Press("o")
	if !strings.HasPrefix(h.Flash(), "sorted by") {
		t.Errorf("o, listed in help, did nothing: flash %q", h.Flash())
	}
}

func TestTinyTerminalSaysSo(t *testing.T) {
	h := newHarness(t, tuitest.NewFixture(), 30, 6, Options{})
	h.MustShow("palink needs at least 40×8")
	h.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.MustShow("orders-enrich")
}

func TestEveryScreenFitsTheTerminal(t *testing.T) {
	// Walk the screens at odd sizes: no line may be wider than the
	// terminal and the frame must have exactly its height.
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {41, 9}, {200, 60}} {
		h := newHarness(t, tuitest.NewFixture(), sz[0], sz[1], Options{Context: "demo"})
		check := func(where string) {
			t.Helper()
			lines := strings.Split(h.m.render(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d %s: %d lines", sz[0], sz[1], where, len(lines))
			}
			for i, l := range lines {
				if w := len([]rune(tuitest.Strip(l))); w > sz[0] {
					t.Fatalf("%dx%d %s: line %d is %d wide", sz[0], sz[1], where, i+1, w)
				}
			}
		}
		check("jobs")
		h.OpenDetail("orders-enrich")
		for range 8 {
			check("detail")
			h.Press("tab")
		}
		h.Press("ctrl+k")
		check("kill dialog")
		h.Press("esc", "esc", "?")
		check("help")
		h.Press("esc", ":")
		h.Type("cmd")
		h.Press("enter")
		check("commands")
		h.Press(":")
		h.Type("cluster")
		h.Press("enter")
		check("cluster")
		h.Press(":")
		h.Type("jobs")
		h.Press("enter", "n")
		check("create")
	}
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

// TestPackageArrows proves the TUI's own arrows: the kit imports no other
// TUI package; sqlview only the kit; a feature only the kit and sqlview,
// never another feature nor the root, which alone imports them all.
func TestPackageArrows(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const self = "github.com/palink/palink/tui"
	allowed := map[string][]string{
		"kit":       nil,
		"kit/dag":   {"kit"},
		"kit/flame": {"kit"},
		"sqlview":   {"kit"},
	}
	for _, feature := range []string{"alerts", "cluster", "commands", "create", "detail", "diagnose", "editor", "jobs", "logview", "metrics", "projects", "tables", "udfs", "vars"} {
		allowed[feature] = []string{"kit", "kit/dag", "kit/flame", "sqlview"}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, ok := strings.CutPrefix(f[0], self+"/")
		if !ok || strings.HasPrefix(pkg, "internal/") {
			continue // the root, and the tests' helpers
		}
		may, known := allowed[pkg]
		if !known {
			t.Errorf("tui/%s is in no rule of this test: say what it may import", pkg)
			continue
		}
		for _, imp := range f[1:] {
			if rel, ok := strings.CutPrefix(imp, self+"/"); ok && !slices.Contains(may, rel) {
				t.Errorf("tui/%s imports tui/%s", pkg, rel)
			} else if imp == self {
				t.Errorf("tui/%s imports the root", pkg)
			}
		}
	}
}
