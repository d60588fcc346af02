package sim

import (
	"fmt"
	"testing"
	"time"
)

// TestCheckpointRetentionFollowsFlink: what the simulated HDFS still holds
// after a job ends is Flink's CheckpointProperties table for the job's
// execution.checkpointing.externalized-checkpoint-retention, whichever way
// it ended; while it runs, checkpoints beyond its num-retained (either key)
// are subsumed; a savepoint always stays, and a YARN kill deletes nothing.
func TestCheckpointRetentionFollowsFlink(t *testing.T) {
	const (
		none    = "NO_EXTERNALIZED_CHECKPOINTS"
		onFail  = "DELETE_ON_CANCELLATION"
		onCance = "RETAIN_ON_CANCELLATION"
	)
	// end → retention ("" is Flink's default) → the newest checkpoint kept.
	want := map[string]map[string]bool{
		"FINISHED":  {"": false, none: false, onFail: false, onCance: false},
		"CANCELED":  {"": false, none: false, onFail: false, onCance: true},
		"FAILED":    {"": false, none: false, onFail: true, onCance: true},
		"YARN kill": {"": true, none: true, onFail: true, onCance: true},
	}
	n := 0
	for end, byRetention := range want {
		for retention, kept := range byRetention {
			n++
			seed := int64(n)
			numKey := "execution.checkpointing.num-retained"
			if n%2 == 0 {
				numKey = "state.checkpoints.num-retained" // Flink before 1.20
			}
			t.Run(fmt.Sprintf("%s/%s", end, or(retention, "default")), func(t *testing.T) {
				t.Parallel()
				clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
				c := startCluster(t, Options{Seed: seed, Clock: clock})
				conf := map[string]string{"execution.checkpointing.interval": "2s", numKey: "2",
					"restart-strategy.fixed-delay.attempts": "1"}
				if retention != "" {
					conf["execution.checkpointing.externalized-checkpoint-retention"] = retention
				}
				out, err := c.Submit(t.Context(), SubmitRequest{Name: "retained", Config: conf})
				if err != nil {
					t.Fatal(err)
				}
				clock.Advance(20 * time.Second)
				jm := "http://" + rmApp(t, c, out.AppID).AMRPCAddress
				var cfg struct {
					Externalization struct {
						Enabled bool `json:"enabled"`
						Delete  bool `json:"delete_on_cancellation"`
					} `json:"externalization"`
				}
				mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/checkpoints/config", nil, 200, &cfg)
				if e := cfg.Externalization; e.Enabled != (retention != "" && retention != none) || e.Delete != (retention != onCance) {
					t.Errorf("checkpoints/config externalization %+v for %q", e, retention)
				}

				var trig struct {
					RequestID string `json:"request-id"`
				}
				mustJSON(t, "POST", jm+"/jobs/"+out.JobID+"/savepoints", map[string]any{"cancel-job": false}, 202, &trig)
				clock.Advance(2 * time.Second)
				var op struct {
					Operation struct {
						Location string `json:"location"`
					} `json:"operation"`
				}
				mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/savepoints/"+trig.RequestID, nil, 200, &op)
				savepoint := op.Operation.Location

				// Running: the two newest checkpoints exist, older ones were subsumed.
				var hist struct {
					History []struct {
						Status       string `json:"status"`
						IsSavepoint  bool   `json:"is_savepoint"`
						ExternalPath string `json:"external_path"`
					} `json:"history"`
				}
				mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/checkpoints", nil, 200, &hist)
				var done []string // newest first
				for _, h := range hist.History {
					if h.Status == "COMPLETED" && !h.IsSavepoint {
						done = append(done, h.ExternalPath)
					}
				}
				if len(done) < 3 {
					t.Fatalf("only %d checkpoints completed: %+v", len(done), hist)
				}
				for i, p := range done[:3] {
					if got := restorable(c, p); got != (i < 2) {
						t.Errorf("while running, checkpoint %d from the newest (%s): restorable %v, want %v (num-retained 2)", i, p, got, i < 2)
					}
				}

				state := ""
				switch end {
				case "FINISHED":
					mustJSON(t, "POST", jm+"/jobs/"+out.JobID+"/stop", map[string]any{}, 202, nil)
					state = "FINISHED"
				case "CANCELED":
					mustJSON(t, "PATCH", jm+"/jobs/"+out.JobID+"?mode=cancel", nil, 202, nil)
					state = "CANCELED"
				case "FAILED":
					if err := c.FailJob(out.AppID); err != nil {
						t.Fatal(err)
					}
					state = "FAILED"
				case "YARN kill":
					if err := c.KillApp(out.AppID); err != nil {
						t.Fatal(err)
					}
					state = "SUSPENDED" // the JobManager died under it
				}
				clock.Advance(10 * time.Second)
				a, err := c.App(out.AppID)
				if err != nil {
					t.Fatal(err)
				}
				if got := a.Jobs[0].State; got != state {
					t.Fatalf("job ended %s, want %s", got, state)
				}
				latest := a.Jobs[0].LatestCheckpoint
				if got := restorable(c, latest); got != kept {
					t.Errorf("after %s under %q the newest checkpoint %s: restorable %v, want %v", end, or(retention, "the default"), latest, got, kept)
				}
				if r := a.Jobs[0].Retained; (len(r) > 0) != kept || (kept && r[len(r)-1] != latest) {
					t.Errorf("the snapshot says %v are retained; want the newest, %s, only if kept (%v)", r, latest, kept)
				}
				if !restorable(c, savepoint) {
					t.Errorf("the savepoint %s is gone: Flink never deletes savepoints", savepoint)
				}
			})
		}
	}
}

// restorable reports whether a job could restore from path now: what the
// simulated HDFS holds.
func restorable(c *Cluster, path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	cp, ok := c.flink.points.byPath[path]
	return ok && !cp.discarded
}
