package sim

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestAdminAPI(t *testing.T) {
	c := startCluster(t, Options{Seed: 4, Speed: 50, RMs: 2, CheckpointInterval: 2 * time.Second})
	rm := c.RMURLs()[1] // the admin API answers on a standby too
	var out Submitted
	mustJSON(t, "POST", rm+"/sim/submit", SubmitRequest{Name: "cli-job", JobName: "cli", Queue: "dev",
		Tags: []string{"palink-job=42"}, Parallelism: 3, EntryClass: "org.example.Main"}, 200, &out)
	if !reAppID.MatchString(out.AppID) || !reHex32.MatchString(out.JobID) {
		t.Fatalf("submit: %+v", out)
	}
	var state struct {
		ActiveRM string `json:"activeRM"`
		Gateway  string `json:"gateway"`
		Apps     []App  `json:"apps"`
	}
	eventually(t, "the job RUNNING in /sim/state", func() bool {
		mustJSON(t, "GET", rm+"/sim/state", nil, 200, &state)
		for _, a := range state.Apps {
			if a.ID == out.AppID {
				return len(a.Jobs) == 1 && a.Jobs[0].State == "RUNNING"
			}
		}
		return false
	})
	if state.ActiveRM != c.RMURLs()[0] || state.Gateway != c.GatewayURL() {
		t.Errorf("state: active %s gateway %s", state.ActiveRM, state.Gateway)
	}
	a, _ := c.App(out.AppID)
	if a.Queue != "dev" || a.Jobs[0].Name != "cli" || strings.Join(a.Tags, ",") != "palink-job=42" {
		t.Errorf("submitted app %+v", a)
	}

	mustJSON(t, "POST", rm+"/sim/apps/"+out.AppID+"/fail?transient=true", nil, 200, nil)
	if a, _ := c.App(out.AppID); a.Jobs[0].Restarts != 1 {
		t.Errorf("after a transient failure: %d restarts", a.Jobs[0].Restarts)
	}
	eventually(t, "RUNNING again", func() bool { a, _ := c.App(out.AppID); return a.Jobs[0].State == "RUNNING" })
	mustJSON(t, "POST", rm+"/sim/apps/"+out.AppID+"/jm-failover", nil, 200, nil)
	if a, _ := c.App(out.AppID); a.Attempt != 2 {
		t.Errorf("attempt %d after jm-failover", a.Attempt)
	}
	mustJSON(t, "POST", rm+"/sim/rm-failover", nil, 200, nil)
	if c.ActiveRMURL() != c.RMURLs()[1] {
		t.Error("rm-failover did not switch the active RM")
	}
	mustJSON(t, "POST", rm+"/sim/apps/"+out.AppID+"/kill", nil, 200, nil)
	eventually(t, "KILLED", func() bool { a, _ := c.App(out.AppID); return a.State == "KILLED" })

	// Errors map to statuses.
	mustJSON(t, "POST", rm+"/sim/apps/application_1_0042/kill", nil, 404, nil)
	mustJSON(t, "POST", rm+"/sim/apps/"+out.AppID+"/kill", nil, 409, nil)
	mustJSON(t, "POST", rm+"/sim/jobs/"+out.JobID+"/fail", nil, 409, nil)
	mustJSON(t, "POST", rm+"/sim/submit", `{"queue":"nope"}`, 400, nil)
	mustJSON(t, "POST", rm+"/sim/submit", `{"mode":"kubernetes"}`, 400, nil)
	mustJSON(t, "POST", rm+"/sim/submit", `not json`, 400, nil)
}

func TestManualClockIsDeterministic(t *testing.T) {
	run := func() []string {
		clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
		c, err := New(Options{Seed: 42, Clock: clock, CheckpointInterval: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Start(t.Context(), "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		out, err := c.Submit(t.Context(), SubmitRequest{Name: "det", Tags: []string{"d"}})
		if err != nil {
			t.Fatal(err)
		}
		var seen []string
		note := func() {
			a, _ := c.App(out.AppID)
			line := a.ID + " " + a.State
			for _, j := range a.Jobs {
				line += " " + j.ID + " " + j.State + " " + strconv.FormatInt(j.CompletedCheckpoints, 10) + " " + j.LatestCheckpoint
			}
			seen = append(seen, line)
		}
		for i := 0; i < 12; i++ {
			clock.Advance(3 * time.Second)
			note()
		}
		a, _ := c.App(out.AppID)
		jm := "http://" + a.JMAddress
		var vs struct {
			Vertices []struct {
				ID string `json:"id"`
			} `json:"vertices"`
		}
		mustJSON(t, "GET", jm+"/jobs/"+out.JobID, nil, 200, &vs)
		r := do(t, "GET", jm+"/jobs/"+out.JobID+"/vertices/"+vs.Vertices[0].ID+"/metrics?get=0.numRecordsOutPerSecond,0.busyTimeMsPerSecond", nil)
		seen = append(seen, string(r.body))
		if err := c.FailJob(out.JobID); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 8; i++ {
			clock.Advance(2 * time.Second)
			note()
		}
		return seen
	}
	first, second := run(), run()
	if strings.Join(first, "\n") != strings.Join(second, "\n") {
		t.Fatalf("same seed and clock steps, different runs:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
	last := first[len(first)-1]
	if !strings.Contains(first[0], "ACCEPTED") || !strings.Contains(first[11], " RUNNING ") || !strings.Contains(last, "FINISHED") || !strings.Contains(last, "FAILED") {
		t.Errorf("lifecycle under the manual clock:\n%s", strings.Join(first, "\n"))
	}
}

func TestMetricsEvolveAndAreConsistent(t *testing.T) {
	clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
	c, err := New(Options{Seed: 8, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Find a job that goes through backpressure, and check its shape over
	// an hour: upstream of the bottleneck is backpressured, the bottleneck
	// busy, watermarks lag, the Kafka lag grows.
	c.mu.Lock()
	defer c.mu.Unlock()
	a, err := c.yarn.newApp(clock.Now(), SubmitRequest{Name: "m"})
	if err != nil {
		t.Fatal(err)
	}
	var j *job
	for i := 0; i < 200 && j == nil; i++ {
		cand := c.flink.addJob(a, jobSpec{name: "m", parallelism: 2}, clock.Now())
		if noise(cand.seed, 101) > 0.8 && cand.vertices[0].kafka {
			j = cand
		}
	}
	if j == nil {
		t.Fatal("no backpressured Kafka job in 200 seeds")
	}
	j.state, j.running = jobRunning, clock.Now()
	src, sink := j.vertices[0], j.vertices[2]
	bottleneck := sink
	if j.vertices[1].lookup {
		bottleneck = j.vertices[1]
	}
	var calm, pressed bool
	var lastOut float64
	changed := false
	for m := 0; m < 60; m++ {
		now := clock.Now().Add(time.Duration(m) * time.Minute)
		s := j.figures(src, 0, now)
		b := j.figures(bottleneck, 0, now)
		p := j.pressure(now)
		if s.busy+s.backpressured+s.idle > 1000.5 || s.outRate <= 0 {
			t.Fatalf("minute %d: source busy %v bp %v idle %v out %v", m, s.busy, s.backpressured, s.idle, s.outRate)
		}
		if p > 0.5 {
			pressed = true
			if s.backpressured < 400 || b.busy < 700 || b.backpressured != 0 {
				t.Errorf("minute %d under pressure %.2f: source backpressured %v, bottleneck busy %v bp %v", m, p, s.backpressured, b.busy, b.backpressured)
			}
			if lag := now.UnixMilli() - b.watermark; lag < 30_000 {
				t.Errorf("minute %d under pressure: watermark lag only %d ms", m, lag)
			}
		}
		if p == 0 {
			calm = true
			if s.backpressured != 0 {
				t.Errorf("minute %d, no pressure: source backpressured %v", m, s.backpressured)
			}
		}
		changed = changed || (m > 0 && s.outRate != lastOut)
		lastOut = s.outRate
		if s.pending <= 0 {
			t.Errorf("Kafka source without pendingRecords")
		}
	}
	if !calm || !pressed || !changed {
		t.Errorf("over an hour: calm %v, pressed %v, rates changed %v", calm, pressed, changed)
	}
}

func TestLongRunsKeepMemoryBounded(t *testing.T) {
	clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
	c, err := New(Options{Seed: 1, Clock: clock, CheckpointInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out, _ := c.Submit(t.Context(), SubmitRequest{Name: "long"})
	for i := 0; i < 2000; i++ {
		clock.Advance(700 * time.Millisecond)
		if _, err := c.App(out.AppID); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := c.App(out.AppID)
	c.mu.Lock()
	points, history := len(c.flink.points.byPath), len(c.flink.byID[out.JobID].ck.history)
	c.mu.Unlock()
	if a.Jobs[0].CompletedCheckpoints < 1000 || points > 2 || history > historySize {
		t.Errorf("after %d checkpoints: %d restorable points, %d history entries", a.Jobs[0].CompletedCheckpoints, points, history)
	}
}

func TestStrainPressesACalmJobAndLagsItsSources(t *testing.T) {
	clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
	c, err := New(Options{Seed: 8, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.mu.Lock()
	a, err := c.yarn.newApp(clock.Now(), SubmitRequest{Name: "s"})
	if err != nil {
		c.mu.Unlock()
		t.Fatal(err)
	}
	var j *job
	for i := 0; i < 200 && j == nil; i++ {
		cand := c.flink.addJob(a, jobSpec{name: "s", parallelism: 2}, clock.Now())
		if noise(cand.seed, 101) < 0.55 && cand.vertices[0].kafka {
			j = cand
		}
	}
	if j == nil {
		c.mu.Unlock()
		t.Fatal("no calm Kafka job in 200 seeds")
	}
	j.state, j.running = jobRunning, clock.Now()
	c.mu.Unlock()

	now, src := clock.Now(), j.vertices[0]
	calm := j.figures(src, 0, now)
	if calm.backpressured != 0 {
		t.Fatalf("a calm job's source is backpressured %v", calm.backpressured)
	}
	if err := c.StrainJob(j.id, Strain{Pressure: 0.95, Lag: 3_000_000}); err != nil {
		t.Fatal(err)
	}
	pressed := j.figures(src, 0, now)
	if pressed.backpressured < 750 {
		t.Errorf("under pressure 0.95 the source is backpressured only %v ms/s", pressed.backpressured)
	}
	// Half the lag per subtask (parallelism 2), give or take its share.
	if extra := pressed.pending - calm.pending; extra < 0.85*1_500_000 {
		t.Errorf("strained source is behind by %v more records, want about 1.5M", extra)
	}
	if err := c.StrainJob(j.id, Strain{}); err != nil {
		t.Fatal(err)
	}
	if again := j.figures(src, 0, now); again != calm {
		t.Errorf("lifting the strain left %+v, want the calm %+v", again, calm)
	}
	if err := c.StrainJob(j.id, Strain{Pressure: 2}); err == nil || !strings.Contains(err.Error(), "0..1") {
		t.Errorf("pressure 2: err %v, want a range error", err)
	}
	if err := c.StrainJob("application_1_9999", Strain{Pressure: 1}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown app: err %v, want ErrNotFound", err)
	}
}

func TestWarpClockJumpsButNeverPassesTheWallClock(t *testing.T) {
	w := NewWarpClock(time.Hour)
	if d := time.Since(w.Now()); d < time.Hour || d > time.Hour+time.Second {
		t.Fatalf("a fresh warp clock is %v behind, want an hour", d)
	}
	prev := w.Now()
	for i := 0; i < 12; i++ {
		w.Forward(5 * time.Minute)
		now := w.Now()
		if step := now.Sub(prev); step < 5*time.Minute {
			t.Fatalf("step %d moved it %v, want at least 5m", i, step)
		}
		prev = now
	}
	if w.Behind() != 0 {
		t.Fatalf("after an hour of steps it is %v behind", w.Behind())
	}
	w.Forward(time.Hour)
	if d := time.Since(w.Now()); d < 0 || d > time.Second {
		t.Errorf("caught up, it is %v off the wall clock", d)
	}
	w.Forward(-time.Hour)
	if w.Behind() != 0 {
		t.Errorf("a negative step moved it back %v", w.Behind())
	}
}
