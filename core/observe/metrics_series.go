package observe

import (
	"time"

	"github.com/palink/palink/core/api"
)

// Spans of a job's metric history: the recent window at full rate, and the
// hour in one-minute buckets.
const (
	recentSpan = 5 * time.Minute
	hourSpan   = time.Hour
	bucketSpan = time.Minute
	// sparkPoints is how many recent points the jobs table's sparkline shows.
	sparkPoints = 10
)

// ring is a fixed-capacity FIFO: pushing into a full ring drops the oldest.
// It never grows, so a job's history costs the same after a day as after
// five minutes.
type ring[T any] struct {
	buf  []T
	head int // index of the oldest item
	n    int
}

func newRing[T any](capacity int) *ring[T] {
	return &ring[T]{buf: make([]T, max(capacity, 1))}
}

func (r *ring[T]) push(v T) {
	if r.n < len(r.buf) {
		r.buf[(r.head+r.n)%len(r.buf)] = v
		r.n++
		return
	}
	r.buf[r.head] = v
	r.head = (r.head + 1) % len(r.buf)
}

// items copies the contents, oldest first.
func (r *ring[T]) items() []T {
	out := make([]T, 0, r.n)
	for i := 0; i < r.n; i++ {
		out = append(out, r.buf[(r.head+i)%len(r.buf)])
	}
	return out
}

func (r *ring[T]) len() int { return r.n }

// series is one job's metric history: the last five minutes at the
// collection interval, and the last hour downsampled to one-minute buckets
// (the bucket being filled is kept apart until its minute is over).
type series struct {
	recent *ring[api.MetricPoint]
	hour   *ring[api.MetricPoint]
	acc    bucket
}

func newSeries(interval time.Duration) *series {
	n := int((recentSpan + interval - 1) / max(interval, time.Millisecond))
	return &series{
		recent: newRing[api.MetricPoint](n + 1),
		hour:   newRing[api.MetricPoint](int(hourSpan / bucketSpan)),
	}
}

func (s *series) add(p api.MetricPoint) {
	s.recent.push(p)
	start := p.At.Truncate(bucketSpan)
	if s.acc.n > 0 && !start.Equal(s.acc.start) {
		s.hour.push(s.acc.point())
		s.acc = bucket{}
	}
	if s.acc.n == 0 {
		s.acc.start = start
	}
	s.acc.add(p)
}

// recentSince is the full-rate history from since on, oldest first: points
// from before a pause in collection (the job was off screen) are not recent.
func (s *series) recentSince(since time.Time) []api.MetricPoint {
	all := s.recent.items()
	for i, p := range all {
		if !p.At.Before(since) {
			return all[i:]
		}
	}
	return nil
}

// hourSince is the downsampled history from since on, the bucket being
// filled included.
func (s *series) hourSince(since time.Time) []api.MetricPoint {
	out := s.hour.items()
	if s.acc.n > 0 {
		out = append(out, s.acc.point())
	}
	for i, p := range out {
		if !p.At.Before(since) {
			return out[i:]
		}
	}
	return nil
}

// spark is the last few records-in rates, oldest first.
func (s *series) spark(since time.Time) []float64 {
	pts := s.recentSince(since)
	if len(pts) > sparkPoints {
		pts = pts[len(pts)-sparkPoints:]
	}
	out := make([]float64, len(pts))
	for i, p := range pts {
		out[i] = p.RecordsIn
	}
	return out
}

// bucket folds the points of one minute into one: rates are averaged, the
// figures that alert (backpressure, busy time, watermark delay, lag) keep
// their worst, the checkpoint and restart figures their latest, and the
// charts' values are averaged over the points that have them.
type bucket struct {
	start         time.Time
	n             int
	in, out       float64
	worst, latest api.MetricPoint
	known         bool // worst holds a point
	charts        map[string]float64
	chartN        map[string]int
}

func (b *bucket) add(p api.MetricPoint) {
	b.n++
	b.in += p.RecordsIn
	b.out += p.RecordsOut
	b.latest = p
	for k, v := range p.Charts {
		if b.charts == nil {
			b.charts, b.chartN = map[string]float64{}, map[string]int{}
		}
		b.charts[k] += v
		b.chartN[k]++
	}
	if !b.known {
		b.worst, b.known = p, true
		return
	}
	if p.Backpressure > b.worst.Backpressure {
		b.worst.Backpressure, b.worst.BackpressureVertex = p.Backpressure, p.BackpressureVertex
	}
	b.worst.Busy = max(b.worst.Busy, p.Busy)
	b.worst.WatermarkDelay = max(b.worst.WatermarkDelay, p.WatermarkDelay) // Unknown (-1) loses to any value
	b.worst.Lag = max(b.worst.Lag, p.Lag)
}

func (b *bucket) point() api.MetricPoint {
	p := b.latest // checkpoints, failures, restarts: as of the end of the minute
	p.At = b.start
	p.RecordsIn, p.RecordsOut = b.in/float64(b.n), b.out/float64(b.n)
	p.Backpressure, p.BackpressureVertex = b.worst.Backpressure, b.worst.BackpressureVertex
	p.Busy, p.WatermarkDelay, p.Lag = b.worst.Busy, b.worst.WatermarkDelay, b.worst.Lag
	p.Charts = nil
	if len(b.charts) > 0 {
		p.Charts = make(map[string]float64, len(b.charts))
		for k, sum := range b.charts {
			p.Charts[k] = sum / float64(b.chartN[k])
		}
	}
	return p
}
