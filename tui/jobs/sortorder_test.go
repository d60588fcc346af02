package jobs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
)

// randomJobs are n jobs whose sort keys collide often: names, clusters and
// application ids from small pools (equal names, empty values, strings that
// are prefixes of one another, long shared prefixes), every state, live and
// dead jobs with and without figures, and edge values (NaN, -0, ±Inf,
// unknown lag, zero and equal times, no checkpoint).
func randomJobs(r *rand.Rand, n int) []api.JobView {
	names := []string{"", "a", "ab", "ab\x00", "abc", "b", "orders-enrich", "orders-enrich-prod",
		"orders-enrich-prod-eu-west-1", "orders-enrich-prod-eu-west-2", "orders-enrich-prod-eu-west-10",
		"zahlungen-prüfen", "zahlungen-pruefen", "日本語-ジョブ", "Z", "ZZZZZZZZZZZZZZZZZZZZZ", "ZZZZZZZZZZZZZZZZZZZZZZ"}
	clusters := []string{"", "prod", "prod-eu", "staging", "dev"}
	apps := []string{"", "application_1732000000000_0001", "application_1732000000000_0002",
		"application_1732000000000_00010", "application_1732000000000_0001", "application_1731999999999_9999",
		"application_1732000000000_000100000", "application_1732000000000_000100001"}
	floats := []float64{0, math.Copysign(0, -1), 1, 1.5, -2, 1e9, math.Inf(1), math.Inf(-1), math.NaN(), 0.25, 0.25}
	times := []time.Time{{}, tuitest.Now, tuitest.Now.Add(-time.Minute), tuitest.Now.Add(-time.Hour),
		tuitest.Now.Add(-time.Nanosecond), tuitest.Now.In(time.FixedZone("x", 3600)), time.Unix(0, 0)}
	pick := func(n int) int { return r.IntN(n) }
	out := make([]api.JobView, n)
	for i := range out {
		name := names[pick(len(names))]
		if pick(3) == 0 {
			name = fmt.Sprintf("job-%d", pick(n/4+1))
		}
		j := api.JobView{Job: model.Job{
			ID:        fmt.Sprintf("j%d", r.Uint32()) + fmt.Sprint(i), // unique
			Name:      name,
			Kind:      model.JobKind(pick(3)),
			Cluster:   clusters[pick(len(clusters))],
			State:     model.JobState(pick(NumStates)),
			AppID:     apps[pick(len(apps))],
			StartedAt: times[pick(len(times))],

			PlatformRestarts: pick(3),
			FlinkRestarts:    pick(3) - 1,
		}}
		if pick(2) == 0 {
			j.LatestCheckpoint = &model.RestorePoint{Time: times[pick(len(times))]}
		}
		if pick(4) != 0 {
			j.Figures = api.Figures{At: times[pick(len(times))], RecordsInPerSec: floats[pick(len(floats))],
				RecordsOutPerS: floats[pick(len(floats))], Backpressure: floats[pick(len(floats))],
				Lag: floats[pick(len(floats))]}
		}
		out[i] = j
	}
	return out
}

// The fast sort is lessFunc's order, exactly: for every column, both
// directions, over jobs whose keys tie often.
func TestSortJobsIsLessFuncsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 1))
	for round, n := range []int{0, 1, 2, 3, 17, 300, 3000, 5000} {
		views := randomJobs(r, n)
		jobs := make([]*api.JobView, len(views))
		for i := range views {
			jobs[i] = &views[i]
		}
		byName := newNameOrder(slices.Clone(jobs))
		want := slices.Clone(jobs)
		slices.SortFunc(want, cmpNameID)
		if !slices.Equal(byName.jobs, want) {
			t.Fatalf("round %d (%d jobs): newNameOrder differs from (name, id) order", round, n)
		}
		for c := range numCols {
			for _, desc := range []bool{false, true} {
				got := sortedBy(byName, c, desc)
				want := slices.Clone(jobs)
				slices.SortFunc(want, lessFunc(c, desc))
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("round %d (%d jobs), sort by %s desc=%v: row %d is %s %q, lessFunc puts %s %q there",
						round, n, jobColumns[c].title, desc, i, got[i].ID, got[i].Name, want[i].ID, want[i].Name)
				}
			}
		}
	}
}

// A time that a nanosecond count cannot hold still sorts as lessFunc says.
func TestSortJobsOutOfRangeTimes(t *testing.T) {
	views := randomJobs(rand.New(rand.NewPCG(28, 2)), 200)
	views[3].StartedAt = time.Date(1200, 1, 1, 0, 0, 0, 0, time.UTC)
	views[4].LatestCheckpoint = &model.RestorePoint{Time: time.Date(2500, 1, 1, 0, 0, 0, 0, time.UTC)}
	views[5].LatestCheckpoint = &model.RestorePoint{Time: time.Date(2500, 1, 1, 0, 0, 0, 1, time.UTC)}
	views[3].State, views[4].State = model.StateRunning, model.StateRunning
	jobs := make([]*api.JobView, len(views))
	for i := range views {
		jobs[i] = &views[i]
	}
	byName := newNameOrder(jobs)
	for _, c := range []column{colUp, colCkpt} {
		for _, desc := range []bool{false, true} {
			want := slices.Clone(jobs)
			slices.SortFunc(want, lessFunc(c, desc))
			if i := firstDiff(sortedBy(byName, c, desc), want); i >= 0 {
				t.Errorf("sort by %s desc=%v differs at row %d", jobColumns[c].title, desc, i)
			}
		}
	}
}

// sortedBy is the jobs of o in the sorter's order.
func sortedBy(o nameOrder, c column, desc bool) []*api.JobView {
	var s sorter
	return s.sort(nil, o, c, desc)
}

// fastSort is jobs in the sorter's order, from any order.
func fastSort(jobs []*api.JobView, c column, desc bool) []*api.JobView {
	return sortedBy(newNameOrder(slices.Clone(jobs)), c, desc)
}

func firstDiff(got, want []*api.JobView) int {
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return i
		}
	}
	return -1
}

// BenchmarkJobsLoad measures a full load of the index (what a refresh or
// a resync costs): the jobs taken, sorted by name, and the rows built.
func BenchmarkJobsLoad(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			jobs := tuitest.ManyJobs(n)
			for b.Loop() {
				var x index
				x.set(jobs)
				x.sortAll()
				x.rebuildRows()
			}
		})
	}
}

// BenchmarkSortedBy measures the sort alone, per column, over 100,000
// jobs in name order.
func BenchmarkSortedBy(b *testing.B) {
	views := tuitest.ManyJobs(100_000)
	jobs := make([]*api.JobView, len(views))
	for i := range views {
		jobs[i] = &views[i]
	}
	byName := newNameOrder(jobs)
	var s sorter
	var out []*api.JobView
	for c := range numCols {
		b.Run(jobColumns[c].title, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				out = s.sort(out[:0], byName, c, i%2 == 1)
			}
		})
	}
}

// A list that repeats an id holds its last view of the job, once, in every
// order the index keeps.
func TestLoadWithARepeatedID(t *testing.T) {
	var x index
	x.set([]api.JobView{
		{Job: model.Job{ID: "a", Name: "first"}},
		{Job: model.Job{ID: "b", Name: "other"}},
		{Job: model.Job{ID: "a", Name: "second"}},
	})
	x.sortCol = colApp // a column whose ties fall to the name
	x.sortAll()
	x.rebuildRows()
	var got []string
	for _, j := range x.rows {
		got = append(got, j.ID+":"+j.Name)
	}
	if want := []string{"b:other", "a:second"}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
}
