package debug

import "testing"

// OVER by event time: rows wait for the watermark (bidtime - 1 s) and
// each gets the aggregates of its frame.
func TestOverAggregate(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT item, price,
  SUM(price) OVER (PARTITION BY supplier_id ORDER BY bidtime ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s2,
  COUNT(*) OVER (PARTITION BY supplier_id ORDER BY bidtime ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS n
FROM Bid`, files).Sinks[0]
	expect(t, "rows", changelog(s), []string{"+I[C, 4.00, 4.00, 1]", "+I[A, 2.00, 6.00, 2]", "+I[D, 5.00, 5.00, 1]",
		"+I[B, 3.00, 8.00, 2]", "+I[E, 1.00, 3.00, 2]", "+I[F, 6.00, 9.00, 2]"})
	if s.Updating {
		t.Error("an OVER aggregate is append-only")
	}
	s = run(t, bidDDL+`SELECT item, SUM(price) OVER (PARTITION BY supplier_id ORDER BY bidtime
  RANGE BETWEEN INTERVAL '5' MINUTE PRECEDING AND CURRENT ROW) AS s5 FROM Bid`, files).Sinks[0]
	expect(t, "range", changelog(s), []string{"+I[C, 4.00]", "+I[A, 6.00]", "+I[D, 5.00]", "+I[B, 8.00]", "+I[E, 1.00]", "+I[F, 6.00]"})

	late := bidData + `{"bidtime": "2020-04-15 08:00:00", "price": 50.00, "item": "late", "supplier_id": "supplier1"}
`
	res := run(t, bidDDL+`SELECT item, MAX(price) OVER (ORDER BY bidtime) AS top FROM Bid`, map[string]string{"Bid.jsonl": late})
	expect(t, "unbounded, late row dropped", changelog(res.Sinks[0]), []string{"+I[C, 4.00]", "+I[A, 4.00]", "+I[D, 5.00]", "+I[B, 5.00]", "+I[E, 5.00]", "+I[F, 6.00]"})

	s = run(t, procOrdersDDL+"SELECT id, SUM(amount) OVER (PARTITION BY usr ORDER BY pt ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS total FROM orders",
		map[string]string{"orders.jsonl": ordersData}).Sinks[0]
	expect(t, "processing time", changelog(s), []string{"+I[1, 10]", "+I[2, 5]", "+I[3, 17]", "+I[4, 17]"})

	_, err := runErr(t, ordersDDL+"SELECT SUM(amount) OVER (ORDER BY id) FROM orders")
	if err == nil || err.Error() != "debug run: line 3:35: OVER windows' ordering in stream mode must be defined on a time attribute." {
		t.Errorf("%v", err)
	}
}

// Named windows: OVER w, and OVER (w …) adding a frame, as the windows
// written out.
func TestOverNamedWindows(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT item, SUM(price) OVER w AS s, COUNT(*) OVER w AS n
FROM Bid
WINDOW w AS (PARTITION BY supplier_id ORDER BY bidtime ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)`, files).Sinks[0]
	want := []string{"+I[C, 4.00, 1]", "+I[A, 6.00, 2]", "+I[D, 5.00, 1]", "+I[B, 8.00, 2]", "+I[E, 3.00, 2]", "+I[F, 9.00, 2]"}
	expect(t, "OVER w", changelog(s), want)
	expect(t, "final", final(s), sorted(want))
	s = run(t, bidDDL+`SELECT item, MAX(price) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS top
FROM Bid
WINDOW w AS (ORDER BY bidtime)`, files).Sinks[0]
	expect(t, "OVER (w …)", changelog(s), []string{"+I[C, 4.00]", "+I[A, 4.00]", "+I[D, 5.00]", "+I[B, 5.00]", "+I[E, 5.00]", "+I[F, 6.00]"})

	_, err := runErr(t, ordersDDL+"SELECT SUM(amount) OVER v FROM orders WINDOW w AS (ORDER BY id)")
	if err == nil || err.Error() != "debug run: line 3:25: Window 'v' not found" {
		t.Errorf("%v", err)
	}
}

// TestOverBoundedLateness: with a bounded frame Flink drops a row only if
// its time is at or before the last time its partition already emitted
// (RowTimeRowsBoundedPrecedingFunction's lastTriggeringTs), never by the
// watermark: a row behind the watermark of a partition that has not yet
// emitted that far waits for the watermark's next advance. An unbounded
// frame drops by the watermark. The watermark follows every row.
func TestOverBoundedLateness(t *testing.T) {
	ddl := `CREATE TABLE ev (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');
`
	data := map[string]string{"ev.jsonl": `{"k": "a", "v": 1, "ts": "2024-01-01 10:00:01"}
{"k": "b", "v": 2, "ts": "2024-01-01 10:00:05"}
{"k": "a", "v": 3, "ts": "2024-01-01 10:00:03"}
{"k": "a", "v": 4, "ts": "2024-01-01 10:00:00"}
{"k": "b", "v": 5, "ts": "2024-01-01 10:00:06"}
{"k": "c", "v": 6, "ts": "2024-01-01 10:00:02"}
{"k": "b", "v": 7, "ts": "2024-01-01 10:00:04"}
{"k": "a", "v": 8, "ts": "2024-01-01 10:00:07"}
{"k": "c", "v": 9, "ts": "2024-01-01 10:00:08"}
`}
	// a: 1 (emitted at the watermark 10:00:05), 3 (behind it, but after a's
	// 10:00:01: kept), 4 (at 10:00:00, before a's 10:00:03: dropped), 8;
	// b: 2, 5, 7 (before b's 10:00:05: dropped); c: 6 (behind the
	// watermark, c never emitted: kept), 9.
	res := run(t, ddl+`SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM ev`, data)
	expect(t, "ROWS", final(res.Sinks[0]), sorted([]string{"+I[a, 1, 1]", "+I[a, 3, 4]", "+I[a, 8, 11]", "+I[b, 2, 2]", "+I[b, 5, 7]", "+I[c, 6, 6]", "+I[c, 9, 15]"}))
	res = run(t, ddl+`SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS s FROM ev`, data)
	expect(t, "RANGE", final(res.Sinks[0]), sorted([]string{"+I[a, 1, 1]", "+I[a, 3, 4]", "+I[a, 8, 8]", "+I[b, 2, 2]", "+I[b, 5, 7]", "+I[c, 6, 6]", "+I[c, 9, 9]"}))
	// Unbounded: behind the watermark is late (a's 3 and 4, c's 6, b's 7).
	res = run(t, ddl+`SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM ev`, data)
	expect(t, "unbounded", final(res.Sinks[0]), sorted([]string{"+I[a, 1, 1]", "+I[a, 8, 9]", "+I[b, 2, 2]", "+I[b, 5, 7]", "+I[c, 9, 9]"}))
}
