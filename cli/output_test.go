package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{
		"AppID": "app_id", "FlinkJobID": "flink_job_id", "JMAddress": "jm_address", "TrackingURL": "tracking_url",
		"RecordsInPerSec": "records_in_per_sec", "InSpark": "in_spark", "ID": "id", "Name": "name",
		"LatestCheckpoint": "latest_checkpoint", "CheckID": "check_id", "RMCalls": "rm_calls", "Seq": "seq",
	} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWireForm: enums by name, unknown times null, durations in seconds,
// embedded fields promoted, empty lists as [].
func TestWireForm(t *testing.T) {
	v := api.JobView{Job: model.Job{ID: "j1", Name: "orders", State: model.StateRunning, CreatedAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)},
		Figures: api.Figures{CheckpointAge: 90 * time.Second}}
	var b bytes.Buffer
	if err := writeData(&b, outJSON, []api.JobView{v}); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	j := got[0]
	if j["state"] != "RUNNING" || j["name"] != "orders" || j["created_at"] != "2026-12-01T09:00:00Z" || j["started_at"] != nil {
		t.Errorf("job: %v", j)
	}
	if _, ok := j["job"]; ok {
		t.Errorf("the embedded job was not promoted: %v", j)
	}
	fig := j["figures"].(map[string]any)
	if fig["checkpoint_age"] != 90.0 || fig["at"] != nil {
		t.Errorf("figures: %v", fig)
	}
	if s := b.String(); strings.Contains(s, "0001-01-01") || strings.Contains(s, "AppID") {
		t.Errorf("raw Go form leaked:\n%s", s)
	}
	b.Reset()
	if err := writeData(&b, outYAML, v); err != nil || !strings.Contains(b.String(), "state: RUNNING") || !strings.Contains(b.String(), "started_at: null") {
		t.Errorf("yaml: %v\n%s", err, b.String())
	}
}
