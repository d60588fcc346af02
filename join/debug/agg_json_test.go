package debug

import (
	"context"
	"strings"
	"testing"
)

// Flink's JSON_OBJECTAGG and JSON_ARRAYAGG over an updating input: a
// retraction takes the key (whatever its value) or the first equal item
// back; JSON_OBJECTAGG keeps a NULL as null unless ABSENT ON NULL,
// JSON_ARRAYAGG leaves it out unless NULL ON NULL.
func TestJSONAggregates(t *testing.T) {
	job := `CREATE TABLE orders (product STRING, qty INT) WITH ('connector' = 'kafka', 'format' = 'json');
SELECT JSON_OBJECTAGG(KEY product VALUE cnt) AS o,
  JSON_OBJECTAGG(KEY product VALUE cnt ABSENT ON NULL) AS oa,
  JSON_ARRAYAGG(cnt) AS a,
  JSON_ARRAYAGG(cnt NULL ON NULL) AS an
FROM (SELECT product, SUM(qty) AS cnt FROM orders GROUP BY product)`
	data := `{"product": "Apple", "qty": 2}
{"product": "Banana", "qty": 17}
{"product": "Orange", "qty": null}
{"product": "Apple", "qty": 3}
`
	s := run(t, job, map[string]string{"orders.jsonl": data}).Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		`+I[{"Apple":2}, {"Apple":2}, [2], [2]]`,
		`-U[{"Apple":2}, {"Apple":2}, [2], [2]]`,
		`+U[{"Apple":2,"Banana":17}, {"Apple":2,"Banana":17}, [2,17], [2,17]]`,
		`-U[{"Apple":2,"Banana":17}, {"Apple":2,"Banana":17}, [2,17], [2,17]]`,
		`+U[{"Apple":2,"Banana":17,"Orange":null}, {"Apple":2,"Banana":17}, [2,17], [2,17,null]]`,
		// Apple's 2 becomes 5: -U[Apple, 2] then +U[Apple, 5] from the inner GROUP BY.
		`-U[{"Apple":2,"Banana":17,"Orange":null}, {"Apple":2,"Banana":17}, [2,17], [2,17,null]]`,
		`+U[{"Banana":17,"Orange":null}, {"Banana":17}, [17], [17,null]]`,
		`-U[{"Banana":17,"Orange":null}, {"Banana":17}, [17], [17,null]]`,
		`+U[{"Apple":5,"Banana":17,"Orange":null}, {"Apple":5,"Banana":17}, [17,5], [17,null,5]]`,
	})
	expect(t, "final", final(s), []string{`+I[{"Apple":5,"Banana":17,"Orange":null}, {"Apple":5,"Banana":17}, [17,5], [17,null,5]]`})
	if got := s.Columns[0].Type; got != "STRING NOT NULL" {
		t.Errorf("JSON_OBJECTAGG's type %s, want STRING NOT NULL", got)
	}
	res := run(t, job, map[string]string{"orders.jsonl": data})
	ops := ""
	for _, op := range res.Operators {
		ops += op.Name + "\n"
	}
	if !strings.Contains(ops, "JSON_OBJECTAGG_NULL_ON_NULL(product, cnt), JSON_OBJECTAGG_ABSENT_ON_NULL(product, cnt), JSON_ARRAYAGG_ABSENT_ON_NULL(cnt)") {
		t.Errorf("operators, as Flink's plan names the calls:\n%s", ops)
	}
}

// Strings are quoted, a JSON function's result is nested as JSON, and a
// key seen twice in a group is Flink's error.
func TestJSONAggregatesPerGroup(t *testing.T) {
	job := `CREATE TABLE users (team STRING, name STRING, age INT) WITH ('connector' = 'kafka', 'format' = 'json');
SELECT team, JSON_ARRAYAGG(name) AS names, JSON_OBJECTAGG(KEY name VALUE JSON_OBJECT('age' VALUE age)) AS ages
FROM users GROUP BY team`
	data := `{"team": "a", "name": "Ann", "age": 30}
{"team": "b", "name": "Bob", "age": null}
{"team": "a", "name": "Al", "age": 41}
`
	s := run(t, job, map[string]string{"users.jsonl": data}).Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		`+I[a, ["Ann"], {"Ann":{"age":30}}]`,
		`+I[b, ["Bob"], {"Bob":{"age":null}}]`,
		`-U[a, ["Ann"], {"Ann":{"age":30}}]`,
		`+U[a, ["Ann","Al"], {"Al":{"age":41},"Ann":{"age":30}}]`,
	})
	expect(t, "final", final(s), []string{
		`+I[a, ["Ann","Al"], {"Al":{"age":41},"Ann":{"age":30}}]`,
		`+I[b, ["Bob"], {"Bob":{"age":null}}]`,
	})
	dup := data + `{"team": "b", "name": "Bob", "age": 7}
`
	o := Options{Data: map[string]string{"users": writeFile(t, "users.jsonl", dup)}}
	if _, err := runSQL(context.Background(), job, o); err == nil || !strings.Contains(err.Error(), "Duplicate key 'Bob' in JSON_OBJECTAGG") {
		t.Errorf("a key twice in a group: %v", err)
	}
}

// STDDEV and VARIANCE of a DECIMAL are DECIMAL(38, max(6, s)), computed
// as Flink's reduction computes them: SUM(x)²/COUNT(x) and the quotient
// rounded to 6 places (so VAR_SAMP of 1, 2, 4 is 2.333334, not 2.333333),
// STDDEV the DOUBLE square root cast back.
func TestVarianceOfDecimal(t *testing.T) {
	job := `CREATE TABLE v (d DECIMAL(10, 2)) WITH ('connector' = 'kafka', 'format' = 'json');
SELECT VAR_POP(d) AS vp, VAR_SAMP(d) AS vs, STDDEV_POP(d) AS sp, STDDEV_SAMP(d) AS ss FROM v`
	data := `{"d": 1.00}
{"d": 2.00}
{"d": 4.00}
`
	s := run(t, job, map[string]string{"v.jsonl": data}).Sinks[0]
	for i, c := range s.Columns {
		if c.Type != "DECIMAL(38, 6)" {
			t.Errorf("column %d is %s, want DECIMAL(38, 6)", i+1, c.Type)
		}
	}
	// 1 row: (1 - 1)/1; 2 rows: 5 - 9/2 = 0.5, /2 = 0.25, /1 = 0.5,
	// sqrt 0.5 = 0.7071067811865476; 3 rows: 21 - 49/3 = 4.666667,
	// /3 = 1.555556, /2 = 2.333334, sqrt(1.555556) = 1.2472193…,
	// sqrt(2.333334) = 1.5275254….
	expect(t, "changelog", changelog(s), []string{
		"+I[0.000000, NULL, 0.000000, NULL]",
		"-U[0.000000, NULL, 0.000000, NULL]",
		"+U[0.250000, 0.500000, 0.500000, 0.707107]",
		"-U[0.250000, 0.500000, 0.500000, 0.707107]",
		"+U[1.555556, 2.333334, 1.247219, 1.527525]",
	})
	expect(t, "final", final(s), []string{"+I[1.555556, 2.333334, 1.247219, 1.527525]"})
}

// In a TUMBLE window aggregate the JSON aggregates run; in HOP and
// SESSION windows Flink does not take them, as its docs say, nor in
// CUMULATE windows, whose slices are merged as HOP's.
func TestJSONAggregatesInWindows(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT window_start, JSON_ARRAYAGG(item) AS items FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end`, files).Sinks[0]
	want := []string{`+I[2020-04-15 08:00:00.000, ["C","A","D"]]`, `+I[2020-04-15 08:10:00.000, ["B","E","F"]]`}
	expect(t, "tumble", changelog(s), want)
	expect(t, "tumble final", final(s), want)
	docs := "debug run: line 5:22: JSON_ARRAYAGG is currently not supported in OVER windows, unbounded session windows, or hop windows"
	for _, tc := range []struct{ tvf, want string }{
		{"HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)", docs + ": a HOP or CUMULATE window aggregate merges slices, which it cannot."},
		{"CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)", docs + ": a HOP or CUMULATE window aggregate merges slices, which it cannot."},
		{"SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES)", docs + "."},
	} {
		tvf, want := tc.tvf, tc.want
		_, err := runFiles(t, bidDDL+"SELECT window_start, JSON_ARRAYAGG(item) AS items FROM TABLE("+tvf+")\nGROUP BY item, window_start, window_end", files)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v\nwant %s", tvf, err, want)
		}
	}
}
