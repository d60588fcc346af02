package sim

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCheckpointHistoryRotatesAsFlinks: the JobManager keeps statistics of
// its newest web.checkpoints.history checkpoints (10 unless the cluster's
// configuration says otherwise); an older one is gone from the history and
// its details answer 404, as Flink's CheckpointStatisticDetailsHandler
// does, while the counts go on counting it.
func TestCheckpointHistoryRotatesAsFlinks(t *testing.T) {
	for _, tc := range []struct {
		conf string // web.checkpoints.history; "" is Flink's default
		keep int
	}{{"", 10}, {"3", 3}} {
		t.Run("history="+or(tc.conf, "default"), func(t *testing.T) {
			clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
			c := startCluster(t, Options{Seed: 5, Clock: clock})
			conf := map[string]string{"execution.checkpointing.interval": "2s"}
			if tc.conf != "" {
				conf["web.checkpoints.history"] = tc.conf
			}
			out, err := c.Submit(t.Context(), SubmitRequest{Name: "rotating", Config: conf})
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(5 * time.Second)
			jm := "http://" + rmApp(t, c, out.AppID).AMRPCAddress + "/jobs/" + out.JobID + "/checkpoints"
			// A second at a time, none skipped: a checkpoint in progress
			// takes its place in the history too.
			for range 40 {
				clock.Advance(time.Second)
				var h struct {
					History []struct{} `json:"history"`
				}
				if mustJSON(t, "GET", jm, nil, 200, &h); len(h.History) > tc.keep {
					t.Fatalf("a history of %d, more than %d", len(h.History), tc.keep)
				}
			}
			clock.Advance(1500 * time.Millisecond) // between two checkpoints: none in progress
			var stats struct {
				Counts struct {
					Total, Completed, Failed int64
				} `json:"counts"`
				History []struct {
					ID     int64  `json:"id"`
					Status string `json:"status"`
				} `json:"history"`
			}
			mustJSON(t, "GET", jm, nil, 200, &stats)
			if len(stats.History) != tc.keep || stats.Counts.Completed+stats.Counts.Failed <= int64(tc.keep) {
				t.Fatalf("history of %d after %d checkpoints, want the newest %d", len(stats.History), stats.Counts.Total, tc.keep)
			}
			newest, oldest := stats.History[0].ID, stats.History[len(stats.History)-1].ID
			if stats.History[0].Status == "IN_PROGRESS" {
				newest--
			}
			if newest-oldest+1 < int64(tc.keep)-1 {
				t.Errorf("history ids %d…%d", oldest, newest)
			}
			mustJSON(t, "GET", jm+"/details/"+strconv.FormatInt(oldest, 10), nil, 200, nil)
			gone := do(t, "GET", jm+"/details/"+strconv.FormatInt(oldest-1, 10), nil)
			if want := fmt.Sprintf("Could not find checkpointing statistics for checkpoint %d.", oldest-1); gone.status != 404 || !strings.Contains(string(gone.body), want) {
				t.Errorf("details of rotated checkpoint %d: %s", oldest-1, gone)
			}
		})
	}
}
