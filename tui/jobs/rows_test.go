package jobs

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// fixtureFits are the widths of the fixture's values: names of 14,
// "staging", "DEPLOYING ›SUBMIT", full application ids.
var fixtureFits = fits{colName: 14, colCluster: 7, colState: 17, colApp: 30}

func TestJobLayoutDropsColumnsByPriority(t *testing.T) {
	cols := func(l layout) []string {
		var out []string
		for _, c := range l.cols {
			out = append(out, jobColumns[c].title)
		}
		return out
	}
	// 60, 80 and 120 columns: the table's inner width is w − 2 borders − 3
	// mark cells − 1 margin.
	// At 60 the columns that carry the problem stay: STATE, BP, LAG (#29).
	if got := cols(jobLayout(54, fixtureFits, colName, false)); !slices.Equal(got, []string{"NAME", "CLUSTER", "STATE", "BP", "LAG"}) {
		t.Errorf("60 columns show %v", got)
	}
	narrow := jobLayout(74, fixtureFits, colName, false)
	if got := cols(narrow); !slices.Equal(got, []string{"NAME", "CLUSTER", "STATE", "UP", "CKPT", "IN/s", "BP", "LAG"}) {
		t.Errorf("80 columns show %v", got)
	}
	if narrow.widths[colIn] != jobColumns[colIn].width {
		t.Errorf("80 columns: IN/s keeps BP's and LAG's room rather than drawing a sparkline")
	}
	wide := jobLayout(114, fixtureFits, colName, false)
	if got := cols(wide); !slices.Equal(got, []string{"NAME", "CLUSTER", "STATE", "APP", "UP", "RST", "CKPT", "IN/s", "BP", "LAG"}) || wide.widths[colIn] != sparkInWidth {
		t.Errorf("120 columns show %v (IN/s %d wide)", got, wide.widths[colIn])
	}
	// STATE is whole wherever it shows, and before APP.
	for _, w := range []int{35, 55, 75, 115, 160, 300} {
		l := jobLayout(w, fixtureFits, colName, false)
		used := -1
		for _, c := range l.cols {
			used += l.widths[c] + 1
		}
		if used > w {
			t.Errorf("layout for %d uses %d cells", w, used)
		}
		if l.widths[colState] < 17 {
			t.Errorf("layout for %d gives STATE %d cells, less than its 17", w, l.widths[colState])
		}
		if l.widths[colName] < 12 {
			t.Errorf("layout for %d gives the name %d cells", w, l.widths[colName])
		}
	}
	// Long names keep their length while STATE fits beside them, and
	// yield, to a readable least, only so that STATE stays whole.
	long := fixtureFits
	long[colName] = 36
	if l := jobLayout(75, long, colName, false); l.widths[colName] < 36 || l.widths[colState] < 17 {
		t.Errorf("80 columns, long names: name %d, state %d", l.widths[colName], l.widths[colState])
	}
	if l := jobLayout(35, long, colName, false); l.widths[colName] != 17 || l.widths[colState] != 17 {
		t.Errorf("40 columns, long names: name %d, state %d", l.widths[colName], l.widths[colState])
	}
	// The sort arrow has room: a column sorted by is one wider than its title.
	if l := jobLayout(115, fixtureFits, colRestarts, false); l.widths[colRestarts] != 4 {
		t.Errorf("RST sorted is %d wide", l.widths[colRestarts])
	}
	if got := cols(jobLayout(300, fixtureFits, colName, false)); len(got) != int(numCols) {
		t.Errorf("a wide terminal shows only %v", got)
	}
}

// A narrow table keeps the column it is sorted by and those that carry
// the problem (STATE, BP, LAG); CLUSTER, the same on every row of one
// cluster's jobs, goes first then (#29).
func TestJobLayoutKeepsTheSortAndTheProblem(t *testing.T) {
	cols := func(l layout) []string {
		var out []string
		for _, c := range l.cols {
			out = append(out, jobColumns[c].title)
		}
		return out
	}
	for _, c := range []struct {
		w          int
		sort       column
		oneCluster bool
		want       []string
	}{
		{54, colName, true, []string{"NAME", "STATE", "UP", "BP", "LAG"}},
		{54, colRestarts, false, []string{"NAME", "STATE", "RST", "BP", "LAG"}},
		{54, colApp, false, []string{"NAME", "STATE", "APP"}},
		{35, colName, false, []string{"NAME", "STATE"}},
		{44, colName, false, []string{"NAME", "STATE", "BP", "LAG"}},
		{74, colName, true, []string{"NAME", "STATE", "UP", "CKPT", "IN/s", "BP", "LAG"}},
		{114, colName, true, []string{"NAME", "STATE", "APP", "UP", "RST", "CKPT", "IN/s", "OUT/s", "BP", "LAG"}},
	} {
		if got := cols(jobLayout(c.w, fixtureFits, c.sort, c.oneCluster)); !slices.Equal(got, c.want) {
			t.Errorf("%d wide, sorted by %s, one cluster %v: %v, want %v", c.w, jobColumns[c.sort].title, c.oneCluster, got, c.want)
		}
	}
	// What is hidden is named, the most telling first.
	if got := jobLayout(54, fixtureFits, colName, false).hidden(); !slices.Equal(got, []column{colUp, colCkpt, colIn, colRestarts, colApp, colOut, colKind}) {
		t.Errorf("hidden at 60: %v", got)
	}
}

func TestJobCells(t *testing.T) {
	now := tuitest.Now
	running := api.JobView{Job: model.Job{Name: "orders", Kind: model.KindSQL, Cluster: "prod", State: model.StateRunning,
		AppID: "application_1_0042", StartedAt: now.Add(-76 * time.Hour), PlatformRestarts: 1, FlinkRestarts: 2,
		LatestCheckpoint: &model.RestorePoint{Time: now.Add(-12 * time.Second)}},
		Figures: api.Figures{At: now, RecordsInPerSec: 12400, RecordsOutPerS: 850, Backpressure: 0.6}}
	stale := running
	stale.LatestCheckpoint = &model.RestorePoint{Time: now.Add(-3 * time.Minute)}
	restarting := running
	restarting.FlinkState = "RESTARTING"
	pending := running
	pending.Pending = &model.Command{Kind: model.CmdPause, State: model.CmdDoing}
	donePending := running
	donePending.Pending = &model.Command{Kind: model.CmdPause, State: model.CmdSucceeded}
	drifted := running
	drifted.Drift = &model.Drift{Expected: "RUNNING", Observed: "application not found"}
	failed := api.JobView{Job: model.Job{Name: "fraud", State: model.StateFailed, Kind: model.KindJAR,
		StartedAt: now.Add(-time.Hour), LatestCheckpoint: &model.RestorePoint{Time: now.Add(-3 * time.Minute)}},
		Figures: api.Figures{At: now, RecordsInPerSec: 5}}
	created := api.JobView{Job: model.Job{Name: "draft"}}

	for _, tc := range []struct {
		name string
		job  api.JobView
		want map[column]string
	}{
		{"running job shows its live figures", running, map[column]string{
			colName: "orders", colKind: "SQL", colState: "RUNNING", colApp: "application_1_0042", colUp: "3d4h",
			colRestarts: "3", colCkpt: "12s", colIn: "12.4k", colOut: "850", colBP: "█ 60%"}},
		{"an old checkpoint of a running job is flagged", stale, map[column]string{colCkpt: "3m⚠"}},
		{"Flink restarting shows through RUNNING", restarting, map[column]string{colState: "RESTARTING"}},
		{"a pending command is part of the badge", pending, map[column]string{colState: "RUNNING ›PAUSE"}},
		{"an ended command is not pending", donePending, map[column]string{colState: "RUNNING"}},
		{"drift is flagged", drifted, map[column]string{colState: "RUNNING ⚠"}},
		{"a failed job has no uptime or rates, and no stale flag", failed, map[column]string{
			colUp: "-", colIn: "-", colOut: "-", colBP: "-", colCkpt: "3m", colApp: "-"}},
		{"a created job shows dashes", created, map[column]string{colKind: "-", colState: "CREATED", colCkpt: "-", colRestarts: "0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := jobCells(&tc.job, now)
			for c, want := range tc.want {
				if got[c] != want {
					t.Errorf("%s = %q, want %q", jobColumns[c].title, got[c], want)
				}
			}
		})
	}
}

func TestLessFuncIsTotalAndStable(t *testing.T) {
	jobs := tuitest.ManyJobs(300)
	ptrs := make([]*api.JobView, len(jobs))
	for i := range jobs {
		ptrs[i] = &jobs[i]
	}
	for c := range numCols {
		for _, desc := range []bool{false, true} {
			less := lessFunc(c, desc)
			a := slices.Clone(ptrs)
			b := slices.Clone(ptrs)
			slices.Reverse(b)
			slices.SortFunc(a, less)
			slices.SortFunc(b, less)
			for i := range a {
				if a[i].ID != b[i].ID {
					t.Fatalf("sort by %s (desc %v) depends on the input order", jobColumns[c].title, desc)
				}
			}
		}
	}
	byState := slices.Clone(ptrs)
	slices.SortFunc(byState, lessFunc(colState, false))
	if byState[0].State != model.StateFailed {
		t.Errorf("sorting by state puts %s first, want FAILED", byState[0].State)
	}
}

func TestParseQuery(t *testing.T) {
	jobs := []api.JobView{
		{Job: model.Job{ID: "j1", Name: "orders-enrich", Cluster: "prod", State: model.StateRunning, Kind: model.KindSQL, AppID: "application_1_0042"}},
		{Job: model.Job{ID: "j2", Name: "fraud-scoring", Cluster: "prod", State: model.StateFailed, Kind: model.KindJAR}},
		{Job: model.Job{ID: "j3", Name: "sessionize", Cluster: "staging", State: model.StateKilled, Kind: model.KindSQL}},
	}
	for _, tc := range []struct {
		q       string
		want    []string
		wantErr string
	}{
		{"", []string{"j1", "j2", "j3"}, ""},
		{"ORDERS", []string{"j1"}, ""},
		{"0042", []string{"j1"}, ""},
		{"state:FAILED", []string{"j2"}, ""},
		{"state:failed,killed", []string{"j2", "j3"}, ""},
		{"cluster:prod", []string{"j1", "j2"}, ""},
		{"cluster:prod kind:SQL", []string{"j1"}, ""},
		{"s:RUNNING c:prod", []string{"j1"}, ""},
		{"cluster:prod enrich", []string{"j1"}, ""},
		{"state:BOGUS cluster:staging", []string{"j3"}, "unknown job state"},
		{"owner:ops", []string{"j1", "j2", "j3"}, "unknown term"},
	} {
		q, err := parseQuery(tc.q)
		var got []string
		for i := range jobs {
			if q.match(&jobs[i]) {
				got = append(got, jobs[i].ID)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q selects %v, want %v", tc.q, got, tc.want)
		}
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%q: unexpected error %v", tc.q, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%q: error %v, want one about %q", tc.q, err, tc.wantErr)
		}
	}
}

func TestSortJobsAgreesWithLessFunc(t *testing.T) {
	jobs := tuitest.ManyJobs(500)
	// Ties and zero values too: equal kinds, equal names, no checkpoints.
	jobs[3].Name, jobs[4].Name = "same", "same"
	jobs[5].LatestCheckpoint = &model.RestorePoint{Time: tuitest.Now}
	jobs[6].StartedAt = time.Time{}
	ptrs := make([]*api.JobView, len(jobs))
	for i := range jobs {
		ptrs[i] = &jobs[i]
	}
	for c := range numCols {
		for _, desc := range []bool{false, true} {
			want := slices.Clone(ptrs)
			slices.SortFunc(want, lessFunc(c, desc))
			in := slices.Clone(ptrs)
			slices.Reverse(in)
			if got := fastSort(in, c, desc); !slices.Equal(got, want) {
				t.Errorf("sortedBy by %s (desc %v) disagrees with lessFunc", jobColumns[c].title, desc)
			}
		}
	}
}

func TestSparkline(t *testing.T) {
	cases := []struct {
		in    []float64
		width int
		want  string
	}{
		{[]float64{0, 1, 2, 3, 4, 5, 6, 7}, 8, "▁▂▃▄▅▆▇█"},
		{[]float64{5, 10}, 5, "   ▂█"},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 3, "▄▆█"},
		{[]float64{0, 0, 0}, 3, "▁▁▁"},
		{[]float64{3000, 3000}, 2, "██"}, // steady: high, not noise
		{nil, 2, "  "},
	}
	for _, tc := range cases {
		if got := sparkline(tc.in, tc.width); got != tc.want {
			t.Errorf("sparkline(%v, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

// Issue 9b: a job with no live application keeps its last figures, which
// must neither show as live nor sort it above running jobs. For every
// column whose value only a live job has, jobs that show it come first,
// then live jobs that have none yet, then the dead ones, by name — in both
// directions.
func TestLiveColumnsSortDeadJobsLast(t *testing.T) {
	at := tuitest.Now.Add(-2 * time.Second)
	job := func(id string, st model.JobState, in, bp float64, up time.Duration) *api.JobView {
		j := &api.JobView{Job: model.Job{ID: id, Name: id, State: st}}
		if in >= 0 {
			j.Figures = api.Figures{At: at, RecordsInPerSec: in, RecordsOutPerS: in, Backpressure: bp}
		}
		if up > 0 {
			j.StartedAt = tuitest.Now.Add(-up)
		}
		return j
	}
	jobs := []*api.JobView{
		job("failed-stale", model.StateFailed, 1e6, 1, time.Minute), // the highest figures of all, and the latest start
		job("run-hi", model.StateRunning, 20, 0.9, 2*time.Hour),
		job("killed", model.StateKilled, 0.5, 0.01, 0),
		job("deploying", model.StateDeploying, -1, 0, 0),
		job("run-lo", model.StateRunning, 10, 0.1, time.Hour),
		job("finished", model.StateFinished, -1, 0, 0),
	}
	for _, tc := range []struct {
		col       column
		asc, desc []string
	}{
		{colIn, []string{"run-lo", "run-hi", "deploying", "failed-stale", "finished", "killed"},
			[]string{"run-hi", "run-lo", "deploying", "failed-stale", "finished", "killed"}},
		{colOut, []string{"run-lo", "run-hi", "deploying", "failed-stale", "finished", "killed"},
			[]string{"run-hi", "run-lo", "deploying", "failed-stale", "finished", "killed"}},
		{colBP, []string{"run-lo", "run-hi", "deploying", "failed-stale", "finished", "killed"},
			[]string{"run-hi", "run-lo", "deploying", "failed-stale", "finished", "killed"}},
		// UP: the latest start first; a live job not started yet shows no uptime.
		{colUp, []string{"run-lo", "run-hi", "deploying", "failed-stale", "finished", "killed"},
			[]string{"run-hi", "run-lo", "deploying", "failed-stale", "finished", "killed"}},
	} {
		for _, desc := range []bool{false, true} {
			want := tc.asc
			if desc {
				want = tc.desc
			}
			byLess := slices.Clone(jobs)
			slices.SortFunc(byLess, lessFunc(tc.col, desc))
			bySort := fastSort(jobs, tc.col, desc)
			for how, got := range map[string][]*api.JobView{"lessFunc": byLess, "sortedBy": bySort} {
				var ids []string
				for _, j := range got {
					ids = append(ids, j.ID)
				}
				if !slices.Equal(ids, want) {
					t.Errorf("%s by %s (desc %v): %v, want %v", how, jobColumns[tc.col].title, desc, ids, want)
				}
			}
		}
	}
	// A dead job's stale figures are not shown: its cells say "-" as for a
	// job that never had figures.
	cells := jobCells(jobs[0], tuitest.Now)
	for _, c := range []column{colUp, colIn, colOut, colBP} {
		if cells[c] != kit.NoValue {
			t.Errorf("a FAILED job shows %s %q", jobColumns[c].title, cells[c])
		}
	}
}
