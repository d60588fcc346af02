package jobs_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

func TestGoldenJobs(t *testing.T) {
	apptest.GoldenFrame(t, "jobs", nil, tui.Options{}, func(h *tuitest.Harness) {})
}

func TestGoldenJobsFilteredMarked(t *testing.T) {
	apptest.GoldenFrame(t, "jobs_filtered_marked", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press("/")
		h.Type("state:RUNNING")
		h.Press("enter", "space", "space")
	})
}

func TestGoldenJobsSortedByState(t *testing.T) {
	apptest.GoldenFrame(t, "jobs_sorted_state", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press("S", "S") // by STATE, then the other way
	})
}

func TestGoldenJobsServiceDown(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		f := tuitest.NewFixture()
		f.SetFail(tuitest.ErrClusterDown)
		h := apptest.New(t, f, sz.W, sz.H, tui.Options{Context: "test"})
		tuitest.Golden(t, "jobs_down_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}

func TestGoldenJobsReadOnly(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		h := apptest.New(t, tuitest.NewFixture(), sz.W, sz.H, tui.Options{Context: "test", ReadOnly: true})
		tuitest.Golden(t, "jobs_readonly_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}

func TestGoldenJobsLightTheme(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		h := apptest.New(t, tuitest.NewFixture(), sz.W, sz.H, tui.Options{Context: "test", Theme: tui.ThemeLight})
		tuitest.Golden(t, "jobs_light_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}

// TestGoldenJobsCrashLoop: a job core says crash-loops is marked in its
// STATE, in words that read without colour.
func TestGoldenJobsCrashLoop(t *testing.T) {
	apptest.GoldenFrame(t, "jobs_crash_loop", func(f *tuitest.Fake) *tuitest.Fake {
		j := &f.Jobs[3] // user-features
		j.State, j.FlinkState = model.StateFailed, "FAILED"
		j.CrashLoop = &model.CrashLoop{Count: 3, Cause: "java.lang.NullPointerException", RestorePoint: j.LatestCheckpoint.Path}
		return f
	}, tui.Options{}, func(h *tuitest.Harness) {})
}

// TestGoldenJobsNoColor: under NO_COLOR the cursor row is reversed and
// FAILED and KILLED rows lead their state with a symbol (#29).
func TestGoldenJobsNoColor(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		h := apptest.New(t, tuitest.NewFixture(), sz.W, sz.H, tui.Options{Context: "test"})
		h.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
		tuitest.Golden(t, "jobs_no_color_"+tuitest.SizeName(sz.W, sz.H), tuitest.NoColor(h.Render()))
	}
}
