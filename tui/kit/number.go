package kit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Number renders a metric's value as read: an integer whole (a count, a
// timestamp in ms), from a thousand up to the unit ("1181116006"), a
// smaller fraction to four significant digits ("0.4286", "12.5").
func Number(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return NoValue
	case v == math.Trunc(v) && math.Abs(v) < 1e15, math.Abs(v) >= 1000 && math.Abs(v) < 1e15:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Compact renders any value in at most six cells, for a chart's axis:
// "0.42", "12.5", "850", "48.0k", "1.2M", "3.4G".
func Compact(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return NoValue
	case a >= 1e9:
		return fmt.Sprintf("%.1fG", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.1fk", v/1e3)
	case a >= 100 || v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v)
	case a >= 1:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0")
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}
