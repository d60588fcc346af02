package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// testInfo is one top-level test of a package as its baseline run saw it.
type testInfo struct {
	Name string
	// Pkg is the test's package (module-relative) when it is not the
	// mutated package's own: one of its judges.
	Pkg string `json:",omitempty"`
	Dur time.Duration
	OK  bool
}

// id names the test in reports and results: a judge's test with its
// package ("core.TestX"), the package's own by its name.
func (t testInfo) id() string {
	if t.Pkg == "" {
		return t.Name
	}
	return t.Pkg + "." + t.Name
}

// block is a coverage block of one file and the tests that ran it.
type block struct {
	StartLine, StartCol, EndLine, EndCol int
	Tests                                []int // indexes into coverage.Tests
}

// coverage says, for each file of a package, which tests run which code:
// every test is run alone once, with a coverage profile.
type coverage struct {
	Tests  []testInfo
	Blocks map[string][]block // by module-relative file, sorted by start
	// Flags go to every run of a test package's tests, by testInfo.Pkg:
	// -rapid.nofailfile when the tests use rapid, whose failures would
	// otherwise write fail files into the source tree's testdata.
	Flags map[string][]string
}

// covering lists the tests that run the code at line:col of file, fastest
// first. A position outside every block (a case expression: the coverage
// tool counts a case's body, not its expression) takes the nearest block
// before it, which ran whenever the expression was evaluated.
func (c *coverage) covering(file string, line, col int) []testInfo {
	best := c.block(file, line, col)
	if best == nil {
		return nil
	}
	var ts []testInfo
	for _, i := range best.Tests {
		if c.Tests[i].OK {
			ts = append(ts, c.Tests[i])
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Dur < ts[j].Dur })
	return ts
}

// block is the coverage block of file around line:col, or the nearest
// before it; nil if there is none.
func (c *coverage) block(file string, line, col int) *block {
	bs := c.Blocks[file]
	var best *block
	for i := range bs {
		b := &bs[i]
		if before(line, col, b.StartLine, b.StartCol) {
			break
		}
		best = b
		if !before(b.EndLine, b.EndCol, line, col) {
			break // the position is inside b
		}
	}
	return best
}

func before(l1, c1, l2, c2 int) bool { return l1 < l2 || l1 == l2 && c1 < c2 }

// measureCoverage builds the package's tests, and its judges', with
// coverage of the package, and runs each top-level test alone. The result
// is cached under the package's hashes.
func (r *runner) measureCoverage(ctx context.Context, p *pkg) (*coverage, error) {
	cacheFile := filepath.Join(r.cache, "coverage3-"+p.codeHash[:24]+"-"+p.testHash[:24]+".json")
	if b, err := os.ReadFile(cacheFile); err == nil && !r.fresh {
		var c coverage
		if json.Unmarshal(b, &c) == nil {
			return &c, nil
		}
	}
	dir, err := os.MkdirTemp(r.tmp, "cover-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	c := &coverage{Blocks: map[string][]block{}, Flags: map[string][]string{}}
	type key struct{ sl, sc, el, ec int }
	index := map[string]map[key]int{}
	for _, judge := range append([]string{""}, p.judges...) {
		rel, tdir := p.rel, p.dir
		args := []string{"test", "-c", "-cover", "-covermode=set", "-vet=off"}
		if judge != "" {
			rel, tdir = judge, filepath.Join(r.root, filepath.FromSlash(judge))
			args = append(args, "-coverpkg="+p.importPath)
		}
		bin := filepath.Join(dir, "cover.test")
		os.Remove(bin)
		if out, err := r.goCmd(ctx, append(args, "-o", bin, "./"+rel)...); err != nil {
			return nil, fmt.Errorf("build %s with coverage: %v\n%s", rel, err, out)
		}
		if _, err := os.Stat(bin); err != nil {
			continue // no test files
		}
		list := "."
		if re := p.runs[judge]; re != "" {
			list = re
		}
		out, err := r.testCmd(ctx, bin, tdir, time.Minute, "-test.list", list)
		if err != nil {
			return nil, fmt.Errorf("list the tests of %s: %v\n%s", rel, err, out)
		}
		if usage, _ := r.testCmd(ctx, bin, tdir, time.Minute, "-h"); strings.Contains(string(usage), "-rapid.nofailfile") {
			c.Flags[judge] = append(c.Flags[judge], "-rapid.nofailfile")
		}
		for _, name := range strings.Fields(string(out)) {
			if !strings.HasPrefix(name, "Test") && !strings.HasPrefix(name, "Example") && !strings.HasPrefix(name, "Fuzz") {
				continue
			}
			prof := filepath.Join(dir, "cover.out")
			start := time.Now()
			log, err := r.testCmd(ctx, bin, tdir, 20*time.Minute, append([]string{"-test.run", "^" + name + "$", "-test.count=1",
				"-test.coverprofile=" + prof}, c.Flags[judge]...)...)
			ti := testInfo{Name: name, Pkg: judge, Dur: time.Since(start), OK: err == nil}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !ti.OK {
				fmt.Fprintf(r.out, "mutate: %s fails when run alone; it cannot judge mutants:\n%s\n", ti.id(), lastLines(log, 8))
			}
			c.Tests = append(c.Tests, ti)
			if err := readProfile(prof, r.module+"/", func(file string, b block, count int) {
				if !strings.HasPrefix(file, p.rel+"/") || strings.Contains(file[len(p.rel)+1:], "/") {
					return
				}
				if index[file] == nil {
					index[file] = map[key]int{}
				}
				k := key{b.StartLine, b.StartCol, b.EndLine, b.EndCol}
				i, ok := index[file][k]
				if !ok {
					i = len(c.Blocks[file])
					index[file][k] = i
					c.Blocks[file] = append(c.Blocks[file], b)
				}
				if count > 0 {
					c.Blocks[file][i].Tests = append(c.Blocks[file][i].Tests, len(c.Tests)-1)
				}
			}); err != nil && ti.OK {
				return nil, err
			}
			os.Remove(prof)
		}
	}
	for f, bs := range c.Blocks {
		sort.Slice(bs, func(i, j int) bool { return before(bs[i].StartLine, bs[i].StartCol, bs[j].StartLine, bs[j].StartCol) })
		c.Blocks[f] = bs
	}
	if b, err := json.Marshal(c); err == nil {
		writeAtomic(cacheFile, b)
	}
	return c, nil
}

// readProfile calls fn for every block of a coverage profile, with the file
// named relative to the module.
func readProfile(path, modulePrefix string, fn func(file string, b block, count int)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "mode:") || line == "" {
			continue
		}
		// import/path/file.go:12.3,14.5 2 1
		colon := strings.LastIndex(line, ":")
		fields := strings.Fields(line[colon+1:])
		if colon < 0 || len(fields) != 3 {
			return fmt.Errorf("coverage profile %s: bad line %q", path, line)
		}
		var b block
		if _, err := fmt.Sscanf(fields[0], "%d.%d,%d.%d", &b.StartLine, &b.StartCol, &b.EndLine, &b.EndCol); err != nil {
			return fmt.Errorf("coverage profile %s: bad line %q", path, line)
		}
		count, err := strconv.Atoi(fields[2])
		if err != nil {
			return fmt.Errorf("coverage profile %s: bad line %q", path, line)
		}
		fn(strings.TrimPrefix(line[:colon], modulePrefix), b, count)
	}
	return sc.Err()
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

// tableJudges lists the tests that judge a mutant of the package-level
// table name, fastest first: those the profile says run code that reads it
// (go/types' uses of the var, in function bodies), those of the package's
// own test files that name it themselves or through a helper, and every
// test when a package-level initializer reads it.
func (p *pkg) tableJudges(c *coverage, name string) []testInfo {
	in := map[int]bool{}
	rd := p.readers[name]
	for i, t := range c.Tests {
		switch {
		case rd != nil && rd.atInit:
			in[i] = true
		case t.Pkg == "" && p.testsReading(name)[t.Name]:
			in[i] = true
		}
	}
	if rd != nil {
		for _, at := range rd.at {
			file := p.rel + "/" + filepath.Base(at.Filename)
			if b := c.block(file, at.Line, at.Column); b != nil {
				for _, i := range b.Tests {
					in[i] = true
				}
			}
		}
	}
	var ts []testInfo
	for i, t := range c.Tests {
		if in[i] && t.OK {
			ts = append(ts, t)
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Dur < ts[j].Dur })
	return ts
}
