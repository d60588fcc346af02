package diagnose

import (
	"testing"
	"time"

	"github.com/palink/palink/core/api"
)

// TestRatesAreMeasuredBetweenTwoReads: a vertex read twice gets the rates
// of the span between the reads; a first read, a restarted subtask, a read
// too soon or a sample too old leave Flink's meters.
func TestRatesAreMeasuredBetweenTwoReads(t *testing.T) {
	t0 := time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)
	rows := func(attempt int, in0, in1 int64) []api.SubtaskRow {
		return []api.SubtaskRow{
			{Index: 0, Attempt: attempt, RecordsIn: in0, RecordsOut: in0 / 2, RecordsInPerSec: 7, RecordsOutPerSec: 7},
			{Index: 1, Attempt: attempt, RecordsIn: in1, RecordsOut: in1 / 2, RecordsInPerSec: 7, RecordsOutPerSec: 7},
		}
	}
	var s rateSamples
	first := rows(0, 1_000_000, 9_000_000)
	if w := s.measure("j/v", first, t0); w != 0 || first[0].RecordsInPerSec != 7 {
		t.Fatalf("a first read: window %v, rows %+v", w, first)
	}
	soon := rows(0, 1_000_100, 9_000_100)
	if w := s.measure("j/v", soon, t0.Add(300*time.Millisecond)); w != 0 || soon[0].RecordsInPerSec != 7 {
		t.Fatalf("a read 300 ms later: window %v", w)
	}
	second := rows(0, 1_050_000, 9_010_000)
	if w := s.measure("j/v", second, t0.Add(5*time.Second)); w != 5*time.Second ||
		second[0].RecordsInPerSec != 10_000 || second[1].RecordsInPerSec != 2_000 || second[0].RecordsOutPerSec != 5_000 {
		t.Fatalf("5 s later: window %v, rows %+v", w, second)
	}
	if sk := skewOf(second, false); sk.Subtask != 0 || !second[0].Hot || sk.Window != 0 {
		t.Fatalf("the skew of the window's rates: %+v", sk) // Window is set by Vertex
	}
	restarted := rows(1, 10, 20)
	if w := s.measure("j/v", restarted, t0.Add(10*time.Second)); w != 0 || restarted[0].RecordsInPerSec != 7 {
		t.Fatalf("after a restart: window %v", w)
	}
	late := rows(1, 1000, 2000)
	if w := s.measure("j/v", late, t0.Add(time.Hour)); w != 0 {
		t.Fatalf("an hour after the last read: window %v", w)
	}
	for i := range maxSamples + 10 {
		s.measure(string(rune('a'+i%26))+time.Duration(i).String(), rows(0, 1, 1), t0.Add(time.Duration(i)*time.Second))
	}
	if len(s.m) > maxSamples {
		t.Fatalf("%d samples kept, at most %d", len(s.m), maxSamples)
	}
}
