package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

func TestJobLayoutDropsColumnsByPriority(t *testing.T) {
	cols := func(l layout) []string {
		var out []string
		for _, c := range l.cols {
			out = append(out, jobColumns[c].title)
		}
		return out
	}
	// 80 columns: the table's inner width is 80 − 2 borders − 3 mark cells.
	narrow := jobLayout(75)
	if got := cols(narrow); !slices.Equal(got, []string{"NAME", "CLUSTER", "STATE", "UP", "RST", "CKPT", "IN/s", "BP"}) {
		t.Errorf("80 columns show %v", got)
	}
	// 120 columns: IN/s takes OUT/s's room for its sparkline.
	wide := jobLayout(115)
	if got := cols(wide); !slices.Equal(got, []string{"NAME", "CLUSTER", "STATE", "APP", "UP", "RST", "CKPT", "IN/s", "BP"}) || wide.widths[colIn] != sparkInWidth {
		t.Errorf("120 columns show %v (IN/s %d wide)", got, wide.widths[colIn])
	}
	if l := jobLayout(160); !slices.Contains(l.cols, colOut) || l.widths[colIn] != sparkInWidth {
		t.Errorf("160 columns: OUT/s and a sparkline both fit: %v", cols(l))
	}
	if narrow.widths[colIn] != jobColumns[colIn].width {
		t.Errorf("80 columns: IN/s keeps BP's room rather than drawing a sparkline")
	}
	for _, w := range []int{40, 75, 115, 160, 300} {
		l := jobLayout(w)
		used := -1
		for _, c := range l.cols {
			used += l.widths[c] + 1
		}
		if used > w {
			t.Errorf("layout for %d uses %d cells", w, used)
		}
		if l.widths[colName] < jobColumns[colName].width || l.widths[colName] > maxNameWidth {
			t.Errorf("layout for %d gives the name %d cells", w, l.widths[colName])
		}
	}
	if got := cols(jobLayout(300)); len(got) != int(numCols) {
		t.Errorf("a wide terminal shows only %v", got)
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

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		line, verb, arg, err string
	}{
		{"jobs", "jobs", "", ""},
		{"jobs @prod", "jobs", "prod", ""},
		{"j prod", "jobs", "prod", ""},
		{"cmd", "cmd", "", ""},
		{"commands", "cmd", "", ""},
		{"cluster", "cluster", "", ""},
		{"cluster staging", "cluster", "staging", ""},
		{"sql orders-enrich", "sql", "orders-enrich", ""},
		{"sql", "", "", "needs a job name"},
		{"theme light", "theme", "light", ""},
		{"theme blue", "", "", "dark or light"},
		{"q", "q", "", ""},
		{"quit", "q", "", ""},
		{"frobnicate", "", "", "unknown command :frobnicate"},
	} {
		c, err := parseCommand(tc.line)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one about %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil || c.verb != tc.verb || c.arg != tc.arg {
			t.Errorf("%q = %+v, %v; want %s %q", tc.line, c, err, tc.verb, tc.arg)
		}
	}
}

func TestActionBlocked(t *testing.T) {
	allowed := map[model.CommandKind][]model.JobState{
		model.CmdPause:     {model.StateRunning},
		model.CmdSavepoint: {model.StateRunning},
		model.CmdKill:      {model.StateDeploying, model.StateDeploySucceeded, model.StateRunning},
		model.CmdRestart:   {model.StateFinished, model.StateKilled, model.StateFailed},
		model.CmdSubmit:    {model.StateNone},
		model.CmdResubmit:  {model.StateNone, model.StateDeployFailed, model.StateFinished, model.StateKilled, model.StateFailed},
	}
	for kind, ok := range allowed {
		for _, st := range model.JobStates() {
			why := actionBlocked(kind, model.Job{State: st})
			if slices.Contains(ok, st) != (why == "") {
				t.Errorf("%s of a %s job: blocked %q", kind, st, why)
			}
		}
	}
	if why := actionBlocked(model.CmdRestart, model.Job{State: model.StateDeployFailed}); !strings.Contains(why, "resubmit") {
		t.Errorf("restart after a failed deploy should point to resubmit, says %q", why)
	}
}

func TestHeaderShedsDetailToFit(t *testing.T) {
	st := kit.DarkStyles()
	d := headerData{
		context: "demo",
		clusters: []api.ClusterStatus{
			{Name: "prod", Connected: true, ActiveRM: "rm1", LastOK: tuitest.Now.Add(-2 * time.Second)},
			{Name: "staging", Connected: true, LastOK: tuitest.Now.Add(-45 * time.Second)},
			{Name: "dr", Connected: false, LastOK: tuitest.Now.Add(-35 * time.Minute)},
		},
		jobsLoaded: true,
		watching:   true,
		now:        tuitest.Now,
	}
	d.counts[model.StateRunning] = 198
	d.counts[model.StateFailed] = 3
	for _, w := range []int{160, 120, 80, 60} {
		line := renderHeader(st, d, w)
		if got := ansi.StringWidth(line); got != w {
			t.Errorf("header at %d is %d wide: %q", w, got, ansi.Strip(line))
		}
		plain := ansi.Strip(line)
		for _, must := range []string{"palink", "prod", "dr"} {
			if !strings.Contains(plain, must) {
				t.Errorf("header at %d lacks %q: %q", w, must, plain)
			}
		}
	}
	wide := ansi.Strip(renderHeader(st, d, 160))
	for _, must := range []string{"prod rm1 2s", "staging 45s", "✖ dr down 35m", "jobs 201", "RUNNING 198", "FAILED 3"} {
		if !strings.Contains(wide, must) {
			t.Errorf("wide header lacks %q: %q", must, wide)
		}
	}
	if strings.Contains(wide, "DEPLOYING") {
		t.Errorf("header counts a state with no jobs: %q", wide)
	}
	// Staleness is coloured: the stale cluster's dot is not the live one's.
	full := renderHeader(st, d, 160)
	if !strings.Contains(full, st.ClusterStale.Render("45s")) || !strings.Contains(full, st.ClusterLive.Render("2s")) {
		t.Errorf("data age is not coloured by staleness: %q", full)
	}
	d.clusters = append(d.clusters, api.ClusterStatus{Name: "new"})
	if !strings.Contains(ansi.Strip(renderHeader(st, d, 200)), "◌ new connecting") {
		t.Errorf("a cluster not reached yet is not shown as connecting: %q", ansi.Strip(renderHeader(st, d, 200)))
	}
	d.watching = false
	if !strings.Contains(ansi.Strip(renderHeader(st, d, 200)), "live updates paused") {
		t.Error("header does not say that the change stream is down")
	}
}

func TestKeymapMarkdown(t *testing.T) {
	md := KeymapMarkdown(false)
	for _, must := range []string{"### Jobs (default view)", "| `ctrl+k` | kill |", "| `/` | filter |", "| `?` | help |", "| `y` | raw JSON |", "| `a` | adopt |"} {
		if !strings.Contains(md, must) {
			t.Errorf("keymap lacks %q", must)
		}
	}
	ro := KeymapMarkdown(true)
	for _, gone := range []string{"| `ctrl+k` | kill |", "| `p` | pause |", "| `n` | new job |"} {
		if strings.Contains(ro, gone) {
			t.Errorf("read-only keymap documents %q", gone)
		}
	}
	if !strings.Contains(ro, "| `/` | filter |") {
		t.Error("read-only keymap lost the filter")
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
			got := slices.Clone(ptrs)
			slices.Reverse(got)
			sortJobs(got, c, desc)
			if !slices.Equal(got, want) {
				t.Errorf("sortJobs by %s (desc %v) disagrees with lessFunc", jobColumns[c].title, desc)
			}
		}
	}
}
