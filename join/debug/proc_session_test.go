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

// A window top-N over processing-time windows fires with them: over the
// TVF as the clock passes a window's end, over a window aggregate at the
// same reading the aggregate fires. Windows of 10 s: ids 1 and 2 in
// [10, 20), fired at 21; 3 to 5 in [20, 30), fired at 33; 6's never.
func TestProcTimeWindowTopN(t *testing.T) {
	files := map[string]string{"orders.jsonl": procSessionData}
	step := func(o *Options) { o.ClockStep = 4 * time.Second }
	tvf := "TABLE(TUMBLE(TABLE orders, DESCRIPTOR(pt), INTERVAL '10' SECOND))"
	s := run(t, procOrdersDDL+`SELECT id, usr, amount, window_start FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn FROM `+tvf+`)
WHERE rn <= 1`, files, step).Sinks[0]
	want := []string{"+I[2, a, 2, 2024-05-06 07:08:10.000]", "+I[5, c, 5, 2024-05-06 07:08:20.000]"}
	expect(t, "over the TVF", changelog(s), want)
	expect(t, "over the TVF, final", final(s), want)

	s = run(t, procOrdersDDL+`SELECT window_start, usr, total, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY total DESC) AS rn
  FROM (SELECT window_start, window_end, usr, SUM(amount) AS total FROM `+tvf+` GROUP BY window_start, window_end, usr))
WHERE rn <= 1`, files, step).Sinks[0]
	want = []string{"+I[2024-05-06 07:08:10.000, a, 3, 1]", "+I[2024-05-06 07:08:20.000, b, 7, 1]"}
	expect(t, "over the window aggregate", changelog(s), want)
	expect(t, "over the window aggregate, final", final(s), want)
}

// A window join of processing-time windows joins a window as the clock
// passes its end. The sources are read a row of each in turn: orders 1
// at 13, pay a at 17, order 2 at 21, pay b at 25, orders 3 to 6 at 29,
// 33, 37 and 41 s.
func TestProcTimeWindowJoin(t *testing.T) {
	files := map[string]string{"orders.jsonl": procSessionData, "pay.jsonl": `{"usr": "a"}` + "\n" + `{"usr": "b"}` + "\n"}
	step := func(o *Options) { o.ClockStep = 4 * time.Second }
	ddl := procOrdersDDL + "CREATE TABLE pay (usr STRING, pt AS PROCTIME()) WITH ('connector' = 'kafka', 'format' = 'json');\n"
	s := run(t, ddl+`SELECT o.id, o.usr, p.usr AS payer, o.window_start
FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(pt), INTERVAL '10' SECOND))) o
LEFT JOIN (SELECT * FROM TABLE(TUMBLE(TABLE pay, DESCRIPTOR(pt), INTERVAL '10' SECOND))) p
ON o.usr = p.usr AND o.window_start = p.window_start AND o.window_end = p.window_end`, files, step).Sinks[0]
	// [10, 20) at 21: 1 with a's payment; [20, 30) at 33: 2 without, 3
	// with b's; [30, 40) at 41: 4 and 5 without; 6's [40, 50) never.
	want := []string{
		"+I[1, a, a, 2024-05-06 07:08:10.000]",
		"+I[2, a, NULL, 2024-05-06 07:08:20.000]",
		"+I[3, b, b, 2024-05-06 07:08:20.000]",
		"+I[4, b, NULL, 2024-05-06 07:08:30.000]",
		"+I[5, c, NULL, 2024-05-06 07:08:30.000]",
	}
	expect(t, "changelog", changelog(s), want)
	expect(t, "final", final(s), want)
	// Flink joins windows of one kind of time only.
	ddl += "CREATE TABLE ev (usr STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');\n"
	_, err := runFiles(t, ddl+`SELECT o.id FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(pt), INTERVAL '10' SECOND))) o
JOIN (SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND))) e
ON o.usr = e.usr AND o.window_start = e.window_start AND o.window_end = e.window_end`, map[string]string{"orders.jsonl": "", "ev.jsonl": ""})
	if err == nil || !strings.HasSuffix(err.Error(), "Currently, window join doesn't support different time attribute type of left and right inputs.") {
		t.Errorf("a window join of processing and event time: %v", err)
	}
}

// A processing-time temporal join against a versioned (non-lookup) table
// is refused as Flink refuses it.
func TestProcTimeTemporalJoinRefused(t *testing.T) {
	ddl := procOrdersDDL + `CREATE TABLE rates (usr STRING, rate INT, ut TIMESTAMP(3), WATERMARK FOR ut AS ut, PRIMARY KEY (usr) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');
`
	_, err := runFiles(t, ddl+"SELECT o.id, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.pt AS r ON o.usr = r.usr",
		map[string]string{"orders.jsonl": "", "rates.jsonl": ""})
	if err == nil || err.Error() != "debug run: line 5:71: Processing-time temporal join is not supported yet." {
		t.Errorf("got %v", err)
	}
}
