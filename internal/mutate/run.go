package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
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
}

// runner builds and tests mutants. Nothing it does touches the source tree:
// each mutant reaches the compiler through -overlay, in a directory of its
// worker's own.
type runner struct {
	root, module string
	cache        string // results and coverage, keyed by content
	tmp          string // this run's scratch directory
	fresh        bool   // ignore cached results
	out          io.Writer
}

// run decides one mutant's fate, from the cache when nothing it depends on
// changed since it was last decided.
func (r *runner) run(ctx context.Context, p *pkg, cov *coverage, m mutant, work string) (result, bool) {
	path := filepath.Join(r.root, filepath.FromSlash(m.file))
	src := m.apply(p.srcs[path])
	sum := sha256.Sum256([]byte(p.hash + "\x00" + m.file + "\x00" + string(src)))
	key := hex.EncodeToString(sum[:])
	cacheFile := filepath.Join(r.cache, "results", key[:2], key+".json")
	if b, err := os.ReadFile(cacheFile); err == nil && !r.fresh {
		var res result
		if json.Unmarshal(b, &res) == nil {
			return res, true
		}
	}
	res := r.decide(ctx, p, cov, m, path, src, work)
	if ctx.Err() == nil && res.Status != statusBroken {
		if b, err := json.Marshal(res); err == nil {
			writeAtomic(cacheFile, b)
		}
	}
	return res, false
}

func (r *runner) decide(ctx context.Context, p *pkg, cov *coverage, m mutant, path string, src []byte, work string) result {
	if err := p.compiles(path, src); err != nil {
		return result{Status: statusNotViable, Detail: firstLine(err.Error())}
	}
	tests := cov.covering(m.file, m.covLine, m.covCol)
	if len(tests) == 0 {
		return result{Status: statusNotCovered}
	}
	names := make([]string, len(tests))
	for i, t := range tests {
		names[i] = t.Name
	}
	mutated := filepath.Join(work, filepath.Base(path))
	overlay := filepath.Join(work, "overlay.json")
	bin := filepath.Join(work, "mutant.test")
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {path: mutated}})
	if err := os.WriteFile(mutated, src, 0o644); err != nil {
		return result{Status: statusNotViable, Detail: err.Error()}
	}
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		return result{Status: statusNotViable, Detail: err.Error()}
	}
	defer os.Remove(bin)
	if out, err := r.goCmd(ctx, "test", "-c", "-vet=off", "-overlay", overlay, "-o", bin, "./"+p.rel); err != nil {
		if ctx.Err() == nil && !bytes.Contains(out, []byte(filepath.Base(path)+":")) {
			// The tests themselves do not build (an edit under way?):
			// nothing is decided, nothing cached.
			return result{Status: statusBroken, Detail: firstLine(string(out))}
		}
		return result{Status: statusNotViable, Detail: firstLine(string(out))}
	}
	// The fast tests together, then each slow one alone, fastest first:
	// most mutants die in the first batch.
	for _, batch := range batches(tests) {
		var total time.Duration
		re := make([]string, len(batch))
		for i, t := range batch {
			total += t.Dur
			re[i] = regexp.QuoteMeta(t.Name)
		}
		limit := 3*total + 10*time.Second
		out, err := r.testCmd(ctx, bin, p.dir, limit, "-test.run", "^("+strings.Join(re, "|")+")$",
			"-test.failfast", "-test.count=1", "-test.timeout="+(limit+5*time.Second).String())
		if ctx.Err() != nil {
			return result{}
		}
		switch {
		case errors.Is(err, context.DeadlineExceeded) || bytes.Contains(out, []byte("panic: test timed out")):
			return result{Status: statusTimeout, Killer: batch[len(batch)-1].Name}
		case err != nil:
			return result{Status: statusKilled, Killer: killer(out, batch)}
		}
	}
	return result{Status: statusLived, Tests: names}
}

// batches groups tests (sorted fastest first) into runs: every test under
// half a second in the first, each slower one alone.
func batches(ts []testInfo) [][]testInfo {
	var out [][]testInfo
	var fast []testInfo
	for _, t := range ts {
		if t.Dur < 500*time.Millisecond {
			fast = append(fast, t)
		} else {
			out = append(out, []testInfo{t})
		}
	}
	if len(fast) > 0 {
		out = append([][]testInfo{fast}, out...)
	}
	return out
}

var failLine = regexp.MustCompile(`(?m)^--- FAIL: (\S+)`)

// killer names the test that failed; a panic names no test, so the batch
// is named.
func killer(out []byte, batch []testInfo) string {
	if m := failLine.FindSubmatch(out); m != nil {
		return strings.SplitN(string(m[1]), "/", 2)[0]
	}
	if len(batch) == 1 {
		return batch[0].Name
	}
	return "a panic in " + batch[0].Name + "…"
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
