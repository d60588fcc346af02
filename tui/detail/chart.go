package detail

import (
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/palink/palink/tui/kit"
)

// Charts are drawn here rather than with a charting library:
// NimbleMarkets/ntcharts, the bubbletea one, is built on bubbletea,
// bubbles and lipgloss v1 (its canvas, linechart and sparkline packages
// import them), and using it would put a second, incompatible copy of the
// charm stack into palink, which is on v2. What palink needs is small: a
// sparkline, and a line chart in braille dots with a labelled y axis and a
// time axis (the sparkline is sparkline.go's). Both are pure functions of
// their data, so golden files pin them.

// chartPoint is one sample of a chart; a negative value is a gap (the
// figure was unknown then).
type chartPoint struct {
	at time.Time
	v  float64
}

// chartSpec describes one line chart.
type chartSpec struct {
	title string
	// label formats a value with its unit, for the axis and the current value.
	label  func(float64) string
	points []chartPoint // oldest first
	// from and to are the time axis; span names it ("5m", "1h").
	from, to time.Time
	// floor and ceil bound the y axis: it starts at floor and reaches at
	// least ceil (a ratio chart passes 0 and 1).
	floor, ceil float64
	line        lipgloss.Style
}

// brailleBits are the dot bits of a braille cell (2 columns × 4 rows),
// by column and row from the top.
var brailleBits = [2][4]rune{{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}}

// renderChart draws a chart in cw × ch cells: a title line with the
// current value, height-2 rows of plot with y labels, and a time axis.
func renderChart(st *kit.Styles, c chartSpec, cw, ch int) []string {
	rows := max(ch-2, 1)
	lo, hi := c.floor, c.ceil
	known := false
	for _, p := range c.points {
		if p.v < 0 || math.IsNaN(p.v) {
			continue
		}
		known = true
		hi = max(hi, p.v)
		lo = min(lo, p.v)
	}
	hi = niceCeil(hi)
	if hi <= lo {
		hi = lo + 1
	}
	// Labels at the top, the middle and the bottom row.
	labels := make([]string, rows)
	labels[0] = c.label(hi)
	labels[rows-1] = c.label(lo)
	if rows >= 5 {
		labels[rows/2] = c.label(lo + (hi-lo)*float64(rows-1-rows/2)/float64(rows-1))
	}
	lw := 0
	for _, l := range labels {
		lw = max(lw, kit.Width(l))
	}
	plotW := max(cw-lw-2, 1)

	// Sample the series into 2 dots per cell, then draw each dot joined
	// to the previous one so the line has no holes.
	cols := plotW * 2
	dots := rows * 4
	level := make([]int, cols)
	for i := range level {
		level[i] = -1
	}
	span := c.to.Sub(c.from)
	if span > 0 {
		for _, p := range c.points {
			if p.v < 0 || math.IsNaN(p.v) || p.at.Before(c.from) || p.at.After(c.to) {
				continue
			}
			x := int(float64(p.at.Sub(c.from)) / float64(span) * float64(cols-1))
			y := int(math.Round((p.v - lo) / (hi - lo) * float64(dots-1)))
			level[kit.Clamp(x, 0, cols-1)] = kit.Clamp(y, 0, dots-1)
		}
	}
	grid := make([][]rune, rows)
	for r := range grid {
		grid[r] = make([]rune, plotW)
		for i := range grid[r] {
			grid[r][i] = 0x2800
		}
	}
	set := func(x, y int) {
		row := rows - 1 - y/4
		grid[row][x/2] |= brailleBits[x%2][3-y%4]
	}
	prev, prevX := -1, -1
	for x, y := range level {
		if y < 0 {
			continue
		}
		set(x, y)
		// Join to the previous sample when it is close (a gap of unknown
		// values or missing samples stays a gap).
		if prev >= 0 && x-prevX <= max(cols/30, 3) {
			for yy := min(prev, y) + 1; yy < max(prev, y); yy++ {
				set(x, yy)
			}
			for xx := prevX + 1; xx < x; xx++ {
				set(xx, prev+(y-prev)*(xx-prevX)/(x-prevX))
			}
		}
		prev, prevX = y, x
	}

	out := make([]string, 0, ch)
	now := st.Dim.Render("no data yet")
	for i := len(c.points) - 1; i >= 0; i-- {
		if p := c.points[i]; p.v >= 0 && !math.IsNaN(p.v) {
			now = st.Bold.Render(c.label(p.v))
			break
		}
	}
	if !known && len(c.points) > 0 {
		now = st.Dim.Render("not reported")
	}
	// The value now stays whole; a long title gives way.
	title := " " + st.Section.Render(kit.Truncate(c.title, max(cw-kit.Width(now)-3, 1)))
	out = append(out, kit.Fit(title+strings.Repeat(" ", max(cw-kit.Width(title)-kit.Width(now)-1, 1))+now, cw))
	for r := 0; r < rows; r++ {
		axis := "┤"
		if r == rows-1 {
			axis = "┼"
		}
		out = append(out, st.Dim.Render(padLeft(labels[r], lw)+" "+axis)+c.line.Render(string(grid[r])))
	}
	out = append(out, st.Dim.Render(strings.Repeat(" ", lw+1)+"└"+timeAxis(c.from, c.to, plotW)))
	return out
}

// timeAxis labels a time axis of w cells with ages: "-5m … -1m now".
func timeAxis(from, to time.Time, w int) string {
	line := []rune(strings.Repeat("─", w))
	span := to.Sub(from)
	if span <= 0 || w < 8 {
		return string(line)
	}
	ticks := 5
	if w < 40 {
		ticks = 2
	}
	put := func(pos int, s string) {
		r := []rune(s)
		pos = kit.Clamp(pos, 0, w-len(r))
		for i, c := range r {
			line[pos+i] = c
		}
	}
	for i := 0; i <= ticks; i++ {
		pos := i * (w - 1) / ticks
		ago := time.Duration(float64(span) * float64(ticks-i) / float64(ticks))
		label := "now"
		if ago > 0 {
			label = "-" + kit.Age(ago.Round(time.Second))
		}
		switch i {
		case 0:
			put(pos, label)
		case ticks:
			put(pos-len(label)+1, label)
		default:
			put(pos-len(label)/2, label)
		}
	}
	return string(line)
}

// niceCeil rounds a chart's top up to a round number (1, 1.2, 1.5, 2, 2.5,
// 3, 4, 5, 6 or 8 times a power of ten), so the axis labels read easily
// and the line uses most of the height.
func niceCeil(v float64) float64 {
	if v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if v <= m*p+1e-9*p {
			return m * p
		}
	}
	return 10 * p
}

func padLeft(s string, w int) string {
	if n := kit.Width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}
