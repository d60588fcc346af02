package debug

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Windows by processing time on the simulated clock: it starts at the
// run's Now and moves ClockStep before each row is read, which is the
// row's PROCTIME(); a window fires when the clock passes its end, and one
// still open at the end of the input never fires (Flink does not fire
// processing-time timers when a bounded input ends).
func TestProcTimeWindows(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	step := func(o *Options) { o.ClockStep = 4 * time.Second }
	// The clock starts at 07:08:09: the rows are read at 13, 17, 21 and 25 s.
	for _, q := range []string{
		`SELECT window_start, window_end, COUNT(*) AS n, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(pt), INTERVAL '10' SECOND)) GROUP BY window_start, window_end`,
		`SELECT TUMBLE_START(pt, INTERVAL '10' SECOND) AS ws, TUMBLE_END(pt, INTERVAL '10' SECOND) AS we, COUNT(*) AS n, SUM(amount) AS total
FROM orders GROUP BY TUMBLE(pt, INTERVAL '10' SECOND)`,
	} {
		res := run(t, procOrdersDDL+q, files, step)
		s := res.Sinks[0]
		want := []string{"+I[2024-05-06 07:08:10.000, 2024-05-06 07:08:20.000, 2, 15]"}
		expect(t, "fired", changelog(s), want)
		expect(t, "final", final(s), want)
		open := ""
		for _, op := range res.Operators {
			open += op.Open
		}
		if !strings.Contains(open, "1 processing-time windows not fired") {
			t.Errorf("operators %+v: want the open window reported", res.Operators)
		}
	}
	// CUMULATE: a row's early windows fire as the clock passes each end.
	s := run(t, procOrdersDDL+`SELECT window_start, window_end, COUNT(*) AS n, SUM(amount) AS total
FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(pt), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end`, files, step).Sinks[0]
	expect(t, "cumulate", changelog(s), []string{
		"+I[2024-05-06 07:08:10.000, 2024-05-06 07:08:15.000, 1, 10]",
		"+I[2024-05-06 07:08:10.000, 2024-05-06 07:08:20.000, 2, 15]",
		"+I[2024-05-06 07:08:20.000, 2024-05-06 07:08:25.000, 1, 7]"})
	// A clock that stands still never fires a window.
	s = run(t, procOrdersDDL+`SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(pt), INTERVAL '10' SECOND)) GROUP BY window_start, window_end`, files).Sinks[0]
	expect(t, "still clock", changelog(s), nil)
	// What is not run by processing time yet is refused.
	_, err := runFiles(t, procOrdersDDL+`SELECT * FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(pt), INTERVAL '10' SECOND))) WHERE rn <= 1`, files)
	if err == nil || !strings.HasSuffix(err.Error(), "a window top-N over processing-time windows is not supported in debug runs yet") {
		t.Errorf("window top-N by processing time: %v", err)
	}
	// A row's PROCTIME() is the clock when it is read.
	s = run(t, procOrdersDDL+"SELECT id, pt FROM orders", files, step).Sinks[0]
	expect(t, "proctime", changelog(s)[:2], []string{"+I[1, 2024-05-06 07:08:13.000]", "+I[2, 2024-05-06 07:08:17.000]"})
}

// TIMESTAMP_LTZ windows are cut in table.local-time-zone and fire when the
// watermark passes the instant their end stands for there. The rows come
// at 1, 5, 11 and 21 minutes past the hour, then one at 8 minutes, late:
// the first window fires on the third row's watermark and the late row is
// dropped, both east and west of UTC.
func TestLocalTimeZoneWindows(t *testing.T) {
	for _, tc := range []struct {
		zone string
		utc  int // the UTC hour of the zone's local hour h
		h    string
	}{
		{"Asia/Shanghai", 0, "08"},
		{"America/New_York", 12, "08"}, // EDT, UTC-4, in June
	} {
		t.Run(tc.zone, func(t *testing.T) {
			ddl := "SET 'table.local-time-zone' = '" + tc.zone + `';
CREATE TABLE ev (id INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'kafka', 'format' = 'json');
`
			var data strings.Builder
			for i, m := range []int{1, 5, 11, 21, 8} {
				data.WriteString(`{"id": ` + strconv.Itoa(i+1) + `, "ts": "2024-06-01 ` + two(tc.utc) + ":" + two(m) + `:00Z"}` + "\n")
			}
			for _, q := range []string{
				`SELECT window_start, window_end, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end`,
				`SELECT TUMBLE_START(ts, INTERVAL '10' MINUTE), TUMBLE_END(ts, INTERVAL '10' MINUTE), COUNT(*) AS n FROM ev
GROUP BY TUMBLE(ts, INTERVAL '10' MINUTE)`,
			} {
				localTimeZoneWindow(t, ddl+q, data.String(), "2024-06-01 "+tc.h)
			}
		})
	}
}

func localTimeZoneWindow(t *testing.T, job, data, d string) {
	t.Helper()
	var fired []int64
	res := run(t, job, map[string]string{"ev.jsonl": data}, func(o *Options) {
		o.OnRead = func(_ string, row int64) { fired = append(fired, -row) }
		o.OnRow = func(SinkRow) { fired = append(fired, 0) }
	})
	expect(t, "changelog", changelog(res.Sinks[0]), []string{
		"+I[" + d + ":00:00.000, " + d + ":10:00.000, 2]",
		"+I[" + d + ":10:00.000, " + d + ":20:00.000, 1]",
		"+I[" + d + ":20:00.000, " + d + ":30:00.000, 1]"})
	// Read 1, 2, 3, fire, read 4, fire, read 5 (late), fire at the end.
	if got := fmt.Sprint(fired); got != "[-1 -2 -3 0 -4 0 -5 0]" {
		t.Errorf("reads (-row) and firings (0): %s", got)
	}
	var late int64
	for _, op := range res.Operators {
		late += op.Late
	}
	if late != 1 {
		t.Errorf("operators %+v: want the late row dropped", res.Operators)
	}
}

func two(n int) string { return fmt.Sprintf("%02d", n) }

// Rows of one event time are matched in the order of ORDER BY's other keys.
func TestMatchRecognizeSecondaryOrder(t *testing.T) {
	data := `{"symbol": "A", "price": 1, "tax": 1, "rowtime": "2024-01-01 00:00:01"}
{"symbol": "A", "price": 3, "tax": 1, "rowtime": "2024-01-01 00:00:02"}
{"symbol": "A", "price": 2, "tax": 1, "rowtime": "2024-01-01 00:00:02"}
{"symbol": "A", "price": 9, "tax": 1, "rowtime": "2024-01-01 00:00:03"}
`
	q := func(order string) string {
		return tickerDDL + `SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY ` + order + `
  MEASURES FIRST(U.price) AS a, LAST(U.price) AS b
  AFTER MATCH SKIP PAST LAST ROW
  PATTERN (U{3})
  DEFINE U AS LAST(U.price, 1) IS NULL OR U.price > LAST(U.price, 1)
)`
	}
	files := map[string]string{"Ticker.jsonl": data}
	// By arrival the prices are 1, 3, 2, 9: no rise of three.
	expect(t, "arrival order", changelog(run(t, q("rowtime"), files).Sinks[0]), nil)
	expect(t, "rowtime, price", changelog(run(t, q("rowtime, price"), files).Sinks[0]), []string{"+I[A, 1, 3]"})
}

// RANK() and DENSE_RANK() are refused as Flink's streaming planner
// refuses them: its Rank and WindowRank run ROW_NUMBER() only.
func TestRankRefusals(t *testing.T) {
	for _, tc := range []struct{ job, want string }{
		{bidDDL + "SELECT * FROM (SELECT item, RANK() OVER (PARTITION BY supplier_id ORDER BY price DESC) AS r FROM Bid) WHERE r <= 2",
			"line 5:29: RANK() on streaming table is not supported currently"},
		{bidDDL + `SELECT * FROM (SELECT *, DENSE_RANK() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS r
FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))) WHERE r <= 3`,
			"line 5:26: DENSE_RANK() function is not supported on Window TopN currently, only ROW_NUMBER() is supported."},
	} {
		_, err := runFiles(t, tc.job, map[string]string{"Bid.jsonl": bidData})
		if err == nil || err.Error() != "debug run: "+tc.want {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}
}

// A window top-N over TIMESTAMP_LTZ windows fires by the zone's instants
// too: the row at 8 minutes past comes after its window fired, late.
func TestLocalTimeZoneWindowTopN(t *testing.T) {
	job := `SET 'table.local-time-zone' = 'Asia/Shanghai';
CREATE TABLE ev (id INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'kafka', 'format' = 'json');
SELECT window_start, id FROM (
  SELECT window_start, id, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY id DESC) AS rn
  FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
) WHERE rn = 1`
	var data strings.Builder
	for i, m := range []int{1, 5, 11, 21, 8} {
		fmt.Fprintf(&data, `{"id": %d, "ts": "2024-06-01 00:%02d:00Z"}`+"\n", i+1, m)
	}
	s := run(t, job, map[string]string{"ev.jsonl": data.String()}).Sinks[0]
	want := []string{"+I[2024-06-01 08:00:00.000, 2]", "+I[2024-06-01 08:10:00.000, 3]", "+I[2024-06-01 08:20:00.000, 4]"}
	expect(t, "changelog", changelog(s), want)
	expect(t, "final", final(s), want)
}
