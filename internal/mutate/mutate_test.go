package main

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const sample = `package p

import "strings"

func Decide(n, max int, on bool, name string) (int, string) {
	if !on || max <= 0 {
		return 0, "off"
	}
	name = name + "!"
	for i := 0; i < n; i++ {
		if i == 3 {
			continue
		}
		switch {
		case i > 5:
			break
		}
		n--
	}
	strings.ToUpper(name)
	return n * 2, name
}

func (q *queue) pop() { q.n-- }

func closures() {
	f := func() { g := func() { println(1 + 2) }; g() }
	f()
	func() { println(3 < 4) }()
}

type queue struct{ n int }
`

func parseSample(t *testing.T, withTypes bool) (*token.FileSet, *ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", sample, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !withTypes {
		return fset, f, nil
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	return fset, f, info
}

// TestMutantsOfASample pins the mutants of a small function: each kind of
// bug the driver plants, where it plants it, and the mutated source.
func TestMutantsOfASample(t *testing.T) {
	fset, f, info := parseSample(t, true)
	ms := findMutants(fset, f, []byte(sample), "p/p.go", info, []string{"Decide", "queue.pop"})
	got := map[string]bool{}
	for _, m := range ms {
		got[m.kind+" "+m.desc()] = true
	}
	want := []string{
		"guard `if !on || max <= 0` → `if false`",
		"operand `!on || max <= 0` → `!on`",
		"operand `!on || max <= 0` → `max <= 0`",
		"not `!on` → `on`",
		"boundary `max <= 0` → `max < 0`",
		"negate `max <= 0` → `max > 0`",
		"delete `name = name + \"!\"` removed",
		"boundary `i < n` → `i <= n`",
		"negate `i < n` → `i >= n`",
		"incdec `i++` → `i--`",
		"delete `i++` removed",
		"guard `if i == 3` → `if false`",
		"negate `i == 3` → `i != 3`",
		"loopctrl `continue` → `break`",
		"guard `case i > 5` → `case false`",
		"delete `n--` removed",
		"incdec `n--` → `n++`",
		"delete `strings.ToUpper(name)` removed",
		"arith `n * 2` → `n / 2`",
		"incdec `q.n--` → `q.n++`",
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing mutant %s", w)
		}
		delete(got, w)
	}
	for g := range got {
		if !strings.HasPrefix(g, "boundary `i > 5`") && !strings.HasPrefix(g, "negate `i > 5`") &&
			!strings.HasPrefix(g, "delete `q.n--`") {
			t.Errorf("unexpected mutant %s", g)
		}
	}
	// String concatenation is not arithmetic, and a break that leaves a
	// switch is not a loop control.
	for _, m := range ms {
		if m.kind == kindArith && strings.Contains(m.before, "name") {
			t.Errorf("mutated a string concatenation: %s", m.desc())
		}
		if m.kind == kindLoopCtrl && m.before == "break" {
			t.Errorf("swapped a switch's break: line %d", m.line)
		}
	}
}

// TestMutantApplyAndPositions checks that applying a mutant changes exactly
// the text it says, and that a guard still compiles.
func TestMutantApplyAndPositions(t *testing.T) {
	fset, f, info := parseSample(t, true)
	for _, m := range findMutants(fset, f, []byte(sample), "p/p.go", info, []string{"Decide"}) {
		out := string(m.apply([]byte(sample)))
		switch m.desc() {
		case "`if !on || max <= 0` → `if false`":
			if !strings.Contains(out, "if false && (!on || max <= 0) {") || m.line != 6 || m.col != 2 {
				t.Errorf("guard at %d:%d gave:\n%s", m.line, m.col, out)
			}
			if m.covLine != 7 {
				t.Errorf("a guard matters where its body runs (line 7), not line %d", m.covLine)
			}
			if m.lineText != "if !on || max <= 0 {" {
				t.Errorf("line text %q", m.lineText)
			}
			checkCompiles(t, out)
		case "`i < n` → `i <= n`":
			if !strings.Contains(out, "for i := 0; i <= n; i++ {") || m.line != 10 || m.col != 16 {
				t.Errorf("boundary at %d:%d gave:\n%s", m.line, m.col, out)
			}
		case "`strings.ToUpper(name)` removed":
			if !strings.Contains(out, "\tif false { strings.ToUpper(name) }\n") {
				t.Errorf("delete left the call to run:\n%s", out)
			}
			checkCompiles(t, out)
		case "`i++` removed":
			if !strings.Contains(out, "for i := 0; i < n;  {") {
				t.Errorf("a for loop's post statement is cut out:\n%s", out)
			}
			checkCompiles(t, out)
		case "`case i > 5` → `case false`":
			if m.covLine != 16 {
				t.Errorf("case guard: coverage at line %d, want its body's line 16", m.covLine)
			}
		case "`i > 5` → `i >= 5`":
			if m.covLine != 14 {
				t.Errorf("a case expression is read where the switch is (line 14), not line %d", m.covLine)
			}
		}
		if m.fn != "Decide" {
			t.Errorf("function filter let %s through", m.fn)
		}
	}
}

func checkCompiles(t *testing.T, src string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatalf("mutant does not parse: %v\n%s", err, src)
	}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{f}, nil); err != nil {
		t.Fatalf("mutant does not type-check: %v\n%s", err, src)
	}
}

func TestClosuresAreNamedAsGoNamesThem(t *testing.T) {
	fset, f, _ := parseSample(t, false)
	got := map[string]bool{}
	for _, m := range findMutants(fset, f, []byte(sample), "p/p.go", nil, []string{"closures"}) {
		got[m.fn+" "+m.desc()] = true
	}
	for _, want := range []string{"closures `f()` removed", "closures.func1 `g()` removed",
		"closures.func1.1 `println(1 + 2)` removed", "closures.func2 `println(3 < 4)` removed"} {
		if !got[want] {
			t.Errorf("no mutant %q in %v", want, got)
		}
	}
}

func TestFuncNamesIncludeTheReceiver(t *testing.T) {
	fset, f, _ := parseSample(t, false)
	ms := findMutants(fset, f, []byte(sample), "p/p.go", nil, []string{"queue.pop"})
	if len(ms) == 0 {
		t.Fatal("no mutants in queue.pop")
	}
	for _, m := range ms {
		if m.fn != "queue.pop" {
			t.Errorf("mutant in %s", m.fn)
		}
	}
}

func TestCoveringTestsFastestFirstAndCaseExpressions(t *testing.T) {
	c := &coverage{
		Tests: []testInfo{{Name: "TestSlow", Dur: 3 * time.Second, OK: true}, {Name: "TestFast", Dur: time.Millisecond, OK: true},
			{Name: "TestBroken", OK: false}},
		Blocks: map[string][]block{"p/p.go": {
			{StartLine: 5, StartCol: 60, EndLine: 14, EndCol: 10, Tests: []int{0, 1, 2}},
			{StartLine: 15, StartCol: 12, EndLine: 17, EndCol: 3, Tests: []int{0}},
		}},
	}
	names := func(ts []testInfo) string {
		var s []string
		for _, t := range ts {
			s = append(s, t.Name)
		}
		return strings.Join(s, ",")
	}
	if got := names(c.covering("p/p.go", 10, 3)); got != "TestFast,TestSlow" {
		t.Errorf("inside the first block: %s", got)
	}
	if got := names(c.covering("p/p.go", 15, 7)); got != "TestFast,TestSlow" {
		t.Errorf("between blocks (a case expression) takes the block before: %s", got)
	}
	if got := names(c.covering("p/p.go", 16, 1)); got != "TestSlow" {
		t.Errorf("inside the second block: %s", got)
	}
	if got := c.covering("p/p.go", 2, 1); got != nil {
		t.Errorf("before every block: %v", got)
	}
	if got := c.covering("q.go", 10, 1); got != nil {
		t.Errorf("a file without blocks: %v", got)
	}
}

func TestBatchesRunFastTestsTogetherFirst(t *testing.T) {
	ts := []testInfo{{Name: "A", Dur: time.Millisecond}, {Name: "B", Dur: 100 * time.Millisecond},
		{Name: "C", Dur: time.Second}, {Name: "D", Dur: 20 * time.Second}}
	got := batches(ts)
	if len(got) != 3 || len(got[0]) != 2 || got[1][0].Name != "C" || got[2][0].Name != "D" {
		t.Errorf("batches: %+v", got)
	}
}

// TestBatchesKeepAJudgesTestsApart: a batch runs in one test binary, so
// the fast tests of a judging package form a batch of their own, after the
// package's own.
func TestBatchesKeepAJudgesTestsApart(t *testing.T) {
	ts := []testInfo{{Name: "A", Pkg: "core", Dur: time.Millisecond}, {Name: "B", Dur: 2 * time.Millisecond},
		{Name: "C", Pkg: "core", Dur: 3 * time.Millisecond}, {Name: "D", Pkg: "core", Dur: 20 * time.Second}}
	var got []string
	for _, b := range batches(ts) {
		var ids []string
		for _, t := range b {
			ids = append(ids, t.id())
		}
		got = append(got, strings.Join(ids, "+"))
	}
	if strings.Join(got, " ") != "B core.A+core.C core.D" {
		t.Errorf("batches: %q", got)
	}
}

func TestReadConfig(t *testing.T) {
	c, err := readConfig(strings.NewReader("# comment\n\ncore/policy.go\ncore/flinksql/v.go  query # scope rules\n\tbody\n" +
		"judge core/scheduler by core cli # tested through the facade\n"))
	if err != nil {
		t.Fatal(err)
	}
	ts := c.targets
	if len(ts) != 2 || ts[0].file != "core/policy.go" || len(ts[0].funcs) != 0 ||
		ts[1].file != "core/flinksql/v.go" || strings.Join(ts[1].funcs, ",") != "query,body" {
		t.Errorf("targets: %+v", ts)
	}
	if len(c.judges) != 1 || strings.Join(c.judges["core/scheduler"], ",") != "core,cli" {
		t.Errorf("judges: %v", c.judges)
	}
	c, err = readConfig(strings.NewReader("judge core/scheduler by core -run ^Test(Deploy|Restart) cli\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.judges["core/scheduler"], ",") != "core,cli" || len(c.runs) != 1 || c.runs["core/scheduler core"] != "^Test(Deploy|Restart)" {
		t.Errorf("a narrowed judge: %v, runs %v", c.judges, c.runs)
	}
	for _, bad := range []string{"  query\n", "core/policy_test.go\n", "/abs/x.go\n", "README.md\n", "a.go\na.go\n",
		"judge core/scheduler\n", "judge core/scheduler core\n", "judge core by core\n", "judge core by ../x\n",
		"judge core/scheduler by -run ^TestA core\n", "judge core/scheduler by core -run\n", "judge core/scheduler by core -run (\n",
		"judge core/scheduler by core -run ^A -run ^B\n"} {
		if _, err := readConfig(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestReadEquivalentsFromTheirSectionOnly(t *testing.T) {
	md := "# Testing\n- core/a.go: `x` → `y` — not in the section\n" +
		"## Equivalent mutants\n\nSome words.\n\n### core\n\n" +
		"- core/policy.go: `delay > max` → `delay >= max` — at equality it sets the same value\n" +
		"  (continued on the next line)\n" +
		"- store/migrate.go: `t.close()` removed — the transaction ends anyway\n" +
		"- store/migrate.go: `if err != nil` → `if false` (in writeVersion, at `if err := meta.Put(keyVersion, v); err != nil {`) — cannot fail\n" +
		"## Next\n- core/b.go: `x` → `y` — after the section\n"
	es := readEquivalents(strings.NewReader(md))
	if len(es) != 3 {
		t.Fatalf("equivalents: %+v", es)
	}
	m := mutant{file: "core/policy.go", kind: kindBoundary, before: "delay > max", after: "delay >= max"}
	if findEquivalent(es, m) != es[0] || es[0].why != "at equality it sets the same value (continued on the next line)" {
		t.Errorf("no match for %s: %+v", m.desc(), es[0])
	}
	d := mutant{file: "store/migrate.go", kind: kindDelete, before: "t.close()"}
	if findEquivalent(es, d) != es[1] {
		t.Errorf("no match for %s", d.desc())
	}
	g := mutant{file: "store/migrate.go", kind: kindGuard, before: "if err != nil", after: "if false", fn: "writeVersion",
		lineText: "if err := meta.Put(keyVersion, v); err != nil {"}
	if findEquivalent(es, g) != es[2] || es[2].fn != "writeVersion" || es[2].why != "cannot fail" {
		t.Errorf("no match for %s at its line: %+v", g.desc(), es[2])
	}
	g.lineText = "if err := other(); err != nil {"
	if findEquivalent(es, g) != nil {
		t.Errorf("an entry narrowed to a line matched another line")
	}
	g.fn, g.lineText = "migrateTo1", "if err := meta.Put(keyVersion, v); err != nil {"
	if findEquivalent(es, g) != nil {
		t.Errorf("an entry narrowed to a function matched another function")
	}
}

func TestRate(t *testing.T) {
	r, k, n := tally{statusKilled: 8, statusTimeout: 1, statusLived: 1, statusNotCovered: 0, statusNotViable: 5, statusEquivalent: 2}.rate()
	if k != 9 || n != 10 || r != 90 {
		t.Errorf("rate = %v (%d/%d)", r, k, n)
	}
}

func TestShorten(t *testing.T) {
	if got := shorten("a  \n\t b", 60); got != "a b" {
		t.Errorf("shorten = %q", got)
	}
	if got := shorten(strings.Repeat("x", 100), 11); got != "xxxxx…xxxxx" {
		t.Errorf("shorten = %q", got)
	}
}

// TestRunConcurrentlyConfirmsAFailureAlone drives runConcurrently with a
// shell script as the test binary: TestFlaky fails only while TestBusy
// runs (its pid file names a live process), TestBroken always fails.
func TestRunConcurrentlyConfirmsAFailureAlone(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake.test")
	script := `#!/bin/sh
run="$2"
busy="` + dir + `/busy"
case "$run" in
*TestFlaky*) sleep 0.3; if [ -e "$busy" ] && kill -0 "$(cat "$busy")" 2>/dev/null; then echo "--- FAIL: TestFlaky"; exit 1; fi ;;
*TestBroken*) echo "--- FAIL: TestBroken (0.00s)"; exit 1 ;;
*) echo $$ > "$busy"; sleep 1 ;;
esac
exit 0
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &runner{par: 3}
	binOf := func(string) testBin { return testBin{path: bin, dir: dir} }
	slow := func(name string) []testInfo { return []testInfo{{Name: name, Dur: time.Second, OK: true}} }

	res, failed := r.runConcurrently(t.Context(), binOf, [][]testInfo{slow("TestBusy"), slow("TestFlaky"), slow("TestOther")})
	if failed {
		t.Errorf("a failure only under load killed the mutant: %+v", res)
	}
	res, failed = r.runConcurrently(t.Context(), binOf, [][]testInfo{slow("TestBusy"), slow("TestBroken")})
	if !failed || res.Status != statusKilled || res.Killer != "TestBroken" {
		t.Errorf("a real failure: %+v, %v", res, failed)
	}
}

// TestATimeOutIsConfirmedBeforeItKills: a test that outlives its limit
// once (a loaded machine) but passes given longer kills nothing; one that
// hangs twice is a time-out, and says so.
func TestATimeOutIsConfirmedBeforeItKills(t *testing.T) {
	defer func(a, b time.Duration) { timeoutSlack, confirmSlack = a, b }(timeoutSlack, confirmSlack)
	timeoutSlack, confirmSlack = 200*time.Millisecond, 3*time.Second
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake.test")
	script := `#!/bin/sh
case "$2" in
*TestSlowOnce*) if [ -e "` + dir + `/ran" ]; then exit 0; fi; touch "` + dir + `/ran"; sleep 2 ;;
*TestHangs*) sleep 10 ;;
esac
exit 0
`
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &runner{par: 1}
	b := testBin{path: bin, dir: dir}
	if res, failed := r.runBatch(t.Context(), b, []testInfo{{Name: "TestSlowOnce", OK: true}}); failed {
		t.Errorf("a test slow once killed the mutant: %+v", res)
	}
	confirmSlack = 500 * time.Millisecond
	res, failed := r.runBatch(t.Context(), b, []testInfo{{Name: "TestHangs", OK: true}})
	if !failed || res.Status != statusTimeout || !res.Confirmed || res.Killer != "TestHangs" {
		t.Errorf("a hang: %+v, %v", res, failed)
	}
	if (&runner{}).stillHolds(result{Status: statusTimeout, Killer: "TestHangs"}, nil, &coverage{Tests: []testInfo{{Name: "TestHangs", OK: true}}}) {
		t.Error("a cached time-out never confirmed still holds")
	}
}

func TestKillerNamesTheFailingOrPanickingTest(t *testing.T) {
	batch := []testInfo{{Name: "TestA"}, {Name: "TestB"}}
	fail := "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n=== RUN   TestB/sub\n    --- FAIL: TestB/sub (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\n"
	if got := killer([]byte(fail), batch); got != "TestB" {
		t.Errorf("failure: %s", got)
	}
	panicked := "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n\npanic: runtime error: index out of range\n\ngoroutine 7 [running]:\n"
	if got := killer([]byte(panicked), batch); got != "TestB (panic)" {
		t.Errorf("panic: %s", got)
	}
	judged := []testInfo{{Name: "TestA", Pkg: "core"}, {Name: "TestB", Pkg: "core"}}
	if got := killer([]byte(fail), judged); got != "core.TestB" {
		t.Errorf("a judge's test: %s", got)
	}
	if got := killer([]byte("FAIL\n"), judged); got != "one of core.TestA…" {
		t.Errorf("a judge's batch: %s", got)
	}
}

const tableSample = `package p

type state int

const (
	idle state = iota
	busy
	done
)

type edge struct {
	from state
	ev   string
}

var next = map[edge]state{
	{idle, "go"}:  busy,
	{busy, "end"}: done,
}

var allowed = map[state]bool{busy: true}

type step struct {
	to   int
	what string
	safe bool
}

var steps = []step{
	{to: 1, what: "one", safe: true},
	{to: 2, what: "two"},
}

var names = [...]string{"a", "b"}

func Next(s state, ev string) state { return next[edge{s, ev}] }
`

// TestTableMutantsOfASample pins the mutants of package-level tables: an
// entry dropped, a keyed field dropped, a bool flipped, an enum constant
// replaced by its neighbour, each named by the table it is in.
func TestTableMutantsOfASample(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", tableSample, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	ms := findMutants(fset, f, []byte(tableSample), "p/p.go", info, nil)
	got := map[string]bool{}
	for _, m := range ms {
		got[m.fn+" "+m.kind+" "+m.desc()] = true
		checkCompiles(t, string(m.apply([]byte(tableSample))))
	}
	want := []string{
		"next entry `{idle, \"go\"}: busy` removed",
		"next entry `{busy, \"end\"}: done` removed",
		"next enum `idle` → `busy`",
		"next enum `busy` → `done`",
		"next enum `done` → `busy`",
		"allowed entry `busy: true` removed",
		"allowed enum `busy` → `done`",
		"allowed bool `busy: true` → `busy: false`",
		"steps entry `{to: 1, what: \"one\", safe: true}` removed",
		"steps entry `{to: 2, what: \"two\"}` removed",
		"steps field `to: 1` removed",
		"steps field `what: \"one\"` removed",
		"steps field `safe: true` removed",
		"steps field `to: 2` removed",
		"steps field `what: \"two\"` removed",
		"steps bool `safe: true` → `safe: false`",
		"names entry `\"a\"` removed",
		"names entry `\"b\"` removed",
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing mutant %s", w)
		}
		delete(got, w)
	}
	for g := range got {
		if !strings.HasPrefix(g, "Next ") {
			t.Errorf("unexpected mutant %s", g)
		}
	}
	for _, m := range ms {
		out := string(m.apply([]byte(tableSample)))
		switch m.fn + " " + m.desc() {
		case "next `{idle, \"go\"}: busy` removed":
			if strings.Contains(out, `{idle, "go"}`) || !strings.Contains(out, "{\n\t{busy, \"end\"}: done,\n}") || m.line != 17 || m.col != 2 {
				t.Errorf("the first entry dropped at %d:%d gave:\n%s", m.line, m.col, out)
			}
		case "names `\"b\"` removed":
			if !strings.Contains(out, `var names = [...]string{"a"}`) {
				t.Errorf("the last entry of a one-line literal dropped gave:\n%s", out)
			}
		case "steps `safe: true` removed":
			if !strings.Contains(out, `{to: 1, what: "one"},`) {
				t.Errorf("the last field dropped gave:\n%s", out)
			}
		}
		if m.fn != "Next" && m.table != m.fn {
			t.Errorf("%s: a table mutant names its table %q", m.desc(), m.table)
		}
	}
	// A file narrowed to some functions mutates a table only when named.
	for _, m := range findMutants(fset, f, []byte(tableSample), "p/p.go", info, []string{"Next", "steps"}) {
		if m.fn != "Next" && m.fn != "steps" {
			t.Errorf("narrowed to Next and steps, got a mutant in %s", m.fn)
		}
	}
}
