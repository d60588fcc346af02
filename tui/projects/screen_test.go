package projects_test

import (
	"testing"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/projects"
)

func TestProjectsViewListsArtifactsOfTheCursor(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.Press(":")
	h.Type("projects")
	h.Press("enter")
	if _, ok := h.Top().(*projects.Screen); !ok {
		t.Fatalf(":projects opened %T", h.Top())
	}
	h.MustShow("2 projects", "payments-dedup", "v2 9c1f2e3 3h ago", "Artifacts of payments-dedup", "dedup within 10 minutes", "46.0 MiB")
	h.Press("j")
	h.MustShow("Artifacts of fraud-model", "none yet: palink project build fraud-model")
}

func TestGoldenProjects(t *testing.T) {
	for _, sz := range tuitest.Sizes {
		h := apptest.New(t, tuitest.NewFixture(), sz.W, sz.H, tui.Options{Context: "test"})
		h.Press(":")
		h.Type("projects")
		h.Press("enter")
		tuitest.Golden(t, "projects_"+tuitest.SizeName(sz.W, sz.H), tuitest.Pinned(h.Render()))
	}
}
