package kit

import (
	"math"
	"strings"
	"time"
)

// sparkRunes are the eight heights of a sparkline cell.
var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// Spark draws values (oldest first, one a cell) on a fixed scale from lo
// to hi, so that lines drawn on the same scale compare row by row (every
// subtask's backpressure from 0 to 100%). A negative value is a gap: a
// blank cell.
func Spark(values []float64, lo, hi float64) string {
	var b strings.Builder
	for _, v := range values {
		if v < 0 || math.IsNaN(v) {
			b.WriteByte(' ')
			continue
		}
		i := 0
		if hi > lo {
			i = int(math.Round((v - lo) / (hi - lo) * float64(len(sparkRunes)-1)))
		}
		b.WriteRune(sparkRunes[Clamp(i, 0, len(sparkRunes)-1)])
	}
	return b.String()
}

// TimedValue is one sample of a figure at a time.
type TimedValue struct {
	At time.Time
	V  float64
}

// Cells spreads samples over cells equal spans of time from from to to,
// each cell the largest of its samples (the worst backpressure or delay
// of its span), -1 where none fell: a sparkline of the last minutes whose
// left stays blank until there were samples then.
func Cells(samples []TimedValue, from, to time.Time, cells int) []float64 {
	out := make([]float64, max(cells, 0))
	for i := range out {
		out[i] = -1
	}
	span := to.Sub(from)
	if span <= 0 || cells <= 0 {
		return out
	}
	for _, s := range samples {
		if s.V < 0 || s.At.Before(from) || s.At.After(to) {
			continue
		}
		i := Clamp(int(float64(s.At.Sub(from))/float64(span)*float64(cells)), 0, cells-1)
		out[i] = max(out[i], s.V)
	}
	return out
}
