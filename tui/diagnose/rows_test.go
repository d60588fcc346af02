package diagnose_test

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/diagnose"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

func TestSkewLine(t *testing.T) {
	for _, c := range []struct {
		s    api.Skew
		want string
	}{
		{api.Skew{}, "skew unknown"},
		{api.Skew{Of: "records in/s", Ratio: 1.1}, "even: skew 1.1× records in/s 1-min avg"},
		{api.Skew{Of: "records out/s", Ratio: 3.13, Max: 7700, Median: 2460, Subtask: 2, Window: 5200 * time.Millisecond},
			"skew 3.1× records out/s over 5s (max 7.7k/s, median 2.5k/s) · subtask 2 hot"},
	} {
		if got := diagnose.SkewLine(c.s); got != c.want {
			t.Errorf("SkewLine(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestSlowPartNamesWhatTheCheckpointWaitedOn(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		s    api.CheckpointSubtask
		want string
	}{
		{api.CheckpointSubtask{StartDelay: 12 * time.Second, Async: 2 * time.Second}, "12.0s start delay: the barrier queued"},
		{api.CheckpointSubtask{Alignment: 900 * ms, Async: 100 * ms}, "900ms alignment"},
		{api.CheckpointSubtask{Sync: 3 * time.Second, Async: time.Second}, "3.0s sync part"},
		{api.CheckpointSubtask{Async: 4 * time.Second, Sync: 25 * ms}, "4.0s async part"},
	} {
		if got := diagnose.SlowPart(c.s); !strings.HasPrefix(got, c.want) {
			t.Errorf("SlowPart(%+v) = %q, want it to start %q", c.s, got, c.want)
		}
	}
}

// An operator's subtasks come slowest first, as many as there is room
// for, so that at parallelism 1,000 the one the checkpoint waited on is
// on top.
func TestCheckpointSubtaskRowsAreSlowestFirst(t *testing.T) {
	op := api.CheckpointOperator{Name: "LookupJoin[3]"}
	for i := range 1000 {
		op.Subtasks = append(op.Subtasks, api.CheckpointSubtask{Index: i, Acknowledged: true, Duration: time.Duration(i%97) * time.Millisecond})
	}
	op.Subtasks[640].Duration, op.Subtasks[640].Slow = 14*time.Second, true
	_, rows, slow := diagnose.CheckpointSubtaskRows(op, 5, 80)
	if len(rows) != 5 || !slow[0] || !strings.HasPrefix(strings.TrimSpace(rows[0]), "640 yes") {
		t.Fatalf("rows %q slow %v", rows, slow)
	}
	for _, r := range rows {
		if kit.Width(r) > 80 {
			t.Errorf("row wider than 80: %q", r)
		}
	}
}

// The subtask table fits its width, with the records in and the
// TaskManager from 110 cells, the figures people read first below, and
// the sparklines of the last minutes at every width.
func TestSubtaskRowsFit(t *testing.T) {
	v := tuitest.BigVertex(12)
	tr := diagnose.Trend{Now: tuitest.Now, Samples: map[int][]api.SubtaskSample{}}
	for i := range 12 {
		for k := range 60 {
			tr.Samples[i] = append(tr.Samples[i], api.SubtaskSample{At: tuitest.Now.Add(-time.Duration(k) * 5 * time.Second),
				Backpressure: float64(k%10) / 10, WatermarkDelay: time.Duration(k) * time.Second})
		}
	}
	for _, w := range []int{60, 80, 120} {
		head, rows := diagnose.SubtaskRows(v.Subtasks, tr, 0, len(v.Subtasks), w)
		if len(rows) != 12 {
			t.Fatalf("%d rows", len(rows))
		}
		for _, l := range append(rows, head) {
			if kit.Width(l) > w {
				t.Errorf("at %d: %q is %d wide", w, l, kit.Width(l))
			}
		}
		if wide := strings.Contains(head, "TASKMANAGER"); wide != (w >= 110) {
			t.Errorf("at %d the heading is %q", w, head)
		}
		if !strings.Contains(head, "BP 5m") || !strings.ContainsAny(rows[0], "▁▂▃▄▅▆▇█") {
			t.Errorf("at %d no sparkline: %q / %q", w, head, rows[0])
		}
	}
}

// The sparklines put each sample in its span of the last five minutes,
// the worst of a span drawn, backpressure from 0 to 100% and the delays of
// every row on one scale; a span without a sample stays blank (sampling
// began when the view opened).
func TestSubtaskSparklinesShareTheirScale(t *testing.T) {
	subs := []api.SubtaskRow{{Index: 0, State: "RUNNING", Backpressure: 0.9, Watermark: tuitest.Now, WatermarkDelay: 40 * time.Second},
		{Index: 1, State: "RUNNING", Backpressure: 0, Watermark: tuitest.Now, WatermarkDelay: 4 * time.Second}}
	tr := diagnose.Trend{Now: tuitest.Now, Samples: map[int][]api.SubtaskSample{}}
	for k := range 12 { // the last minute only, every 5s
		at := tuitest.Now.Add(-time.Duration(k) * 5 * time.Second)
		tr.Samples[0] = append(tr.Samples[0], api.SubtaskSample{At: at, Backpressure: 0.9, WatermarkDelay: 40 * time.Second})
		tr.Samples[1] = append(tr.Samples[1], api.SubtaskSample{At: at, Backpressure: 0, WatermarkDelay: 4 * time.Second})
	}
	_, rows := diagnose.SubtaskRows(subs, tr, 0, 2, 80)
	// At 80 cells a sparkline has 12 cells of 25s: the last minute fills
	// the last three; 40s is the delays' top, 4s a tenth of it.
	for i, want := range [][]string{{"         ▇▇▇  90%", "         ███ -40.0s"}, {"         ▁▁▁   0%", "         ▂▂▂  -4.0s"}} {
		for _, w := range want {
			if !strings.Contains(rows[i], w) {
				t.Errorf("row %d: %q, want %q", i, rows[i], w)
			}
		}
	}
}
