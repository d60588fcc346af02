package commands

import (
	"slices"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

func TestCommandCells(t *testing.T) {
	c := model.Command{Seq: 41, Kind: model.CmdPause, State: model.CmdFailed, Attempts: 3, Issuer: "ops",
		CreatedAt: tuitest.Now.Add(-90 * time.Minute), Error: "jobmanager unavailable\nstack…",
		Log: []model.LogLine{{Text: "triggered"}}}
	job := func(string) string { return "orders-enrich" }
	cols := commandColumns(wideFrom, job, tuitest.Now)
	got := cols.Texts(c)
	want := []string{"#41", "PAUSE", "orders-enrich", "FAILED", "07:42:03", "1h30m", "ops", "3", "jobmanager unavailable …"}
	if !slices.Equal(got, want) {
		t.Errorf("cells = %q, want %q", got, want)
	}
	c.Error = ""
	if got := cols.Texts(c); got[len(got)-1] != "triggered" {
		t.Errorf("result of a command without error = %q, want its last log line", got[len(got)-1])
	}
	for _, w := range []int{58, 78, 118} {
		cols := commandColumns(w, job, tuitest.Now)
		lay := cols.Lay([]model.Command{c}, w-2)
		used := 2
		for _, x := range lay {
			if x > 0 {
				used += x + 1
			}
		}
		if used-1 > w {
			t.Errorf("command columns for %d use %d", w, used-1)
		}
		if created := slices.IndexFunc(cols, func(c kit.Column[model.Command]) bool { return c.Title == "CREATED" }) >= 0; created != (w >= wideFrom) {
			t.Errorf("at %d the creation time shows: %v", w, created)
		}
	}
}
