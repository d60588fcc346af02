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

// benchRows is the size of the benchmarks' input.
const benchRows = 100_000

// benchData writes benchRows orders as JSON lines, one a second of event
// time, over 100 users.
func benchData(b *testing.B) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "orders.jsonl")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < benchRows; i++ {
		fmt.Fprintf(w, `{"id": %d, "usr": "u%d", "amount": %d, "price": %d.%02d, "ts": "%s"}`+"\n",
			i, i%100, i%37, i%50, i%100, start.Add(time.Duration(i)*time.Second).Format("2006-01-02 15:04:05"))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return p
}

const benchDDL = `CREATE TABLE orders (id BIGINT, usr STRING, amount INT, price DECIMAL(10, 2), ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'kafka', 'format' = 'json');
`

func benchRun(b *testing.B, job string) {
	data := benchData(b)
	opts := Options{Data: map[string]string{"orders": data}, Keep: 1000}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), job, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// A stateless job: JSON decoding, a filter and a projection with
// arithmetic and string functions.
func BenchmarkDebugStateless(b *testing.B) {
	benchRun(b, benchDDL+`SELECT id, UPPER(usr) AS who, price * amount AS total, DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm') AS at_minute
FROM orders WHERE amount > 3`)
}

// A windowed job: one-minute tumbling windows per user.
func BenchmarkDebugWindowAggregate(b *testing.B) {
	benchRun(b, benchDDL+`SELECT window_start, usr, COUNT(*) AS n, SUM(price) AS total, MAX(amount) AS top
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, usr`)
}

// A stateful job with retraction: GROUP BY per user.
func BenchmarkDebugGroupAggregate(b *testing.B) {
	benchRun(b, benchDDL+`SELECT usr, COUNT(*) AS n, SUM(price) AS total, MAX(amount) AS top FROM orders GROUP BY usr`)
}
