package commands

import (
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
)

func TestCommandCells(t *testing.T) {
	c := model.Command{Seq: 41, Kind: model.CmdPause, State: model.CmdFailed, Attempts: 3, Issuer: "ops",
		CreatedAt: tuitest.Now.Add(-90 * time.Minute), Error: "jobmanager unavailable\nstack…",
		Log: []model.LogLine{{Text: "triggered"}}}
	got := commandCells(c, "orders-enrich", tuitest.Now)
	want := [numCmdCols]string{"#41", "PAUSE", "orders-enrich", "FAILED", "07:42:03", "1h30m", "ops", "3", "jobmanager unavailable …"}
	if got != want {
		t.Errorf("cells = %q, want %q", got, want)
	}
	c.Error = ""
	if got := commandCells(c, "x", tuitest.Now)[ccResult]; got != "triggered" {
		t.Errorf("result of a command without error = %q, want its last log line", got)
	}
	for _, w := range []int{58, 78, 118} {
		ws := commandWidths(w, [][numCmdCols]string{got})
		used := 2
		for _, x := range ws {
			if x > 0 {
				used += x + 1
			}
		}
		if used-1 > w {
			t.Errorf("command columns for %d use %d", w, used-1)
		}
	}
}
