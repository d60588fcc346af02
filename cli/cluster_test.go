package cli

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
	"github.com/palink/palink/yarn/sim"
)

// TestCLIClusterMemoryIsHumanized: `palink cluster` shows memory in the
// TUI's units (GiB, TiB) with the share used; -o json keeps YARN's raw MB.
func TestCLIClusterMemoryIsHumanized(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{Apps: 8}, nil)
	var ov api.ClusterOverview
	if err := decodeWire([]byte(e.mustRun("cluster", "-o", "json")), &ov); err != nil {
		t.Fatal(err)
	}
	m := ov.Metrics
	if m.MemoryTotalMB < 1024 {
		t.Fatalf("the simulator's cluster has %d MB", m.MemoryTotalMB)
	}
	out := e.mustRun("cluster")
	// The simulated cluster lives on between the two calls (an application
	// may start), so the memory in use may differ; its total does not.
	line := regexp.MustCompile(`(?m)^  memory    [0-9.]+ [KMGTP]?i?B / ` + regexp.QuoteMeta(kit.Bytes(m.MemoryTotalMB<<20)) + ` \([0-9]+%\)$`)
	if !line.MatchString(out) || strings.Contains(out, " MB") {
		t.Fatalf("palink cluster printed\n%s\nwant a line matching %s", out, line)
	}
}

// TestCLIJobsWithNoJobSaysWhatToAdopt: on a fresh config, `palink jobs`
// says that no job is managed yet, how many Flink applications `palink
// cluster` sees, and how to adopt one, instead of an empty table.
func TestCLIJobsWithNoJobSaysWhatToAdopt(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{Apps: 8}, nil)
	var ov api.ClusterOverview
	if err := decodeWire([]byte(e.mustRun("cluster", "-o", "json")), &ov); err != nil {
		t.Fatal(err)
	}
	if len(ov.Unmanaged) == 0 {
		t.Fatal("the simulator runs no Flink application")
	}
	out := e.mustRun("jobs")
	for _, want := range []string{"No job is managed by palink yet.", fmt.Sprintf("`palink cluster %s` sees %d Flink applications not managed by palink", ov.Name, len(ov.Unmanaged)),
		"palink adopt APP_ID"} {
		if !strings.Contains(out, want) {
			t.Errorf("palink jobs on a fresh config printed\n%s\nwant %q", out, want)
		}
	}
	if strings.Contains(out, "NAME") {
		t.Errorf("palink jobs printed an empty table:\n%s", out)
	}
	if out := e.mustRun("jobs", "-o", "json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("palink jobs -o json: %s, want []", out)
	}
	if out := e.mustRun("jobs", "--state", "FAILED"); !strings.Contains(out, "No job is FAILED") {
		t.Errorf("palink jobs --state FAILED: %s", out)
	}
}

// TestCLIClusterNodes: `palink cluster --nodes` lists the simulator's
// NodeManagers, the unhealthy and the lost one first with the health
// report, then the running ones with what they hold; -o json gives the
// same nodes with YARN's MB.
func TestCLIClusterNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	const report = "1/1 log-dirs are bad: /var/log/hadoop-yarn/containers"
	o := sim.Options{Apps: 8, Nodes: map[int]sim.NodeHealth{4: {State: sim.NodeLost}, 2: {State: sim.NodeUnhealthy, HealthReport: report}}}
	e := newCLIEnv(t, o, nil)
	lines := strings.Split(strings.TrimSpace(e.mustRun("cluster", "--nodes")), "\n")
	if len(lines) != 1+o.NodeCount() {
		t.Fatalf("%d lines for %d nodes:\n%s", len(lines), o.NodeCount(), strings.Join(lines, "\n"))
	}
	if f := strings.Fields(lines[0]); strings.Join(f, " ") != "NODE STATE CONTAINERS MEMORY VCORES HEALTH" {
		t.Errorf("header %q", lines[0])
	}
	if f := strings.Fields(lines[1]); len(f) < 3 || f[1] != "UNHEALTHY" || !strings.HasSuffix(lines[1], report) {
		t.Errorf("first node %q, want the unhealthy one with its report", lines[1])
	}
	if f := strings.Fields(lines[2]); len(f) < 3 || f[1] != "LOST" || !strings.Contains(lines[2], "last heard of") {
		t.Errorf("second node %q, want the lost one", lines[2])
	}
	if f := strings.Fields(lines[3]); len(f) < 7 || f[1] != "RUNNING" || !strings.Contains(lines[3], "GiB / 64.0 GiB") {
		t.Errorf("third node %q, want a running one with its memory", lines[3])
	}
	var ns []api.ClusterNode
	if err := decodeWire([]byte(e.mustRun("cluster", "--nodes", "-o", "json")), &ns); err != nil {
		t.Fatal(err)
	}
	if len(ns) != o.NodeCount() || ns[0].State != "UNHEALTHY" || ns[0].HealthReport != report || ns[0].MemoryTotalMB != 65536 {
		t.Errorf("-o json: %d nodes, first %+v", len(ns), ns[0])
	}
}
