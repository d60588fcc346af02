package debug

import "testing"

// Scalar subqueries in HAVING, as Flink decorrelates them: the
// aggregate's rows joined (INNER, as in WHERE) to the subquery's row, or
// to its aggregate grouped by the correlation key, then HAVING's filter.
// Sources without a watermark are read a row of each in turn.
func TestScalarSubqueryInHaving(t *testing.T) {
	files := map[string]string{
		"orders.jsonl": ordersData,
		"limits.jsonl": `{"lim": 8}` + "\n",
		"caps.jsonl":   `{"usr": "a", "cap": 12}` + "\n" + `{"usr": "b", "cap": 1}` + "\n",
	}
	ddl := ordersDDL + `CREATE TABLE limits (lim INT) WITH ('connector' = 'kafka', 'format' = 'json');
CREATE TABLE caps (usr STRING, cap INT) WITH ('connector' = 'kafka', 'format' = 'json');
`
	// limits' 8 comes with orders' first row: a's 10 passes, b's 5 never
	// does, a's 17 updates it; a's NULL amount changes nothing.
	s := run(t, ddl+"SELECT usr, SUM(amount) AS total FROM orders GROUP BY usr HAVING SUM(amount) > (SELECT MAX(lim) FROM limits)", files).Sinks[0]
	expect(t, "uncorrelated changelog", changelog(s), []string{"+I[a, 10]", "-U[a, 10]", "+U[a, 17]"})
	expect(t, "uncorrelated final", final(s), []string{"+I[a, 17]"})

	// Correlated by the group key: a's 10 is under its cap 12 (filtered),
	// b's 5 over its cap 1, then a's 17 over 12 — its -U[a, 10] was
	// filtered as its +I was, so only the +U passes (as Flink's Calc lets
	// it).
	s = run(t, ddl+"SELECT usr, SUM(amount) AS total FROM orders GROUP BY usr HAVING SUM(amount) > (SELECT MAX(cap) FROM caps WHERE caps.usr = orders.usr)", files).Sinks[0]
	expect(t, "correlated changelog", changelog(s), []string{"+I[b, 5]", "+U[a, 17]"})
	expect(t, "correlated final", final(s), []string{"+I[a, 17]", "+I[b, 5]"})
}
