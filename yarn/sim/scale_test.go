package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
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

// TestProxyAnswersAsTheJobManager: through the RM's web proxy a
// JobManager answers as it does on its own port, whether the proxy hands
// it the request in process (no fault on its wire) or forwards it over a
// connection (a fault to play).
func TestProxyAnswersAsTheJobManager(t *testing.T) {
	epoch := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := startCluster(t, Options{Seed: 5, Apps: 20, AppsRunning: true, Clock: NewManualClock(epoch)})
	var a App
	for _, x := range c.Apps() {
		if x.Type == "Apache Flink" {
			a = x
			break
		}
	}
	get := func(url string) (int, string) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	proxied := c.ActiveRMURL() + "/proxy/" + a.ID
	for _, path := range []string{"/jobs/overview", "/jobs/" + a.Jobs[0].ID, "/jobs/" + a.Jobs[0].ID + "/checkpoints", "/config", "/jobs/nope"} {
		// Ask the proxy first: it opens the JobManager's port.
		pcode, pbody := get(proxied + path)
		app, _ := c.App(a.ID)
		dcode, dbody := get("http://" + app.JMAddress + path)
		if pcode != dcode || pbody != dbody {
			t.Errorf("GET %s: through the proxy %d %.200s; the JobManager's own %d %.200s", path, pcode, pbody, dcode, dbody)
		}
	}
	// With a fault on the JobManager's wire the proxy forwards over a
	// connection, and a reset JobManager is the proxy's 500.
	c.SetFaults(Faults{Per: map[Kind]WireFaults{KindJM: {ResetRate: 1}}})
	if code, body := get(proxied + "/jobs/overview"); code != http.StatusInternalServerError || !strings.Contains(body, "did not answer") {
		t.Errorf("a JobManager that resets through the proxy: %d %s", code, body)
	}
}

// BenchmarkProxiedJobManager is one JobManager request through the RM's
// web proxy, each to another of 1,000 applications, as state sync reads
// them: the overview every cycle, the details when a job moved.
func BenchmarkProxiedJobManager(b *testing.B) {
	c, err := New(Options{Seed: 1, Apps: 1000, AppsRunning: true})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(b.Context(), "127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	type target struct{ app, job string }
	var ts []target
	for _, a := range c.Apps() {
		if a.Type == "Apache Flink" {
			ts = append(ts, target{a.ID, a.Jobs[0].ID})
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	for _, path := range []string{"jobs/overview", "jobs/%s", "jobs/%s/checkpoints"} {
		b.Run(strings.ReplaceAll(strings.TrimPrefix(path, "jobs/"), "%s", "ID"), func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					t := ts[i%len(ts)]
					p := path
					if strings.Contains(p, "%s") {
						p = strings.Replace(p, "%s", t.job, 1)
					}
					resp, err := client.Get(c.ActiveRMURL() + "/proxy/" + t.app + "/" + p)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					i += 7
				}
			})
		})
	}
}
