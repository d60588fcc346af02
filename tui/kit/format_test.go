package kit

import (
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func TestFmtAge(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"},
		{0, "0s"},
		{9 * time.Second, "9s"},
		{59 * time.Second, "59s"},
		{time.Minute, "1m"},
		{14*time.Minute + 59*time.Second, "14m"},
		{time.Hour, "1h"},
		{3*time.Hour + 12*time.Minute, "3h12m"},
		{24 * time.Hour, "1d"},
		{76 * time.Hour, "3d4h"},
	} {
		if got := Age(tc.d); got != tc.want {
			t.Errorf("Age(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestStateColours(t *testing.T) {
	for _, st := range []*Styles{DarkStyles(), LightStyles()} {
		for _, tc := range []struct {
			state model.JobState
			flink string
			want  func() string
		}{
			{model.StateRunning, "RUNNING", func() string { return st.StateRunning.Render("x") }},
			{model.StateRunning, "RESTARTING", func() string { return st.StateDeploying.Render("x") }},
			{model.StateFailed, "", func() string { return st.StateFailed.Render("x") }},
			{model.StateDeployFailed, "", func() string { return st.StateFailed.Render("x") }},
			{model.StateDeploying, "", func() string { return st.StateDeploying.Render("x") }},
			{model.StateDeploySucceeded, "", func() string { return st.StateDeploying.Render("x") }},
			{model.StateFinished, "", func() string { return st.StateFinal.Render("x") }},
			{model.StateKilled, "", func() string { return st.StateFinal.Render("x") }},
			{model.StateNone, "", func() string { return st.StateCreated.Render("x") }},
		} {
			if got := st.JobState(tc.state, tc.flink).Render("x"); got != tc.want() {
				t.Errorf("dark=%v %s/%s renders %q, want %q", st.Dark, tc.state, tc.flink, got, tc.want())
			}
		}
		if st.StateRunning.Render("x") == st.StateFailed.Render("x") {
			t.Errorf("dark=%v: RUNNING and FAILED look the same", st.Dark)
		}
	}
	if DarkStyles().StateRunning.Render("x") == LightStyles().StateRunning.Render("x") {
		t.Error("the light theme uses the dark theme's green")
	}
}

// TestCommandStateColours: every command state has its colour; an UNKNOWN
// command (its effect being found out) looks neither done nor failed.
func TestCommandStateColours(t *testing.T) {
	for _, st := range []*Styles{DarkStyles(), LightStyles()} {
		want := map[model.CommandState]lipgloss.Style{
			model.CmdUndo: st.StateCreated, model.CmdDoing: st.StateDeploying, model.CmdUnknown: st.Warn,
			model.CmdSucceeded: st.StateRunning, model.CmdFailed: st.StateFailed,
		}
		for _, s := range model.CommandStates() {
			if got := st.CommandState(s).Render(s.String()); got != want[s].Render(s.String()) {
				t.Errorf("dark=%v %s renders %q", st.Dark, s, got)
			}
		}
		if st.CommandState(model.CmdUnknown).Render("x") == st.CommandState(model.CmdFailed).Render("x") ||
			st.CommandState(model.CmdUnknown).Render("x") == st.CommandState(model.CmdSucceeded).Render("x") {
			t.Errorf("dark=%v: UNKNOWN looks FAILED or SUCCEEDED", st.Dark)
		}
	}
}

func TestFmtFigures(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Rate(0), "0"},
		{Rate(850.4), "850"},
		{Rate(3100), "3.1k"},
		{Rate(48000), "48.0k"},
		{Rate(1.25e6), "1.2M"},
		{Backpressure(0.04), "░ 4%"},
		{Backpressure(0.31), "▒ 31%"},
		{Backpressure(0.87), "█ 87%"},
		{Bytes(512), "512 B"},
		{Bytes(38 << 20), "38.0 MiB"},
		{Duration(340 * time.Millisecond), "340ms"},
		{Duration(1200 * time.Millisecond), "1.2s"},
		{ShortID("3f9c0d1e2b3a4c5d6e7f8091a2b3a21e", 4), "3f9c…a21e"},
		{ShortID("abc", 4), "abc"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestFmtCountFitsFourCells(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 850: "850", 3100: "3.1k", 9949: "9.9k", 48000: "48k", 999_000: "999k",
		999_600: "1.0M", 1.2e6: "1.2M", 340e6: "340M", 2.5e9: "2G"} {
		if got := Count(v); got != want || len(got) > 4 {
			t.Errorf("Count(%v) = %q, want %q", v, got, want)
		}
	}
}

// A paused job is told from one that ended (#12).
func TestPausedTellsAPauseFromAnEnd(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 12, 3, 0, time.UTC)
	sp := func(origin string, at time.Time) *model.RestorePoint {
		return &model.RestorePoint{Kind: model.Savepoint, Path: "hdfs:///sp/x/savepoint-1", Time: at, SeenAt: at, Origin: origin}
	}
	for _, tc := range []struct {
		name string
		job  model.Job
		want bool
	}{
		{"stopped by a pause", model.Job{State: model.StateFinished, StartedAt: now.Add(-time.Hour), LatestSavepoint: sp("PAUSE #40", now.Add(-time.Minute))}, true},
		{"paused, start unknown", model.Job{State: model.StateFinished, LatestSavepoint: sp("PAUSE #12", now)}, true},
		{"bounded, no savepoint", model.Job{State: model.StateFinished, StartedAt: now.Add(-time.Hour)}, false},
		{"ended after a restart that followed a pause", model.Job{State: model.StateFinished, StartedAt: now.Add(-time.Hour), LatestSavepoint: sp("PAUSE #40", now.Add(-2*time.Hour))}, false},
		{"a savepoint taken while running, then it ended", model.Job{State: model.StateFinished, StartedAt: now.Add(-time.Hour), LatestSavepoint: sp("SAVEPOINT #41", now.Add(-time.Minute))}, false},
		{"restarted since (running)", model.Job{State: model.StateRunning, LatestSavepoint: sp("PAUSE #40", now)}, false},
	} {
		_, got := Paused(&tc.job)
		if got != tc.want {
			t.Errorf("%s: paused %v, want %v", tc.name, got, tc.want)
		}
		cell := StateCell(&api.JobView{Job: tc.job})
		if strings.Contains(cell, "paused") != tc.want {
			t.Errorf("%s: badge %q", tc.name, cell)
		}
	}
}

func TestStateCellWidthIsTheCellsWidth(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 12, 3, 0, time.UTC)
	jobs := []api.JobView{
		{Job: model.Job{State: model.StateRunning, FlinkState: "RESTARTING"}},
		{Job: model.Job{State: model.StateDeploying}, Pending: &model.Command{Kind: model.CmdSubmit, State: model.CmdDoing}},
		{Job: model.Job{State: model.StateRunning, Drift: &model.Drift{}}, Pending: &model.Command{Kind: model.CmdSavepoint, State: model.CmdUndo}},
		{Job: model.Job{State: model.StateFinished, LatestSavepoint: &model.RestorePoint{Origin: "PAUSE #3", Time: now}}},
		{Job: model.Job{State: model.StateNone}},
	}
	for _, j := range jobs {
		if got, want := StateCellWidth(&j), Width(StateCell(&j)); got != want {
			t.Errorf("%q: width %d, measured %d", StateCell(&j), want, got)
		}
	}
}

func TestDiagnosticFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Percent(0.974), "97%"},
		{Percent(0), "0%"},
		{Percent(-1), "?"},
		{ContainerShort("container_e01_1732000000000_0042_01_000002"), "…042_01_000002"},
		{ContainerShort("tm-1"), "tm-1"},
		{VertexShort("LookupJoin[3](table=[users], async=[true])"), "LookupJoin[3]"},
		{VertexShort("Source: orders[1] -> Calc[2]"), "Source: orders[1] -> Calc[2]"},
		{VertexShort("(odd)"), "(odd)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestElideKeepsBothEnds(t *testing.T) {
	for _, tc := range []struct {
		s    string
		w    int
		want string
	}{
		{"savepoint-3f9c0d-8e1b44c2a0f1", 40, "savepoint-3f9c0d-8e1b44c2a0f1"},
		{"savepoint-3f9c0d-8e1b44c2a0f1", 12, "savepo…2a0f1"},
		{"abcdef", 1, "…"},
		{"abcdef", 0, ""},
	} {
		got := ElideMiddle(tc.s, tc.w)
		if got != tc.want || Width(got) > max(tc.w, 0) {
			t.Errorf("ElideMiddle(%q, %d) = %q, want %q", tc.s, tc.w, got, tc.want)
		}
	}
}

// A path loses the middle of its directories first: the part that names
// it stays whole as long as it fits at all.
func TestElidePathKeepsItsLastPart(t *testing.T) {
	const ck = "hdfs:///flink/ck/3f9c0d1e/chk-8812"
	for _, tc := range []struct {
		p    string
		w    int
		want string
	}{
		{ck, 60, ck},
		{ck, len(ck), ck},
		{ck, 21, "hdfs:///fli…/chk-8812"},
		{ck, 11, "h…/chk-8812"},
		{ck, 10, "…/chk-8812"},
		{ck, 9, "chk-8812"},
		{ck, 7, "chk…812"},
		{"hdfs:///flink/sp/orders-enrich/savepoint-7f3a21/", 30, "hdfs:///fli…/savepoint-7f3a21/"},
		{"no-slash-at-all-in-this-name", 10, "no-sl…name"},
	} {
		got := ElidePath(tc.p, tc.w)
		if got != tc.want || Width(got) > tc.w {
			t.Errorf("ElidePath(%q, %d) = %q (%d cells), want %q", tc.p, tc.w, got, Width(got), tc.want)
		}
	}
}

// A path too long for a line breaks after its slashes, never inside the
// part that names it if that part fits a line.
func TestWrapPath(t *testing.T) {
	for _, tc := range []struct {
		p    string
		w    int
		want []string
	}{
		{"hdfs:///flink/sp/orders-enrich/savepoint-7f3a21", 60, []string{"hdfs:///flink/sp/orders-enrich/savepoint-7f3a21"}},
		{"hdfs:///flink/sp/orders-enrich/savepoint-7f3a21", 40, []string{"hdfs:///flink/sp/orders-enrich/", "savepoint-7f3a21"}},
		{"hdfs:///flink/ck/3f9c0d1e2b3a4c5d6e7f8091a2b3a21e/chk-8809", 30, []string{"hdfs:///flink/ck/", "3f9c0d1e2b3a4c5d6e7f8091a2b3a2", "1e/chk-8809"}},
	} {
		if got := WrapPath(tc.p, tc.w); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("WrapPath(%q, %d) = %q, want %q", tc.p, tc.w, got, tc.want)
		}
	}
}
