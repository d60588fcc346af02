package decide

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
)

var spNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func sp(path string, ago time.Duration, st model.SavepointStatus) model.RestorePoint {
	return model.RestorePoint{JobID: "j1", Kind: model.Savepoint, Path: path, SeenAt: spNow.Add(-ago), Status: st}
}

func TestSavepointDue(t *testing.T) {
	running := model.Job{ID: "j1", Name: "orders", State: model.StateRunning, FlinkJobID: "f2",
		StartedAt: spNow.Add(time.Hour), UpdatedAt: spNow.Add(-7 * time.Hour)} // StartedAt: the cluster's clock, never used
	p := SavepointPolicy{Interval: 6 * time.Hour}
	cases := []struct {
		name string
		j    model.Job
		rps  []model.RestorePoint
		p    SavepointPolicy
		want bool
	}{
		{"no interval", running, nil, SavepointPolicy{}, false},
		{"updated 7h ago, none yet", running, nil, p, true},
		{"first checkpoint of this run 5h ago", running, []model.RestorePoint{{Kind: model.Checkpoint, Path: "c0", FlinkJobID: "f1", SeenAt: spNow.Add(-9 * time.Hour)},
			{Kind: model.Checkpoint, Path: "c1", FlinkJobID: "f2", SeenAt: spNow.Add(-5 * time.Hour)}}, p, false},
		{"newest 5h ago", running, []model.RestorePoint{sp("a", 8*time.Hour, 0), sp("b", 5*time.Hour, 0)}, p, false},
		{"newest 6h ago", running, []model.RestorePoint{sp("b", 6*time.Hour, 0)}, p, true},
		{"a savepoint of an earlier run counts", running, []model.RestorePoint{sp("b", 2*time.Hour, 0),
			{Kind: model.Checkpoint, Path: "c1", FlinkJobID: "f2", SeenAt: spNow.Add(-7 * time.Hour)}}, p, false},
		{"not running", model.Job{ID: "j1", State: model.StateFinished, StartedAt: spNow.Add(-7 * time.Hour)}, nil, p, false},
		{"jitter pushes it later", running, []model.RestorePoint{sp("b", 6*time.Hour, 0)}, SavepointPolicy{Interval: 6 * time.Hour, Jitter: time.Hour}, JitterOffset("j1", time.Hour) == 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := SavepointDue(c.j, c.rps, c.p, spNow); got != c.want {
				t.Errorf("SavepointDue = %t, want %t", got, c.want)
			}
		})
	}
	// Jitter offsets differ between jobs and stay within the jitter.
	offs := map[time.Duration]bool{}
	for _, id := range []string{"j1", "j2", "j3", "j4"} {
		o := JitterOffset(id, time.Hour)
		if o < 0 || o >= time.Hour {
			t.Errorf("offset of %s = %s", id, o)
		}
		offs[o] = true
	}
	if len(offs) < 3 {
		t.Errorf("jitter offsets do not spread jobs: %v", offs)
	}
}

func TestSavepointsToDispose(t *testing.T) {
	latest := sp("d", 1*time.Hour, 0)
	j := model.Job{ID: "j1", Name: "orders", State: model.StateRunning, LatestSavepoint: &latest, RestoredFrom: "b"}
	rps := []model.RestorePoint{sp("a", 40*time.Hour, 0), sp("b", 30*time.Hour, 0), sp("x", 25*time.Hour, model.SavepointDisposed),
		sp("c", 20*time.Hour, 0), {Kind: model.Checkpoint, Path: "chk", SeenAt: spNow.Add(-50 * time.Hour)}, latest}
	paths := func(rps []model.RestorePoint) []string {
		var out []string
		for _, rp := range rps {
			out = append(out, rp.Path)
		}
		return out
	}
	cases := []struct {
		name string
		j    model.Job
		p    SavepointPolicy
		want []string
	}{
		{"no retention", j, SavepointPolicy{}, nil},
		{"keep 2: the oldest goes, the one restored from stays", j, SavepointPolicy{MaxCount: 2}, []string{"a"}},
		{"keep 1, job ended: restored-from no longer needed", model.Job{ID: "j1", State: model.StateFinished, LatestSavepoint: &latest, RestoredFrom: "b"},
			SavepointPolicy{MaxCount: 1}, []string{"a", "b", "c"}},
		{"max age 24h", j, SavepointPolicy{MaxAge: 24 * time.Hour}, []string{"a"}},
		{"max age 1m never takes the newest", model.Job{ID: "j1", State: model.StateFinished}, SavepointPolicy{MaxAge: time.Minute}, []string{"a", "b", "c"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := paths(SavepointsToDispose(c.j, rps, c.p, spNow)); !slices.Equal(got, c.want) {
				t.Errorf("dispose %v, want %v", got, c.want)
			}
		})
	}
}

func TestCheckRestorePoint(t *testing.T) {
	p := SavepointPolicy{MaxRestoreAge: 72 * time.Hour}
	cases := []struct {
		name  string
		rp    model.RestorePoint
		force bool
		want  string
	}{
		{"fresh", sp("a", time.Hour, 0), false, ""},
		{"too old", sp("a", 100*time.Hour, 0), false, "older than the 72h0m0s allowed"},
		{"too old, forced", sp("a", 100*time.Hour, 0), true, ""},
		{"disposed", sp("a", time.Hour, model.SavepointDisposed), true, "was disposed of"},
		{"disposal failed: files may remain", sp("a", time.Hour, model.SavepointFailed), false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckRestorePoint(c.rp, p, spNow, c.force)
			if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
	if rp := sp("a", 1000*time.Hour, 0); CheckRestorePoint(rp, SavepointPolicy{}, spNow, false) != nil {
		t.Error("no max age refuses an old point")
	}
	if NeededBy(model.Job{Name: "o", State: model.StateFinished, RestoredFrom: "a"}, "a") != "" {
		t.Error("an ended job needs the point it restored from")
	}
}
