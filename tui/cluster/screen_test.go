package cluster_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
	"github.com/palink/palink/tui/internal/apptest"
	"github.com/palink/palink/tui/internal/tuitest"
)

func TestClusterViewSwitchesAndAdopts(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press(":")
	h.Type("cluster")
	h.Press("enter")
	h.MustShow("Cluster prod", "apps     running 12", "streaming", "legacy-etl", "ad-hoc-backfill")
	h.Press("]")
	h.MustShow("Cluster staging", "none: every Flink application on this cluster is a palink job")
	h.Press("a")
	if h.App.Dialog() != nil || !strings.Contains(h.Flash(), "no unmanaged Flink application on staging") {
		t.Errorf("a with nothing to adopt: flash %q", h.Flash())
	}
	h.Press("[")
	h.Press("j", "a")
	h.MustShow("Adopt application_1732000000000_0088?", "name: ad-hoc-backfill")
	h.Press("backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	h.Type("backfill-2026")
	h.Press("enter")
	if !f.Called("Adopt prod application_1732000000000_0088 ad-hoc-backfill-2026") {
		t.Fatalf("calls %v", f.Calls())
	}
	if !strings.Contains(h.Flash(), "adopted application_1732000000000_0088 as job ad-hoc-backfill-2026") {
		t.Errorf("flash %q", h.Flash())
	}
	h.MustNotShow("ad-hoc-backfill ") // reloaded: it is no longer unmanaged
	h.Press("esc")
	if !strings.Contains(h.Screen(), "ad-hoc-backfill-2026") {
		t.Error("the adopted job is not in the jobs table")
	}
}

func TestClusterChangeReloadsOverview(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 120, 40, tui.Options{})
	h.Press(":")
	h.Type("cluster prod")
	h.Press("enter")
	before := strings.Count(strings.Join(f.Calls(), ","), "ClusterOverview prod")
	st := api.ClusterStatus{Name: "prod", Connected: false, LastOK: tuitest.Now.Add(-40 * 1e9)}
	h.Change(api.Change{Kind: api.ClusterChanged, Cluster: &st})
	if n := strings.Count(strings.Join(f.Calls(), ","), "ClusterOverview prod"); n != before+1 {
		t.Errorf("a cluster change made %d reloads, want 1", n-before)
	}
	h.MustShow("✖ prod down 40s")
}

func TestGoldenCluster(t *testing.T) {
	apptest.GoldenFrame(t, "cluster", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press(":")
		h.Type("cluster prod")
		h.Press("enter")
	})
}

func TestGoldenAdopt(t *testing.T) {
	apptest.GoldenFrame(t, "adopt", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press(":")
		h.Type("cluster prod")
		h.Press("enter", "j", "a")
	})
}

// a is offered where there is something to adopt; elsewhere it says why.
func TestAdoptIsOfferedOnlyWhereThereIsSomethingToAdopt(t *testing.T) {
	h := apptest.New(t, tuitest.NewFixture(), 120, 40, tui.Options{})
	h.Press(":")
	h.Type("cluster prod")
	h.Press("enter")
	footer := func() string { l := strings.Split(h.Screen(), "\n"); return l[len(l)-2] }
	if !strings.Contains(footer(), "a adopt") {
		t.Fatalf("the footer does not offer a: %q", footer())
	}
	h.Press("]")
	h.MustShow("Cluster staging")
	if strings.Contains(footer(), "a adopt") {
		t.Fatalf("the footer offers a with nothing to adopt: %q", footer())
	}
	h.Press("a")
	if want := "adopt: no unmanaged Flink application on staging"; h.Flash() != want {
		t.Fatalf("flash %q, want %q", h.Flash(), want)
	}
}

// TestClusterNodesPutTroubleFirst: n on `:cluster` lists the cluster's
// YARN nodes as core orders them — the unhealthy, lost and decommissioned
// ones first, the unhealthy one's health report on its row and whole
// under the list — and each running node's containers, memory and vcores
// used of its own.
func TestClusterNodesPutTroubleFirst(t *testing.T) {
	f := tuitest.NewFixture()
	h := apptest.New(t, f, 160, 40, tui.Options{})
	h.Press(":")
	h.Type("cluster prod")
	h.Press("enter")
	h.MustShow("n lists them")
	h.Press("n")
	if h.Top().Title() != "Nodes prod" {
		t.Fatalf("n opened %q", h.Top().Title())
	}
	if !f.Called("ClusterNodes prod") {
		t.Fatalf("calls %v", f.Calls())
	}
	h.MustShow("9 nodes · 1 unhealthy · 1 lost · 1 decommissioned",
		"node1.prod:45454", "16.0 GiB / 16.0 GiB", "8 / 8", "last heard of 2h ago")
	rows := nodeRows(h.Screen())
	want := []string{"node7.prod:45454 UNHEALTHY", "node8.prod:45454 LOST", "node10.prod:45454 DECOMMISSIONED", "node1.prod:45454 RUNNING 4"}
	for i, w := range want {
		if i >= len(rows) || !strings.HasPrefix(rows[i], w) {
			t.Fatalf("row %d is %q, want %q first; rows:\n%s", i, rows[i], w, strings.Join(rows, "\n"))
		}
	}
	if !strings.Contains(rows[0], "1/1 local-dirs usable space is below configured") {
		t.Errorf("the unhealthy node's row lacks its health report: %q", rows[0])
	}
	// The whole report under the list, wrapped.
	h.MustShow("node7.prod:45454 UNHEALTHY", "used space above threshold of 90.0% ]")
	h.Press("/")
	h.Type("rack-2")
	h.Press("enter")
	if rows := nodeRows(h.Screen()); len(rows) != 3 {
		t.Errorf("/rack-2 left %d nodes:\n%s", len(rows), strings.Join(rows, "\n"))
	}
	h.Press("esc", "esc")
	if h.Top().Title() != "Cluster prod" {
		t.Errorf("esc went to %q", h.Top().Title())
	}
}

// nodeRows are the node list's rows, cells one space apart (not the
// cursor's node in depth under them).
func nodeRows(screen string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		l = strings.Trim(l, "│ ▸")
		if strings.HasPrefix(l, "node") && strings.Contains(l, ".prod:45454 ") && len(strings.Fields(l)) > 2 && !strings.Contains(l, "·") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return out
}

func TestGoldenClusterNodes(t *testing.T) {
	apptest.GoldenFrame(t, "cluster_nodes", nil, tui.Options{}, func(h *tuitest.Harness) {
		h.Press(":")
		h.Type("cluster prod")
		h.Press("enter", "n")
	})
}
