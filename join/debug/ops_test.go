package debug

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// run runs a job over data files given by table (file name → content; the
// name's stem is the table) and fails the test on an error.
func run(t *testing.T, job string, files map[string]string, opts ...func(*Options)) *Result {
	t.Helper()
	o := Options{Data: map[string]string{}, Now: func() time.Time { return fixedNow }}
	for name, content := range files {
		o.Data[strings.TrimSuffix(name, filepath.Ext(name))] = writeFile(t, name, content)
	}
	for _, f := range opts {
		f(&o)
	}
	res, err := runSQL(context.Background(), job, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// printed is a row as Flink's print connector writes it: +I[a, 1].
func printed(kind string, s *Sink, row []any) string {
	types := columnTypes(s.Columns)
	vals := make([]string, len(row))
	for i, v := range row {
		vals[i] = cell(v, types[i])
	}
	return kind + "[" + strings.Join(vals, ", ") + "]"
}

// changelog is what a sink received, as Flink's print sink writes it.
func changelog(s *Sink) []string {
	var out []string
	for _, c := range s.Changes {
		out = append(out, printed(c.Kind, s, c.Row))
	}
	return out
}

// final is a sink's final table, its rows as +I[…], sorted.
func final(s *Sink) []string {
	var out []string
	for _, r := range s.Rows {
		out = append(out, printed("+I", s, r))
	}
	slices.Sort(out)
	return out
}

func expect(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\ngot  %s\nwant %s", what, strings.Join(got, " "), strings.Join(want, " "))
	}
}

const ordersDDL = `CREATE TABLE orders (id INT, usr STRING, amount INT, price DECIMAL(10, 2))
  WITH ('connector' = 'kafka', 'format' = 'json');
`

const ordersData = `{"id": 1, "usr": "a", "amount": 10, "price": 1.50}
{"id": 2, "usr": "b", "amount": 5, "price": 2.00}
{"id": 3, "usr": "a", "amount": 7, "price": 0.25}
{"id": 4, "usr": "a", "amount": null, "price": 1.50}
`

func TestGroupAggregate(t *testing.T) {
	res := run(t, ordersDDL+`SELECT usr, COUNT(*) AS cnt, COUNT(amount) AS n, SUM(amount) AS total, AVG(amount) AS av,
  MIN(price) AS lo, MAX(price) AS hi, AVG(price) AS avp, COUNT(DISTINCT price) AS prices,
  SUM(amount) FILTER (WHERE price > 1) AS dear
FROM orders GROUP BY usr`, map[string]string{"orders.jsonl": ordersData})
	s := res.Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		"+I[a, 1, 1, 10, 10, 1.50, 1.50, 1.500000, 1, 10]",
		"+I[b, 1, 1, 5, 5, 2.00, 2.00, 2.000000, 1, 5]",
		"-U[a, 1, 1, 10, 10, 1.50, 1.50, 1.500000, 1, 10]",
		"+U[a, 2, 2, 17, 8, 0.25, 1.50, 0.875000, 2, 10]",
		"-U[a, 2, 2, 17, 8, 0.25, 1.50, 0.875000, 2, 10]",
		"+U[a, 3, 2, 17, 8, 0.25, 1.50, 1.083333, 2, 10]",
	})
	expect(t, "final", final(s), []string{
		"+I[a, 3, 2, 17, 8, 0.25, 1.50, 1.083333, 2, 10]",
		"+I[b, 1, 1, 5, 5, 2.00, 2.00, 2.000000, 1, 5]",
	})
	if !s.Updating || s.Columns[1].Type != "BIGINT NOT NULL" || s.Columns[3].Type != "INT" || s.Columns[7].Type != "DECIMAL(38, 6)" {
		t.Errorf("updating %v, columns %v", s.Updating, s.Columns)
	}
}

// A changelog input: an update whose key leaves a group takes the row
// back from it (-D when it was the group's last), and a delete takes it
// back too.
func TestGroupAggregateRetracts(t *testing.T) {
	job := `CREATE TABLE orders (id INT, usr STRING, amount INT) WITH ('connector' = 'kafka', 'format' = 'debezium-json');
SELECT usr, COUNT(*) AS cnt, SUM(amount) AS total, MAX(amount) AS top FROM orders GROUP BY usr`
	data := `{"before": null, "after": {"id": 1, "usr": "a", "amount": 10}, "op": "c"}
{"before": null, "after": {"id": 2, "usr": "b", "amount": 5}, "op": "c"}
{"before": null, "after": {"id": 3, "usr": "a", "amount": 30}, "op": "c"}
{"before": {"id": 3, "usr": "a", "amount": 30}, "after": {"id": 3, "usr": "a", "amount": 3}, "op": "u"}
{"before": {"id": 1, "usr": "a", "amount": 10}, "after": {"id": 1, "usr": "b", "amount": 10}, "op": "u"}
{"before": {"id": 2, "usr": "b", "amount": 5}, "after": null, "op": "d"}
{"before": {"id": 3, "usr": "a", "amount": 3}, "after": null, "op": "d"}
`
	s := run(t, job, map[string]string{"orders.jsonl": data}).Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		"+I[a, 1, 10, 10]",
		"+I[b, 1, 5, 5]",
		"-U[a, 1, 10, 10]", "+U[a, 2, 40, 30]",
		"-U[a, 2, 40, 30]", "+U[a, 1, 10, 10]", // -U of id 3 takes 30 back
		"-U[a, 1, 10, 10]", "+U[a, 2, 13, 10]", // +U of id 3 adds 3
		"-U[a, 2, 13, 10]", "+U[a, 1, 3, 3]", // id 1 leaves a …
		"-U[b, 1, 5, 5]", "+U[b, 2, 15, 10]", // … for b
		"-U[b, 2, 15, 10]", "+U[b, 1, 10, 10]",
		"-D[a, 1, 3, 3]", // a's last row goes
	})
	expect(t, "final", final(s), []string{"+I[b, 1, 10, 10]"})
}

// A global aggregate, HAVING, SELECT DISTINCT, and an expression over
// aggregates and keys.
func TestGroupAggregateShapes(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	s := run(t, ordersDDL+"SELECT COUNT(*) AS n, SUM(price) AS total FROM orders", files).Sinks[0]
	expect(t, "global", changelog(s), []string{
		"+I[1, 1.50]", "-U[1, 1.50]", "+U[2, 3.50]", "-U[2, 3.50]", "+U[3, 3.75]", "-U[3, 3.75]", "+U[4, 5.25]"})
	expect(t, "global final", final(s), []string{"+I[4, 5.25]"})

	s = run(t, ordersDDL+"SELECT usr, SUM(amount) AS total FROM orders GROUP BY usr HAVING COUNT(*) > 1", files).Sinks[0]
	// HAVING filters each change: the -U of a row it let through passes, a +U it does not is dropped.
	expect(t, "having", changelog(s), []string{"+U[a, 17]", "-U[a, 17]", "+U[a, 17]"})

	s = run(t, ordersDDL+"SELECT DISTINCT usr FROM orders", files).Sinks[0]
	expect(t, "distinct", changelog(s), []string{"+I[a]", "+I[b]"})

	s = run(t, ordersDDL+"SELECT UPPER(usr) || '!' AS who, SUM(amount) * 2 AS twice FROM orders WHERE id < 4 GROUP BY usr", files).Sinks[0]
	expect(t, "expressions", changelog(s), []string{"+I[A!, 20]", "+I[B!, 10]", "-U[A!, 20]", "+U[A!, 34]"})
}

// An updating query into sinks: an append-only one is refused in Flink's
// words; an upsert sink takes no -U and keeps one row per key.
func TestGroupAggregateSinks(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	_, err := runSQL(context.Background(), ordersDDL+`CREATE TABLE res (usr STRING, n BIGINT) WITH ('connector' = 'kafka', 'format' = 'json');
INSERT INTO res SELECT usr, COUNT(*) FROM orders GROUP BY usr`, Options{Data: map[string]string{"orders": writeFile(t, "o.jsonl", ordersData)}})
	if err == nil || !strings.Contains(err.Error(), "Table sink 'default_catalog.default_database.res' doesn't support consuming update changes which is produced by node GroupAggregate(groupBy=[usr], select=[usr, COUNT(*)])") {
		t.Fatalf("%v", err)
	}
	s := run(t, ordersDDL+`CREATE TABLE res (usr STRING, n BIGINT, PRIMARY KEY (usr) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'key.format' = 'json', 'value.format' = 'json');
INSERT INTO res SELECT usr, COUNT(*) FROM orders GROUP BY usr`, files).Sinks[0]
	expect(t, "upsert changelog", changelog(s), []string{"+I[a, 1]", "+I[b, 1]", "+U[a, 2]", "+U[a, 3]"})
	expect(t, "upsert final", final(s), []string{"+I[a, 3]", "+I[b, 1]"})
	if !slices.Equal(s.Key, []string{"usr"}) {
		t.Errorf("key %v", s.Key)
	}
}

// runErr runs a job over the orders data and returns its error.
func runErr(t *testing.T, job string) (*Result, error) {
	t.Helper()
	return runSQL(context.Background(), job, Options{Data: map[string]string{"orders": writeFile(t, "orders.jsonl", ordersData)}})
}

// LISTAGG, FIRST_VALUE, LAST_VALUE, BOOL_AND/OR, ARRAY_AGG and COLLECT
// take back a retracted value.
func TestGroupAggregateListsAndFlags(t *testing.T) {
	job := `CREATE TABLE orders (id INT, usr STRING, amount INT) WITH ('connector' = 'kafka', 'format' = 'debezium-json');
SELECT usr, LISTAGG(CAST(id AS STRING)) AS ids, LISTAGG(CAST(amount AS STRING), '|') AS amounts, FIRST_VALUE(id) AS first_id,
  LAST_VALUE(id) AS last_id, BOOL_AND(amount > 5) AS all_big, BOOL_OR(amount > 20) AS any_huge, ARRAY_AGG(id) AS arr
FROM orders GROUP BY usr`
	data := `{"before": null, "after": {"id": 1, "usr": "a", "amount": 10}, "op": "c"}
{"before": null, "after": {"id": 2, "usr": "a", "amount": 30}, "op": "c"}
{"before": {"id": 1, "usr": "a", "amount": 10}, "after": null, "op": "d"}
`
	s := run(t, job, map[string]string{"orders.jsonl": data}).Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		"+I[a, 1, 10, 1, 1, TRUE, FALSE, [1]]",
		"-U[a, 1, 10, 1, 1, TRUE, FALSE, [1]]", "+U[a, 1,2, 10|30, 1, 2, TRUE, TRUE, [1, 2]]",
		"-U[a, 1,2, 10|30, 1, 2, TRUE, TRUE, [1, 2]]", "+U[a, 2, 30, 2, 2, TRUE, TRUE, [2]]",
	})
}

// GROUPING SETS, ROLLUP and CUBE: each row counts once per set, the keys
// outside the set NULL.
func TestGroupingSets(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	s := run(t, ordersDDL+"SELECT usr, COUNT(*) AS n FROM orders WHERE id < 4 GROUP BY GROUPING SETS ((usr), ())", files).Sinks[0]
	expect(t, "grouping sets", changelog(s), []string{
		"+I[a, 1]", "+I[NULL, 1]",
		"+I[b, 1]", "-U[NULL, 1]", "+U[NULL, 2]",
		"-U[a, 1]", "+U[a, 2]", "-U[NULL, 2]", "+U[NULL, 3]"})
	expect(t, "grouping sets final", final(s), []string{"+I[NULL, 3]", "+I[a, 2]", "+I[b, 1]"})
	s = run(t, ordersDDL+"SELECT usr, price, SUM(amount) AS total FROM orders GROUP BY ROLLUP (usr, price)", files).Sinks[0]
	expect(t, "rollup final", final(s), []string{"+I[NULL, NULL, 22]", "+I[a, 0.25, 7]", "+I[a, 1.50, 10]", "+I[a, NULL, 17]", "+I[b, 2.00, 5]", "+I[b, NULL, 5]"})
	s = run(t, ordersDDL+"SELECT usr, price, COUNT(*) AS n FROM orders WHERE id <= 2 GROUP BY CUBE (usr, price)", files).Sinks[0]
	expect(t, "cube final", final(s), []string{"+I[NULL, 1.50, 1]", "+I[NULL, 2.00, 1]", "+I[NULL, NULL, 2]", "+I[a, 1.50, 1]", "+I[a, NULL, 1]", "+I[b, 2.00, 1]", "+I[b, NULL, 1]"})
}

// STDDEV and VARIANCE as Flink reduces them: in the argument's type, an
// integer's with integer division.
func TestVarianceAggregates(t *testing.T) {
	job := `CREATE TABLE v (i INT, d DOUBLE) WITH ('connector' = 'kafka', 'format' = 'json');
SELECT VAR_POP(i) AS vp, VAR_SAMP(i) AS vs, STDDEV_POP(i) AS sp, STDDEV_SAMP(d) AS sd, VAR_POP(d) AS vd FROM v`
	data := `{"i": 1, "d": 1}
{"i": 2, "d": 2}
{"i": 3, "d": 3}
{"i": 4, "d": 4}
`
	s := run(t, job, map[string]string{"v.jsonl": data}).Sinks[0]
	// (30 - 100/4)/4 = 1, (30 - 25)/3 = 1, sqrt(1) = 1; the doubles' sample
	// deviation is sqrt(5/3), their population variance 1.25.
	expect(t, "final", final(s), []string{"+I[1, 1, 1, 1.2909944487358056, 1.25]"})
	if got := changelog(s)[0]; got != "+I[0, NULL, 0, NULL, 0.0]" {
		t.Errorf("first change %s", got)
	}
}
