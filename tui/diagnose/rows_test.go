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

// The subtask table fits its width, with every column from 110 cells and
// the ones people read first below.
func TestSubtaskRowsFit(t *testing.T) {
	v := tuitest.BigVertex(12)
	for _, w := range []int{60, 80, 120} {
		head, rows := diagnose.SubtaskRows(v.Subtasks, 0, len(v.Subtasks), w)
		if len(rows) != 12 {
			t.Fatalf("%d rows", len(rows))
		}
		for _, l := range append(rows, head) {
			if kit.Width(l) > w {
				t.Errorf("at %d: %q is %d wide", w, l, kit.Width(l))
			}
		}
		if wide := strings.Contains(head, "BYTES IN"); wide != (w >= 110) {
			t.Errorf("at %d the heading is %q", w, head)
		}
	}
}

// Frames in pre-order with their parents' indexes make the tree kit/flame
// draws; a parent that comes after its child is left out.
func TestFlameTree(t *testing.T) {
	n := diagnose.FlameTree([]api.FlameFrame{
		{Name: "root", Value: 10, Parent: -1},
		{Name: "a", Value: 7, Parent: 0, Depth: 1},
		{Name: "a1", Value: 7, Parent: 1, Depth: 2},
		{Name: "b", Value: 3, Parent: 0, Depth: 1},
		{Name: "bad", Value: 1, Parent: 9, Depth: 1},
	})
	if n.Name != "root" || len(n.Children) != 2 || n.Children[0].Name != "a" || n.Children[0].Children[0].Name != "a1" || n.Children[1].Value != 3 {
		t.Fatalf("tree %+v", n)
	}
	if empty := diagnose.FlameTree(nil); empty.Name != "root" || len(empty.Children) != 0 {
		t.Errorf("no frames: %+v", empty)
	}
}
