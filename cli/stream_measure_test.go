package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// countingWriter counts what a command wrote.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// measureRun runs palink (bin, or this test binary) once and returns its
// peak RSS, its wall time and how much it wrote.
func measureRun(t *testing.T, bin string, args ...string) (rssMB float64, wall time.Duration, out int64) {
	t.Helper()
	if bin == "" {
		bin = os.Args[0]
	}
	var w countingWriter
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1")
	cmd.Stdout, cmd.Stderr = &w, io.Discard
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("palink %v: %v", args, err)
	}
	wall = time.Since(start)
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this system")
	}
	return float64(ru.Maxrss) / 1024, wall, w.n // Maxrss is in KiB on Linux
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
	type figure struct {
		rss  float64
		wall time.Duration
	}
	results := map[string]map[int]figure{}
	sizes := []int{10000, 100000}
	runs := [][]string{{"jobs", "-o", "json"}, {"commands", "-o", "json"}, {"jobs"}}
	for _, n := range sizes {
		config, db := storeConfig(t, t.TempDir())
		seedFleet(t, db, n, n, false)
		st, _ := os.Stat(db)
		t.Logf("store of %d jobs and %d commands: %.0f MB", n, n, float64(st.Size())/(1<<20))
		for _, args := range runs {
			rss, wall, out := measureRun(t, bin, append([]string{"--config", config}, args...)...)
			name := fmt.Sprint(args)
			if results[name] == nil {
				results[name] = map[int]figure{}
			}
			results[name][n] = figure{rss, wall}
			t.Logf("palink %v at %d: peak RSS %.0f MB, %v, %.1f MB written", args, n, rss, wall.Round(time.Millisecond), float64(out)/(1<<20))
		}
	}
	for _, args := range runs {
		name := fmt.Sprint(args)
		small, big := results[name][sizes[0]], results[name][sizes[1]]
		t.Logf("palink %v: peak RSS at 100,000 ÷ at 10,000 = %.2f; time %.1f×", args, big.rss/small.rss, float64(big.wall)/float64(small.wall))
	}
}
