package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"
)

// TestTenThousandAppsListCheaply builds a 10,000-application fleet and
// lists it over REST: the fleet costs no goroutine until JobManagers are
// needed, and the heap stays bounded. It keeps its size under the race detector
// too (a few seconds there), so `make test` checks what its name says.
func TestTenThousandAppsListCheaply(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-application fleet")
	}
	const apps = 10_000
	runtime.GC()
	g0 := runtime.NumGoroutine()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	c, err := New(Options{Seed: 1, Apps: apps})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	built := time.Since(start)
	var m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if g := runtime.NumGoroutine() - g0; g > 0 {
		t.Errorf("building the fleet started %d goroutines", g)
	}
	if err := c.Start(t.Context(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	g1 := runtime.NumGoroutine()

	// The list a syncer makes once per cycle: running Flink apps, no JMs opened.
	start = time.Now()
	resp, err := http.Get(c.ActiveRMURL() + "/ws/v1/cluster/apps?states=FINISHED,KILLED,FAILED")
	if err != nil {
		t.Fatal(err)
	}
	var finished struct {
		Apps struct {
			App []json.RawMessage `json:"app"`
		} `json:"apps"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&finished); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	listFinished := time.Since(start)

	// The full list, which opens every running app's JobManager listener.
	start = time.Now()
	resp, err = http.Get(c.ActiveRMURL() + "/ws/v1/cluster/apps")
	if err != nil {
		t.Fatal(err)
	}
	var all struct {
		Apps struct {
			App []struct {
				State        string `json:"state"`
				AMRPCAddress string `json:"amRPCAddress"`
			} `json:"app"`
		} `json:"apps"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&all); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	listAll := time.Since(start)
	if len(all.Apps.App) < apps {
		t.Fatalf("listed %d apps", len(all.Apps.App))
	}
	running := 0
	for _, a := range all.Apps.App {
		if a.AMRPCAddress != "" {
			running++
		}
	}
	// The second full list reuses the listeners.
	start = time.Now()
	resp, err = http.Get(c.ActiveRMURL() + "/ws/v1/cluster/apps")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	again := time.Since(start)
	var m2 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m2)
	t.Logf("fleet of %d apps built in %v (heap %+d KiB); finished-apps list (%d) %v; full list %v (%d JobManagers opened, %d goroutines, heap %d MiB); again %v, %d KiB",
		len(all.Apps.App), built, (int64(m1.HeapInuse)-int64(m0.HeapInuse))>>10, len(finished.Apps.App), listFinished,
		listAll, running, runtime.NumGoroutine()-g1, m2.HeapInuse>>20, again, n>>10)
	// How fast is BenchmarkListApps' to say (BENCHMARKS.md): a wall clock
	// here would judge the machine's load, not the simulator.
	if heap := m2.HeapInuse >> 20; heap > 300 {
		t.Errorf("heap %d MiB after listing 10,000 apps", heap)
	}
}

// BenchmarkListApps measures one RM list call over a fleet, with the
// JobManagers already open.
func BenchmarkListApps(b *testing.B) {
	for _, n := range []int{100, 1000, 10_000} {
		b.Run(itoa(int64(n)), func(b *testing.B) {
			c, err := New(Options{Seed: 1, Apps: n})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(b.Context(), "127.0.0.1:0"); err != nil {
				b.Fatal(err)
			}
			url := c.ActiveRMURL() + "/ws/v1/cluster/apps?applicationTypes=Apache%20Flink"
			warm, _ := http.Get(url)
			_, _ = io.Copy(io.Discard, warm.Body)
			warm.Body.Close()
			b.ResetTimer()
			for b.Loop() {
				resp, err := http.Get(url)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}
