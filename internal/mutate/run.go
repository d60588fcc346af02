package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// status is what became of a mutant.
type status string

const (
	statusKilled     status = "KILLED"      // a test failed
	statusTimeout    status = "TIMED OUT"   // a test hung: counted as killed
	statusLived      status = "LIVED"       // every test that runs the code passed
	statusNotCovered status = "NOT COVERED" // no test runs the code
	statusNotViable  status = "NOT VIABLE"  // does not compile: not counted
	statusEquivalent status = "EQUIVALENT"  // lived, and TESTING.md says why no test can tell
	statusBroken     status = "BROKEN"      // the tests do not build, mutant or not: never cached
)

// result is a mutant's fate; it is what the cache keeps.
type result struct {
	Status status
	Killer string   `json:",omitempty"` // the test that failed
	Tests  []string `json:",omitempty"` // the tests that ran the code, for a survivor
	Detail string   `json:",omitempty"`
	// TestHash is the tests it was decided with.
	TestHash string `json:",omitempty"`
	// KillHash is, for a killed mutant, what the test package of its
	// killer was built from besides the code (pkg.testHashes).
	KillHash string `json:",omitempty"`
	// Confirmed: a time-out seen twice, the second time with a far longer
	// limit (a time-out cached before that rule is decided again).
	Confirmed bool `json:",omitempty"`
}

// runner builds and tests mutants. Nothing it does touches the source tree:
// each mutant reaches the compiler through -overlay, in a directory of its
// worker's own.
type runner struct {
	root, module string
	cache        string // results and coverage, keyed by content
	tmp          string // this run's scratch directory
	fresh        bool   // ignore cached results
	par          int    // slow test processes a mutant may run at once
	out          io.Writer
}

// run decides one mutant's fate, from the cache when nothing it depends on
// changed since it was last decided.
func (r *runner) run(ctx context.Context, p *pkg, cov *coverage, m mutant, work string) (result, bool) {
	path := filepath.Join(r.root, filepath.FromSlash(m.file))
	src := m.apply(p.srcs[path])
	sum := sha256.Sum256([]byte(p.codeHash + "\x00" + m.file + "\x00" + string(src)))
	key := hex.EncodeToString(sum[:])
	cacheFile := filepath.Join(r.cache, "results", key[:2], key+".json")
	if b, err := os.ReadFile(cacheFile); err == nil && !r.fresh {
		var res result
		if json.Unmarshal(b, &res) == nil && r.stillHolds(res, p, cov) {
			return res, true
		}
	}
	res := r.decide(ctx, p, cov, m, path, src, work)
	res.TestHash = p.testHash
	if t, ok := killerTest(res, cov); ok {
		res.KillHash = p.testHashes[t.Pkg]
	}
	if ctx.Err() == nil && res.Status != statusBroken {
		if b, err := json.Marshal(res); err == nil {
			writeAtomic(cacheFile, b)
		}
	}
	return res, false
}

// stillHolds says whether a cached result still stands with today's tests:
// a survivor only if none of the tests that judge it changed (a new test
// may kill it); a killed mutant while the test that killed it still exists
// and passes, and nothing its test package is built from (its test files,
// the packages only its tests import, its testdata) changed — an edited
// test may no longer catch the bug. -fresh decides everything again, for
// the figures TESTING.md records.
func (r *runner) stillHolds(res result, p *pkg, cov *coverage) bool {
	switch res.Status {
	case statusLived, statusNotCovered:
		return res.TestHash == p.testHash
	case statusKilled, statusTimeout:
		if res.Status == statusTimeout && !res.Confirmed {
			return false
		}
		t, ok := killerTest(res, cov)
		return ok && t.OK && res.KillHash != "" && res.KillHash == p.testHashes[t.Pkg]
	}
	return true
}

// killerTest is the baseline test that killed a mutant (for a batch that
// failed without naming one, the first of it, which names the package).
func killerTest(res result, cov *coverage) (testInfo, bool) {
	if res.Status != statusKilled && res.Status != statusTimeout {
		return testInfo{}, false
	}
	for _, t := range cov.Tests {
		if t.id() == strings.TrimSuffix(res.Killer, " (panic)") || strings.HasPrefix(res.Killer, "one of "+t.id()) {
			return t, true
		}
	}
	return testInfo{}, false
}

// decide builds the mutant and runs the tests that run its code.
func (r *runner) decide(ctx context.Context, p *pkg, cov *coverage, m mutant, path string, src []byte, work string) result {
	if err := p.compiles(path, src); err != nil {
		return result{Status: statusNotViable, Detail: firstLine(err.Error())}
	}
	tests := cov.covering(m.file, m.covLine, m.covCol)
	if m.table != "" {
		tests = p.tableJudges(cov, m.table)
	}
	if len(tests) == 0 {
		return result{Status: statusNotCovered}
	}
	names := make([]string, len(tests))
	for i, t := range tests {
		names[i] = t.id()
	}
	mutated := filepath.Join(work, filepath.Base(path))
	overlay := filepath.Join(work, "overlay.json")
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {path: mutated}})
	if err := os.WriteFile(mutated, src, 0o644); err != nil {
		return result{Status: statusNotViable, Detail: err.Error()}
	}
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		return result{Status: statusNotViable, Detail: err.Error()}
	}
	// A test binary per test package, built when a batch first needs it.
	bins := map[string]testBin{}
	defer func() {
		for _, b := range bins {
			os.Remove(b.path)
		}
	}()
	build := func(batch []testInfo) (result, bool) {
		judge := batch[0].Pkg
		if _, ok := bins[judge]; ok {
			return result{}, true
		}
		b := testBin{path: filepath.Join(work, fmt.Sprintf("mutant-%d.test", len(bins))), dir: p.dir, flags: cov.Flags[judge]}
		rel := p.rel
		if judge != "" {
			rel, b.dir = judge, filepath.Join(r.root, filepath.FromSlash(judge))
		}
		if out, err := r.goCmd(ctx, "test", "-c", "-vet=off", "-overlay", overlay, "-o", b.path, "./"+rel); err != nil {
			if ctx.Err() == nil && !bytes.Contains(out, []byte(filepath.Base(path)+":")) {
				// The tests themselves do not build (an edit under way?):
				// nothing is decided, nothing cached.
				return result{Status: statusBroken, Detail: firstLine(string(out))}, false
			}
			return result{Status: statusNotViable, Detail: firstLine(string(out))}, false
		}
		bins[judge] = b
		return result{}, true
	}
	// The fast tests together first, a package at a time: most mutants die
	// there. Then the slow ones, several at a time (they mostly wait on
	// timers and sockets).
	bs := batches(tests)
	slow := 0
	for ; slow < len(bs) && (len(bs[slow]) > 1 || bs[slow][0].Dur < slowTest); slow++ {
		if res, ok := build(bs[slow]); !ok {
			return res
		}
		if res, failed := r.runBatch(ctx, bins[bs[slow][0].Pkg], bs[slow]); failed || ctx.Err() != nil {
			return res
		}
	}
	for _, b := range bs[slow:] {
		if res, ok := build(b); !ok {
			return res
		}
	}
	if res, failed := r.runConcurrently(ctx, func(judge string) testBin { return bins[judge] }, bs[slow:]); failed || ctx.Err() != nil {
		return res
	}
	return result{Status: statusLived, Tests: names}
}

// testBin is a mutant's test binary of one test package, the directory it
// runs in, and the flags its every run takes.
type testBin struct {
	path, dir string
	flags     []string
}

// runBatch runs some tests of one package in one process; failed is true
// when one failed or hung. A failure of one test among several is confirmed
// by running that test alone: on a loaded machine a test may fail beside
// others (a flaky one), and then it kills nothing — it lived for that test,
// and the rest of the batch still decides.
func (r *runner) runBatch(ctx context.Context, bin testBin, batch []testInfo) (result, bool) {
	for {
		res, failed := r.runTimed(ctx, bin, batch)
		if !failed || ctx.Err() != nil || len(batch) == 1 || res.Status == statusTimeout {
			return res, failed
		}
		var suspects []testInfo // the test that failed; all of them if none is named
		for _, t := range batch {
			if t.id() == strings.TrimSuffix(res.Killer, " (panic)") {
				suspects = append(suspects, t)
			}
		}
		if len(suspects) == 0 {
			suspects = batch
		}
		for _, t := range suspects {
			if res, failed := r.runTimed(ctx, bin, []testInfo{t}); failed || ctx.Err() != nil {
				return res, failed
			}
		}
		if len(suspects) == len(batch) {
			return result{}, false
		}
		batch = slices.DeleteFunc(slices.Clone(batch), func(t testInfo) bool { return t.id() == suspects[0].id() })
	}
}

// runTimed runs a batch once, or twice if it times out. A run that
// outlives its limit (three times the tests' baseline, plus 10 s) is run
// again with a far longer one before it counts: on a loaded machine a test
// may merely be slow, and a slow test kills nothing. Only a second
// time-out, or a failure, does.
func (r *runner) runTimed(ctx context.Context, bin testBin, batch []testInfo) (result, bool) {
	var total time.Duration
	for _, t := range batch {
		total += t.Dur
	}
	res, failed := r.runOnce(ctx, bin, batch, 3*total+timeoutSlack)
	if res.Status == statusTimeout && ctx.Err() == nil {
		res, failed = r.runOnce(ctx, bin, batch, 10*total+confirmSlack)
		res.Confirmed = res.Status == statusTimeout
	}
	return res, failed
}

// timeoutSlack and confirmSlack are added to a batch's limits (its first
// run's, and the confirming run's); variables for the driver's own tests.
var timeoutSlack, confirmSlack = 10 * time.Second, time.Minute

// runOnce runs the batch once, killing it when limit passes.
func (r *runner) runOnce(ctx context.Context, bin testBin, batch []testInfo, limit time.Duration) (result, bool) {
	re := make([]string, len(batch))
	for i, t := range batch {
		re[i] = regexp.QuoteMeta(t.Name)
	}
	out, err := r.testCmd(ctx, bin.path, bin.dir, limit, append([]string{"-test.run", "^(" + strings.Join(re, "|") + ")$",
		"-test.failfast", "-test.v", "-test.count=1", "-test.timeout=" + (limit + 5*time.Second).String()}, bin.flags...)...)
	switch {
	case ctx.Err() != nil:
		return result{}, false
	case errors.Is(err, context.DeadlineExceeded) || bytes.Contains(out, []byte("panic: test timed out")):
		return result{Status: statusTimeout, Killer: batch[len(batch)-1].id()}, true
	case err != nil:
		return result{Status: statusKilled, Killer: killer(out, batch)}, true
	}
	return result{}, false
}

// runConcurrently runs the batches r.par at a time until one fails, each
// with the binary of its test package. A failure seen under that load is
// confirmed by running its batch alone: a test that is merely slow under
// load kills nothing. If it passes alone, the batches not yet seen to pass
// run one by one.
func (r *runner) runConcurrently(ctx context.Context, binOf func(judge string) testBin, bs [][]testInfo) (result, bool) {
	if r.par <= 1 || len(bs) <= 1 {
		for _, b := range bs {
			if res, failed := r.runBatch(ctx, binOf(b[0].Pkg), b); failed || ctx.Err() != nil {
				return res, failed
			}
		}
		return result{}, false
	}
	cctx, cancel := context.WithCancel(ctx)
	type outcome struct {
		i      int
		failed bool
	}
	outcomes := make(chan outcome, len(bs))
	sem := make(chan struct{}, r.par)
	var wg sync.WaitGroup
	for i, b := range bs {
		select {
		case sem <- struct{}{}:
		case <-cctx.Done():
		}
		if cctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, failed := r.runBatch(cctx, binOf(b[0].Pkg), b)
			<-sem
			if failed {
				cancel()
			}
			if failed || cctx.Err() == nil {
				outcomes <- outcome{i, failed}
			}
		}()
	}
	wg.Wait()
	cancel()
	close(outcomes)
	passed := map[int]bool{}
	suspect := -1
	for o := range outcomes {
		if o.failed && suspect < 0 {
			suspect = o.i
		} else if !o.failed {
			passed[o.i] = true
		}
	}
	if ctx.Err() != nil || suspect < 0 && len(passed) == len(bs) {
		return result{}, false
	}
	if suspect >= 0 {
		if res, failed := r.runBatch(ctx, binOf(bs[suspect][0].Pkg), bs[suspect]); failed || ctx.Err() != nil {
			return res, failed
		}
		passed[suspect] = true
	}
	for i, b := range bs {
		if passed[i] {
			continue
		}
		if res, failed := r.runBatch(ctx, binOf(b[0].Pkg), b); failed || ctx.Err() != nil {
			return res, failed
		}
	}
	return result{}, false
}

// slowTest: a test that takes longer runs in a process of its own.
const slowTest = 500 * time.Millisecond

// batches groups tests (sorted fastest first) into runs: first the tests
// under slowTest, together, the package's own before each judge's; then
// each slower one alone.
func batches(ts []testInfo) [][]testInfo {
	var fast, slow [][]testInfo
	byPkg := map[string]int{}
	for _, t := range ts {
		if t.Dur >= slowTest {
			slow = append(slow, []testInfo{t})
			continue
		}
		i, ok := byPkg[t.Pkg]
		if !ok {
			i = len(fast)
			byPkg[t.Pkg] = i
			fast = append(fast, nil)
		}
		fast[i] = append(fast[i], t)
	}
	sort.SliceStable(fast, func(i, j int) bool { return fast[i][0].Pkg == "" && fast[j][0].Pkg != "" })
	return append(fast, slow...)
}

var (
	failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)
	runLine  = regexp.MustCompile(`(?m)^=== (?:RUN|CONT)\s+(\S+)`)
)

// killer names the test that failed (the batch runs with -test.v); a panic
// ends the binary before any "--- FAIL", so it names the test that ran last.
// A judge's test is named with its package (testInfo.id).
func killer(out []byte, batch []testInfo) string {
	id := func(name string) string { return testInfo{Name: name, Pkg: batch[0].Pkg}.id() }
	if m := failLine.FindSubmatch(out); m != nil {
		return id(strings.SplitN(string(m[1]), "/", 2)[0])
	}
	if i := bytes.Index(out, []byte("\npanic: ")); i >= 0 {
		if ms := runLine.FindAllSubmatch(out[:i], -1); len(ms) > 0 {
			return id(strings.SplitN(string(ms[len(ms)-1][1]), "/", 2)[0]) + " (panic)"
		}
	}
	if len(batch) == 1 {
		return batch[0].id()
	}
	return "one of " + batch[0].id() + "…"
}

func (r *runner) goCmd(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = r.root
	return cmd.CombinedOutput()
}

// testCmd runs a test binary in the package directory, as go test does,
// and kills it and everything it started when limit passes.
func (r *runner) testCmd(ctx context.Context, bin, dir string, limit time.Duration, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, err
}

func writeAtomic(path string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(f.Name())
		return
	}
	if os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name())
	}
}

func firstLine(s string) string {
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return strings.TrimSpace(s)
}
