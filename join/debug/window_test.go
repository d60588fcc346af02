package debug

import "testing"

// The Bid table and rows of Flink's window aggregation documentation.
const bidDDL = `CREATE TABLE Bid (
  bidtime TIMESTAMP(3), price DECIMAL(10, 2), item STRING, supplier_id STRING,
  WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'kafka', 'format' = 'json');
`

const bidData = `{"bidtime": "2020-04-15 08:05:00", "price": 4.00, "item": "C", "supplier_id": "supplier1"}
{"bidtime": "2020-04-15 08:07:00", "price": 2.00, "item": "A", "supplier_id": "supplier1"}
{"bidtime": "2020-04-15 08:09:00", "price": 5.00, "item": "D", "supplier_id": "supplier2"}
{"bidtime": "2020-04-15 08:11:00", "price": 3.00, "item": "B", "supplier_id": "supplier2"}
{"bidtime": "2020-04-15 08:13:00", "price": 1.00, "item": "E", "supplier_id": "supplier1"}
{"bidtime": "2020-04-15 08:17:00", "price": 6.00, "item": "F", "supplier_id": "supplier2"}
`

// Flink's documented results of TUMBLE, HOP and CUMULATE aggregation over Bid.
func TestWindowAggregateFlinkExamples(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	for _, tc := range []struct {
		name, tvf string
		want      []string
	}{
		{"tumble", "TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES)", []string{
			"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, 11.00]",
			"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, 10.00]"}},
		{"hop", "HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)", []string{
			"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, 11.00]",
			"+I[2020-04-15 08:05:00.000, 2020-04-15 08:15:00.000, 15.00]",
			"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, 10.00]",
			"+I[2020-04-15 08:15:00.000, 2020-04-15 08:25:00.000, 6.00]"}},
		{"cumulate", "CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES)", []string{
			"+I[2020-04-15 08:00:00.000, 2020-04-15 08:06:00.000, 4.00]",
			"+I[2020-04-15 08:00:00.000, 2020-04-15 08:08:00.000, 6.00]",
			"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, 11.00]",
			"+I[2020-04-15 08:10:00.000, 2020-04-15 08:12:00.000, 3.00]",
			"+I[2020-04-15 08:10:00.000, 2020-04-15 08:14:00.000, 4.00]",
			"+I[2020-04-15 08:10:00.000, 2020-04-15 08:16:00.000, 4.00]",
			"+I[2020-04-15 08:10:00.000, 2020-04-15 08:18:00.000, 10.00]",
			"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, 10.00]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := run(t, bidDDL+"SELECT window_start, window_end, SUM(price) AS total_price FROM TABLE("+tc.tvf+") GROUP BY window_start, window_end", files).Sinks[0]
			expect(t, "changelog", changelog(s), tc.want)
			expect(t, "final", final(s), tc.want)
			if s.Updating {
				t.Error("a window aggregate is append-only")
			}
		})
	}
}

// Windows fire as the watermark passes their end, each key's row when it
// does; a row for a window that has fired is late and dropped.
func TestWindowAggregateFiresOnWatermarkAndDropsLateRows(t *testing.T) {
	late := bidData + `{"bidtime": "2020-04-15 08:06:00", "price": 100.00, "item": "late", "supplier_id": "supplier1"}
{"bidtime": "2020-04-15 08:21:00", "price": 7.00, "item": "G", "supplier_id": "supplier1"}
`
	var fired []SinkRow
	res := run(t, bidDDL+`SELECT window_start, supplier_id, SUM(price) AS total, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end, supplier_id`, map[string]string{"Bid.jsonl": late},
		func(o *Options) { o.OnRow = func(r SinkRow) { fired = append(fired, r) } })
	s := res.Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		"+I[2020-04-15 08:00:00.000, supplier1, 6.00, 2]",
		"+I[2020-04-15 08:00:00.000, supplier2, 5.00, 1]",
		"+I[2020-04-15 08:10:00.000, supplier2, 9.00, 2]",
		"+I[2020-04-15 08:10:00.000, supplier1, 1.00, 1]",
		"+I[2020-04-15 08:20:00.000, supplier1, 7.00, 1]",
	})
	var lateRows int64
	for _, op := range res.Operators {
		lateRows += op.Late
	}
	if lateRows != 1 {
		t.Errorf("operators %+v: want the late row counted", res.Operators)
	}
	// The first window fires when 08:11's row moves the watermark past 08:10.
	if len(fired) != 5 {
		t.Fatalf("fired %+v", fired)
	}

	// Without the watermark moving between rows, every window fires at the end.
	res = run(t, bidDDL+`SELECT window_start, SUM(price) AS total FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end`, map[string]string{"Bid.jsonl": late}, func(o *Options) { o.Watermarks = -1 })
	expect(t, "watermark at the end", changelog(res.Sinks[0]), []string{
		"+I[2020-04-15 08:00:00.000, 111.00]", "+I[2020-04-15 08:10:00.000, 10.00]", "+I[2020-04-15 08:20:00.000, 7.00]"})
}

// The window TVF alone gives each row its windows; its time column must be
// a time attribute.
func TestWindowTVF(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT item, window_start, window_end, window_time FROM TABLE(HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)) WHERE item = 'C'`, files).Sinks[0]
	expect(t, "hop rows", changelog(s), []string{
		"+I[C, 2020-04-15 08:05:00.000, 2020-04-15 08:15:00.000, 2020-04-15 08:14:59.999]",
		"+I[C, 2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, 2020-04-15 08:09:59.999]",
	})
	_, err := runErr(t, ordersDDL+"SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(id), INTERVAL '1' MINUTE))")
	if err == nil || err.Error() != "debug run: line 3:42: The window function requires the timecol is a time attribute type, but is INT." {
		t.Errorf("%v", err)
	}
}

// Flink's documented SESSION window aggregation over Bid, with and without
// partition keys.
func TestSessionWindowAggregate(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT window_start, window_end, supplier_id, SUM(price) AS total_price
FROM TABLE(SESSION(TABLE Bid PARTITION BY supplier_id, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES))
GROUP BY window_start, window_end, supplier_id`, files).Sinks[0]
	expect(t, "partitioned", changelog(s), []string{
		"+I[2020-04-15 08:05:00.000, 2020-04-15 08:09:00.000, supplier1, 6.00]",
		"+I[2020-04-15 08:09:00.000, 2020-04-15 08:13:00.000, supplier2, 8.00]",
		"+I[2020-04-15 08:13:00.000, 2020-04-15 08:15:00.000, supplier1, 1.00]",
		"+I[2020-04-15 08:17:00.000, 2020-04-15 08:19:00.000, supplier2, 6.00]"})
	s = run(t, bidDDL+`SELECT window_start, window_end, SUM(price) AS total_price
FROM TABLE(SESSION(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES))
GROUP BY window_start, window_end`, files).Sinks[0]
	expect(t, "unpartitioned", changelog(s), []string{
		"+I[2020-04-15 08:05:00.000, 2020-04-15 08:15:00.000, 15.00]",
		"+I[2020-04-15 08:17:00.000, 2020-04-15 08:19:00.000, 6.00]"})
}

// Window top-N over a window aggregate, as Flink's documentation shows it,
// and window deduplication over a window TVF: emitted when the window fires.
func TestWindowTopN(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
  FROM (
    SELECT window_start, window_end, supplier_id, SUM(price) AS price, COUNT(*) AS cnt
    FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
    GROUP BY window_start, window_end, supplier_id)
) WHERE rownum <= 3`, files).Sinks[0]
	expect(t, "window top-N", changelog(s), []string{
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, supplier1, 6.00, 2, 1]",
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, supplier2, 5.00, 1, 2]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, supplier2, 9.00, 2, 1]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, supplier1, 1.00, 1, 2]",
	})
	if s.Updating {
		t.Error("a window top-N is append-only")
	}
	s = run(t, bidDDL+`SELECT window_start, item FROM (
  SELECT window_start, window_end, item, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY bidtime DESC) AS rn
  FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
) WHERE rn <= 1`, files).Sinks[0]
	expect(t, "window deduplication", changelog(s), []string{"+I[2020-04-15 08:00:00.000, D]", "+I[2020-04-15 08:10:00.000, F]"})
}

// Flink's documented window join: a FULL JOIN of two tumbling windowed
// tables by num, window_start and window_end.
func TestWindowJoin(t *testing.T) {
	ddl := `CREATE TABLE LeftTable (row_time TIMESTAMP(3), num INT, id STRING, WATERMARK FOR row_time AS row_time - INTERVAL '1' SECOND)
  WITH ('connector' = 'kafka', 'format' = 'json');
CREATE TABLE RightTable (row_time TIMESTAMP(3), num INT, id STRING, WATERMARK FOR row_time AS row_time - INTERVAL '1' SECOND)
  WITH ('connector' = 'kafka', 'format' = 'json');
`
	files := map[string]string{
		"LeftTable.jsonl": `{"row_time": "2020-04-15 12:02:00", "num": 1, "id": "L1"}
{"row_time": "2020-04-15 12:06:00", "num": 2, "id": "L2"}
{"row_time": "2020-04-15 12:03:00", "num": 3, "id": "L3"}
`,
		"RightTable.jsonl": `{"row_time": "2020-04-15 12:01:00", "num": 2, "id": "R2"}
{"row_time": "2020-04-15 12:04:00", "num": 3, "id": "R3"}
{"row_time": "2020-04-15 12:05:00", "num": 4, "id": "R4"}
`}
	s := run(t, ddl+`SELECT L.num AS L_Num, L.id AS L_Id, R.num AS R_Num, R.id AS R_Id,
  COALESCE(L.window_start, R.window_start) AS window_start, COALESCE(L.window_end, R.window_end) AS window_end
FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L
FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R
ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end`, files).Sinks[0]
	expect(t, "full window join", final(s), []string{
		"+I[1, L1, NULL, NULL, 2020-04-15 12:00:00.000, 2020-04-15 12:05:00.000]",
		"+I[2, L2, NULL, NULL, 2020-04-15 12:05:00.000, 2020-04-15 12:10:00.000]",
		"+I[3, L3, 3, R3, 2020-04-15 12:00:00.000, 2020-04-15 12:05:00.000]",
		"+I[NULL, NULL, 2, R2, 2020-04-15 12:00:00.000, 2020-04-15 12:05:00.000]",
		"+I[NULL, NULL, 4, R4, 2020-04-15 12:05:00.000, 2020-04-15 12:10:00.000]",
	})
	if s.Updating {
		t.Error("a window join is append-only")
	}
}

// Legacy group windows (GROUP BY TUMBLE/HOP/SESSION(…)) give the window
// TVFs' results, their bounds read by TUMBLE_START and the like.
func TestGroupWindowAggregate(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT TUMBLE_START(bidtime, INTERVAL '10' MINUTE) AS ws, TUMBLE_END(bidtime, INTERVAL '10' MINUTE) AS we, SUM(price) AS total
FROM Bid GROUP BY TUMBLE(bidtime, INTERVAL '10' MINUTE)`, files).Sinks[0]
	expect(t, "tumble", changelog(s), []string{
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, 11.00]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, 10.00]"})
	s = run(t, bidDDL+`SELECT HOP_END(bidtime, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE) AS we, SUM(price) AS total
FROM Bid GROUP BY HOP(bidtime, INTERVAL '5' MINUTE, INTERVAL '10' MINUTE) HAVING SUM(price) > 7`, files).Sinks[0]
	expect(t, "hop", changelog(s), []string{
		"+I[2020-04-15 08:10:00.000, 11.00]", "+I[2020-04-15 08:15:00.000, 15.00]", "+I[2020-04-15 08:20:00.000, 10.00]"})
	s = run(t, bidDDL+`SELECT supplier_id, SESSION_START(bidtime, INTERVAL '2' MINUTE) AS ws, SESSION_ROWTIME(bidtime, INTERVAL '2' MINUTE) AS wt, SUM(price) AS total
FROM Bid GROUP BY supplier_id, SESSION(bidtime, INTERVAL '2' MINUTE)`, files).Sinks[0]
	expect(t, "session", changelog(s), []string{
		"+I[supplier1, 2020-04-15 08:05:00.000, 2020-04-15 08:08:59.999, 6.00]",
		"+I[supplier2, 2020-04-15 08:09:00.000, 2020-04-15 08:12:59.999, 8.00]",
		"+I[supplier1, 2020-04-15 08:13:00.000, 2020-04-15 08:14:59.999, 1.00]",
		"+I[supplier2, 2020-04-15 08:17:00.000, 2020-04-15 08:18:59.999, 6.00]"})
}
