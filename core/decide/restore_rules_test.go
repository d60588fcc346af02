package decide

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

// The rules that say whether a restore point still exists, at their edges:
// each case is a way a restore could pick a point Flink already deleted,
// or refuse one that is there.

// TestMissingSaysWhyInItsOwnWords: each reason names the point as people
// do (its last path element) and the fact that decides.
func TestMissingSaysWhyInItsOwnWords(t *testing.T) {
	ended := model.Job{Name: "orders", State: model.StateFailed, FlinkJobID: "f2"}
	cases := []struct {
		name string
		rp   model.RestorePoint
		want string
	}{
		{"a retention never read",
			model.RestorePoint{Kind: model.Checkpoint, Path: "hdfs:///ck/f1/chk-44", RunEnd: model.EndFailed},
			"the Flink job that took chk-44 ended FAILED, and whether Flink kept it hangs on the job's checkpoint retention (" + RetentionKey + "), which palink never read"},
		{"a suspended job",
			model.RestorePoint{Kind: model.Checkpoint, Path: "hdfs:///ck/f1/chk-44", RunEnd: model.EndSuspended, Retention: model.RetainOnFailure},
			"Flink discarded chk-44 when the job was SUSPENDED (retention DELETE_ON_CANCELLATION keeps checkpoints only after a failure)"},
		{"a path at the root",
			model.RestorePoint{Kind: model.Checkpoint, Path: "/chk-44", Status: model.SavepointMissing, Error: "Cannot find"},
			"the cluster could not find the checkpoint chk-44 when a job restored from it (Cannot find)"},
		{"a bare name",
			model.RestorePoint{Kind: model.Checkpoint, Path: "chk-44/", Status: model.SavepointMissing, Error: "Cannot find"},
			"the cluster could not find the checkpoint chk-44 when a job restored from it (Cannot find)"},
	}
	for _, c := range cases {
		if got := Missing(ended, c.rp); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestACheckpointWithoutItsFlinkJobIsNotTheRunningOnes: a running job whose
// Flink job id palink has not learnt yet does not vouch for a checkpoint
// that names no Flink job either.
func TestACheckpointWithoutItsFlinkJobIsNotTheRunningOnes(t *testing.T) {
	live := model.Job{State: model.StateRunning}
	if why := Missing(live, model.RestorePoint{Kind: model.Checkpoint, Path: "p"}); why == "" {
		t.Error("a checkpoint of no known Flink job counts as the running job's")
	}
}

// TestRecordOfMergesWhatTheJobLearnt: the history's record of a point is
// completed by the job's own copy of its latest points (which sync updates
// first), but never made better than what the history knows.
func TestRecordOfMergesWhatTheJobLearnt(t *testing.T) {
	const path = "hdfs:///ck/f1/chk-44"
	hist := model.RestorePoint{Kind: model.Checkpoint, Path: path}
	learnt := model.RestorePoint{Kind: model.Checkpoint, Path: path, Status: model.SavepointMissing, Error: "gone",
		RunEnd: model.EndKilled, Retention: model.RetainNever, CheckID: 44, FlinkJobID: "f1"}
	got := RecordOf(model.Job{LatestCheckpoint: &learnt}, []model.RestorePoint{hist}, path)
	if got == nil || got.Status != model.SavepointMissing || got.Error != "gone" || got.RunEnd != model.EndKilled ||
		got.Retention != model.RetainNever || got.CheckID != 44 || got.FlinkJobID != "f1" {
		t.Errorf("what the job learnt is lost: %+v", got)
	}

	// The history knows better: the job's copy never overrides it.
	hist = model.RestorePoint{Kind: model.Savepoint, Path: path, Status: model.SavepointDisposed,
		RunEnd: model.EndFailed, Retention: model.RetainOnCancellation, CheckID: 45, FlinkJobID: "f2"}
	stale := model.RestorePoint{Kind: model.Savepoint, Path: path}
	got = RecordOf(model.Job{LatestSavepoint: &stale}, []model.RestorePoint{hist}, path)
	if got == nil || got.Status != model.SavepointDisposed || got.RunEnd != model.EndFailed ||
		got.Retention != model.RetainOnCancellation || got.CheckID != 45 || got.FlinkJobID != "f2" {
		t.Errorf("the job's stale copy overrode the history: %+v", got)
	}

	if got := RecordOf(model.Job{}, []model.RestorePoint{{Kind: model.Checkpoint}}, ""); got != nil {
		t.Errorf("no path, yet a record: %+v", got)
	}
}

// TestLatestTakesTheNewestSeenOfTheHistory: with the job's latest points
// gone, "latest" takes the point palink saw last, whatever order the store
// lists them in, and the oldest record counts as well.
func TestLatestTakesTheNewestSeenOfTheHistory(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	kept := func(path string, m int) model.RestorePoint {
		return model.RestorePoint{Kind: model.Checkpoint, Path: path, FlinkJobID: "f0", RunEnd: model.EndKilled,
			SeenAt: t0.Add(time.Duration(m) * time.Minute)}
	}
	gone := model.RestorePoint{Kind: model.Checkpoint, Path: "f1/chk-99", FlinkJobID: "f1", RunEnd: model.EndFinished,
		Retention: model.RetainOnCancellation, SeenAt: t0.Add(time.Hour)}
	j := model.Job{Name: "orders", State: model.StateFailed, FlinkJobID: "f1", LatestCheckpoint: &gone}

	// The store's order is not the order seen: chk-3 was seen last.
	rps := []model.RestorePoint{kept("chk-3", 3), kept("chk-1", 1), kept("chk-2", 2), gone}
	if r := NewestValid(j, rps); r.Path != "chk-3" {
		t.Errorf("latest took %q, want chk-3 (seen last)", r.Path)
	}
	// The store lists the one seen last first.
	if r := NewestValid(model.Job{Name: "orders", State: model.StateFailed}, []model.RestorePoint{kept("chk-9", 9), kept("chk-1", 1)}); r.Path != "chk-9" {
		t.Errorf("latest took %q, want chk-9 (seen last, listed first)", r.Path)
	}
	// The only point left is the first record.
	if r := NewestValid(j, []model.RestorePoint{kept("chk-1", 1), gone}); r.Path != "chk-1" {
		t.Errorf("latest took %q, want chk-1 (the only one left)", r.Path)
	}
}

// TestLatestOnATieTakesTheSavepoint: a savepoint and a checkpoint both
// there, seen at the same moment and not comparable by id: the savepoint,
// as NewestRestorePoint decides; a newer savepoint beats an older checkpoint.
func TestLatestOnATieTakesTheSavepoint(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	sp := model.RestorePoint{Kind: model.Savepoint, Path: "sp-1", FlinkJobID: "f1", CheckID: 50, SeenAt: t0}
	cp := model.RestorePoint{Kind: model.Checkpoint, Path: "f0/chk-7", FlinkJobID: "f0", CheckID: 7, SeenAt: t0, RunEnd: model.EndKilled}
	j := model.Job{State: model.StateFailed, FlinkJobID: "f1", LatestSavepoint: &sp, LatestCheckpoint: &cp}
	if r := NewestValid(j, []model.RestorePoint{cp, sp}); r.Path != "sp-1" {
		t.Errorf("a tie took %q, want the savepoint", r.Path)
	}
	cp.FlinkJobID, cp.CheckID = "f1", 49
	if r := NewestValid(j, []model.RestorePoint{cp, sp}); r.Path != "sp-1" {
		t.Errorf("latest took %q, want the savepoint of the higher id", r.Path)
	}
}

// TestRestoreTheSavepointThatIsGone: `--restore savepoint` of a disposed
// savepoint is refused, naming a point that exists instead, never one that
// is gone too.
func TestRestoreTheSavepointThatIsGone(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	old := model.RestorePoint{Kind: model.Savepoint, Path: "sp-old", SeenAt: t0}
	goneToo := model.RestorePoint{Kind: model.Checkpoint, Path: "f1/chk-9", FlinkJobID: "f1", SeenAt: t0.Add(time.Minute),
		RunEnd: model.EndFinished, Retention: model.RetainOnCancellation}
	disposed := model.RestorePoint{Kind: model.Savepoint, Path: "sp-new", Status: model.SavepointDisposed, SeenAt: t0.Add(2 * time.Minute)}
	j := model.Job{Name: "orders", State: model.StateFinished, FlinkJobID: "f1", LatestSavepoint: &disposed, LatestCheckpoint: &goneToo}
	_, err := ResolveRestore(j, []model.RestorePoint{old, goneToo, disposed}, model.RestoreSavepoint, "")
	want := "the savepoint sp-new was disposed of (disposed); restore the savepoint sp-old instead, or choose none"
	if err == nil || err.Error() != want {
		t.Errorf("restore a disposed savepoint: %v\nwant %s", err, want)
	}
}

// TestPolicyRestoreNeverDropsStateItRecorded: the policy restarts from empty
// state only when palink never recorded a point; any recorded point, gone
// now, stops it with the reasons.
func TestPolicyRestoreNeverDropsStateItRecorded(t *testing.T) {
	disposed := &model.RestorePoint{Kind: model.Savepoint, Path: "sp-1", Status: model.SavepointDisposed}
	discarded := &model.RestorePoint{Kind: model.Checkpoint, Path: "f1/chk-9", RunEnd: model.EndFinished, Retention: model.RetainNever}
	for name, c := range map[string]struct {
		j   model.Job
		rps []model.RestorePoint
	}{
		"only a disposed savepoint":       {model.Job{LatestSavepoint: disposed}, nil},
		"only a discarded checkpoint":     {model.Job{LatestCheckpoint: discarded}, nil},
		"only history, gone":              {model.Job{}, []model.RestorePoint{*discarded}},
		"a savepoint and history, gone":   {model.Job{LatestSavepoint: disposed}, []model.RestorePoint{*discarded}},
		"a checkpoint and history, gone":  {model.Job{LatestCheckpoint: discarded}, []model.RestorePoint{*disposed}},
		"both latest gone and no history": {model.Job{LatestSavepoint: disposed, LatestCheckpoint: discarded}, nil},
	} {
		c.j.Name, c.j.State = "orders", model.StateFailed
		choice, path, why, ok := PolicyRestore(c.j, c.rps)
		if ok {
			t.Errorf("%s: the policy restarts (%s %q) though state was recorded", name, choice, path)
			continue
		}
		if c.j.LatestSavepoint == nil && c.j.LatestCheckpoint == nil && why != "no savepoint or checkpoint of the job is known to exist any more" {
			t.Errorf("%s: %q", name, why)
		}
		if c.j.LatestSavepoint != nil && !strings.Contains(why, "was disposed of") ||
			c.j.LatestCheckpoint != nil && !strings.Contains(why, "Flink discarded chk-9") {
			t.Errorf("%s: %q does not say what was passed over", name, why)
		}
	}
	// A kept checkpoint of an older run, with no latest savepoint: restored by path.
	old := model.RestorePoint{Kind: model.Checkpoint, Path: "f0/chk-3", FlinkJobID: "f0", RunEnd: model.EndKilled}
	j := model.Job{Name: "orders", State: model.StateFailed, LatestCheckpoint: discarded}
	if choice, path, _, ok := PolicyRestore(j, []model.RestorePoint{old, *discarded}); !ok || choice != model.RestorePath || path != "f0/chk-3" {
		t.Errorf("an older run's kept checkpoint: %s %q %v", choice, path, ok)
	}
}

// TestMissingRestorePathAtTheEdges: the phrase at the very start of the
// text, and a first phrase with no path before a second with one.
func TestMissingRestorePathAtTheEdges(t *testing.T) {
	for text, want := range map[string]string{
		"Cannot find checkpoint or savepoint file/directory 'hdfs:///ck/chk-1' on file system 'hdfs'.":                                           "hdfs:///ck/chk-1",
		"Cannot find checkpoint or savepoint file/directory '' …\nCannot find meta data file '_metadata' in directory 'hdfs:///sp/savepoint-2'.": "hdfs:///sp/savepoint-2",
	} {
		if got := MissingRestorePath(text); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}
