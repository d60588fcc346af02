package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	tail := e.mustRun("logs", "orders", "jm", "--tail-bytes", "1k")
	lines := strings.Split(strings.TrimSuffix(tail, "\n"), "\n")
	if len(tail) > 1024 || len(lines) != 6 || len(lines[0]) != 159 || !strings.HasPrefix(lines[0], "20") {
		t.Fatalf("--tail 1k printed %d bytes in %d lines:\n%s", len(tail), len(lines), tail)
	}

	// --grep scans on the service's side and prints line numbers.
	stamp := lines[2][:23] // a timestamp: one line has it
	out := e.mustRun("logs", "orders", "jm", "--grep", stamp)
	if want := strconv.Itoa(size/160-3) + ":" + stamp; !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
		t.Fatalf("--grep %s printed:\n%s\nwant a line starting %q", stamp, out, want)
	}
	out = e.mustRun("logs", "orders", tm, "--grep", "committing offsets", "--max", "3")
	if strings.Count(out, "Committing offsets") != 3 || !strings.Contains(out, "stopped after 3 matching lines") {
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

// TestCLILogsLineByLine checks `palink logs` --grep, --tail and --since
// against the log's own text, saved with --save: each matching line once
// with its number (grep -n), the last N lines (tail -n), and the lines of
// the log's last minutes by its timestamps.
func TestCLILogsLineByLine(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{LogSize: 1 << 20}, nil)
	sqlFile := filepath.Join(t.TempDir(), "job.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	e.mustRun("job", "create", "--name", "orders", "--sql", sqlFile)
	e.mustRun("job", "submit", "orders", "--wait")
	e.syncUntil("orders", "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })

	path := filepath.Join(t.TempDir(), "jm.log")
	e.mustRun("logs", "orders", "jm", "--save", path)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 5000 {
		t.Fatalf("the log has %d lines", len(lines))
	}

	// --grep: "checkpoint" is on some lines twice (…checkpoint 7 (type=
	// CheckpointType{name='Checkpoint'})): each such line is printed once.
	var want strings.Builder
	var offsets []int64
	off := int64(0)
	for i, l := range lines {
		if strings.Contains(strings.ToLower(l), "checkpoint") && len(offsets) < 40 {
			fmt.Fprintf(&want, "%d:%s", i+1, l)
			offsets = append(offsets, off)
		}
		off += int64(len(l))
	}
	got := e.mustRun("logs", "orders", "jm", "--grep", "checkpoint", "--max", "40")
	wantOut := want.String() + "[palink: stopped after 40 matching lines; --max raises the limit]\n"
	if got != wantOut {
		t.Fatalf("--grep checkpoint --max 40 printed\n%s\nwant\n%s", head(got, 8), head(wantOut, 8))
	}
	var matches []struct {
		Line   int64  `json:"line"`
		Offset int64  `json:"offset"`
		Text   string `json:"text"`
	}
	if err := json.Unmarshal([]byte(e.mustRun("logs", "orders", "jm", "--grep", "checkpoint", "--max", "40", "-o", "json")), &matches); err != nil {
		t.Fatal(err)
	}
	if len(matches) != 40 {
		t.Fatalf("-o json: %d matches, want 40", len(matches))
	}
	for k, m := range matches {
		if m.Offset != offsets[k] || text[m.Offset:m.Offset+int64(len(m.Text))] != m.Text || lines[m.Line-1] != m.Text+"\n" {
			t.Fatalf("-o json match %d: %+v, want the line at offset %d", k, m, offsets[k])
		}
	}

	// --tail counts lines, as tail -n does.
	for _, n := range []int{0, 1, 3, 200} {
		got := e.mustRun("logs", "orders", "jm", "--tail", strconv.Itoa(n))
		if want := strings.Join(lines[len(lines)-n:], ""); got != want {
			t.Fatalf("--tail %d printed %d lines\n%s\nwant the last %d:\n%s", n, strings.Count(got, "\n"), head(got, 4), n, head(want, 4))
		}
	}
	got = e.mustRun("logs", "orders", "jm", "--tail-bytes", "1k")
	if len(got) > 1024 || !strings.HasSuffix(text, got) || len(got) != 6*160 {
		t.Fatalf("--tail-bytes 1k printed %d bytes:\n%s", len(got), got)
	}

	// --since 5m: from the first line stamped 5 minutes before the last.
	stamp := func(l string) time.Time {
		ts, err := time.Parse("2006-01-02 15:04:05,000", l[:23])
		if err != nil {
			t.Fatalf("line without a timestamp: %q", l)
		}
		return ts
	}
	cutoff := stamp(lines[len(lines)-1]).Add(-5 * time.Minute)
	first := 0
	for stamp(lines[first]).Before(cutoff) {
		first++
	}
	got = e.mustRun("logs", "orders", "jm", "--since", "5m")
	if want := strings.Join(lines[first:], ""); got != want {
		t.Fatalf("--since 5m printed %d lines from\n%s\nwant %d lines from\n%s", strings.Count(got, "\n"), head(got, 1), len(lines)-first, head(want, 1))
	}

	_, err = e.run(context.Background(), "logs", "orders", "jm", "--tail", "3", "--since", "5m")
	var ec exitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != 2 || !strings.Contains(err.Error(), "one of --tail, --tail-bytes, --since and --all") {
		t.Fatalf("--tail with --since: %v", err)
	}
}

// head is s's first n lines.
func head(s string, n int) string {
	l := strings.SplitAfter(s, "\n")
	return strings.Join(l[:min(n, len(l))], "")
}
