package decide

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

// TestNewestRestorePoint pins what a restart "from latest" resumes from:
// within one Flink job the checkpoint ids decide (savepoints share the
// counter), whatever the clocks say; across Flink jobs, or when an id is
// missing, the order palink recorded them in decides; the cluster's clock
// is never compared with palink's.
func TestNewestRestorePoint(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	sp := func(flinkJob string, id int64, seen time.Time) *model.RestorePoint {
		return &model.RestorePoint{Kind: model.Savepoint, Path: "hdfs:///sp/" + flinkJob, FlinkJobID: flinkJob, CheckID: id, SeenAt: seen}
	}
	cp := func(flinkJob string, id int64, seen time.Time) *model.RestorePoint {
		return &model.RestorePoint{Kind: model.Checkpoint, Path: "hdfs:///cp/" + flinkJob, FlinkJobID: flinkJob, CheckID: id, SeenAt: seen}
	}
	const a, b = "a1b2c3", "d4e5f6"
	cases := []struct {
		name   string
		sp, cp *model.RestorePoint
		want   model.RestorePointKind // 0: none
	}{
		{"nothing recorded", nil, nil, 0},
		{"only a savepoint", sp(a, 7, at(0)), nil, model.Savepoint},
		{"only a checkpoint", nil, cp(a, 7, at(0)), model.Checkpoint},

		// One Flink job: the ids order them, even against the order seen.
		{"same job, checkpoint id higher though seen first", sp(a, 7, at(5)), cp(a, 9, at(1)), model.Checkpoint},
		{"same job, savepoint id higher though seen first", sp(a, 9, at(1)), cp(a, 7, at(5)), model.Savepoint},
		{"same job, checkpoint id one higher", sp(a, 7, at(5)), cp(a, 8, at(5)), model.Checkpoint},
		{"same job, equal ids: the savepoint", sp(a, 7, at(1)), cp(a, 7, at(5)), model.Savepoint},

		// Different Flink jobs: their ids do not compare; the order seen does.
		{"other jobs, checkpoint seen later though its id is lower", sp(a, 90, at(1)), cp(b, 3, at(5)), model.Checkpoint},
		{"other jobs, savepoint seen later though its id is lower", sp(a, 3, at(5)), cp(b, 90, at(1)), model.Savepoint},
		{"no Flink job recorded on either", sp("", 90, at(1)), cp("", 3, at(5)), model.Checkpoint},
		{"no Flink job recorded on either, savepoint later", sp("", 3, at(5)), cp("", 90, at(1)), model.Savepoint},

		// A missing id (0): the order seen decides.
		{"savepoint without id, seen later", sp(a, 0, at(5)), cp(a, 9, at(1)), model.Savepoint},
		{"checkpoint without id, seen later", sp(a, 9, at(1)), cp(a, 0, at(5)), model.Checkpoint},
		{"no ids, checkpoint seen later", sp(a, 0, at(1)), cp(a, 0, at(5)), model.Checkpoint},

		// The order seen: a tie keeps the savepoint.
		{"seen at the same moment", sp(a, 0, at(3)), cp(b, 0, at(3)), model.Savepoint},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := NewestRestorePoint(model.Job{LatestSavepoint: c.sp, LatestCheckpoint: c.cp})
			switch {
			case c.want == 0 && got != nil:
				t.Fatalf("got %+v, want none", got)
			case c.want == 0:
			case got == nil:
				t.Fatalf("got none, want the %s", c.want)
			case got.Kind != c.want:
				t.Fatalf("got the %s %s, want the %s", got.Kind, got.Path, c.want)
			}
		})
	}
}

// TestNewestRestorePointOrdersByPalinksClock: when palink did not record
// when it saw a point (records from before SeenAt existed), the cluster's
// completion time stands in; when it did, the cluster's clock is ignored,
// since it may disagree with palink's.
func TestNewestRestorePointOrdersByPalinksClock(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	old := model.Job{
		LatestSavepoint:  &model.RestorePoint{Kind: model.Savepoint, Path: "sp", Time: t0.Add(2 * time.Minute)},
		LatestCheckpoint: &model.RestorePoint{Kind: model.Checkpoint, Path: "cp", Time: t0.Add(time.Minute)},
	}
	if got := NewestRestorePoint(old); got.Path != "sp" {
		t.Errorf("without SeenAt, completed later: got %s, want sp", got.Path)
	}
	old.LatestCheckpoint.Time = t0.Add(3 * time.Minute)
	if got := NewestRestorePoint(old); got.Path != "cp" {
		t.Errorf("without SeenAt, completed later: got %s, want cp", got.Path)
	}
	// The cluster says the savepoint completed last, but palink saw the
	// checkpoint after it: palink's order wins.
	skewed := model.Job{
		LatestSavepoint:  &model.RestorePoint{Kind: model.Savepoint, Path: "sp", Time: t0.Add(time.Hour), SeenAt: t0.Add(time.Minute)},
		LatestCheckpoint: &model.RestorePoint{Kind: model.Checkpoint, Path: "cp", Time: t0, SeenAt: t0.Add(2 * time.Minute)},
	}
	if got := NewestRestorePoint(skewed); got.Path != "cp" {
		t.Errorf("cluster clock ahead: got %s, want cp (seen last)", got.Path)
	}
}

// TestResolveRestore: each restore choice a user can make, and the ones
// that must be refused for people rather than deploy from nothing.
func TestResolveRestore(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	sp := &model.RestorePoint{Kind: model.Savepoint, Path: "hdfs:///sp/1", SeenAt: t0}
	cp := &model.RestorePoint{Kind: model.Checkpoint, Path: "hdfs:///cp/2", SeenAt: t0.Add(time.Minute)}
	both := model.Job{Name: "orders", LatestSavepoint: sp, LatestCheckpoint: cp}
	none := model.Job{Name: "orders"}
	for _, tc := range []struct {
		name   string
		j      model.Job
		choice model.RestoreChoice
		path   string
		want   string // the path, or "error: " and a fragment of the refusal
	}{
		{"latest is the newer of the two", both, model.RestoreLatest, "", "hdfs:///cp/2"},
		{"no choice means latest", both, 0, "", "hdfs:///cp/2"},
		{"latest with nothing recorded is empty state", none, model.RestoreLatest, "", ""},
		{"savepoint", both, model.RestoreSavepoint, "", "hdfs:///sp/1"},
		{"checkpoint", both, model.RestoreCheckpoint, "", "hdfs:///cp/2"},
		{"none", both, model.RestoreNone, "", ""},
		{"a path", both, model.RestorePath, "hdfs:///sp/0", "hdfs:///sp/0"},
		{"savepoint never taken", none, model.RestoreSavepoint, "", "error: job orders has no savepoint recorded"},
		{"checkpoint never seen", none, model.RestoreCheckpoint, "", "error: job orders has no checkpoint recorded"},
		{"a path without a path", both, model.RestorePath, "", "error: no path given"},
		{"an unknown choice", both, model.RestoreChoice(42), "", "error: unknown restore choice"},
	} {
		got, err := ResolveRestore(tc.j, tc.choice, tc.path)
		if frag, refused := strings.CutPrefix(tc.want, "error: "); refused {
			if err == nil || !strings.Contains(err.Error(), frag) {
				t.Errorf("%s: %q, %v; want a refusal with %q", tc.name, got, err, frag)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestPolicyRestore: the platform's restart policy restores the latest
// checkpoint; a savepoint only when no checkpoint was ever seen; else none.
func TestPolicyRestore(t *testing.T) {
	sp := &model.RestorePoint{Kind: model.Savepoint, Path: "hdfs:///sp/1"}
	cp := &model.RestorePoint{Kind: model.Checkpoint, Path: "hdfs:///cp/2"}
	for _, tc := range []struct {
		j      model.Job
		choice model.RestoreChoice
		path   string
	}{
		{model.Job{LatestSavepoint: sp, LatestCheckpoint: cp}, model.RestoreCheckpoint, "hdfs:///cp/2"},
		{model.Job{LatestSavepoint: sp}, model.RestoreSavepoint, "hdfs:///sp/1"},
		{model.Job{}, model.RestoreNone, ""},
	} {
		if choice, path := PolicyRestore(tc.j); choice != tc.choice || path != tc.path {
			t.Errorf("%+v: %s %q, want %s %q", tc.j, choice, path, tc.choice, tc.path)
		}
	}
}
