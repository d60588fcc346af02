package detail_test

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// withEndedJobs adds a bounded job that ended by itself beside sessionize,
// which a pause stopped, and gives fraud-scoring (FAILED) the Flink state
// sync saw before its application went.
func withEndedJobs(f *tuitest.Fake) *tuitest.Fake {
	backfill := model.Job{ID: "j011", Name: "daily-backfill", Kind: model.KindSQL, Cluster: "staging", State: model.StateFinished,
		SpecVersion: 2, FlinkState: "FINISHED", StartedAt: tuitest.Now.Add(-3 * time.Hour),
		CreatedAt: tuitest.Now.Add(-48 * time.Hour), SyncedAt: tuitest.Now.Add(-time.Hour)}
	f.Jobs = append(f.Jobs, api.JobView{Job: backfill})
	f.Jobs[4].FlinkState = "RUNNING" // fraud-scoring, FAILED
	return f
}

// A paused job is visibly not a job that ended; a FAILED job never shows
// 'Flink RUNNING' (#12).
func TestPausedIsNotFinishedAndFailedIsNotRunning(t *testing.T) {
	h := apptest.New(t, withEndedJobs(tuitest.NewFixture()), 120, 40, tui.Options{})
	h.MustShow("FINISHED ‖ paused") // sessionize
	h.OpenDetail("sessionize")
	h.MustShow("sessionize  FINISHED ‖ paused", "‖ paused by PAUSE #12 5h ago · savepoint savepoint-01ab · r resumes from it")
	h.Press("esc")
	h.OpenDetail("daily-backfill")
	h.MustShow("FINISHED · ended by itself, not paused · Flink FINISHED")
	h.MustNotShow("‖ paused")
	h.Press("esc")
	h.OpenDetail("fraud-scoring")
	h.MustShow("FAILED")
	h.MustNotShow("Flink RUNNING")
}

func TestGoldenPausedAndFinished(t *testing.T) {
	apptest.GoldenFrame(t, "jobs_paused_finished", withEndedJobs, tui.Options{}, func(h *tuitest.Harness) {
		h.Press("/")
		h.Type("state:FINISHED,FAILED")
		h.Press("enter")
	})
	apptest.GoldenFrame(t, "detail_paused", withEndedJobs, tui.Options{}, func(h *tuitest.Harness) {
		h.OpenDetail("sessionize")
	})
}

// On a narrow terminal the tab bar scrolls to the active tab; no title is
// cut (#12).
func TestTabBarScrollsOnANarrowTerminal(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 60, 20, tui.Options{})
	h.OpenDetail("orders-enrich")
	bar := strings.Split(h.Screen(), "\n")[2]
	if !strings.Contains(bar, "Overview") || !strings.HasSuffix(strings.TrimRight(bar, " "), "›") || strings.Contains(bar, "…") {
		t.Fatalf("the tab bar at 60 columns: %q", bar)
	}
	for _, tab := range []string{"Timeline", "Checkpoints", "Exceptions", "Commands", "Metrics", "Logs", "SQL"} {
		h.Press("tab")
		bar = strings.Split(h.Screen(), "\n")[2]
		if !strings.Contains(bar, " "+tab+" ") || strings.Contains(bar, "…") {
			t.Errorf("on %s the tab bar shows %q", tab, bar)
		}
	}
	if !strings.HasPrefix(bar, "‹") {
		t.Errorf("on the last tab the bar does not say tabs are off to the left: %q", bar)
	}
}
