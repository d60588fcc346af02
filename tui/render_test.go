package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

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
		wall:       tuitest.Now,
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
	for _, must := range []string{"### Jobs (default view)", "| `ctrl+k` | kill |", "| `/` | filter |", "| `?` | help |", "| `y` | raw JSON |", "| `ctrl+d` | kill (k9s' delete) |", "| `d` | describe |", "| `a` | adopt |"} {
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

// The header shows what k9s users look for: palink's version, the
// context, the user, and the clock; a narrow one keeps the clock longest
// (#12).
func TestHeaderShowsVersionContextUserAndClock(t *testing.T) {
	st := kit.DarkStyles()
	d := headerData{
		version: "v1.2.3", context: "prod-ops", user: "alice",
		clusters:   []api.ClusterStatus{{Name: "prod", Connected: true, ActiveRM: "rm1", LastOK: tuitest.Now.Add(-2 * time.Second)}},
		jobsLoaded: true, watching: true, now: tuitest.Now, wall: tuitest.Now,
	}
	d.counts[model.StateRunning] = 3
	wide := ansi.Strip(renderHeader(st, d, 160))
	for _, must := range []string{"palink v1.2.3", "ctx prod-ops", "user alice", "09:12:03", "prod rm1 2s", "RUNNING 3"} {
		if !strings.Contains(wide, must) {
			t.Errorf("wide header lacks %q: %q", must, wide)
		}
	}
	narrow := ansi.Strip(renderHeader(st, d, 60))
	if !strings.Contains(narrow, "09:12:03") || !strings.Contains(narrow, "prod") || ansi.StringWidth(narrow) != 60 {
		t.Errorf("narrow header: %q", narrow)
	}
	d.readOnly = true
	if h := ansi.Strip(renderHeader(st, d, 160)); !strings.Contains(h, "user alice read-only") {
		t.Errorf("read-only header: %q", h)
	}
}

func TestUserDefaultsToTheProcesss(t *testing.T) {
	if got := envUser([]string{"HOME=/x", "LOGNAME=bob"}); got != "bob" {
		t.Errorf("from LOGNAME: %q", got)
	}
	if got := envUser([]string{"USER=alice", "LOGNAME=bob"}); got != "alice" {
		t.Errorf("from USER: %q", got)
	}
	m := New(t.Context(), tuitest.NewFixture(), Options{Environ: []string{"USER=carol"}})
	if m.opts.User != "carol" {
		t.Errorf("the session's user is %q", m.opts.User)
	}
}

// TestHeaderClockIsTheWalls: the demo's clock lives its fleet's hour
// behind the wall; the header's clock shows the wall's time of day all the
// same, while ages stay the demo's.
func TestHeaderClockIsTheWalls(t *testing.T) {
	wall := tuitest.Now.Add(41 * time.Minute) // 09:53:03
	f := tuitest.NewFixture()
	h := tuitest.Drive(t, f, 120, 40, func(ctx context.Context) tea.Model {
		return New(ctx, f, Options{Context: "demo", Theme: ThemeDark,
			Now: func() time.Time { return tuitest.Now }, Wall: func() time.Time { return wall }})
	})
	h.MustShow("09:53:03", "● prod rm1 2s")
	if strings.Contains(h.Screen(), "09:12:03") {
		t.Errorf("the header shows the demo's time:\n%s", h.Screen())
	}
	h.Send(tickMsg{now: tuitest.Now.Add(time.Second), wall: wall.Add(time.Second)})
	h.MustShow("09:53:04")
}
