package decide

import (
	"testing"
	"time"
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
		runs   []FailedRun // newest first
		count  int         // 0: no loop
		record string
	}{
		{"no runs", nil, 0, ""},
		{"one failure", []FailedRun{run(p, npe, "", 3)}, 0, ""},
		{"two from one point, one cause", []FailedRun{run(p, npe, "", 3), run(p, npe, "", 2)}, 2, ""},
		{"three, then one from elsewhere", []FailedRun{run(p, tmo, "+I(1)", 5), run(p, tmo, "+I(1)", 4), run(p, tmo, "", 3), run("", tmo, "+I(1)", 2)}, 3, "+I(1)"},
		{"another cause between", []FailedRun{run(p, npe, "", 4), run(p, tmo, "", 3), run(p, npe, "", 2)}, 0, ""},
		{"another point between", []FailedRun{run(p, npe, "", 4), run(q, npe, "", 3), run(p, npe, "", 2)}, 0, ""},
		{"records disagree: none named", []FailedRun{run(p, tmo, "+I(1)", 3), run(p, tmo, "+I(2)", 2)}, 2, ""},
		{"from empty state", []FailedRun{run("", npe, "", 3), run("", npe, "", 2)}, 0, ""},
		{"cause unknown", []FailedRun{run(p, "", "", 3), run(p, "", "", 2)}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loop := CrashLoop(tc.runs)
			switch {
			case tc.count == 0 && loop != nil:
				t.Fatalf("a loop: %+v", *loop)
			case tc.count == 0:
				return
			case loop == nil:
				t.Fatalf("no loop, want %d", tc.count)
			}
			if loop.Count != tc.count || loop.Record != tc.record || loop.RestorePoint != tc.runs[0].RestorePoint ||
				loop.Cause != tc.runs[0].Cause || !loop.Last.Equal(tc.runs[0].At) || !loop.Since.Equal(tc.runs[tc.count-1].At) || loop.SpecVersion != 7 {
				t.Errorf("got %+v", *loop)
			}
		})
	}
}
