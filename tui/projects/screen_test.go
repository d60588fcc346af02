package projects_test

import (
	"errors"
	"strings"
	"testing"
	"time"

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

// startBuild opens :projects and presses b on the first project.
func startBuild(h *tuitest.Harness) {
	h.T.Helper()
	h.Press(":")
	h.Type("projects")
	h.Press("enter", "b")
	if _, ok := h.Top().(*projects.BuildScreen); !ok {
		h.T.Fatalf("b on a project opened %T", h.Top())
	}
}

// waitBuild polls the build view until its build has ended.
func waitBuild(h *tuitest.Harness) {
	h.T.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		h.Fire(projects.TickMsg)
		if b, ok := h.Top().(*projects.BuildScreen); !ok || !b.Running() {
			return
		}
	}
	h.T.Fatal("the build never ended")
}

// TestBuildFromTheTUIListsItsArtifact: b on a project builds it in the
// build view, whose log shows the build's output; the build ends with a
// new artifact, and back in :projects it is the newest.
func TestBuildFromTheTUIListsItsArtifact(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	startBuild(h)
	waitBuild(h)
	h.MustShow("Build payments-dedup", "succeeded", "✓ fetch  ✓ checkout  ✓ build  ✓ collect", "commit 4b2d9e07c1a3",
		"✓ v3 target/dedup-1.4.jar", "[INFO] BUILD SUCCESS")
	if !strings.Contains(h.Flash(), "built payments-dedup v3 at 4b2d9e0") {
		t.Errorf("flash: %q", h.Flash())
	}
	h.Press("esc")
	h.MustShow("v3 4b2d9e0", "window by event time")
}

// TestCancelBuildAsksFirst: x asks, and the default keeps building; the
// confirmed cancel ends the build with nothing recorded.
func TestCancelBuildAsksFirst(t *testing.T) {
	f := tuitest.NewFixture()
	f.Build = tuitest.FakeBuild{Hold: make(chan struct{}), Reached: make(chan struct{})}
	h := apptest.New(t, f, 120, 40, tui.Options{})
	startBuild(h)
	<-f.Build.Reached
	h.Fire(projects.TickMsg)
	h.MustShow("running", "● build", "[INFO] Building payments-dedup")
	h.Press("x")
	h.MustShow("Cancel the build of payments-dedup?", "Keep building")
	h.Press("enter")
	h.MustNotShow("Cancel the build of payments-dedup?")
	if b := h.Top().(*projects.BuildScreen); !b.Running() {
		t.Fatal("enter on the default button cancelled the build")
	}
	h.Press("esc") // esc asks too
	h.Press("tab", "enter")
	waitBuild(h)
	h.MustShow("cancelled: the build was killed with its process group; nothing recorded")
	if n := len(f.ArtifactList["payments-dedup"]); n != 2 {
		t.Errorf("a cancelled build recorded an artifact: %d", n)
	}
	h.Press("esc")
	if _, ok := h.Top().(*projects.Screen); !ok {
		t.Errorf("esc after the build left %T on top", h.Top())
	}
}

func TestGoldenBuildView(t *testing.T) {
	for _, state := range []string{"running", "succeeded", "failed"} {
		t.Run(state, func(t *testing.T) {
			apptest.GoldenFrame(t, "build_"+state, func(f *tuitest.Fake) *tuitest.Fake {
				switch state {
				case "running":
					f.Build = tuitest.FakeBuild{Hold: make(chan struct{}), Reached: make(chan struct{})}
				case "failed":
					f.Build = tuitest.FakeBuild{Fail: errors.New("build payments-dedup at 4b2d9e07c1a3: the build failed: exit status 1 (log: /var/cache/palink/projects/payments-dedup/logs/20261202T091203Z.log)")}
				}
				return f
			}, tui.Options{}, func(h *tuitest.Harness) {
				startBuild(h)
				if state == "running" {
					<-h.F.Build.Reached
					h.Fire(projects.TickMsg)
					return
				}
				waitBuild(h)
			})
		})
	}
}

// TestBuildRefusedReadOnly: a read-only session shows no build key, and b
// says why nothing happens.
func TestBuildRefusedReadOnly(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{ReadOnly: true})
	h.Press(":")
	h.Type("projects")
	h.Press("enter")
	h.MustNotShow("b build")
	h.Press("b")
	if _, ok := h.Top().(*projects.Screen); !ok || f.Called("BuildProject") {
		t.Fatalf("b in read-only opened %T; calls %v", h.Top(), f.Calls())
	}
	if !strings.Contains(h.Flash(), "read-only: builds are disabled") {
		t.Errorf("flash %q", h.Flash())
	}
}

// TestBuildGoesOnUnderAnotherView: a view opened over a running build
// leaves it running; its end is flashed there.
func TestBuildGoesOnUnderAnotherView(t *testing.T) {
	f := tuitest.NewFixture()
	f.Build = tuitest.FakeBuild{Hold: make(chan struct{}), Reached: make(chan struct{})}
	h := apptest.New(t, f, 120, 40, tui.Options{})
	startBuild(h)
	<-f.Build.Reached
	h.Press(":")
	h.Type("cmd")
	h.Press("enter")
	close(f.Build.Hold)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(h.Flash(), "built payments-dedup v3"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no flash of the build's end; flash %q, top %T", h.Flash(), h.Top())
		}
		h.Fire(projects.TickMsg)
	}
	if n := len(f.ArtifactList["payments-dedup"]); n != 3 {
		t.Errorf("%d artifacts after the build", n)
	}
}
