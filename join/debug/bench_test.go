package debug

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The targets on one core: a stateless pipeline reads at least
// 100k rows/s, a stateful one 20k rows/s.
const (
	statelessTarget = 100_000
	statefulTarget  = 20_000
)

// benchRows is the size of the benchmarks' input.
const benchRows = 1_000_000

var benchStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// writeOrders writes n orders as JSON lines, one a second of event time,
// over 100 users.
func writeOrders(b *testing.B, n int) string {
	b.Helper()
	return writeLines(b, "orders.jsonl", n, func(w *bufio.Writer, i int) {
		fmt.Fprintf(w, `{"id": %d, "usr": "u%d", "amount": %d, "price": %d.%02d, "ts": "%s"}`+"\n",
			i, i%100, i%37, i%50, i%100, benchStart.Add(time.Duration(i)*time.Second).Format("2006-01-02 15:04:05"))
	})
}

// writeShipments writes a shipment 30 s after each order of writeOrders;
// every tenth is for an order that does not exist.
func writeShipments(b *testing.B, n int) string {
	b.Helper()
	return writeLines(b, "shipments.jsonl", n, func(w *bufio.Writer, i int) {
		order := i
		if i%10 == 0 {
			order += n
		}
		fmt.Fprintf(w, `{"order_id": %d, "carrier": "c%d", "ts": "%s"}`+"\n",
			order, i%7, benchStart.Add(time.Duration(i)*time.Second+30*time.Second).Format("2006-01-02 15:04:05"))
	})
}

func writeLines(b *testing.B, name string, n int, line func(*bufio.Writer, int)) string {
	p := filepath.Join(b.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < n; i++ {
		line(w, i)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return p
}

const benchDDL = `CREATE TABLE orders (id BIGINT, usr STRING, amount INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'kafka', 'format' = 'json');
`

const benchShipmentsDDL = `CREATE TABLE shipments (order_id BIGINT, carrier STRING, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'kafka', 'format' = 'json');
`

// benchRun runs job over data b.N times, checks that its sink received
// want changes, and reports the rows read per second and their ratio to
// target. Keep bounds what the sinks hold in memory, as `palink debug
// --out` does.
func benchRun(b *testing.B, job string, data map[string]string, rows int, want int64, target float64) {
	b.Helper()
	opts := Options{Data: data, Keep: 1000}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := runSQL(context.Background(), job, opts)
		if err != nil {
			b.Fatal(err)
		}
		c := res.Sinks[0].Counts
		if got := c[0] + c[1] + c[2] + c[3]; got != want {
			b.Fatalf("the sink received %d changes, want %d", got, want)
		}
	}
	perSec := float64(rows) * float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(perSec, "rows/s")
	b.ReportMetric(perSec/target, "x-target")
}

// passing is how many of rows 0…n-1 pass keep.
func passing(n int, keep func(int) bool) int64 {
	var c int64
	for i := range n {
		if keep(i) {
			c++
		}
	}
	return c
}

// A stateless job: JSON decoding, a filter and a projection with
// arithmetic and string functions.
func BenchmarkDebugStateless(b *testing.B) {
	data := map[string]string{"orders": writeOrders(b, benchRows)}
	benchRun(b, benchDDL+`SELECT id, UPPER(usr) AS who, price * amount AS total, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm') AS at_minute
FROM orders WHERE amount > 3`, data, benchRows, passing(benchRows, func(i int) bool { return i%37 > 3 }), statelessTarget)
}

// A windowed job: one-minute tumbling windows per user, fired by the
// watermark.
func BenchmarkDebugWindowAggregate(b *testing.B) {
	data := map[string]string{"orders": writeOrders(b, benchRows)}
	benchRun(b, benchDDL+`SELECT window_start, usr, COUNT(*) AS n, SUM(price) AS total, MAX(amount) AS top
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, usr`, data, benchRows, benchRows, statefulTarget) // a minute's 60 rows are 60 users
}

// A stateful job with retraction: GROUP BY per user.
func BenchmarkDebugGroupAggregate(b *testing.B) {
	data := map[string]string{"orders": writeOrders(b, benchRows)}
	benchRun(b, benchDDL+`SELECT usr, COUNT(*) AS n, SUM(price) AS total, MAX(amount) AS top FROM orders GROUP BY usr`,
		data, benchRows, 100+2*(benchRows-100), statefulTarget) // +I for a user's first row, -U and +U after
}

// A join job: an interval join of orders with their shipments within a
// minute, half the input on each side; rows leave the state as the
// watermarks pass them.
func BenchmarkDebugIntervalJoin(b *testing.B) {
	data := map[string]string{"orders": writeOrders(b, benchRows/2), "shipments": writeShipments(b, benchRows/2)}
	benchRun(b, benchDDL+benchShipmentsDDL+`SELECT o.id, o.usr, s.carrier, s.ts
FROM orders o JOIN shipments s ON o.id = s.order_id AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '1' MINUTE`,
		data, benchRows, benchRows/2*9/10, statefulTarget)
}
