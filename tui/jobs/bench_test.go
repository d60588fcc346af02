package jobs_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/jobs"
)

// frameModel is a root model at 120×40 with n jobs loaded, the cursor
// mid-table, and no service calls in the loop (the harness's Cmds have
// settled; the frames' own Cmds are not run).
func frameModel(tb testing.TB, n int) (tea.Model, *jobs.Screen) {
	tb.Helper()
	f := tuitest.NewFixture()
	f.Jobs = tuitest.ManyJobs(n)
	h := tuitest.Drive(tb, f, 120, 40, func(ctx context.Context) tea.Model {
		return tui.New(ctx, f, tui.Options{Now: func() time.Time { return tuitest.Now }, Theme: tui.ThemeDark})
	})
	h.Forget()
	for range min(n/2, 20) {
		h.M.Update(tuitest.Key("j"))
	}
	table := h.App.Table().(*jobs.Screen)
	if table.Len() != n {
		tb.Fatalf("%d rows, want %d", table.Len(), n)
	}
	return h.M, table
}

// frame is one keystroke and the render that follows it, as bubbletea does.
func frame(m tea.Model, down bool) string {
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
			m, _ := frameModel(b, n)
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
			_, table := frameModel(b, n)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				table.SetQuery([]string{"state:RUNNING", ""}[i%2])
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
		m, _ := frameModel(t, n)
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
			m, _ := frameModel(b, n)
			b.ResetTimer()
			for b.Loop() {
				m.Update(tuitest.Key("o"))
			}
		})
	}
}
