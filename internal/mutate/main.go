// Command mutate is palink's mutation tester. It makes small, plausible
// bugs in the safety-critical files that mutate.conf lists — a boundary
// moved, a condition negated, one of two checks dropped, a guard or a call
// removed, an entry of a package-level table dropped or changed — one at a
// time, and runs the tests that run the changed code. A
// bug that every test lets through is a gap in the tests, unless no test
// could ever tell (an equivalent mutant, listed with its reason in
// TESTING.md).
//
//	go run ./internal/mutate [-files core/policy.go,…] [-j 2] [-list] [-fresh] [-v] [-min 90]
//
// It never edits the source tree: each mutant reaches the compiler through
// go's -overlay. Results are cached by content (under the user cache
// directory), so an interrupted run resumes where it stopped, and two runs
// may share the machine. See TESTING.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// driverVersion is part of every cache key: raise it when the way a mutant
// is decided changes.
const driverVersion = "2"

func main() {
	config := flag.String("config", "mutate.conf", "the list of files to mutate")
	equivFile := flag.String("equivalents", "TESTING.md", "the file that lists equivalent mutants")
	files := flag.String("files", "", "mutate only these files (comma or space separated; default: all of -config)")
	workers := flag.Int("j", 1, "mutants tested at once")
	par := flag.Int("p", 3, "slow tests a mutant runs at once (a failure under that load is confirmed alone)")
	list := flag.Bool("list", false, "list the mutants, test nothing")
	fresh := flag.Bool("fresh", false, "ignore cached results")
	verbose := flag.Bool("v", false, "print every mutant's fate")
	minRate := flag.Float64("min", 0, "exit 1 if a file's kill rate is below this percentage")
	cacheDir := flag.String("cache", "", "cache directory (default: the user cache directory's palink-mutate)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := run(ctx, options{config: *config, equivalents: *equivFile, files: *files, workers: max(*workers, 1), par: max(*par, 1),
		list: *list, fresh: *fresh, verbose: *verbose, min: *minRate, cache: *cacheDir}, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

type options struct {
	config, equivalents, files, cache string
	workers, par                      int
	list, fresh, verbose              bool
	min                               float64
}

// tally counts mutants by fate.
type tally map[status]int

func (t tally) add(o tally) {
	for k, v := range o {
		t[k] += v
	}
}

// rate is killed / (killed + lived + not covered): not viable and
// equivalent mutants are left out, uncovered ones count as survivors.
func (t tally) rate() (float64, int, int) {
	killed := t[statusKilled] + t[statusTimeout]
	judged := killed + t[statusLived] + t[statusNotCovered]
	if judged == 0 {
		return 100, 0, 0
	}
	return 100 * float64(killed) / float64(judged), killed, judged
}

func (t tally) String() string {
	r, k, n := t.rate()
	return fmt.Sprintf("%3.0f%% (%d/%d)  killed %d, timed out %d, lived %d, not covered %d, equivalent %d, not viable %d",
		r, k, n, t[statusKilled], t[statusTimeout], t[statusLived], t[statusNotCovered], t[statusEquivalent], t[statusNotViable])
}

type survivor struct {
	m   mutant
	res result
}

func run(ctx context.Context, o options, out io.Writer) (int, error) {
	modOut, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}} {{.Path}}").Output()
	if err != nil {
		return 0, fmt.Errorf("not in a Go module: %v", err)
	}
	root, module, _ := strings.Cut(strings.TrimSpace(string(modOut)), " ")
	conf, err := readTargets(filepath.Join(root, o.config), o.files)
	if err != nil {
		return 0, err
	}
	targets := conf.targets
	var equivs []*equivalent
	if f, err := os.Open(filepath.Join(root, o.equivalents)); err == nil {
		equivs = readEquivalents(f)
		f.Close()
	}
	if o.cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return 0, err
		}
		o.cache = filepath.Join(base, "palink-mutate")
	}
	tmp, err := os.MkdirTemp("", "palink-mutate-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	r := &runner{root: root, module: module, cache: o.cache, tmp: tmp, fresh: o.fresh, par: o.par, out: out}

	// Packages in the order the config first names them.
	var dirs []string
	byDir := map[string][]target{}
	for _, t := range targets {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(t.file))); err != nil {
			fmt.Fprintf(out, "mutate: %s: no such file (moved? update %s)\n", t.file, o.config)
			continue
		}
		d := path.Dir(t.file)
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], t)
	}

	progress := false
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		progress = true
	}
	// Tests run in the source tree: say so if any left a file behind.
	testDirs := slices.Clone(dirs)
	for _, d := range dirs {
		for _, j := range conf.judges[d] {
			if !slices.Contains(testDirs, j) {
				testDirs = append(testDirs, j)
			}
		}
	}
	present := untracked(ctx, root, testDirs)
	defer func() {
		for _, f := range untracked(ctx, root, testDirs) {
			if !slices.Contains(present, f) {
				fmt.Fprintf(out, "mutate: a test run left %s in the source tree (remove it)\n", f)
			}
		}
	}()
	code := 0
	perPkg := map[string]tally{}
	perFile := map[string]tally{}
	var fileOrder []string
	var survivors []survivor
	for _, dir := range dirs {
		start := time.Now()
		runs := map[string]string{}
		for _, j := range conf.judges[dir] {
			if re, ok := conf.runs[dir+" "+j]; ok {
				runs[j] = re
			}
		}
		p, err := loadPkg(ctx, root, module, dir, conf.judges[dir], runs)
		if err != nil {
			return 0, err
		}
		var cov *coverage
		if !o.list {
			if cov, err = r.measureCoverage(ctx, p); err != nil {
				return 0, err
			}
			judged := ""
			if len(p.judges) > 0 {
				var js []string
				for _, j := range p.judges {
					if re := p.runs[j]; re != "" {
						j += " -run " + re
					}
					js = append(js, j)
				}
				judged = " (its own and those of " + strings.Join(js, ", ") + ")"
			}
			fmt.Fprintf(out, "== %s: %d tests%s; coverage per test in %s\n", dir, len(cov.Tests), judged, time.Since(start).Round(time.Second))
		}
		perPkg[dir] = tally{}
		for _, t := range byDir[dir] {
			abs := filepath.Join(root, filepath.FromSlash(t.file))
			f := p.files[indexOf(p.names, abs)]
			ms := findMutants(p.fset, f, p.srcs[abs], t.file, p.info, t.funcs)
			if o.list {
				for _, m := range ms {
					fmt.Fprintf(out, "%s:%d:%d: %s %s (%s)\n", m.file, m.line, m.col, m.kind, m.desc(), m.fn)
				}
				fmt.Fprintf(out, "%s: %d mutants\n", t.file, len(ms))
				continue
			}
			fstart := time.Now()
			decided := 0
			results, cached := runAll(ctx, r, p, cov, ms, o.workers, tmp, func(m mutant, res result, fromCache bool) {
				decided++
				if o.verbose {
					fmt.Fprintf(out, "  %s:%d:%d: %-11s %s %s%s\n", m.file, m.line, m.col, res.Status, m.kind, m.desc(), why(res))
				} else if progress {
					fmt.Fprintf(os.Stderr, "\r%s: %d/%d mutants ", t.file, decided, len(ms))
				}
			})
			if progress && !o.verbose {
				fmt.Fprintf(os.Stderr, "\r\033[K")
			}
			if ctx.Err() != nil {
				return 0, fmt.Errorf("interrupted: run it again to resume from the cache")
			}
			for i, res := range results {
				if res.Status == statusBroken {
					return 0, fmt.Errorf("%s's tests do not build (%s); fix that and run again: decided mutants are cached", p.rel, results[i].Detail)
				}
			}
			ft := tally{}
			for i, m := range ms {
				res := results[i]
				if res.Status == statusLived || res.Status == statusNotCovered {
					if e := findEquivalent(equivs, m); e != nil {
						e.used++
						res.Status = statusEquivalent
					} else {
						survivors = append(survivors, survivor{m, res})
					}
				}
				ft[res.Status]++
			}
			perFile[t.file] = ft
			fileOrder = append(fileOrder, t.file)
			perPkg[dir].add(ft)
			el := time.Since(fstart)
			per := time.Duration(0)
			if n := len(ms) - cached; n > 0 {
				per = el / time.Duration(n)
			}
			fmt.Fprintf(out, "%-40s %4d mutants  %s  [%s; %s a mutant run, %d from cache]\n", t.file, len(ms), ft,
				el.Round(time.Second), per.Round(100*time.Millisecond), cached)
			if r, _, _ := ft.rate(); o.min > 0 && r < o.min {
				code = 1
			}
		}
	}
	if o.list {
		return 0, nil
	}

	fmt.Fprintf(out, "\nKill rate = killed / (killed + lived + not covered); not viable and equivalent mutants are left out.\n")
	fmt.Fprintf(out, "\nPer package:\n")
	all := tally{}
	for _, dir := range dirs {
		fmt.Fprintf(out, "  %-28s %s\n", dir, perPkg[dir])
		all.add(perPkg[dir])
	}
	fmt.Fprintf(out, "  %-28s %s\n", "all", all)
	fmt.Fprintf(out, "\nPer file:\n")
	for _, f := range fileOrder {
		fmt.Fprintf(out, "  %-40s %s\n", f, perFile[f])
	}
	sort.SliceStable(survivors, func(i, j int) bool {
		a, b := survivors[i].m, survivors[j].m
		if a.file != b.file {
			return indexOf(fileOrder, a.file) < indexOf(fileOrder, b.file)
		}
		return before(a.line, a.col, b.line, b.col)
	})
	fmt.Fprintf(out, "\nSurviving mutants (%d; kill them with a test, or list them in %s with the reason no test can):\n", len(survivors), o.equivalents)
	for _, s := range survivors {
		fmt.Fprintf(out, "  %s:%d:%d: %s %s: %s (in %s)%s\n", s.m.file, s.m.line, s.m.col, s.res.Status, s.m.kind, s.m.desc(), s.m.fn, why(s.res))
		fmt.Fprintf(out, "      if no test can: - %s: %s (in %s, at `%s`) — why\n", s.m.file, s.m.desc(), s.m.fn, s.m.lineText)
	}
	ran := map[string]bool{}
	for _, f := range fileOrder {
		ran[f] = true
	}
	for _, e := range equivs {
		if ran[e.file] && e.used == 0 {
			fmt.Fprintf(out, "mutate: %s lists %s: %s, which matches no surviving mutant: remove it\n", o.equivalents, e.file, e.desc)
		}
	}
	return code, nil
}

func why(res result) string {
	switch {
	case res.Killer != "":
		return " — " + res.Killer
	case len(res.Tests) > 3:
		return " — run by " + strings.Join(res.Tests[:3], ", ") + fmt.Sprintf(" and %d more", len(res.Tests)-3)
	case len(res.Tests) > 0:
		return " — run by " + strings.Join(res.Tests, ", ")
	case res.Detail != "":
		return " — " + res.Detail
	}
	return ""
}

func findEquivalent(es []*equivalent, m mutant) *equivalent {
	for _, e := range es {
		if e.matches(m) {
			return e
		}
	}
	return nil
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// readTargets reads the config and keeps the files of -files, if given; a
// file -files names that the config does not is mutated whole.
func readTargets(file, only string) (config, error) {
	f, err := os.Open(file)
	if err != nil {
		return config{}, err
	}
	defer f.Close()
	conf, err := readConfig(f)
	if err != nil {
		return config{}, fmt.Errorf("%s: %w", file, err)
	}
	if strings.TrimSpace(only) == "" {
		return conf, nil
	}
	var out []target
	for _, name := range strings.FieldsFunc(only, func(r rune) bool { return r == ',' || r == ' ' }) {
		name = path.Clean(filepath.ToSlash(name))
		t := target{file: name}
		for _, c := range conf.targets {
			if c.file == name {
				t = c
			}
		}
		out = append(out, t)
	}
	conf.targets = out
	return conf, nil
}

// runAll decides every mutant with n workers, each in a directory of its
// own; done is called as each is decided. It returns the results in the
// mutants' order and how many came from the cache.
func runAll(ctx context.Context, r *runner, p *pkg, cov *coverage, ms []mutant, n int, tmp string,
	done func(mutant, result, bool)) ([]result, int) {
	results := make([]result, len(ms))
	jobs := make(chan int)
	var mu sync.Mutex
	cached := 0
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		work, err := os.MkdirTemp(tmp, "worker-")
		if err != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				res, fromCache := r.run(ctx, p, cov, ms[i], work)
				mu.Lock()
				results[i] = res
				if fromCache {
					cached++
				}
				if ctx.Err() == nil {
					done(ms[i], res, fromCache)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range ms {
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	return results, cached
}

// untracked lists the files git does not know under dirs (nil outside git).
func untracked(ctx context.Context, root string, dirs []string) []string {
	cmd := exec.CommandContext(ctx, "git", append([]string{"ls-files", "--others", "--exclude-standard", "--"}, dirs...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}
