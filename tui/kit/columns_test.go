package kit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

type fruit struct {
	name, origin, note string
	kg                 int
}

var fruits = []fruit{
	{"apple", "Kent", "crisp", 12},
	{"persimmon", "Nara", "sweet once soft", 3},
	{"fig", "Smyrna", "", 140},
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// TestColumnsLay: each kind of width, and the optional columns a narrow
// row leaves out.
func TestColumnsLay(t *testing.T) {
	name := Column[fruit]{Title: "NAME", Width: 6, Cell: func(f fruit) string { return f.name }}
	fit := Column[fruit]{Title: "NAME", Fit: true, Cell: func(f fruit) string { return f.name }}
	capped := Column[fruit]{Title: "NAME", Fit: true, Max: 5, Cell: func(f fruit) string { return f.name }}
	origin := Column[fruit]{Title: "ORIGIN", Width: 6, Drop: 2, Cell: func(f fruit) string { return f.origin }}
	weight := Column[fruit]{Title: "KG", Width: 3, Right: true, Drop: 1, Cell: func(f fruit) string { return itoa(f.kg) }}
	note := Column[fruit]{Title: "NOTE", Cell: func(f fruit) string { return f.note }}
	flex := Column[fruit]{Title: "NOTE", Flex: true, Min: 8, Cell: func(f fruit) string { return f.note }}
	for _, c := range []struct {
		name string
		cols Columns[fruit]
		w    int
		want Layout
	}{
		{"fixed and free", Columns[fruit]{name, note}, 40, Layout{6, Free}},
		{"fit to the widest value", Columns[fruit]{fit, note}, 40, Layout{9, Free}},
		{"fit, capped", Columns[fruit]{capped, note}, 40, Layout{5, Free}},
		{"flex takes the rest", Columns[fruit]{name, flex}, 40, Layout{6, 33}},
		{"optional columns while the flex keeps its least", Columns[fruit]{name, origin, weight, flex}, 40, Layout{6, 6, 3, 22}},
		{"the highest drop goes first", Columns[fruit]{name, origin, weight, flex}, 23, Layout{6, 0, 3, 12}},
		{"a column that does not fit is skipped, a later one may", Columns[fruit]{name, weight, origin, flex}, 19, Layout{6, 3, 0, 8}},
		{"all optional columns gone", Columns[fruit]{name, origin, weight, flex}, 12, Layout{6, 0, 0, 5}},
		{"no room for the flex", Columns[fruit]{name, flex}, 4, Layout{6, 0}},
		{"without a flex, optional columns while they fit", Columns[fruit]{name, origin, weight}, 13, Layout{6, 0, 3}},
	} {
		if got := c.cols.Lay(fruits, c.w); !slicesEqual(got, c.want) {
			t.Errorf("%s: Lay(%d) = %v, want %v", c.name, c.w, got, c.want)
		}
	}
}

func slicesEqual(a, b Layout) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestColumnsLines pins a list's rows as the user reads them: titles over
// their cells, numbers right, the free column to the edge and cut there,
// the cursor's row marked and reversed.
func TestColumnsLines(t *testing.T) {
	st := DarkStyles()
	cols := Columns[fruit]{
		{Title: "NAME", Fit: true, Max: 8, Cell: func(f fruit) string { return f.name }},
		{Title: "KG", Width: 5, Right: true, Cell: func(f fruit) string { return itoa(f.kg) }},
		{Title: "NOTE", Cell: func(f fruit) string { return f.note }},
	}
	for _, c := range []struct {
		name      string
		cursor, w int
		from, to  int
		want      []string
	}{
		{"wide", 1, 30, 0, 3, []string{
			"  NAME        KG NOTE",
			"  apple       12 crisp",
			"▸ persimm…     3 sweet once s…",
			"  fig        140",
		}},
		{"cut at the edge", 0, 20, 0, 2, []string{
			"  NAME        KG NO…",
			"▸ apple       12 cr…",
			"  persimm…     3 sw…",
		}},
		{"a window of the rows sizes the fit column", 2, 30, 2, 3, []string{
			"  NAME    KG NOTE",
			"▸ fig    140",
		}},
	} {
		got := cols.Lines(st, fruits, c.cursor, c.from, c.to, c.w)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d lines, want %d: %q", c.name, len(got), len(c.want), got)
			continue
		}
		for i := range got {
			if plain := strings.TrimRight(ansi.Strip(got[i]), " "); plain != c.want[i] {
				t.Errorf("%s: line %d = %q, want %q", c.name, i, plain, c.want[i])
			}
		}
		cur := got[c.cursor-c.from+1]
		if ansi.StringWidth(cur) != c.w || !strings.HasPrefix(cur, strings.TrimSuffix(st.Cursor.Render("x"), "x\x1b[m")) {
			t.Errorf("%s: the cursor's row is not reversed across the list: %q", c.name, cur)
		}
	}
}

// TestColumnsStyleSparesTheCursor: a cell's Style colours it on the rows
// but the cursor's, which is reversed whole.
func TestColumnsStyleSparesTheCursor(t *testing.T) {
	st := DarkStyles()
	marked := func(_ *Styles, _ fruit, s string) string { return "<" + s + ">" }
	cols := Columns[fruit]{{Title: "NAME", Width: 9, Cell: func(f fruit) string { return f.name }, Style: marked}}
	lines := cols.Lines(st, fruits, 1, 0, 3, 20)
	if !strings.Contains(lines[1], "<apple    >") {
		t.Errorf("a row's cell is not styled: %q", lines[1])
	}
	if strings.Contains(lines[2], "<") {
		t.Errorf("the cursor's cells are styled: %q", lines[2])
	}
}

// TestColumnsTitles: the header stops at its last title, so a column
// without one (a meter) leaves no trailing gap, and At is where a column
// starts.
func TestColumnsTitles(t *testing.T) {
	cols := Columns[fruit]{
		{Title: "NAME", Width: 8, Cell: func(f fruit) string { return f.name }},
		{Title: "KG", Width: 4, Right: true, Cell: func(f fruit) string { return itoa(f.kg) }},
		{Cell: func(f fruit) string { return strings.Repeat("#", min(f.kg/10, 5)) }},
	}
	lay := cols.Lay(fruits, 40)
	if got, want := cols.Titles(lay), "NAME       KG"; got != want {
		t.Errorf("titles %q, want %q", got, want)
	}
	if got := cols.Cells(nil, lay, fruits[2]); got != "fig       140 #####" {
		t.Errorf("cells %q", got)
	}
	if got := lay.At(2); got != 14 {
		t.Errorf("the meter starts at %d, want 14", got)
	}
}

// A column with Cut fits a wide cell its own way (a path keeps its last
// part); the others still cut the end.
func TestColumnsCut(t *testing.T) {
	cs := Columns[fruit]{
		{Title: "NAME", Width: 6, Cell: func(f fruit) string { return f.name }},
		{Title: "NOTE", Flex: true, Cell: func(f fruit) string { return f.note }, Cut: func(_ fruit, s string, w int) string { return ElideMiddle(s, w) }},
	}
	lay := cs.Lay(fruits, 17)
	if got := cs.Cells(nil, lay, fruits[1]); got != "persi… sweet…soft" {
		t.Errorf("cells %q", got)
	}
	if got := cs.Cells(nil, lay, fruits[0]); got != "apple  crisp     " {
		t.Errorf("a cell that fits is kept whole: %q", got)
	}
}
