package debug

import "testing"

func TestUnnest(t *testing.T) {
	job := `CREATE TABLE ev (id INT, tags ARRAY<STRING>, items ARRAY<ROW<sku STRING, qty INT>>, attrs MAP<STRING, INT>)
  WITH ('connector' = 'kafka', 'format' = 'json');
`
	files := map[string]string{"ev.jsonl": `{"id": 1, "tags": ["x", "y"], "items": [{"sku": "s1", "qty": 2}], "attrs": {"k": 7}}
{"id": 2, "tags": [], "items": null, "attrs": null}
`}
	for _, tc := range []struct {
		sql  string
		want []string
	}{
		{"SELECT id, tag FROM ev CROSS JOIN UNNEST(tags) AS t(tag)", []string{"+I[1, x]", "+I[1, y]"}},
		{"SELECT id, sku, qty FROM ev CROSS JOIN UNNEST(items) AS i(sku, qty)", []string{"+I[1, s1, 2]"}},
		{"SELECT id, k, v FROM ev, UNNEST(attrs) AS m(k, v)", []string{"+I[1, k, 7]"}},
		{"SELECT id, tag, n FROM ev LEFT JOIN UNNEST(tags) WITH ORDINALITY AS t(tag, n) ON TRUE", []string{"+I[1, x, 1]", "+I[1, y, 2]", "+I[2, NULL, NULL]"}},
	} {
		s := run(t, job+tc.sql, files).Sinks[0]
		expect(t, tc.sql, changelog(s), tc.want)
	}
}

// UNION ALL passes both inputs' changes on, an updating one's too.
func TestUnionAll(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	s := run(t, ordersDDL+"SELECT id, usr FROM orders WHERE amount > 8 UNION ALL SELECT id, usr FROM orders WHERE usr = 'b'", files).Sinks[0]
	expect(t, "append-only", changelog(s), []string{"+I[1, a]", "+I[2, b]"})
	s = run(t, ordersDDL+"SELECT usr, COUNT(*) AS n FROM orders GROUP BY usr UNION ALL SELECT 'all', CAST(id AS BIGINT) FROM orders WHERE id = 1", files).Sinks[0]
	expect(t, "updating", changelog(s), []string{"+I[a, 1]", "+I[all, 1]", "+I[b, 1]", "-U[a, 1]", "+U[a, 2]", "-U[a, 2]", "+U[a, 3]"})
	expect(t, "updating final", final(s), []string{"+I[a, 3]", "+I[all, 1]", "+I[b, 1]"})
}

// UNION, INTERSECT and EXCEPT give distinct rows, as a GroupAggregate
// over a union, a semi join or an anti join.
func TestDistinctSetOperations(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	for _, tc := range []struct {
		op   string
		want []string
	}{
		{"UNION", []string{"+I[a]", "+I[b]"}},
		{"INTERSECT", []string{"+I[b]"}},
		// b passes until the right side has it.
		{"EXCEPT", []string{"+I[a]", "+I[b]", "-D[b]"}},
	} {
		s := run(t, ordersDDL+"SELECT usr FROM orders "+tc.op+" SELECT usr FROM orders WHERE id = 2", files).Sinks[0]
		expect(t, tc.op, changelog(s), tc.want)
	}
}
