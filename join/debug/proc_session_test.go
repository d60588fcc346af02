package debug

import (
	"strings"
	"testing"
	"time"
)

// six orders read at 13, 17, … 33 s past 07:08 on a clock stepping 4 s.
const procSessionData = `{"id": 1, "usr": "a", "amount": 1}
{"id": 2, "usr": "a", "amount": 2}
{"id": 3, "usr": "b", "amount": 3}
{"id": 4, "usr": "b", "amount": 4}
{"id": 5, "usr": "c", "amount": 5}
{"id": 6, "usr": "c", "amount": 6}
`

// Processing-time SESSION windows on the simulated clock: a row opens
// [now, now + gap) of its key, merged with the sessions it overlaps; a
// session fires when the clock passes its end (a timer at end - 1 ms, as
// Flink's), one open when the input ends never fires.
func TestProcTimeSessionWindows(t *testing.T) {
	files := map[string]string{"orders.jsonl": procSessionData}
	step := func(o *Options) { o.ClockStep = 4 * time.Second }
	// a: 13 and 17 make [13, 23), fired at 25; b: 21 and 25 make [21, 31),
	// fired at 33; c's [29, 39) is still open at the end.
	want := []string{
		"+I[a, 2024-05-06 07:08:13.000, 2024-05-06 07:08:23.000, 2, 3]",
		"+I[b, 2024-05-06 07:08:21.000, 2024-05-06 07:08:31.000, 2, 7]",
	}
	for _, q := range []string{
		`SELECT usr, window_start, window_end, COUNT(*) AS n, SUM(amount) AS total
FROM TABLE(SESSION(TABLE orders PARTITION BY usr, DESCRIPTOR(pt), INTERVAL '6' SECOND)) GROUP BY usr, window_start, window_end`,
		`SELECT usr, SESSION_START(pt, INTERVAL '6' SECOND) AS ws, SESSION_END(pt, INTERVAL '6' SECOND) AS we, COUNT(*) AS n, SUM(amount) AS total
FROM orders GROUP BY usr, SESSION(pt, INTERVAL '6' SECOND)`,
	} {
		res := run(t, procOrdersDDL+q, files, step)
		s := res.Sinks[0]
		expect(t, "changelog", changelog(s), want)
		expect(t, "final", final(s), want)
		open := ""
		for _, op := range res.Operators {
			open += op.Open
		}
		if !strings.Contains(open, "1 processing-time sessions not fired") {
			t.Errorf("operators %+v: want c's open session reported", res.Operators)
		}
	}
}
