package tui

import (
	"testing"

	"github.com/palink/palink/model"
)

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
