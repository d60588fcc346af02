package decide

import (
	"testing"
	"time"

	"github.com/palink/palink/model"
)

func TestCrashLoop(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 5, 1, 8, m, 0, 0, time.UTC) }
	const p, q = "hdfs:///ck/j/chk-51", "hdfs:///ck/j/chk-45"
	const npe, tmo = "java.lang.NullPointerException", "java.util.concurrent.TimeoutException: Async function call has timed out."
	run := func(point, cause, record string, m int) FailedRun {
		return FailedRun{RestorePoint: point, Cause: cause, Record: record, At: at(m), SpecVersion: 7}
	}
	for _, tc := range []struct {
		name   string
		prev   *model.CrashLoop
		runs   []FailedRun // newest first
		count  int         // 0: no loop
		record string
	}{
		{"no runs", nil, nil, 0, ""},
		{"one failure", nil, []FailedRun{run(p, npe, "", 3)}, 0, ""},
		{"two from one point, one cause", nil, []FailedRun{run(p, npe, "", 3), run(p, npe, "", 2)}, 2, ""},
		{"three, then one from elsewhere", nil, []FailedRun{run(p, tmo, "+I(1)", 5), run(p, tmo, "+I(1)", 4), run(p, tmo, "", 3), run("", tmo, "+I(1)", 2)}, 3, "+I(1)"},
		{"another cause between", nil, []FailedRun{run(p, npe, "", 4), run(p, tmo, "", 3), run(p, npe, "", 2)}, 0, ""},
		{"another point between", nil, []FailedRun{run(p, npe, "", 4), run(q, npe, "", 3), run(p, npe, "", 2)}, 0, ""},
		{"records disagree: none named", nil, []FailedRun{run(p, tmo, "+I(1)", 3), run(p, tmo, "+I(2)", 2)}, 2, ""},
		{"from empty state", nil, []FailedRun{run("", npe, "", 3), run("", npe, "", 2)}, 0, ""},
		{"cause unknown", nil, []FailedRun{run(p, "", "", 3), run(p, "", "", 2)}, 0, ""},
		// The store kept only the newest run's exceptions: the loop it
		// continues counts on.
		{"continues the loop it was in", &model.CrashLoop{Count: 4, Cause: tmo, RestorePoint: p, Record: "+I(1)", Since: at(1)},
			[]FailedRun{run(p, tmo, "+I(1)", 6), run(p, "", "", 5)}, 5, "+I(1)"},
		{"another cause ends the loop it was in", &model.CrashLoop{Count: 4, Cause: tmo, RestorePoint: p, Since: at(1)},
			[]FailedRun{run(p, npe, "", 6), run(p, tmo, "", 5)}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loop := CrashLoop(tc.prev, tc.runs)
			switch {
			case tc.count == 0 && loop != nil:
				t.Fatalf("a loop: %+v", *loop)
			case tc.count == 0:
				return
			case loop == nil:
				t.Fatalf("no loop, want %d", tc.count)
			}
			if loop.Count != tc.count || loop.Record != tc.record || loop.RestorePoint != tc.runs[0].RestorePoint ||
				loop.Cause != tc.runs[0].Cause || !loop.Last.Equal(tc.runs[0].At) || loop.SpecVersion != 7 {
				t.Errorf("got %+v", *loop)
			}
			since := tc.runs[min(tc.count, len(tc.runs))-1].At
			if tc.prev != nil {
				since = tc.prev.Since
			}
			if !loop.Since.Equal(since) {
				t.Errorf("since %s, want %s", loop.Since, since)
			}
		})
	}
}
