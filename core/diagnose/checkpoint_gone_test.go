package diagnose

import (
	"testing"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// The history's size: the configuration's, else what a full history
// shows, else Flink's default.
func TestHistorySize(t *testing.T) {
	full := yarn.CheckpointStats{Counts: yarn.CheckpointCounts{Total: 40}, History: make([]yarn.Checkpoint, 7)}
	young := yarn.CheckpointStats{Counts: yarn.CheckpointCounts{Total: 4}, History: make([]yarn.Checkpoint, 4)}
	for _, tc := range []struct {
		name  string
		conf  []yarn.ConfigEntry
		stats yarn.CheckpointStats
		want  int
		known bool
	}{
		{"configured", []yarn.ConfigEntry{{Key: "web.checkpoints.history", Value: " 25 "}}, full, 25, true},
		{"a full history", []yarn.ConfigEntry{{Key: "web.checkpoints.history", Value: "many"}}, full, 7, true},
		{"a young history", nil, young, 10, false},
	} {
		if n, known := historySize(tc.conf, tc.stats); n != tc.want || known != tc.known {
			t.Errorf("%s: %d %v, want %d %v", tc.name, n, known, tc.want, tc.known)
		}
	}
}

// palink's record of a checkpoint is one of the same Flink job: by its id
// or by its path, never a point of another run with the same id.
func TestRecordedCheckpoint(t *testing.T) {
	const fj = "3f9c0d1e2b3a4c5d6e7f8091a2b3a21e"
	sp := &model.RestorePoint{Kind: model.Savepoint, Path: "hdfs:///sp/savepoint-3f9c0d-1", CheckID: 357, FlinkJobID: fj}
	j := model.Job{FlinkJobID: fj, LatestSavepoint: sp}
	rps := []model.RestorePoint{
		{Kind: model.Checkpoint, Path: "hdfs:///ck/00aa/chk-350", CheckID: 350, FlinkJobID: "00aa"},
		{Kind: model.Checkpoint, Path: "hdfs:///ck/" + fj + "/chk-350/"},
	}
	if got := RecordedCheckpoint(j, rps, 357); got == nil || got.Path != sp.Path {
		t.Errorf("357: %+v", got)
	}
	if got := RecordedCheckpoint(j, rps, 350); got == nil || got.Path != rps[1].Path {
		t.Errorf("350 is the current run's, by its path: %+v", got)
	}
	if got := RecordedCheckpoint(j, rps[:1], 350); got != nil {
		t.Errorf("350 of another run taken for this one's: %+v", got)
	}
}
