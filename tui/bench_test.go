package tui

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/palink/palink/tui/internal/tuitest"
)

// frameModel is a root model at 120×40 with n jobs loaded, the cursor
// mid-table, and no service calls in the loop.
func frameModel(tb testing.TB, n int) *Model {
	tb.Helper()
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(n)
	m := New(context.Background(), f, Options{Now: func() time.Time { return tuitest.Now }, Theme: ThemeDark})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.jobs.load() // the Cmd is not run: the answer is made here
	m.Update(jobsLoadedMsg{seq: m.jobs.loads.Seq(), jobs: tuitest.ManyJobs(n)})
	m.loadClusters()
	m.Update(clustersLoadedMsg{seq: m.clusterLoads.Seq(), clusters: f.ClusterList})
	for range min(n/2, 20) {
		m.Update(tuitest.Key("j"))
	}
	if len(m.jobs.rows) != n {
		tb.Fatalf("%d rows, want %d", len(m.jobs.rows), n)
	}
	return m
}

// frame is one keystroke and the render that follows it, as bubbletea does.
func frame(m *Model, down bool) string {
	k := tuitest.Key("k")
	if down {
		k = tuitest.Key("j")
	}
	m.Update(k)
	return m.View().Content
}

// BenchmarkJobsFrame measures Update+View of the jobs view per job count:
// it must stay flat, because only the visible rows are rendered and the
// sorted, filtered index is not rebuilt per frame.
func BenchmarkJobsFrame(b *testing.B) {
	for _, n := range []int{100, 1_000, 10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := frameModel(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				frame(m, i%2 == 0)
			}
		})
	}
}

// BenchmarkJobsRebuild measures what a change of filter or sort costs: the
// one place where the work grows with the number of jobs.
func BenchmarkJobsRebuild(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := frameModel(b, n)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				m.jobs.setQuery([]string{"state:RUNNING", ""}[i%2])
			}
		})
	}
}

// TestFrameCostDoesNotGrowWithJobs is the benchmark's claim as a test that
// cannot flake: a frame allocates the same whether there are a hundred jobs
// or a hundred thousand, so it does not touch the rows it does not show.
func TestFrameCostDoesNotGrowWithJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 100,000 jobs")
	}
	allocs := map[int]float64{}
	for _, n := range []int{100, 100_000} {
		m := frameModel(t, n)
		down := false
		allocs[n] = testing.AllocsPerRun(50, func() {
			down = !down
			frame(m, down)
		})
	}
	// Figures of different sizes box or format differently (a count of
	// 100,000 allocates where 100 does not), hence a little slack; rendering
	// every row would cost 100,000 times more.
	if allocs[100_000] > allocs[100]*1.1+20 {
		t.Errorf("a frame allocates %.0f times with 100,000 jobs and %.0f with 100", allocs[100_000], allocs[100])
	}
}

// BenchmarkJobsSort measures a change of sort column: the one full sort.
func BenchmarkJobsSort(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := frameModel(b, n)
			b.ResetTimer()
			for b.Loop() {
				m.Update(tuitest.Key("o"))
			}
		})
	}
}
