package tui

import (
	"testing"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
)

func TestGoldenJobs(t *testing.T) {
	goldenFrame(t, "jobs", func(h *harness) {})
}

func TestGoldenJobsFilteredMarked(t *testing.T) {
	goldenFrame(t, "jobs_filtered_marked", func(h *harness) {
		h.Press("/")
		h.Type("state:RUNNING")
		h.Press("enter", "space", "space")
	})
}

func TestGoldenJobsSortedByState(t *testing.T) {
	goldenFrame(t, "jobs_sorted_state", func(h *harness) {
		h.Press("o", "o", "o", "O")
	})
}

func TestGoldenJobsServiceDown(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetFail(tuitest.ErrClusterDown)
		h := newHarness(t, f, sz.W, sz.H, Options{Context: "test"})
		tuitest.Golden(t, "jobs_down_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.m.render()))
	}
}

func TestGoldenJobsReadOnly(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		h := newHarness(t, tuitest.NewFixture(), sz.W, sz.H, Options{Context: "test", ReadOnly: true})
		tuitest.Golden(t, "jobs_readonly_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.m.render()))
	}
}

func TestGoldenJobsLightTheme(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		h := newHarness(t, tuitest.NewFixture(), sz.W, sz.H, Options{Context: "test", Theme: ThemeLight})
		tuitest.Golden(t, "jobs_light_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.m.render()))
	}
}

func TestGoldenConfirmPause(t *testing.T) {
	goldenFrame(t, "confirm_pause", func(h *harness) {
		h.SelectJob("user-features")
		h.Press("p")
	})
}

func TestGoldenConfirmKillProtected(t *testing.T) {
	goldenFrame(t, "confirm_kill_protected", func(h *harness) {
		h.SelectJob("orders-enrich")
		h.Press("ctrl+k")
	})
}

func TestGoldenBulkDryRun(t *testing.T) {
	goldenFrame(t, "confirm_bulk_pause", func(h *harness) {
		h.SelectJob("clicks-to-hudi")
		h.Press("space", "space") // clicks-to-hudi, fraud-scoring
		h.SelectJob("user-features")
		h.Press("space", "p")
	})
}

func TestGoldenResubmit(t *testing.T) {
	goldenFrame(t, "resubmit", func(h *harness) {
		h.OpenDetail("orders-enrich")
		h.F.Jobs[0].State = model.StateFinished // as if paused meanwhile
		h.Press("ctrl+r", "R")
	})
}

func TestGoldenHelp(t *testing.T) {
	goldenFrame(t, "help_jobs", func(h *harness) { h.Press("?") })
}

func TestGoldenCommandLine(t *testing.T) {
	goldenFrame(t, "cmdline", func(h *harness) {
		h.Press(":")
		h.Type("cl")
	})
}
