package cli

import (
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
	want := "  memory    " + kit.Bytes(m.MemoryUsedMB<<20) + " / " + kit.Bytes(m.MemoryTotalMB<<20)
	if !strings.Contains(out, want) || strings.Contains(out, " MB") || !strings.Contains(out, "iB") {
		t.Fatalf("palink cluster printed\n%s\nwant a line starting %q", out, want)
	}
}
