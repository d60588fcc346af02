package kit

import (
	"testing"
	"time"
)

// Samples fall in their span's cell, the worst of a span drawn, on a
// fixed scale; a span without a sample is blank.
func TestSparkCells(t *testing.T) {
	t0 := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	samples := []TimedValue{{at(5), 0.2}, {at(8), 0.9}, {at(35), 0}, {at(-5), 1}, {at(55), -1}}
	cells := Cells(samples, t0, at(60), 6)
	want := []float64{0.9, -1, -1, 0, -1, -1}
	for i := range want {
		if cells[i] != want[i] {
			t.Fatalf("cells %v, want %v", cells, want)
		}
	}
	if got := Spark(cells, 0, 1); got != "▇  ▁  " {
		t.Errorf("Spark = %q", got)
	}
	if got := Spark([]float64{0, 0.5, 1, 2}, 0, 1); got != "▁▅██" {
		t.Errorf("Spark on 0..1 = %q", got)
	}
}
