package debug

import (
	"context"
	"testing"
)

// Flink's documented GROUPING SETS in a window aggregation: each window's
// rows per supplier and its total over all (supplier_id NULL), emitted
// when the window fires.
func TestWindowGroupingSets(t *testing.T) {
	files := map[string]string{"Bid.jsonl": bidData}
	s := run(t, bidDDL+`SELECT window_start, window_end, supplier_id, SUM(price) AS total_price, GROUPING(supplier_id) AS g
  FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, GROUPING SETS ((supplier_id), ())`, files).Sinks[0]
	// Each window's rows come as it fires, its keys in the order they
	// came: a row of supplier1 expands to (supplier1) and then ().
	expect(t, "changelog", changelog(s), []string{
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, supplier1, 6.00, 0]",
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, NULL, 11.00, 1]",
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, supplier2, 5.00, 0]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, supplier2, 9.00, 0]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, NULL, 10.00, 1]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, supplier1, 1.00, 0]",
	})
	want := []string{
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, NULL, 11.00, 1]",
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, supplier1, 6.00, 0]",
		"+I[2020-04-15 08:00:00.000, 2020-04-15 08:10:00.000, supplier2, 5.00, 0]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, NULL, 10.00, 1]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, supplier1, 1.00, 0]",
		"+I[2020-04-15 08:10:00.000, 2020-04-15 08:20:00.000, supplier2, 9.00, 0]",
	}
	expect(t, "final", final(s), want)
	if s.Updating {
		t.Error("a window aggregate with grouping sets is append-only")
	}
	o := Options{Data: map[string]string{"Bid": writeFile(t, "Bid.jsonl", bidData)}}
	_, err := runSQL(context.Background(), bidDDL+`SELECT window_start, SUM(price) FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY GROUPING SETS ((window_start, window_end), ())`, o)
	if err == nil || err.Error() != "debug run: line 5:1: every grouping set of a window aggregate must hold window_start and window_end" {
		t.Errorf("a set without the window: %v", err)
	}
}
