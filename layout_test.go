package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/palink/palink"

// rooms says which of palink's packages each room may import directly
// (DESIGN.md, "Layout"): a room is a package and its subpackages, unless a
// subpackage has a rule of its own. Standard library and third-party
// imports are not listed here; the reach rules below limit those.
var rooms = map[string][]string{
	"": {"cli"},
	// The CLI has core's options built from the config file by core/options.
	"cli": {"core", "core/agent", "core/api", "core/options", "config", "demo", "model", "tui", "flinksql", "flinksql/builtin", "flinksql/complete", "cli/sshserve", "internal/logtime"},
	// palink over SSH: a door to the TUI over the API, as the agent's
	// socket is one to the API.
	"cli/sshserve":   {"core/api", "tui", "model"},
	"tui":            {"tui", "core/api", "flinksql", "flinksql/ast", "flinksql/builtin", "flinksql/complete", "model", "internal/logtime"},
	"core":           {"core", "core/api", "core/catalog", "core/udfs", "core/decide", "core/clusters", "core/journal", "core/script", "core/scheduler", "core/syncer", "core/observe", "core/logs", "core/diagnose", "core/localrun", "core/internal/sandbox", "core/leader", "store", "yarn", "flinksql", "flinksql/ast", "model"},
	"core/api":       {"model"},
	"core/decide":    {"model"},
	"core/clusters":  {"core/api", "yarn", "model"},
	"core/journal":   {"core/api", "core/decide", "store", "yarn", "model"},
	"core/script":    {"flinksql", "model"},
	"core/catalog":   {"core/api", "core/internal/sandbox", "store", "flinksql", "flinksql/ast", "model"},
	"core/udfs":      {"core/api", "store", "flinksql", "flinksql/builtin", "model"},
	"core/scheduler": {"core/api", "core/catalog", "core/udfs", "core/decide", "core/clusters", "core/journal", "core/script", "store", "yarn", "flinksql", "flinksql/builtin", "model"},
	"core/syncer":    {"core/api", "core/decide", "core/clusters", "core/journal", "store", "yarn", "model"},
	"core/agent":     {"core/api", "core/logs", "model"},
	// What runs in the caller's process (a debug run, its samples, the DDL
	// importers): the one part of core on the debug runtime, reached from
	// outside core only as api.Debugger and api.Importer.
	"core/localrun": {"core/api", "core/catalog", "core/internal/sandbox", "flinksql", "flinksql/ast", "flinksql/builtin", "join", "join/debug", "model"},
	// The election of the palinks sharing a store on etcd, and the fence
	// of the leader's writes: etcd's client and the store, nothing else.
	"core/leader": {"store"},
	// The generators of the API's method table and of the agent's calls
	// (go generate): each reads its room's declarations.
	"core/api/internal/methodgen": {"core/api/internal/methodgen"},
	"core/agent/internal/apigen":  {"core/agent/internal/apigen", "core/api"},
	// The config file as core's options, with the types of the parts
	// that own each setting.
	"core/options": {"core", "core/api", "core/clusters", "core/decide", "core/observe", "core/localrun", "config"},
	// The test bed of core's tests and the agent's: core over a simulator.
	"core/internal/coretest": {"core", "core/api", "core/clusters", "core/observe", "store", "yarn/sim", "model"},
	"core/logs":              {"core/api", "core/clusters", "core/journal", "store", "yarn", "model"},
	"core/diagnose":          {"core/api", "core/clusters", "core/journal", "store", "yarn", "model"},
	"core/observe":           {"core/api", "core/clusters", "core/journal", "store", "yarn", "model"},
	"flinksql":               {"flinksql", "flinksql/ast", "flinksql/builtin", "flinksql/format"},
	"join":                   {"join", "flinksql", "flinksql/ast", "model"},
	"store":                  {"model"},
	"yarn":                   {"model", "internal/jsonscan"},
	"yarn/sim":               {"yarn/sim"},
	"config":                 {},
	// The demo's world: palink through core's facade on the simulator, the
	// UI left to the CLI.
	"demo":  {"core", "core/api", "core/localrun", "core/options", "config", "model", "yarn/sim", "internal/krbtest"},
	"model": {},

	// How palink runs the commands it does not write (builds, secret
	// commands): a clean environment, the build user, bubblewrap.
	"core/internal/sandbox": {},

	// The local SQL runtime is a room of its own under join, so that join
	// cannot import it; its parts (values, the streaming runtime, formats)
	// are subpackages that may import each other.
	"join/debug": {"join", "join/debug", "flinksql", "flinksql/ast", "flinksql/format", "model", "internal/jsonscan"},

	// The mutation tester behind `make mutate` is a development tool, not
	// part of palink: it reads the tree through the standard library alone.
	"internal/mutate": {},
	// `make scale` drives palink's binary at fleet size from outside: a
	// development tool on the standard library alone, like the above.
	"internal/scalecheck": {},

	// Real etcd members for the tests of the store on etcd (and, later,
	// of agents sharing one): a test helper on the standard library.
	"internal/etcdtest": {},

	// A real MIT Kerberos KDC for the tests of secured clusters (and
	// `palink sim --kerberos`): a helper on the standard library.
	"internal/krbtest": {},

	// The timestamps of log lines and where a log's last duration starts:
	// one set of rules for `palink logs --since` and the TUI log viewer's
	// since presets, on the standard library.
	"internal/logtime": {},

	// The one JSON scanner, for the decoders too hot for encoding/json
	// (yarn's flame graphs, the debug runtime's json format): a leaf on
	// the standard library.
	"internal/jsonscan": {},

	// The syntax tree on its own: the node types, Pos and Comment, walking
	// and rewriting; a leaf, so every stage of flinksql and the debug
	// runtime can share it.
	"flinksql/ast": {},
	// What palink knows of Flink's SQL as data: the releases, the
	// connectors and formats with their options, the built-in functions,
	// the keywords; read by the parser, the validator, the completer and
	// the editor's highlighting.
	"flinksql/builtin": {"flinksql/ast"},
	// The formatter: canonical text from the tree alone.
	"flinksql/format": {"flinksql/ast"},
	// Completion: the parser's probe and the validator's tables through
	// flinksql's API, which does not import it back.
	"flinksql/complete": {"flinksql", "flinksql/ast", "flinksql/builtin"},
}

// reach lists what a room must never reach, directly or through anything
// it imports: the TUI renders and dispatches, so no path from it may lead
// to HTTP, bbolt, etcd or core's implementation.
var reach = map[string][]string{
	"tui": {"net/http", "go.etcd.io/bbolt", "go.etcd.io/etcd/client/v3", module + "/core", module + "/store", module + "/yarn", module + "/join"},
}

// room is the rule that governs package p: its own, or its nearest parent's.
func room(p string) (string, bool) {
	rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
	for r := rel; ; {
		if _, ok := rooms[r]; ok {
			return r, true
		}
		i := strings.LastIndex(r, "/")
		if i < 0 {
			if _, ok := rooms[""]; ok && rel == "" {
				return "", true
			}
			return "", false
		}
		r = r[:i]
	}
}

func allowed(from, imp string) bool {
	r, ok := room(from)
	if !ok {
		return false
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
	for _, a := range rooms[r] {
		if rel == a || strings.HasPrefix(rel, a+"/") && !hasOwnRoom(rel, a) {
			return true
		}
	}
	return false
}

// hasOwnRoom: under an allowed room a, a subpackage with a rule of its own
// is a room apart (core/api is not "core"), unless a names it exactly.
func hasOwnRoom(rel, a string) bool {
	for r := range rooms {
		if r != a && strings.HasPrefix(r, a+"/") && (rel == r || strings.HasPrefix(rel, r+"/")) {
			return true
		}
	}
	return false
}

// violations lists every import of graph (package → its imports) that the
// rules forbid, and every forbidden reach.
func violations(graph map[string][]string) []string {
	var out []string
	for p, imps := range graph {
		if !strings.HasPrefix(p, module) {
			continue
		}
		if _, ok := room(p); !ok {
			out = append(out, p+": a package in no room of DESIGN.md's layout")
			continue
		}
		for _, imp := range imps {
			if strings.HasPrefix(imp, module) && !allowed(p, imp) {
				out = append(out, p+" imports "+imp)
			}
		}
	}
	for r, bad := range reach {
		start := module + "/" + r
		seen := map[string]string{start: ""}
		queue := []string{start}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			if slices.Contains(bad, p) {
				path := []string{p}
				for q := seen[p]; q != ""; q = seen[q] {
					path = append([]string{q}, path...)
				}
				out = append(out, r+" reaches "+p+": "+strings.Join(path, " → "))
				continue
			}
			for _, imp := range graph[p] {
				if _, ok := seen[imp]; !ok {
					seen[imp] = p
					queue = append(queue, imp)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestLayout holds the import graph to the rooms of DESIGN.md: the root
// has only package main, the CLI talks to core's facade and core/api, the
// TUI to core/api alone, store and yarn import nothing of palink's but
// model, and no room reaches a forbidden one through another.
func TestLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		graph[f[0]] = f[1:]
	}
	for _, v := range violations(graph) {
		t.Error(v)
	}
}

// TestLayoutCatchesAForbiddenImport shows the rules at work on the graph of
// today with one forbidden import added: the TUI importing the store.
func TestLayoutCatchesAForbiddenImport(t *testing.T) {
	graph := map[string][]string{
		module + "/tui":      {module + "/core/api", module + "/model", module + "/store"},
		module + "/core/api": {module + "/model"},
		module + "/store":    {module + "/model", "go.etcd.io/bbolt"},
		module + "/model":    nil,
		module + "/cli":      {module + "/core", module + "/tui", module + "/yarn"},
		module + "/core":     {module + "/store"},
	}
	got := violations(graph)
	want := []string{
		module + "/cli imports " + module + "/yarn",
		module + "/tui imports " + module + "/store",
		"tui reaches " + module + "/store: " + module + "/tui → " + module + "/store",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// cliReachesCore is all of core the CLI may import: the facade (core.Local,
// core.Importer), api's interfaces, the agent's socket and the config's
// bridge. The debug runtime, the importers and the parts behind the facade
// are reached through api interfaces, never by name.
var cliReachesCore = []string{"core", "core/api", "core/agent", "core/options"}

// TestCLIImportsOnlyCoresFacade: the CLI (its tests too) imports nothing of
// core but cliReachesCore — not core/localrun's Debugger or importers, not a
// part that has no room of its own (which the "core" room would let by).
func TestCLIImportsOnlyCoresFacade(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}{{"\n"}}{{join .TestImports "\n"}}{{"\n"}}{{join .XTestImports "\n"}}`, "./cli/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if bad := coreBeyondFacade(strings.Fields(string(out))); len(bad) > 0 {
		t.Errorf("cli imports core beyond its facade: %s", strings.Join(bad, ", "))
	}
	if bad := coreBeyondFacade([]string{module + "/core", module + "/core/localrun", module + "/core/projects", module + "/core/api"}); !slices.Equal(bad, []string{module + "/core/localrun", module + "/core/projects"}) {
		t.Errorf("the check lets by %v", bad)
	}
}

// coreBeyondFacade are the imports of core that the CLI may not have.
func coreBeyondFacade(imports []string) []string {
	var bad []string
	for _, imp := range imports {
		rel := strings.TrimPrefix(imp, module+"/")
		if rel != imp && (rel == "core" || strings.HasPrefix(rel, "core/")) && !slices.Contains(cliReachesCore, rel) && !slices.Contains(bad, imp) {
			bad = append(bad, imp)
		}
	}
	return bad
}

// cliNamesOfCore are the names of core's facade the CLI uses: the store's
// lifecycle, the in-process service and its options, the background work
// a leader runs (Background, Commands, Everything, LeadOptions), builds, the
// user, the endpoints `config check --connect` tries, and the importers as an api.Importer. A debug run's Debugger comes from
// core/options as an api.Debugger.
var cliNamesOfCore = []string{
	"Background", "BackupStore", "BuildProjectAt", "CheckBuildPolicy", "CheckEndpoints", "CheckStore", "Commands", "CompactStore", "CurrentUser",
	"EndpointCheck",
	"Everything", "Importer", "IsEtcdStore", "LeadOptions", "Local", "MigrateStore", "Open", "Options",
	"RestoreStore", "StoreName",
}

// TestCLINamesOnlyCoresFacade: of package core the CLI names only
// cliNamesOfCore — no *core.Debugger, core.ImportJDBC or core.ImportKafka,
// which live in core/localrun and are reached as api.Debugger and
// api.Importer. A name added to the facade for the CLI is added here.
func TestCLINamesOnlyCoresFacade(t *testing.T) {
	got, err := namesOf("cli", module+"/core")
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, n := range got {
		if !slices.Contains(cliNamesOfCore, n) {
			bad = append(bad, "core."+n)
		}
	}
	if len(bad) > 0 {
		t.Errorf("cli names %s: reach local runs through api.Debugger and api.Importer, or add a facade name to cliNamesOfCore", strings.Join(bad, ", "))
	}
}

// namesOf lists the exported names of package pkg that the Go files in dir
// (tests too) use, sorted.
func namesOf(dir, pkg string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		local := ""
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == pkg {
				local = pkg[strings.LastIndex(pkg, "/")+1:]
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == local {
					seen[sel.Sel.Name] = true
				}
			}
			return true
		})
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}
