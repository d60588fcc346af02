package detail

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

func TestChartAxesAndUnits(t *testing.T) {
	st := kit.DarkStyles()
	now := tuitest.Now
	var pts []chartPoint
	for i := 0; i <= 60; i++ {
		v := 1000.0
		if i > 30 {
			v = 3000
		}
		pts = append(pts, chartPoint{at: now.Add(-time.Duration(60-i) * 5 * time.Second), v: v})
	}
	lines := renderChart(st, chartSpec{title: "records in/s", label: kit.Rate, points: pts, from: now.Add(-5 * time.Minute), to: now, line: st.ChartLine}, 60, 8)
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = tuitest.Strip(l)
		if w := kit.Width(lines[i]); w > 60 {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
	if len(lines) != 8 || !strings.HasPrefix(plain[0], " records in/s") || !strings.HasSuffix(strings.TrimRight(plain[0], " "), "3.0k") {
		t.Fatalf("title line %q", plain[0])
	}
	// The y axis runs from 0 to a round top, with a label in the middle.
	if !strings.HasPrefix(plain[1], "3.0k ┤") || !strings.HasPrefix(plain[6], "   0 ┼") || !strings.Contains(plain[3], "┤") {
		t.Errorf("y axis:\n%s", strings.Join(plain, "\n"))
	}
	if !strings.Contains(plain[7], "-5m") || !strings.HasSuffix(strings.TrimRight(plain[7], " "), "now") {
		t.Errorf("time axis %q", plain[7])
	}
	// 3000 is the top: the right half draws in the top row; 1000 is a
	// third up: the left half draws in the lower rows, not the top.
	top := []rune(plain[1])
	if top[len(top)-1] == 0x2800 || top[len([]rune("3.0k ┤"))+2] != 0x2800 {
		t.Errorf("the line is not where its values are:\n%s", strings.Join(plain, "\n"))
	}
	// Unknown values are a gap, and a series of them says so.
	gap := renderChart(st, chartSpec{title: "lag", label: kit.Rate, points: []chartPoint{{now, -1}}, from: now.Add(-time.Minute), to: now, line: st.ChartLine}, 40, 5)
	if !strings.Contains(tuitest.Strip(gap[0]), "not reported") {
		t.Errorf("an unreported figure: %q", tuitest.Strip(gap[0]))
	}
}

func TestNiceCeil(t *testing.T) {
	for in, want := range map[float64]float64{0: 0, 0.04: 0.04, 0.1: 0.1, 14_200: 15_000, 2100: 2500, 3000: 3000, 7: 8, 1: 1} {
		if got := niceCeil(in); got != want {
			t.Errorf("niceCeil(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestLastPathPart(t *testing.T) {
	if got := lastPathPart("hdfs:///flink/sp/x/savepoint-7f3a21/"); got != "savepoint-7f3a21" {
		t.Errorf("got %q", got)
	}
}
