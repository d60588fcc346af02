package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// countingWriter counts what a command wrote.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// usage is what one palink process cost.
type usage struct {
	rss      float64 // peak RSS, MB: the heap and the store file's pages it read
	anon     float64 // peak anonymous RSS, MB (sampled): the heap and stacks, not the file
	heap     float64 // peak Go heap, MB (the largest heap a GC began at)
	wall     time.Duration
	out      int64 // bytes written
	gcCycles int
}

// gcLine is one line of GODEBUG=gctrace=1: the heap at the start of the
// cycle, after the mark, and live.
var gcLine = regexp.MustCompile(`^gc \d+ @.* (\d+)->(\d+)->(\d+) MB`)

// measureRun runs palink (bin, or this test binary) once and returns what
// it cost: peak RSS from the kernel, peak anonymous RSS sampled from
// /proc every 2 ms, the peak heap from the GC's trace.
func measureRun(t *testing.T, bin string, args ...string) usage {
	t.Helper()
	if bin == "" {
		bin = os.Args[0]
	}
	var w countingWriter
	var trace bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1", "GODEBUG=gctrace=1")
	cmd.Stdout, cmd.Stderr = &w, &trace
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var u usage
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("palink %v: %v\n%s", args, err, trace.String())
			}
			running = false
		case <-tick.C:
			b, _ := os.ReadFile(status)
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) == 3 && f[0] == "RssAnon:" {
					kb, _ := strconv.ParseFloat(f[1], 64)
					u.anon = max(u.anon, kb/1024)
				}
			}
		}
	}
	u.wall, u.out = time.Since(start), w.n
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.rss = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	for _, line := range strings.Split(trace.String(), "\n") {
		if m := gcLine.FindStringSubmatch(line); m != nil {
			start, _ := strconv.ParseFloat(m[1], 64)
			marked, _ := strconv.ParseFloat(m[2], 64)
			u.heap = max(u.heap, start, marked)
			u.gcCycles++
		}
	}
	return u
}

// TestMeasureListsAtScale measures what `palink jobs -o json` and `palink
// commands -o json` (and the jobs table) cost a palink process at 10,000
// and at 100,000 jobs and commands: its peak RSS and wall time, for
// BENCHMARKS.md ("Fleet scale (issue 28)"). It writes stores of hundreds
// of MB, so it runs only when asked:
//
//	PALINK_MEASURE=1 go test ./cli -run TestMeasureListsAtScale -v -timeout 30m
//
// PALINK_MEASURE_BIN names the palink binary to measure (one built from
// an older commit gives the figures before); by default this test binary
// runs as palink.
func TestMeasureListsAtScale(t *testing.T) {
	if os.Getenv("PALINK_MEASURE") == "" {
		t.Skip("set PALINK_MEASURE=1 to measure (writes stores of hundreds of MB)")
	}
	bin := os.Getenv("PALINK_MEASURE_BIN")
	results := map[string]map[int]usage{}
	sizes := []int{10000, 100000}
	runs := [][]string{{"jobs", "-o", "json"}, {"commands", "-o", "json"}, {"jobs"}, {"commands"}}
	for _, n := range sizes {
		config, db := storeConfig(t, t.TempDir())
		seedFleet(t, db, n, n, false)
		st, _ := os.Stat(db)
		t.Logf("store of %d jobs and %d commands: %.0f MB", n, n, float64(st.Size())/(1<<20))
		for _, args := range runs {
			u := measureRun(t, bin, append([]string{"--config", config}, args...)...)
			name := fmt.Sprint(args)
			if results[name] == nil {
				results[name] = map[int]usage{}
			}
			results[name][n] = u
			t.Logf("palink %v at %d: peak heap %.0f MB (%d GCs), peak anon RSS %.0f MB, peak RSS %.0f MB, %v, %.1f MB written",
				args, n, u.heap, u.gcCycles, u.anon, u.rss, u.wall.Round(time.Millisecond), float64(u.out)/(1<<20))
		}
	}
	for _, args := range runs {
		name := fmt.Sprint(args)
		small, big := results[name][sizes[0]], results[name][sizes[1]]
		ratio := big.heap / max(small.heap, 1)
		t.Logf("palink %v, at 100,000 ÷ at 10,000: peak heap %.2f, peak anon RSS %.2f, peak RSS %.2f, time %.1f",
			args, ratio, big.anon/small.anon, big.rss/small.rss, float64(big.wall)/float64(small.wall))
		// The commands table holds every job's name: it grows with the
		// fleet. The lists themselves are held a page at a time.
		if name != fmt.Sprint([]string{"commands"}) && ratio > 2 {
			t.Errorf("palink %v: peak heap %.0f MB at 100,000, %.2f× that at 10,000: the list is held whole", args, big.heap, ratio)
		}
	}
}
