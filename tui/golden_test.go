package tui

import (
	"testing"

	"github.com/palink/palink/model"
)

// selectJob moves the cursor to the named job with the keyboard.
func (h *harness) selectJob(name string) {
	h.t.Helper()
	h.press("g")
	for range len(h.m.jobs.rows) {
		if j := h.m.jobs.selected(); j != nil && j.Name == name {
			return
		}
		h.press("j")
	}
	h.t.Fatalf("job %s is not in the table", name)
}

// openDetail opens a job's detail with enter.
func (h *harness) openDetail(name string) {
	h.t.Helper()
	h.selectJob(name)
	h.press("enter")
	if _, ok := h.m.top().(*detailScreen); !ok {
		h.t.Fatalf("enter on %s did not open its detail", name)
	}
}

func TestGoldenJobs(t *testing.T) {
	goldenFrame(t, "jobs", func(h *harness) {})
}

func TestGoldenJobsFilteredMarked(t *testing.T) {
	goldenFrame(t, "jobs_filtered_marked", func(h *harness) {
		h.press("/")
		h.typeText("state:RUNNING")
		h.press("enter", "space", "space")
	})
}

func TestGoldenJobsSortedByState(t *testing.T) {
	goldenFrame(t, "jobs_sorted_state", func(h *harness) {
		h.press("o", "o", "o", "O")
	})
}

func TestGoldenJobsServiceDown(t *testing.T) {
	for _, sz := range goldenSizes {
		f := newFixture()
		f.setFail(errClusterDown)
		h := newHarness(t, f, sz.w, sz.h, Options{Context: "test"})
		golden(t, "jobs_down_"+sizeName(sz.w, sz.h), pinned(h.m.render()))
	}
}

func TestGoldenJobsReadOnly(t *testing.T) {
	for _, sz := range goldenSizes {
		h := newHarness(t, newFixture(), sz.w, sz.h, Options{Context: "test", ReadOnly: true})
		golden(t, "jobs_readonly_"+sizeName(sz.w, sz.h), pinned(h.m.render()))
	}
}

func TestGoldenJobsLightTheme(t *testing.T) {
	for _, sz := range goldenSizes {
		h := newHarness(t, newFixture(), sz.w, sz.h, Options{Context: "test", Theme: ThemeLight})
		golden(t, "jobs_light_"+sizeName(sz.w, sz.h), pinned(h.m.render()))
	}
}

func TestGoldenDetailTabs(t *testing.T) {
	for i, tab := range []string{"overview", "timeline", "checkpoints", "exceptions", "commands", "metrics", "logs", "sql"} {
		goldenFrame(t, "detail_"+tab, func(h *harness) {
			h.openDetail("orders-enrich")
			for range i {
				h.press("tab")
			}
		})
	}
}

func TestGoldenRawJSON(t *testing.T) {
	goldenFrame(t, "detail_raw_json", func(h *harness) {
		h.openDetail("orders-enrich")
		h.press("y")
	})
}

func TestGoldenConfirmPause(t *testing.T) {
	goldenFrame(t, "confirm_pause", func(h *harness) {
		h.selectJob("user-features")
		h.press("p")
	})
}

func TestGoldenConfirmKillProtected(t *testing.T) {
	goldenFrame(t, "confirm_kill_protected", func(h *harness) {
		h.selectJob("orders-enrich")
		h.press("ctrl+k")
	})
}

func TestGoldenBulkDryRun(t *testing.T) {
	goldenFrame(t, "confirm_bulk_pause", func(h *harness) {
		h.selectJob("clicks-to-hudi")
		h.press("space", "space") // clicks-to-hudi, fraud-scoring
		h.selectJob("user-features")
		h.press("space", "p")
	})
}

func TestGoldenResubmit(t *testing.T) {
	goldenFrame(t, "resubmit", func(h *harness) {
		h.openDetail("orders-enrich")
		h.f.jobs[0].State = model.StateFinished // as if paused meanwhile
		h.press("ctrl+r", "R")
	})
}

func TestGoldenCommands(t *testing.T) {
	goldenFrame(t, "commands", func(h *harness) {
		h.press(":")
		h.typeText("cmd")
		h.press("enter")
	})
}

func TestGoldenCommandLog(t *testing.T) {
	goldenFrame(t, "command_log", func(h *harness) {
		h.press(":")
		h.typeText("cmd")
		h.press("enter", "j", "enter")
	})
}

func TestGoldenCluster(t *testing.T) {
	goldenFrame(t, "cluster", func(h *harness) {
		h.press(":")
		h.typeText("cluster prod")
		h.press("enter")
	})
}

func TestGoldenAdopt(t *testing.T) {
	goldenFrame(t, "adopt", func(h *harness) {
		h.press(":")
		h.typeText("cluster prod")
		h.press("enter", "j", "a")
	})
}

func TestGoldenCreateForm(t *testing.T) {
	goldenFrame(t, "create", func(h *harness) {
		h.press("n")
		h.typeText("orders-v2")
		h.press("tab", "right")
	})
}

func TestGoldenHelp(t *testing.T) {
	goldenFrame(t, "help_jobs", func(h *harness) { h.press("?") })
}

func TestGoldenCommandLine(t *testing.T) {
	goldenFrame(t, "cmdline", func(h *harness) {
		h.press(":")
		h.typeText("cl")
	})
}

func sizeName(w, h int) string {
	if w == 120 {
		return "120x40"
	}
	return "80x24"
}
