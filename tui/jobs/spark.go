package jobs

import (
	"fmt"
	"math"
	"strings"

	"github.com/palink/palink/tui/kit"
)

// sparkRunes are the eight heights of a sparkline cell.
var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// sparkline draws values (oldest first) as the last width cells. The
// scale runs from 80% of the lowest value to the highest, so that the usual
// swings of a rate show, while a steady rate stays near the top instead of
// turning noise into peaks; a rate that fell to zero touches the bottom.
// Fewer values than cells leave blanks on the left.
func sparkline(values []float64, width int) string {
	if width <= 0 {
		return ""
	}
	if len(values) > width {
		values = values[len(values)-width:]
	}
	lo, hi := math.Inf(1), 0.0
	for _, v := range values {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	lo = max(lo*0.8, 0)
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", width-len(values)))
	for _, v := range values {
		i := len(sparkRunes) / 2
		switch {
		case hi <= 0:
			i = 0 // nothing flows
		case hi > lo:
			i = int(math.Round((v - lo) / (hi - lo) * float64(len(sparkRunes)-1)))
		}
		b.WriteRune(sparkRunes[kit.Clamp(i, 0, len(sparkRunes)-1)])
	}
	return b.String()
}

// sparkRate is the IN/s text: the sparkline, then the rate padded so that
// the sparklines of every row line up.
func sparkRate(spark []float64, rate float64) string {
	return sparkline(spark, sparkCells) + " " + fmt.Sprintf("%5s", kit.Rate(rate))
}

// sparkInWidth is the IN/s column's width with a sparkline: the cells, a
// space, and a rate like "12.4k".
const sparkInWidth = sparkCells + 1 + 6

// inCell fits the IN/s text to its column: the sparkline goes when the
// column is too narrow for it, the rate stays.
func inCell(s string, w int) string {
	if kit.Width(s) <= w {
		return s
	}
	if i := strings.LastIndexByte(s, ' '); i >= 0 {
		return s[i+1:]
	}
	return s
}
