package jobs_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

// Back from a job's detail, the table keeps its sparklines: a change made
// while the rows were off screen carries no figures (the service measured
// only the detail's job), and the rows hold theirs until new ones come
// (#12).
func TestSparklinesSurviveADetailVisit(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.MustShow("▂▄▅█▆ 12.4k", "▂▄▅█▆ 48.0k")
	h.OpenDetail("orders-enrich")
	for _, id := range []string{"j001", "j003"} {
		v := *js(h).ByID(id)
		v.Figures = api.Figures{} // a sync's view, made while the row was off screen
		h.Change(api.Change{Kind: api.JobChanged, Job: &v})
	}
	h.Press("esc")
	h.MustShow("▂▄▅█▆ 12.4k", "▂▄▅█▆ 48.0k")

	// A reload made meanwhile holds them too.
	h.Press("ctrl+r")
	h.MustShow("▂▄▅█▆ 12.4k")

	// A job that stopped, or runs another application, shows none.
	v := *js(h).ByID("j003")
	v.AppID, v.Figures = "application_1732000000000_0999", api.Figures{}
	h.Change(api.Change{Kind: api.JobChanged, Job: &v})
	if line := rowLine(h, "clicks-to-hudi"); strings.Contains(line, "48.0k") {
		t.Errorf("a new application kept the old one's figures: %q", line)
	}
}

// rowLine is the table's line of a job.
func rowLine(h *tuitest.Harness, name string) string {
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.Contains(l, name) {
			return l
		}
	}
	return ""
}
