package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAFastBatchFailureIsConfirmedAlone: fast tests run together; one that
// fails only beside others (TestFlaky) kills nothing once it passes alone,
// and the tests after it in the batch still decide.
func TestAFastBatchFailureIsConfirmedAlone(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake.test")
	script := `#!/bin/sh
run="$2"
echo "$run" >> "` + dir + `/runs"
case "$run" in
*TestFlaky*"|"*) echo "--- FAIL: TestFlaky (0.00s)"; exit 1 ;;
esac
case "$run" in
*TestBroken*) echo "--- FAIL: TestBroken (0.00s)"; exit 1 ;;
*TestPanics*) printf '=== RUN   TestPanics\n\npanic: boom\n'; exit 2 ;;
esac
exit 0
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &runner{par: 1}
	b := testBin{path: bin, dir: dir}
	fast := func(names ...string) []testInfo {
		var ts []testInfo
		for _, n := range names {
			ts = append(ts, testInfo{Name: n, Dur: time.Millisecond, OK: true})
		}
		return ts
	}
	if res, failed := r.runBatch(t.Context(), b, fast("TestFlaky", "TestOther")); failed {
		t.Errorf("a test that fails only beside others killed the mutant: %+v", res)
	}
	runs, _ := os.ReadFile(filepath.Join(dir, "runs"))
	if !strings.Contains(string(runs), "^(TestFlaky)$") {
		t.Errorf("TestFlaky was not run alone; runs:\n%s", runs)
	}
	if res, failed := r.runBatch(t.Context(), b, fast("TestFlaky", "TestBroken")); !failed || res.Killer != "TestBroken" {
		t.Errorf("the test after a flaky one no longer decides: %+v, %v", res, failed)
	}
	if res, failed := r.runBatch(t.Context(), b, fast("TestOther", "TestBroken")); !failed || res.Status != statusKilled || res.Killer != "TestBroken" {
		t.Errorf("a failure confirmed alone: %+v, %v", res, failed)
	}
	if res, failed := r.runBatch(t.Context(), b, fast("TestOther", "TestPanics")); !failed || res.Killer != "TestPanics (panic)" {
		t.Errorf("a panic confirmed alone: %+v, %v", res, failed)
	}
}

// writeFiles writes files (by slash-separated path) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const e2eCode = `package p

var limits = map[string]int{"a": 1, "c": 3, "d": 4}

// Limit reads the table.
func Limit(k string) int {
	if k == "" {
		return -1
	}
	return limits[k]
}

// Max is the larger (no mutant: a test that does not read the table).
func Max(a, b int) int { return max(a, b) }
`

const e2eTests = `package p

import "testing"

func TestLimit(t *testing.T) {
	if Limit("a") != 1 || Limit("") != -1 {
		t.Fatal("limit")
	}
}

func TestMax(t *testing.T) {
	if Max(2, 1) != 2 || Max(1, 2) != 2 {
		t.Fatal("max")
	}
}

// TestHasC reads the table through a helper of the test file only.
func TestHasC(t *testing.T) {
	if !has("c") {
		t.Fatal("no c")
	}
}

func has(k string) bool { _, ok := limits[k]; return ok }
`

// TestEndToEnd runs the driver on a module of one small package: the
// table's entries are mutated and judged by the tests that read it (through
// the code or a test helper), -min fails the run below its rate, and a
// change to the test files decides killed mutants again, not only
// survivors.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module's tests a dozen times")
	}
	mod := t.TempDir()
	writeFiles(t, mod, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n", "mutate.conf": "p/p.go\n",
		"p/p.go": e2eCode, "p/p_test.go": e2eTests,
	})
	t.Chdir(mod)
	cache := t.TempDir()
	drive := func(min float64) (string, int) {
		t.Helper()
		var out strings.Builder
		code, err := run(t.Context(), options{config: "mutate.conf", equivalents: "TESTING.md", workers: 1, par: 1,
			verbose: true, min: min, cache: cache}, &out)
		if err != nil {
			t.Fatalf("run: %v\n%s", err, out.String())
		}
		return out.String(), code
	}
	out, code := drive(90)
	for _, want := range []string{
		"KILLED      entry `\"a\": 1` removed — TestLimit",
		"KILLED      entry `\"c\": 3` removed — TestHasC",
		"LIVED       entry `\"d\": 4` removed — run by ",
		"KILLED      guard `if k == \"\"` → `if false` — TestLimit",
		"p/p.go                                      5 mutants   80% (4/5)",
		"[", "0 from cache]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("first run: no %q in\n%s", want, out)
		}
	}
	if i := strings.Index(out, "entry `\"d\": 4` removed — run by "); i >= 0 {
		if line, _, _ := strings.Cut(out[i:], "\n"); strings.Contains(line, "TestMax") || !strings.Contains(line, "TestLimit") || !strings.Contains(line, "TestHasC") {
			t.Errorf("a table is judged by the tests that read it: %s", line)
		}
	}
	if code != 1 {
		t.Errorf("-min 90 with a kill rate of 80%%: exit code %d", code)
	}

	// The test file changes: what it killed is decided again.
	writeFiles(t, mod, map[string]string{"p/p_test.go": strings.Replace(e2eTests, `t.Fatal("max")`, `t.Fatal("max is wrong")`, 1)})
	if out, _ = drive(0); !strings.Contains(out, "5 mutants") || !strings.Contains(out, ", 0 from cache]") {
		t.Errorf("after the tests changed, a mutant came from the cache:\n%s", out)
	}
	if out, code = drive(70); !strings.Contains(out, ", 5 from cache]") || code != 0 {
		t.Errorf("nothing changed, yet a mutant was decided again (or -min 70 failed: %d):\n%s", code, out)
	}
}

// TestAKillHoldsWhileItsTestPackageIsUnchanged: a cached kill stands while
// its killer passes and its killer's test package is unchanged; a change to
// another judge's tests decides survivors again, not that kill.
func TestAKillHoldsWhileItsTestPackageIsUnchanged(t *testing.T) {
	cov := &coverage{Tests: []testInfo{{Name: "TestOwn", OK: true}, {Name: "TestJ", Pkg: "core", OK: true}, {Name: "TestGone", OK: false}}}
	own := result{Status: statusKilled, Killer: "TestOwn", KillHash: "own-1"}
	judged := result{Status: statusKilled, Killer: "core.TestJ (panic)", KillHash: "core-1"}
	lived := result{Status: statusLived, TestHash: "all-1"}
	r := &runner{}
	before := &pkg{testHash: "all-1", testHashes: map[string]string{"": "own-1", "core": "core-1"}}
	for _, res := range []result{own, judged, lived} {
		if !r.stillHolds(res, before, cov) {
			t.Errorf("nothing changed, yet %+v is decided again", res)
		}
	}
	coreChanged := &pkg{testHash: "all-2", testHashes: map[string]string{"": "own-1", "core": "core-2"}}
	if !r.stillHolds(own, coreChanged, cov) {
		t.Error("a change to core's tests decides again a kill by the package's own test")
	}
	if r.stillHolds(judged, coreChanged, cov) {
		t.Error("a kill by core.TestJ holds after core's tests changed")
	}
	if r.stillHolds(lived, coreChanged, cov) {
		t.Error("a survivor holds after a judge's tests changed")
	}
	ownChanged := &pkg{testHash: "all-2", testHashes: map[string]string{"": "own-2", "core": "core-1"}}
	if r.stillHolds(own, ownChanged, cov) || !r.stillHolds(judged, ownChanged, cov) {
		t.Error("a change to the package's own tests: only its own tests' kills are decided again")
	}
	for _, res := range []result{
		{Status: statusKilled, Killer: "TestOwn"}, // cached before kills were keyed on their tests
		{Status: statusKilled, Killer: "TestGone", KillHash: "own-1"},
		{Status: statusKilled, Killer: "TestRemoved", KillHash: "own-1"},
	} {
		if r.stillHolds(res, before, cov) {
			t.Errorf("%+v holds", res)
		}
	}
}

// TestTestHashesCoverEachTestPackage: what each package's tests are built
// from, apart from the code: its test files and testdata, not those of the
// packages it imports.
func TestTestHashesCoverEachTestPackage(t *testing.T) {
	mod := t.TempDir()
	writeFiles(t, mod, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.24\n",
		"q/q.go":           "package q\n\n// Q is one.\nfunc Q() int { return 1 }\n",
		"q/q_test.go":      "package q\n\nimport \"testing\"\n\nfunc TestQ(t *testing.T) {}\n",
		"p/p.go":           "package p\n\nimport \"example.com/m/q\"\n\n// P is Q.\nfunc P() int { return q.Q() }\n",
		"p/p_test.go":      "package p\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) {}\n",
		"p/testdata/in":    "1\n",
		"j/j.go":           "package j\n",
		"j/j_test.go":      "package j\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/p\"\n)\n\nfunc TestJ(t *testing.T) { p.P() }\n",
		"h/h.go":           "package h\n\n// H helps j's tests.\nconst H = 1\n",
		"j/helper_test.go": "package j\n\nimport \"example.com/m/h\"\n\nvar _ = h.H\n",
	})
	type hashes struct{ code, tests, p, j string }
	measure := func() hashes {
		t.Helper()
		code, tests, per, err := inputHashes(t.Context(), mod, "example.com/m", []string{"p", "j"})
		if err != nil {
			t.Fatal(err)
		}
		return hashes{code, tests, per["p"], per["j"]}
	}
	h0 := measure()
	for _, c := range []struct {
		file              string
		code, tests, p, j bool // which change
	}{
		{file: "q/q_test.go"},
		{file: "p/testdata/in", tests: true, p: true},
		{file: "p/p_test.go", tests: true, p: true},
		{file: "j/j_test.go", tests: true, j: true},
		{file: "h/h.go", tests: true, j: true}, // a package only j's tests import
		{file: "q/q.go", code: true},
	} {
		b, err := os.ReadFile(filepath.Join(mod, c.file))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, mod, map[string]string{c.file: string(b) + "// changed\n"})
		h := measure()
		if (h.code != h0.code) != c.code || (h.tests != h0.tests) != c.tests || (h.p != h0.p) != c.p || (h.j != h0.j) != c.j {
			t.Errorf("%s changed: code %v, tests %v, p's %v, j's %v; want %v, %v, %v, %v", c.file,
				h.code != h0.code, h.tests != h0.tests, h.p != h0.p, h.j != h0.j, c.code, c.tests, c.p, c.j)
		}
		h0 = h
	}
}

// TestTableJudges: a table's mutants are judged by the tests that run code
// reading it, those that read it through their own helpers, and by every
// test when a package-level initializer reads it.
func TestTableJudges(t *testing.T) {
	src := `package p

var limits = map[string]int{"a": 1}
var names = []string{"x"}
var order = []string{"y"}
var size = len(order)

func Limit(k string) int {
	return limits[k]
}
`
	tests := `package p

import "testing"

func TestLimit(t *testing.T) { Limit("a") }
func TestNames(t *testing.T) { check(t) }
func TestOther(t *testing.T) {}
func check(t *testing.T) { _ = names }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/m/p/p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := parser.ParseFile(fset, "/m/p/p_test.go", tests, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	tp, err := (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	p := &pkg{rel: "p", readers: tableReaders([]*ast.File{f}, info, tp.Scope(), fset), testRefs: declRefs([]*ast.File{tf})}
	cov := &coverage{
		Tests: []testInfo{{Name: "TestLimit", Dur: 2, OK: true}, {Name: "TestNames", Dur: 1, OK: true},
			{Name: "TestOther", Dur: 3, OK: true}, {Name: "TestJ", Pkg: "core", Dur: 4, OK: true}},
		Blocks: map[string][]block{"p/p.go": {{StartLine: 8, StartCol: 26, EndLine: 10, EndCol: 2, Tests: []int{0, 3}}}},
	}
	for table, want := range map[string]string{"limits": "TestLimit,core.TestJ", "names": "TestNames", "order": "TestNames,TestLimit,TestOther,core.TestJ"} {
		var got []string
		for _, t := range p.tableJudges(cov, table) {
			got = append(got, t.id())
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s is judged by %v, want %s", table, got, want)
		}
	}
}
