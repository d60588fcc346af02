package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestCLILogs lists, tails, follows, searches and saves a running job's
// logs through `palink logs`, against a simulator whose logs are 4 MB.
func TestCLILogs(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	const size = 4 << 20 / 160 * 160 // the simulator's lines are 160 bytes
	e := newCLIEnv(t, sim.Options{LogSize: 4 << 20}, nil)
	sqlFile := filepath.Join(t.TempDir(), "job.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	e.mustRun("job", "create", "--name", "orders", "--sql", sqlFile)
	e.mustRun("job", "submit", "orders", "--wait")
	e.syncUntil("orders", "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })

	list := e.mustRun("logs", "orders")
	for _, want := range []string{"jm  ", "jm:stdout", "jm:jobmanager.err", ":stdout", "/node/containerlogs/container_", strconv.Itoa(size)} {
		if !strings.Contains(list, want) {
			t.Fatalf("the list lacks %q:\n%s", want, list)
		}
	}
	var tm string
	for _, l := range strings.Split(list, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "container_") && !strings.Contains(f[0], ":") {
			tm = f[0]
			break
		}
	}
	if tm == "" {
		t.Fatalf("no TaskManager in the list:\n%s", list)
	}

	// The tail starts at a whole line and ends with the file.
	tail := e.mustRun("logs", "orders", "jm", "--tail", "1k")
	lines := strings.Split(strings.TrimSuffix(tail, "\n"), "\n")
	if len(tail) > 1024 || len(lines) != 6 || len(lines[0]) != 159 || !strings.HasPrefix(lines[0], "20") {
		t.Fatalf("--tail 1k printed %d bytes in %d lines:\n%s", len(tail), len(lines), tail)
	}

	// --grep scans on the service's side and prints offsets.
	stamp := lines[2][:23] // a timestamp: one line has it
	out := e.mustRun("logs", "orders", "jm", "--grep", stamp)
	if want := strconv.Itoa(size-4*160) + ": " + stamp; !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
		t.Fatalf("--grep %s printed:\n%s\nwant a line starting %q", stamp, out, want)
	}
	out = e.mustRun("logs", "orders", tm, "--grep", "committing offsets", "--max", "3")
	if strings.Count(out, "Committing offsets") != 3 || !strings.Contains(out, "stopped after 3 lines") {
		t.Fatalf("--grep --max 3 printed:\n%s", out)
	}
	if _, err := e.run(context.Background(), "logs", "orders", "jm", "--errors"); err == nil || !strings.Contains(err.Error(), "no line matches") {
		t.Fatalf("--errors on a log without errors: %v", err)
	}

	// --save writes the whole log, and never over a file.
	path := filepath.Join(t.TempDir(), "tm.log")
	out = e.mustRun("logs", "orders", tm, "--save", path)
	if st, err := os.Stat(path); err != nil || st.Size() != size || !strings.Contains(out, "saved") {
		t.Fatalf("--save: %v %v\n%s", st, err, out)
	}
	if _, err := e.run(context.Background(), "logs", "orders", tm, "--save", path); err == nil || !strings.Contains(err.Error(), "file exists") {
		t.Fatalf("--save over a file: %v", err)
	}

	// -f prints the tail, then polls until interrupted.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out, err := e.run(ctx, "logs", "orders", "jm:stdout", "-f", "--tail", "200")
	if err != nil || !strings.Contains(out, "stdout: processed batch 15") {
		t.Fatalf("-f: %v\n%s", err, out)
	}

	if _, err := e.run(context.Background(), "logs", "orders", ":stdout"); err == nil || !strings.Contains(err.Error(), "name jobmanager (jm) or a TaskManager id") {
		t.Fatalf("a LOG without a process: %v", err)
	}
}
