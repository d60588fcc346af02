package observe

import (
	"slices"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
)

func TestRingKeepsTheNewest(t *testing.T) {
	r := newRing[int](3)
	if got := r.items(); len(got) != 0 {
		t.Fatalf("empty ring holds %v", got)
	}
	for i := 1; i <= 7; i++ {
		r.push(i)
	}
	if got := r.items(); !slices.Equal(got, []int{5, 6, 7}) || r.len() != 3 {
		t.Errorf("after 7 pushes into 3: %v", got)
	}
}

func TestSeriesDownsamplesToMinutes(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	s := newSeries(5 * time.Second)
	if s.recent.buf == nil || len(s.recent.buf) != 61 {
		t.Fatalf("five minutes at 5s need 61 slots, got %d", len(s.recent.buf))
	}
	// 2h of points: 12 per minute; in the first half of each minute the
	// rate is 100 and backpressure low, in the second 300 and a spike.
	for i := 0; i < 12*120; i++ {
		at := t0.Add(time.Duration(i) * 5 * time.Second)
		p := api.MetricPoint{At: at, RecordsIn: 100, Backpressure: 0.1, BackpressureVertex: "a", Lag: api.Unknown,
			WatermarkDelay: api.Unknown, Restarts: int64(i / 12)}
		if i%12 >= 6 {
			p.RecordsIn, p.WatermarkDelay = 300, time.Second
		}
		if i%12 == 9 {
			p.Backpressure, p.BackpressureVertex = 0.9, "sink"
		}
		s.add(p)
	}
	now := t0.Add(2 * time.Hour)
	recent := s.recentSince(now.Add(-recentSpan))
	if len(recent) != 60 || !recent[0].At.Equal(now.Add(-recentSpan)) {
		t.Fatalf("recent: %d points from %s", len(recent), recent[0].At)
	}
	hour := s.hourSince(now.Add(-hourSpan))
	if len(hour) != 60 {
		t.Fatalf("hour: %d buckets, want 60", len(hour))
	}
	b := hour[10]
	if b.At.Second() != 0 || b.RecordsIn != 200 || b.Backpressure != 0.9 || b.BackpressureVertex != "sink" ||
		b.WatermarkDelay != time.Second || b.Lag != api.Unknown {
		t.Errorf("a bucket: %+v; want the mean rate (200), the worst backpressure (0.9 at sink), the worst delay, lag unknown", b)
	}
	if b.Restarts != int64((b.At.Sub(t0))/time.Minute) {
		t.Errorf("bucket restarts %d: want the latest of its minute", b.Restarts)
	}
	// A pause: points older than the window are not recent.
	if got := s.recentSince(now.Add(time.Hour)); len(got) != 0 {
		t.Errorf("an hour later, %d points are still recent", len(got))
	}
	if sp := s.spark(now.Add(-recentSpan)); len(sp) != sparkPoints || sp[len(sp)-1] != 300 {
		t.Errorf("spark %v", sp)
	}
}
