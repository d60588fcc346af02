package localrun_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
)

// peakHeap samples the heap until stop is called, which returns the
// highest samples of its objects (garbage not yet swept included) and of
// what the last collection found live.
func peakHeap() (stop func() (objects, live uint64)) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var peak, peakLive uint64
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			peakLive = max(peakLive, sample[1].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		return peak, peakLive
	}
}

// outPeak is the peak heap of the --out benchmark by its rows, for the
// ratio of the larger run to the smaller one.
var outPeak = map[int]float64{}

// BenchmarkDebugOutMemory runs `palink debug --out`'s path (the Debugger,
// its events drained as the CLI drains them) over a stateless job whose
// every input row reaches the sink, at 100k and 1M rows. The peak heap
// should be flat in the output's size: the rows go to the file, the run
// keeps only state. peak-MB is the highest heap sampled during the run;
// x-100k the 1M run's over the 100k run's.
func BenchmarkDebugOutMemory(b *testing.B) {
	for _, rows := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			dir := b.TempDir()
			orders := filepath.Join(dir, "orders.jsonl")
			f, err := os.Create(orders)
			if err != nil {
				b.Fatal(err)
			}
			w := bufio.NewWriter(f)
			start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
			for i := 0; i < rows; i++ {
				fmt.Fprintf(w, `{"id": %d, "usr": "u%d", "amount": %d, "price": %d.%02d, "ts": "%s"}`+"\n",
					i, i%100, i%37, i%50, i%100, start.Add(time.Duration(i)*time.Second).Format("2006-01-02 15:04:05"))
			}
			if err := w.Flush(); err != nil {
				b.Fatal(err)
			}
			f.Close()
			job := `CREATE TABLE orders (id BIGINT, usr STRING, amount INT, price DECIMAL(10, 2), ts TIMESTAMP(3))
  WITH ('connector' = 'kafka', 'format' = 'json');
SELECT id, usr, price * amount AS total, ts FROM orders WHERE amount >= 0`
			var peak, live uint64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				runtime.GC()
				stop := peakHeap()
				ch, err := (&localrun.Debugger{}).Debug(context.Background(), api.DebugRequest{
					SQL: job, Data: map[string]string{"orders": orders}, Out: filepath.Join(dir, "out.jsonl")})
				if err != nil {
					b.Fatal(err)
				}
				var fin api.DebugEvent
				for ev := range ch {
					if ev.Kind == api.DebugFinished {
						fin = ev
					}
				}
				p, l := stop()
				peak, live = max(peak, p), max(live, l)
				if fin.Err != nil {
					b.Fatal(fin.Err)
				}
				if len(fin.Sinks) != 1 || fin.Sinks[0].Rows != rows {
					b.Fatalf("the sink received %+v, want %d rows", fin.Sinks, rows)
				}
			}
			mb := float64(peak) / (1 << 20)
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(mb, "peak-MB")
			b.ReportMetric(float64(live)/(1<<20), "live-MB")
			outPeak[rows] = mb
			if small, ok := outPeak[100_000]; ok && rows > 100_000 {
				b.ReportMetric(mb/small, "x-100k")
			}
		})
	}
}
