package main

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
)

// target is one file to mutate, optionally narrowed to some functions.
type target struct {
	file  string   // module-relative, slash-separated
	funcs []string // "Name" or "Recv.Name", or a table's var name; empty: the whole file
}

// config is mutate.conf: the files to mutate, and the packages whose tests
// judge a package's mutants besides its own.
type config struct {
	targets []target
	// judges: by module-relative package directory, the other packages
	// whose tests run its code (a part tested through the facade that
	// wires it, say).
	judges map[string][]string
	// runs narrows a judge to the tests its regexp selects (go test -run,
	// top-level names), by "<package> <judge>": a judge whose every test
	// runs the package's code would otherwise run them all for each mutant.
	runs map[string]string
}

// readConfig reads the list of files make mutate tries to break: one file
// a line, optionally followed by function (or table) names, which may go on over
// indented lines; "judge <package> by <package> [-run REGEXP]…" adds the
// tests of other packages to a package's own, a -run narrowing the judge
// before it to the tests it selects; # starts a comment.
func readConfig(r io.Reader) (config, error) {
	c := config{judges: map[string][]string{}, runs: map[string]string{}}
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(c.targets) == 0 {
				return config{}, fmt.Errorf("line %d: function names before any file", n)
			}
			c.targets[len(c.targets)-1].funcs = append(c.targets[len(c.targets)-1].funcs, f...)
			continue
		}
		if f[0] == "judge" {
			if len(f) < 4 || f[2] != "by" {
				return config{}, fmt.Errorf("line %d: want \"judge <package> by <package> [-run REGEXP]…\"", n)
			}
			dir := path.Clean(f[1])
			for i := 3; i < len(f); i++ {
				if f[i] == "-run" {
					js := c.judges[dir]
					if i+1 == len(f) || i == 3 {
						return config{}, fmt.Errorf("line %d: -run wants a judge before it and a regexp after it", n)
					}
					if _, err := regexp.Compile(f[i+1]); err != nil {
						return config{}, fmt.Errorf("line %d: -run %s: %v", n, f[i+1], err)
					}
					if _, twice := c.runs[dir+" "+js[len(js)-1]]; twice {
						return config{}, fmt.Errorf("line %d: two -run for judge %s", n, js[len(js)-1])
					}
					c.runs[dir+" "+js[len(js)-1]] = f[i+1]
					i++
					continue
				}
				j := path.Clean(f[i])
				if !validDir(dir) || !validDir(j) || j == dir {
					return config{}, fmt.Errorf("line %d: %q by %q: want module-relative packages other than itself", n, f[1], j)
				}
				c.judges[dir] = append(c.judges[dir], j)
			}
			continue
		}
		file := path.Clean(f[0])
		if !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") || !validDir(file) {
			return config{}, fmt.Errorf("line %d: %q is not a module-relative, non-test .go file", n, f[0])
		}
		if seen[file] {
			return config{}, fmt.Errorf("line %d: %s is listed twice", n, file)
		}
		seen[file] = true
		c.targets = append(c.targets, target{file: file, funcs: f[1:]})
	}
	return c, sc.Err()
}

// validDir: a module-relative, slash-separated path.
func validDir(p string) bool {
	return p != "." && !path.IsAbs(p) && !strings.HasPrefix(p, "..")
}

// equivalent is a surviving mutant that no test can kill, and why.
type equivalent struct {
	file, desc, why string
	fn              string // optional: the function it is in
	line            string // optional: the mutated line's text, trimmed
	used            int
}

// readEquivalents reads the list of equivalent mutants from TESTING.md:
// lines "- file.go: `before` → `after` — why" (or "`before` removed — why")
// under a heading that contains "Equivalent mutants". After the mutation,
// "(in Func)" or "(in Func, at `line`)" narrows it to one function, or one
// line of it, when the same text is mutated elsewhere.
func readEquivalents(r io.Reader) []*equivalent {
	var es []*equivalent
	var items []string // the section's list items, continuation lines joined
	level := 0         // of the section's heading; 0 outside it
	open := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		in := level > 0
		switch {
		case strings.HasPrefix(line, "#"):
			l := len(line) - len(strings.TrimLeft(line, "#"))
			switch {
			case strings.Contains(strings.ToLower(line), "equivalent mutants"):
				level = l
			case l <= level:
				level = 0 // the next section; deeper headings are its subsections
			}
			open = false
		case in && strings.HasPrefix(line, "- "):
			items, open = append(items, line[2:]), true
		case open && strings.TrimSpace(line) != "" && (line[0] == ' ' || line[0] == '\t'):
			items[len(items)-1] += " " + strings.TrimSpace(line)
		default:
			open = false
		}
	}
	for _, item := range items {
		file, rest, ok := strings.Cut(item, ": ")
		if !ok || !strings.HasSuffix(file, ".go") {
			continue
		}
		desc, why, ok := strings.Cut(rest, " — ")
		if !ok {
			continue
		}
		e := &equivalent{file: file, desc: strings.TrimSpace(desc), why: strings.TrimSpace(why)}
		if i := strings.LastIndex(e.desc, " (in "); i >= 0 && strings.HasSuffix(e.desc, ")") {
			where := e.desc[i+len(" (in ") : len(e.desc)-1]
			e.desc = e.desc[:i]
			e.fn = where
			if fn, at, ok := strings.Cut(where, ", at "); ok {
				e.fn, e.line = fn, strings.Trim(at, "`")
			}
		}
		es = append(es, e)
	}
	return es
}

// matches reports whether the entry names mutant m.
func (e *equivalent) matches(m mutant) bool {
	return e.file == m.file && e.desc == m.desc() && (e.fn == "" || e.fn == m.fn) &&
		(e.line == "" || e.line == m.lineText)
}
