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
	cp := &model.RestorePoint{Kind: model.Checkpoint, Path: "hdfs:///cp/2", SeenAt: t0.Add(time.Minute), RunEnd: model.EndKilled}
	both := model.Job{Name: "orders", State: model.StateKilled, LatestSavepoint: sp, LatestCheckpoint: cp}
	none := model.Job{Name: "orders", State: model.StateKilled}
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
		got, err := ResolveRestore(tc.j, nil, tc.choice, tc.path)
		if frag, refused := strings.CutPrefix(tc.want, "error: "); refused {
			if err == nil || !strings.Contains(err.Error(), frag) {
				t.Errorf("%s: %q, %v; want a refusal with %q", tc.name, got.Path, err, frag)
			}
			continue
		}
		if err != nil || got.Path != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got.Path, err, tc.want)
		}
	}
}

// TestCheckpointKept is Flink's CheckpointProperties.forCheckpoint table,
// written out: which end keeps a job's retained checkpoints under which
// retention, and where palink cannot know.
func TestCheckpointKept(t *testing.T) {
	const (
		unk  = model.RetentionUnknown
		nev  = model.RetainNever
		fail = model.RetainOnFailure
		canc = model.RetainOnCancellation
	)
	type verdict struct{ kept, known bool }
	yes, no, dunno := verdict{true, true}, verdict{false, true}, verdict{false, false}
	want := map[model.RunEnd]map[model.CheckpointRetention]verdict{
		model.EndUnknown:   {unk: dunno, nev: dunno, fail: dunno, canc: dunno},
		model.EndFinished:  {unk: no, nev: no, fail: no, canc: no},
		model.EndCanceled:  {unk: dunno, nev: no, fail: no, canc: yes},
		model.EndFailed:    {unk: dunno, nev: no, fail: yes, canc: yes},
		model.EndSuspended: {unk: dunno, nev: no, fail: no, canc: yes},
		model.EndKilled:    {unk: yes, nev: yes, fail: yes, canc: yes},
	}
	for end, byRet := range want {
		for r, w := range byRet {
			if kept, known := CheckpointKept(end, r); kept != w.kept || known != w.known {
				t.Errorf("%s under %s: kept %v known %v, want %v %v", end, r, kept, known, w.kept, w.known)
			}
		}
	}
}

// TestRetentionFromREST reads the two flags of checkpoints/config as
// Flink's CheckpointConfigHandler writes them.
func TestRetentionFromREST(t *testing.T) {
	for _, c := range []struct {
		enabled, del bool
		want         model.CheckpointRetention
	}{
		{false, true, model.RetainNever}, {false, false, model.RetainNever},
		{true, true, model.RetainOnFailure}, {true, false, model.RetainOnCancellation},
	} {
		if got := RetentionFromREST(c.enabled, c.del); got != c.want {
			t.Errorf("enabled %v delete_on_cancellation %v: %s, want %s", c.enabled, c.del, got, c.want)
		}
	}
	j := model.Job{Config: map[string]string{RetentionKey: "retain_on_cancellation"}}
	if got := RetentionOf(j); got != model.RetainOnCancellation {
		t.Errorf("from the job's configuration: %s", got)
	}
	j.Retention = model.RetainNever
	if got := RetentionOf(j); got != model.RetainNever {
		t.Errorf("the JobManager's word comes first: %s", got)
	}
	if got := RetentionOf(model.Job{}); got != model.RetentionUnknown {
		t.Errorf("nothing known: %s", got)
	}
}

// TestMissing: a restore point is used only if it is known to exist, over
// every (how its job ended × retention × kind of point), and the records
// palink knows to be gone.
func TestMissing(t *testing.T) {
	ended := model.Job{Name: "orders", State: model.StateFailed, FlinkJobID: "f2"}
	ends := []model.RunEnd{model.EndUnknown, model.EndFinished, model.EndCanceled, model.EndFailed, model.EndSuspended, model.EndKilled}
	rets := []model.CheckpointRetention{model.RetentionUnknown, model.RetainNever, model.RetainOnFailure, model.RetainOnCancellation}
	// The checkpoints that exist, by end then retention (savepoints always do).
	exists := map[model.RunEnd][4]bool{
		model.EndUnknown:   {false, false, false, false},
		model.EndFinished:  {false, false, false, false},
		model.EndCanceled:  {false, false, false, true},
		model.EndFailed:    {false, false, true, true},
		model.EndSuspended: {false, false, false, true},
		model.EndKilled:    {true, true, true, true},
	}
	for _, end := range ends {
		for i, r := range rets {
			for _, kind := range []model.RestorePointKind{model.Checkpoint, model.Savepoint} {
				rp := model.RestorePoint{Kind: kind, Path: "hdfs:///x/f1/chk-44", FlinkJobID: "f1", RunEnd: end, Retention: r}
				want := kind == model.Savepoint || exists[end][i]
				if why := Missing(ended, rp); (why == "") != want {
					t.Errorf("%s of a job that ended %s under %s: missing %q, want exists=%v", kind, end, r, why, want)
				}
			}
		}
	}
	// The checkpoint of the Flink job that runs now: the deploy asks its JobManager.
	live := model.Job{State: model.StateRunning, FlinkJobID: "f1"}
	if why := Missing(live, model.RestorePoint{Kind: model.Checkpoint, Path: "p", FlinkJobID: "f1"}); why != "" {
		t.Errorf("a running job's checkpoint: %q", why)
	}
	if why := Missing(live, model.RestorePoint{Kind: model.Checkpoint, Path: "p", FlinkJobID: "f0"}); why == "" {
		t.Error("an earlier run's checkpoint whose end palink never saw counts as existing")
	}
	// A restart in progress: the job is DEPLOYING, its Flink job id still the ended run's.
	deploying := model.Job{State: model.StateDeploying, FlinkJobID: "f1"}
	if why := Missing(deploying, model.RestorePoint{Kind: model.Checkpoint, Path: "p", FlinkJobID: "f1"}); why == "" {
		t.Error("the ended run's checkpoint of a DEPLOYING job counts as a running job's")
	}
	if why := Missing(model.Job{State: model.StateDeploySucceeded, FlinkJobID: "f1"}, model.RestorePoint{Kind: model.Checkpoint, Path: "p", FlinkJobID: "f1"}); why != "" {
		t.Errorf("a deployed job's checkpoint: %q", why)
	}
	for _, st := range []model.SavepointStatus{model.SavepointDisposed, model.SavepointDisposing, model.SavepointMissing} {
		for _, kind := range []model.RestorePointKind{model.Checkpoint, model.Savepoint} {
			rp := model.RestorePoint{Kind: kind, Path: "p", Status: st, RunEnd: model.EndKilled}
			if Missing(ended, rp) == "" {
				t.Errorf("a %s %s counts as existing", st, kind)
			}
		}
	}
	if why := Missing(ended, model.RestorePoint{Kind: model.Savepoint, Path: "p", Status: model.SavepointFailed}); why != "" {
		t.Errorf("a savepoint whose disposal failed may still be there: %q", why)
	}
}

// TestResolveRestoreAfterAPause is route (a) of issue 23: a paused job
// FINISHED, so Flink discarded its checkpoints whatever the retention; the
// checkpoint is refused with why and what to choose instead, and "latest"
// takes the pause's savepoint.
func TestResolveRestoreAfterAPause(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	cp := model.RestorePoint{Kind: model.Checkpoint, Path: "hdfs:///ck/f1/chk-44", FlinkJobID: "f1", CheckID: 44, SeenAt: t0,
		RunEnd: model.EndFinished, Retention: model.RetainOnCancellation}
	sp := model.RestorePoint{Kind: model.Savepoint, Path: "hdfs:///sp/savepoint-f1-1", FlinkJobID: "f1", CheckID: 45, SeenAt: t0.Add(time.Minute)}
	j := model.Job{Name: "orders", State: model.StateFinished, FlinkJobID: "f1", LatestCheckpoint: &cp, LatestSavepoint: &sp}
	rps := []model.RestorePoint{cp, sp}
	_, err := ResolveRestore(j, rps, model.RestoreCheckpoint, "")
	want := "Flink discarded chk-44 when the job FINISHED (retention RETAIN_ON_CANCELLATION keeps checkpoints only after cancel or failure); restore the savepoint hdfs:///sp/savepoint-f1-1 instead, or choose none"
	if err == nil || err.Error() != want {
		t.Errorf("resubmit --restore checkpoint: %v\nwant %s", err, want)
	}
	if r, err := ResolveRestore(j, rps, model.RestoreLatest, ""); err != nil || r.Path != sp.Path || len(r.Passed) != 0 {
		t.Errorf("latest: %+v %v, want the savepoint and nothing passed over", r, err)
	}
	// With no savepoint, nothing is left to offer but a path or none.
	j.LatestSavepoint = nil
	if _, err := ResolveRestore(j, []model.RestorePoint{cp}, model.RestoreCheckpoint, ""); err == nil || !strings.Contains(err.Error(), "no other savepoint or checkpoint is known to exist") {
		t.Errorf("without a savepoint: %v", err)
	}
	if r, _ := ResolveRestore(j, []model.RestorePoint{cp}, model.RestoreLatest, ""); r.Path != "" || len(r.Passed) != 1 {
		t.Errorf("latest without a savepoint: %+v, want empty state, saying why", r)
	}
}

// TestNewestValidFallsBackToOlderPoints: when the newest points are gone,
// "latest" takes the newest of the history known to exist and says what it
// passed over; an older run's checkpoint counts only with its own end.
func TestNewestValidFallsBackToOlderPoints(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	oldSP := model.RestorePoint{Kind: model.Savepoint, Path: "sp-old", SeenAt: at(1)}
	oldCP := model.RestorePoint{Kind: model.Checkpoint, Path: "f0/chk-9", FlinkJobID: "f0", SeenAt: at(2), RunEnd: model.EndKilled}
	subsumed := model.RestorePoint{Kind: model.Checkpoint, Path: "f1/chk-10", FlinkJobID: "f1", SeenAt: at(3)}
	gone := model.RestorePoint{Kind: model.Checkpoint, Path: "f1/chk-11", FlinkJobID: "f1", SeenAt: at(4), RunEnd: model.EndFailed, Retention: model.RetainNever}
	missingSP := model.RestorePoint{Kind: model.Savepoint, Path: "sp-new", SeenAt: at(5), Status: model.SavepointMissing, Error: "Cannot find"}
	j := model.Job{Name: "orders", State: model.StateFailed, FlinkJobID: "f1", LatestCheckpoint: &gone, LatestSavepoint: &missingSP}
	rps := []model.RestorePoint{oldSP, oldCP, subsumed, gone, missingSP}
	r := NewestValid(j, rps)
	if r.Path != "f0/chk-9" || len(r.Passed) != 2 {
		t.Fatalf("latest: %q passing %q, want f0/chk-9 passing both newer points", r.Path, r.Passed)
	}
	choice, path, why, ok := PolicyRestore(j, rps)
	if !ok || choice != model.RestorePath || path != "f0/chk-9" || !strings.Contains(why, "Flink discarded chk-11 when the job FAILED") {
		t.Errorf("policy: %s %q %q %v", choice, path, why, ok)
	}
	// Nothing left: the policy stops instead of dropping the state.
	j.LatestCheckpoint, j.LatestSavepoint = &gone, nil
	if _, _, why, ok := PolicyRestore(j, []model.RestorePoint{subsumed, gone}); ok || !strings.Contains(why, "no savepoint or checkpoint of the job is known to exist") {
		t.Errorf("nothing known to exist: %q %v", why, ok)
	}
}

// TestPolicyRestore: the platform's restart policy restores the latest
// checkpoint; a savepoint only when no checkpoint is known to exist; empty
// state only when nothing was ever recorded.
func TestPolicyRestore(t *testing.T) {
	sp := &model.RestorePoint{Kind: model.Savepoint, Path: "hdfs:///sp/1"}
	cp := &model.RestorePoint{Kind: model.Checkpoint, Path: "hdfs:///cp/2", RunEnd: model.EndFailed, Retention: model.RetainOnCancellation}
	for _, tc := range []struct {
		j      model.Job
		choice model.RestoreChoice
		path   string
	}{
		{model.Job{State: model.StateFailed, LatestSavepoint: sp, LatestCheckpoint: cp}, model.RestoreCheckpoint, "hdfs:///cp/2"},
		{model.Job{State: model.StateFailed, LatestSavepoint: sp}, model.RestoreSavepoint, "hdfs:///sp/1"},
		{model.Job{State: model.StateFailed}, model.RestoreNone, ""},
	} {
		if choice, path, _, ok := PolicyRestore(tc.j, nil); !ok || choice != tc.choice || path != tc.path {
			t.Errorf("%+v: %s %q, want %s %q", tc.j, choice, path, tc.choice, tc.path)
		}
	}
}

// TestMissingRestorePath reads the path out of Flink's two messages for a
// restore point it cannot find, wherever they stand in a failure's text.
func TestMissingRestorePath(t *testing.T) {
	for text, want := range map[string]string{
		"java.io.FileNotFoundException: Cannot find checkpoint or savepoint file/directory 'hdfs:///ck/f1/chk-44' on file system 'hdfs'.":                                                                                                                        "hdfs:///ck/f1/chk-44",
		"Flink job f1 reached state FAILED.\njava.io.FileNotFoundException: Cannot find meta data file '_metadata' in directory 'hdfs:///sp/savepoint-1'. Please try to load the checkpoint/savepoint directly from the metadata file instead of the directory.": "hdfs:///sp/savepoint-1",
		"java.io.IOException: Connection reset by peer":        "",
		"Cannot find checkpoint or savepoint file/directory '": "",
		"": "",
	} {
		if got := MissingRestorePath(text); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
	if !SamePath("hdfs:///ck/chk-1/", "hdfs:///ck/chk-1") || SamePath("", "") || SamePath("hdfs:///ck/chk-1", "hdfs:///ck/chk-10") {
		t.Error("SamePath")
	}
}
