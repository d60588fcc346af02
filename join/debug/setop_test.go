package debug

import (
	"strings"
	"testing"
)

// INTERSECT ALL and EXCEPT ALL as Flink rewrites them: each change of a
// row's counts replicated as many times as copies are left, of the
// change's kind. l has 1, 1, 2, 3 and r has 1, 2, 2, read in turns (l 1,
// r 1, l 1, r 2, l 2, r 2, l 3); worked by hand:
//
//	INTERSECT ALL counts (left, right) per row: 1 (1,0) (1,1) +U[1]; (2,1)
//	-U[1] +U[1]; 2 (0,1) (1,1) +U[2]; (1,2) -U[2] +U[2]; 3 (1,0).
//	EXCEPT ALL sums: 1 +1 +I[1]; 0 -U[1]; +1 +U[1]; 2 -1, 0, -1; 3 +1 +I[3].
func TestAllSetOperations(t *testing.T) {
	ddl := `CREATE TABLE l (v INT) WITH ('connector' = 'kafka', 'format' = 'json');
CREATE TABLE r (v INT) WITH ('connector' = 'kafka', 'format' = 'json');
`
	files := map[string]string{
		"l.jsonl": "{\"v\": 1}\n{\"v\": 1}\n{\"v\": 2}\n{\"v\": 3}\n",
		"r.jsonl": "{\"v\": 1}\n{\"v\": 2}\n{\"v\": 2}\n",
	}
	for _, tc := range []struct {
		op          string
		want, final []string
	}{
		{"INTERSECT ALL", []string{"+U[1]", "-U[1]", "+U[1]", "+U[2]", "-U[2]", "+U[2]"}, []string{"+I[1]", "+I[2]"}},
		{"EXCEPT ALL", []string{"+I[1]", "-U[1]", "+U[1]", "+I[3]"}, []string{"+I[1]", "+I[3]"}},
	} {
		t.Run(tc.op, func(t *testing.T) {
			s := run(t, ddl+"SELECT v FROM l "+tc.op+" SELECT v FROM r", files).Sinks[0]
			expect(t, "changelog", changelog(s), tc.want)
			expect(t, "final", final(s), tc.final)
			if !s.Updating {
				t.Error("INTERSECT ALL and EXCEPT ALL end in a GroupAggregate: updating")
			}
		})
	}
	// Two copies on each side: two copies out, one change at a time.
	files["r.jsonl"] = "{\"v\": 1}\n{\"v\": 1}\n"
	s := run(t, ddl+"SELECT v FROM l INTERSECT ALL SELECT v FROM r", files).Sinks[0]
	expect(t, "two copies", final(s), []string{"+I[1]", "+I[1]"})
}

// Uncorrelated scalar subqueries, as Flink decorrelates them: in the
// SELECT list a LEFT join on TRUE with the subquery's row (an outer row
// that comes before it is sent with NULL, then taken back); in WHERE an
// INNER join, its rows changing as the subquery's value does. Worked by
// hand over orders (amounts 10, 5, 7, NULL; each row reaches the outer
// side first): MAX is 10 from the first row on; AVG (an INT, as Flink's
// AVG of INT) is 10, then 7, then 22/3 = 7 again.
func TestScalarSubqueries(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	s := run(t, ordersDDL+"SELECT id, amount, (SELECT MAX(amount) FROM orders) AS top FROM orders", files).Sinks[0]
	expect(t, "SELECT list", changelog(s), []string{"+I[1, 10, NULL]", "-D[1, 10, NULL]", "+I[1, 10, 10]", "+I[2, 5, 10]", "+I[3, 7, 10]", "+I[4, NULL, 10]"})
	expect(t, "final", final(s), []string{"+I[1, 10, 10]", "+I[2, 5, 10]", "+I[3, 7, 10]", "+I[4, NULL, 10]"})

	s = run(t, ordersDDL+"SELECT id, amount FROM orders WHERE amount > (SELECT AVG(amount) FROM orders)", files).Sinks[0]
	expect(t, "WHERE", changelog(s), []string{"+U[1, 10]"})
	expect(t, "final", final(s), []string{"+I[1, 10]"})

	_, err := runErr(t, ordersDDL+"SELECT id, (SELECT usr FROM orders) AS u FROM orders")
	if err == nil || !strings.Contains(err.Error(), "SingleValueAggFunction received more than one element") {
		t.Errorf("a subquery of several rows: %v", err)
	}
}

// Correlated scalar subqueries, as Flink decorrelates them: the aggregate
// grouped by the inner side of the correlation, joined on it. Worked by
// hand: per user the average (an INT) is a 10, b 5, then a (10+7)/2 = 8;
// the maximum a 10, b 5.
func TestCorrelatedScalarSubqueries(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	s := run(t, ordersDDL+"SELECT id FROM orders o WHERE amount > (SELECT AVG(i.amount) FROM orders i WHERE i.usr = o.usr)", files).Sinks[0]
	expect(t, "WHERE", changelog(s), []string{"+U[1]"})
	expect(t, "final", final(s), []string{"+I[1]"})

	s = run(t, ordersDDL+"SELECT id, (SELECT MAX(i.amount) FROM orders i WHERE i.usr = o.usr AND i.id > 0) AS top FROM orders o", files).Sinks[0]
	expect(t, "SELECT list", changelog(s), []string{"+I[1, NULL]", "-D[1, NULL]", "+I[1, 10]", "+I[2, NULL]", "-D[2, NULL]", "+I[2, 5]", "+I[3, 10]", "+I[4, 10]"})
	expect(t, "final", final(s), []string{"+I[1, 10]", "+I[2, 5]", "+I[3, 10]", "+I[4, 10]"})

	// COUNT over no inner rows is 0, not NULL: the rows of user a with an
	// amount above 6 are counted for each order (b has none). The count's
	// update reaches the LEFT join as a retraction and an insertion: its
	// left rows go back to 0 in between, as Flink's outer join sends them.
	s = run(t, ordersDDL+"SELECT id, (SELECT COUNT(*) FROM orders i WHERE i.usr = o.usr AND i.amount > 6) AS n FROM orders o", files).Sinks[0]
	expect(t, "COUNT", changelog(s), []string{"+I[1, 0]", "-D[1, 0]", "+I[1, 1]", "+I[2, 0]", "+I[3, 1]",
		"-D[1, 1]", "+I[1, 0]", "-D[3, 1]", "+I[3, 0]", "-D[1, 0]", "-D[3, 0]", "+I[1, 2]", "+I[3, 2]", "+I[4, 2]"})
	expect(t, "final", final(s), []string{"+I[1, 2]", "+I[2, 0]", "+I[3, 2]", "+I[4, 2]"})
}

// GROUPING and GROUPING_ID tell the rolled-up rows from the rows whose key
// is NULL: a bit per argument, set when the row's grouping set leaves that
// key out.
func TestGroupingFunction(t *testing.T) {
	data := ordersData + `{"id": 5, "usr": null, "amount": 1, "price": 1.50}
`
	files := map[string]string{"orders.jsonl": data}
	s := run(t, ordersDDL+"SELECT usr, GROUPING(usr) AS g, SUM(amount) AS total FROM orders GROUP BY ROLLUP (usr)", files).Sinks[0]
	expect(t, "rollup", final(s), []string{"+I[NULL, 0, 1]", "+I[NULL, 1, 23]", "+I[a, 0, 17]", "+I[b, 0, 5]"})
	expect(t, "changelog head", changelog(s)[:4], []string{"+I[a, 0, 10]", "+I[NULL, 1, 10]", "+I[b, 0, 5]", "-U[NULL, 1, 10]"})
	s = run(t, ordersDDL+"SELECT usr, price, GROUPING_ID(usr, price) AS gid, GROUPING(price) AS gp FROM orders WHERE id <= 2 GROUP BY CUBE (usr, price)", files).Sinks[0]
	expect(t, "cube", final(s), []string{"+I[NULL, 1.50, 2, 0]", "+I[NULL, 2.00, 2, 0]", "+I[NULL, NULL, 3, 1]",
		"+I[a, 1.50, 0, 0]", "+I[a, NULL, 1, 1]", "+I[b, 2.00, 0, 0]", "+I[b, NULL, 1, 1]"})
	s = run(t, ordersDDL+"SELECT usr, GROUPING(usr) AS g FROM orders WHERE id <= 2 GROUP BY usr", files).Sinks[0]
	expect(t, "no grouping sets", final(s), []string{"+I[a, 0]", "+I[b, 0]"})

	_, err := runErr(t, ordersDDL+"SELECT usr, GROUPING(price) FROM orders GROUP BY usr")
	if err == nil || err.Error() != "debug run: line 3:22: Argument to GROUPING operator must be a grouped expression" {
		t.Errorf("%v", err)
	}
}

// A scalar subquery in the list of an aggregating SELECT joins the
// aggregate's rows (a LEFT join on TRUE): each change of either side
// retracts and re-sends the joined rows, as Flink's outer join does.
// Worked by hand: per user sums a 10, b 5, a 17; the overall sum 10, 15,
// 22.
func TestScalarSubqueryOverAggregate(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	s := run(t, ordersDDL+"SELECT usr, SUM(amount) AS total, (SELECT SUM(amount) FROM orders) AS overall FROM orders GROUP BY usr", files).Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		"+I[a, 10, NULL]", "-D[a, 10, NULL]", "+I[a, 10, 10]",
		"+I[b, 5, 10]", "-D[a, 10, 10]", "+I[a, 10, NULL]", "-D[b, 5, 10]", "+I[b, 5, NULL]",
		"-D[a, 10, NULL]", "-D[b, 5, NULL]", "+I[a, 10, 15]", "+I[b, 5, 15]",
		"-D[a, 10, 15]", "+I[a, 17, 15]",
		"-D[b, 5, 15]", "+I[b, 5, NULL]", "-D[a, 17, 15]", "+I[a, 17, NULL]",
		"-D[b, 5, NULL]", "-D[a, 17, NULL]", "+I[b, 5, 22]", "+I[a, 17, 22]"})
	expect(t, "final", final(s), []string{"+I[a, 17, 22]", "+I[b, 5, 22]"})
}
