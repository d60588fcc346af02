package projects

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

// TestBuildTellsItsPhases: a build reports fetch, checkout, build and
// collect in that order, with the commit from checkout on.
func TestBuildTellsItsPhases(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	ctx := context.Background()
	if _, err := b.Add(ctx, f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	head := git(t, f.work, "rev-parse", "HEAD")
	var phases []string
	if _, err := b.BuildWith(ctx, "dedup", "", "ana", nil, func(p model.BuildPhase, commit string) {
		phases = append(phases, string(p)+"@"+commit)
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"fetch@", "checkout@" + head, "build@" + head, "collect@" + head}
	if !slices.Equal(phases, want) {
		t.Errorf("phases %v, want %v", phases, want)
	}
}

// TestCancelledBuildRecordsNothing: cancelling a running build kills its
// process group and records no artifact and no kept log; the next build
// succeeds.
func TestCancelledBuildRecordsNothing(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	if _, err := b.Add(context.Background(), f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	f.flag("slow", true)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := b.Build(ctx, "dedup", "", "ana", nil)
		done <- err
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(f.flags, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("the build never started")
		}
	}
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("cancelled build: %v", err)
	}
	if pid := readPid(t, filepath.Join(f.flags, "child.pid")); !dies(pid) {
		t.Errorf("the cancelled build's process %d still runs", pid)
	}
	if got := artifacts(t, st); len(got) != 0 {
		t.Errorf("a cancelled build recorded %+v", got)
	}
	if logs, _ := os.ReadDir(filepath.Join(f.cache, "dedup", "logs")); len(logs) != 0 {
		t.Errorf("a cancelled build kept %d logs", len(logs))
	}
	f.flag("slow", false)
	if a, err := b.Build(context.Background(), "dedup", "", "ana", nil); err != nil || a.Version != 1 {
		t.Errorf("the build after the cancel: %+v %v", a, err)
	}
}

// TestStatusOfARunningBuild: while a build runs, Status tells its phase,
// commit and log so far; once it ends, none runs.
func TestStatusOfARunningBuild(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	if _, err := b.Add(context.Background(), f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, running := b.Status("dedup"); running {
		t.Fatal("a build runs before any started")
	}
	f.flag("slow", true)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := b.Build(ctx, "dedup", "", "ana", nil); done <- err }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(f.flags, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("the build never started")
		}
	}
	phase, commit, _, log, running := b.Status("dedup")
	head := git(t, f.work, "rev-parse", "HEAD")
	if !running || phase != model.PhaseBuild || commit != head || !strings.Contains(log, "building "+head[:7]) {
		t.Errorf("status while building: %v %s %s %q", running, phase, commit, log)
	}
	cancel()
	<-done
	if _, _, _, _, running := b.Status("dedup"); running {
		t.Error("a build runs after it ended")
	}
}
