package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
)

// The status line shows what the run's progress events say.
func TestDebugStatusLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		evs  []api.DebugEvent
		want string
	}{
		{"before any progress", []api.DebugEvent{{Kind: api.DebugStarted}}, "debug: read starting · 0 rows out · 1.2s"},
		{"totals from the plan", []api.DebugEvent{
			{Kind: api.DebugStarted, Sources: []api.DebugSource{{Table: "Orders", File: "o.csv", Total: 7}, {Table: "gen", Total: -1}}},
			{Kind: api.DebugProgress, Read: map[string]int64{"gen": 5, "Orders": 3}, Received: 2},
		}, "debug: read Orders 3/7, gen 5 · 2 rows out · 1.2s"},
		{"the last count wins", []api.DebugEvent{
			{Kind: api.DebugProgress, Read: map[string]int64{"t": 1}, Received: 1},
			{Kind: api.DebugRowReceived, Row: &api.DebugRow{}},
			{Kind: api.DebugFinished, Read: map[string]int64{"t": 4}, Received: 1},
		}, "debug: read t 4 · 1 row out · 1.2s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s debugStatus
			for _, ev := range tc.evs {
				s.apply(ev)
			}
			if got := s.line(1234 * time.Millisecond); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// fakeDebugger replays events, or fails to start.
type fakeDebugger struct {
	evs []api.DebugEvent
	err error
}

func (f fakeDebugger) Debug(context.Context, api.DebugRequest) (<-chan api.DebugEvent, error) {
	if f.err != nil {
		return nil, f.err
	}
	ch := make(chan api.DebugEvent, len(f.evs))
	for _, ev := range f.evs {
		ch <- ev
	}
	close(ch)
	return ch, nil
}

func TestRunDebugOutcome(t *testing.T) {
	failed := errors.New("input row 2: boom")
	var b strings.Builder
	for _, tc := range []struct {
		name string
		d    api.Debugger
		want string // "" for success
	}{
		{"does not start", fakeDebugger{err: errors.New("debug run: the job's SQL is empty")}, "SQL is empty"},
		{"fails", fakeDebugger{evs: []api.DebugEvent{{Kind: api.DebugStarted}, {Kind: api.DebugFinished, Err: failed}}}, "boom"},
		{"ends without its outcome", fakeDebugger{evs: []api.DebugEvent{{Kind: api.DebugStarted}}}, "without its outcome"},
		{"finishes without rows", fakeDebugger{evs: []api.DebugEvent{{Kind: api.DebugFinished}}}, "without its rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runDebug(context.Background(), tc.d, api.DebugRequest{}, &debugStatus{w: &b}, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v, want %q", err, tc.want)
			}
		})
	}
	if !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Errorf("the status line is not cleared at the end: %q", b.String())
	}
}

// --watermarks -1 holds every watermark to the end: a row that comes late
// in its file still counts in its window.
func TestDebugCLIWatermarks(t *testing.T) {
	job := writeTemp(t, "win.sql", `CREATE TABLE bids (ts TIMESTAMP(3), price INT, WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');
SELECT window_start, SUM(price) AS total FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;`)
	data := writeTemp(t, "bids.jsonl", `{"ts": "2024-01-01 10:00:10", "price": 1}
{"ts": "2024-01-01 10:01:10", "price": 2}
{"ts": "2024-01-01 10:00:20", "price": 4}
`)
	out, _, err := runCLI(t, "debug", job, "--data", "bids="+data)
	if err != nil || !strings.Contains(out, "2024-01-01 10:00:00.000 | 1\n") {
		t.Fatalf("by default the late row is dropped: %v\n%s", err, out)
	}
	out, _, err = runCLI(t, "debug", job, "--data", "bids="+data, "--watermarks", "-1")
	if err != nil || !strings.Contains(out, "2024-01-01 10:00:00.000 | 5\n") {
		t.Fatalf("--watermarks -1: %v\n%s", err, out)
	}
}

// --proctime-step moves the simulated clock before each row: a
// processing-time window fires once the clock passes its end, and the
// rows' PROCTIME() are a step apart.
func TestDebugCLIProctimeStep(t *testing.T) {
	job := writeTemp(t, "proc.sql", `CREATE TABLE clicks (id INT, pt AS PROCTIME()) WITH ('connector' = 'kafka', 'format' = 'json');
SELECT COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(pt), INTERVAL '1' HOUR)) GROUP BY window_start, window_end;`)
	data := writeTemp(t, "clicks.jsonl", "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n")
	out, _, err := runCLI(t, "debug", job, "--data", "clicks="+data)
	if err != nil || strings.Contains(out, "| 3") {
		t.Fatalf("a clock that stands still fires no window: %v\n%s", err, out)
	}
	// Three steps of 2 hours: the first row's window has closed by the
	// second row, the second's by the third.
	out, _, err = runCLI(t, "debug", job, "--data", "clicks="+data, "--proctime-step", "2h")
	if err != nil || !strings.Contains(out, "2 rows") {
		t.Fatalf("--proctime-step 2h: %v\n%s", err, out)
	}
}
