package debug

import "testing"

const procOrdersDDL = `CREATE TABLE orders (id INT, usr STRING, amount INT, price DECIMAL(10, 2), pt AS PROCTIME())
  WITH ('connector' = 'kafka', 'format' = 'json');
`

// ROW_NUMBER() = 1 by processing time: keeping the first row is
// append-only; keeping the last updates the row held.
func TestDeduplicateProcTime(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	s := run(t, procOrdersDDL+`SELECT id, usr FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY usr ORDER BY pt ASC) AS rn FROM orders) WHERE rn = 1`, files).Sinks[0]
	expect(t, "first row", changelog(s), []string{"+I[1, a]", "+I[2, b]"})
	if s.Updating {
		t.Error("keeping the first row by processing time is append-only")
	}
	s = run(t, procOrdersDDL+`SELECT id, usr FROM (
  SELECT id, usr, ROW_NUMBER() OVER (PARTITION BY usr ORDER BY pt DESC) AS rownum FROM orders) WHERE rownum <= 1`, files).Sinks[0]
	expect(t, "last row", changelog(s), []string{"+I[1, a]", "+I[2, b]", "-U[1, a]", "+U[3, a]", "-U[3, a]", "+U[4, a]"})
	expect(t, "last row final", final(s), []string{"+I[2, b]", "+I[4, a]"})
}

// By event time, a row replaces the one held when it is earlier (first
// row) or not older (last row), whatever order the rows come in.
func TestDeduplicateRowTime(t *testing.T) {
	data := bidData + `{"bidtime": "2020-04-15 08:01:00", "price": 9.00, "item": "Z", "supplier_id": "supplier1"}
`
	files := map[string]string{"Bid.jsonl": data}
	s := run(t, bidDDL+`SELECT supplier_id, item FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY supplier_id ORDER BY bidtime) AS rn FROM Bid) WHERE rn = 1`, files).Sinks[0]
	expect(t, "first row", changelog(s), []string{"+I[supplier1, C]", "+I[supplier2, D]", "-U[supplier1, C]", "+U[supplier1, Z]"})
	s = run(t, bidDDL+`SELECT supplier_id, item FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY supplier_id ORDER BY bidtime DESC) AS rn FROM Bid) WHERE rn = 1`, files).Sinks[0]
	expect(t, "last row final", final(s), []string{"+I[supplier1, E]", "+I[supplier2, F]"})
}

// Top-N per partition: a row that enters a full top-N pushes the last one
// out (-D, then +I); with the row number selected, every rank that moves
// is updated.
func TestTopN(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT item, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY supplier_id ORDER BY price DESC) AS rn FROM Bid) WHERE rn <= 2`, files).Sinks[0]
	expect(t, "top 2", changelog(s), []string{"+I[C, 4.00]", "+I[A, 2.00]", "+I[D, 5.00]", "+I[B, 3.00]", "-D[B, 3.00]", "+I[F, 6.00]"})
	expect(t, "top 2 final", final(s), []string{"+I[A, 2.00]", "+I[C, 4.00]", "+I[D, 5.00]", "+I[F, 6.00]"})

	s = run(t, bidDDL+`SELECT item, price, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY supplier_id ORDER BY price DESC) AS rn FROM Bid) WHERE rn <= 2`, files).Sinks[0]
	expect(t, "top 2 numbered", changelog(s), []string{
		"+I[C, 4.00, 1]", "+I[A, 2.00, 2]", "+I[D, 5.00, 1]", "+I[B, 3.00, 2]",
		"-U[D, 5.00, 1]", "+U[F, 6.00, 1]", "-U[B, 3.00, 2]", "+U[D, 5.00, 2]"})
	expect(t, "top 2 numbered final", final(s), []string{"+I[A, 2.00, 2]", "+I[C, 4.00, 1]", "+I[D, 5.00, 2]", "+I[F, 6.00, 1]"})

	s = run(t, bidDDL+"SELECT item, price FROM Bid ORDER BY price DESC LIMIT 2", files).Sinks[0]
	expect(t, "ORDER BY LIMIT", changelog(s), []string{"+I[C, 4.00]", "+I[A, 2.00]", "-D[A, 2.00]", "+I[D, 5.00]", "-D[C, 4.00]", "+I[F, 6.00]"})
	expect(t, "ORDER BY LIMIT final", final(s), []string{"+I[D, 5.00]", "+I[F, 6.00]"})

	_, err := runErr(t, ordersDDL+"SELECT * FROM orders ORDER BY amount")
	if err == nil || err.Error() != "debug run: line 3:31: Sort on a non-time-attribute field is not supported." {
		t.Errorf("%v", err)
	}
}

// A top-N over an updating input (GROUP BY): a row that leaves the top-N
// is deleted and the one that moves up inserted; a row that enters pushes
// the last one out.
func TestTopNOverUpdates(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT supplier_id, total FROM (
  SELECT *, ROW_NUMBER() OVER (ORDER BY total DESC) AS rn FROM (
    SELECT supplier_id, SUM(price) AS total FROM Bid GROUP BY supplier_id)) WHERE rn <= 1`, files).Sinks[0]
	// The sums: s1 4 → s1 6 (-U 4, +U 6) → s2 5 → s2 8 (-U 5, +U 8) →
	// s1 7 → s2 14 (-U 8: s1 7 moves up; +U 14 pushes it out again).
	expect(t, "changelog", changelog(s), []string{
		"+I[supplier1, 4.00]",
		"-D[supplier1, 4.00]", "+I[supplier1, 6.00]",
		"-D[supplier1, 6.00]", "+I[supplier2, 8.00]",
		"-D[supplier2, 8.00]", "+I[supplier1, 7.00]",
		"-D[supplier1, 7.00]", "+I[supplier2, 14.00]",
	})
	expect(t, "final", final(s), []string{"+I[supplier2, 14.00]"})
}

// A top-N with its number over an updating input (Flink's retract
// strategy with the rank number): the number is the key, each rank whose
// row changes updated, a rank left empty deleted. Worked by hand over the
// sums per user: a 10, b 5, then a's 10 retracted (b moves up to 1, rank
// 2 is left empty) and a 17 added (a takes 1, b 2 again).
func TestTopNNumberOverUpdates(t *testing.T) {
	files := map[string]string{"orders.jsonl": ordersData}
	s := run(t, ordersDDL+`SELECT usr, total, rn FROM (
  SELECT usr, total, ROW_NUMBER() OVER (ORDER BY total DESC) AS rn FROM (
    SELECT usr, SUM(amount) AS total FROM orders GROUP BY usr)) WHERE rn <= 2`, files).Sinks[0]
	expect(t, "changelog", changelog(s), []string{
		"+I[a, 10, 1]", "+I[b, 5, 2]",
		"-U[a, 10, 1]", "+U[b, 5, 1]", "-D[b, 5, 2]",
		"-U[b, 5, 1]", "+U[a, 17, 1]", "+I[b, 5, 2]",
	})
	expect(t, "final", final(s), []string{"+I[a, 17, 1]", "+I[b, 5, 2]"})
}
