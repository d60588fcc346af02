package kit

import (
	"cmp"
	"slices"
	"strings"
)

// Column is one column of a list, as k9s's render package describes its
// tables: a title, how wide it is drawn, and how a row's cell reads. A
// list's rows are drawn from its columns by a pure function (Columns.Lines),
// never by hand-padded format strings.
//
// A column is one of four widths: fixed (Width); Fit, as wide as its
// widest value among the rows on screen and its title (Width the least,
// Max the most when set); Flex, the cells the others leave; or free
// (none of these), its text as long as it is, which the row's edge cuts —
// the last column's note, value or repository.
type Column[T any] struct {
	Title string
	Width int
	Fit   bool
	Max   int
	Flex  bool
	// Min is the least a Flex column keeps before an optional column
	// (Drop) takes any of the row.
	Min   int
	Right bool
	// Drop makes the column optional: it shows only where it fits (with a
	// Flex column, where that keeps its Min), the optional columns asked in
	// ascending Drop, so that a narrow terminal loses the highest first.
	// 0 always shows.
	Drop int
	// Cell is a row's text in the column (plain: the renderer pads and
	// cuts it by its width, which styles would confuse).
	Cell func(T) string
	// Style colours a cell once fitted, on every row but the cursor's
	// (which is drawn reversed whole); nil leaves it plain.
	Style func(st *Styles, row T, cell string) string
	// Cut fits a cell wider than its column into w cells, for a value
	// whose end says more than its middle (ElidePath keeps the chk-N of a
	// checkpoint's path); nil cuts the cell's end.
	Cut func(row T, cell string, w int) string
}

// Columns are a list's columns, in display order.
type Columns[T any] []Column[T]

// Free marks a Layout width that runs to the row's end.
const Free = -1

// Layout is how wide each column is drawn, in the order of its Columns:
// 0 hides the column, Free lets it run to the row's end.
type Layout []int

// At is the cell at which column i starts in a row.
func (l Layout) At(i int) int {
	at := 0
	for _, w := range l[:i] {
		if w != 0 {
			at += max(w, 0) + 1
		}
	}
	return at
}

// Lay sizes the columns for rows of w cells (the gutter excluded); rows
// are those on screen, whose values size the Fit columns. Cells are one
// space apart; a Flex column takes what the others leave, or nothing.
func (cs Columns[T]) Lay(rows []T, w int) Layout {
	lay := make(Layout, len(cs))
	flex := -1
	used := 0
	var optional []int
	for i, c := range cs {
		switch {
		case c.Flex:
			flex = i
		case c.Drop > 0:
			optional = append(optional, i)
		case !c.Fit && c.Width == 0:
			lay[i] = Free
		default:
			lay[i] = cs.width(i, rows)
			used += lay[i] + 1
		}
	}
	slices.SortStableFunc(optional, func(a, b int) int { return cmp.Compare(cs[a].Drop, cs[b].Drop) })
	for _, i := range optional {
		need := cs.width(i, rows) + 1
		switch {
		case flex >= 0 && w-used-need < cs[flex].Min:
			continue
		case flex < 0 && used+need > w+1:
			continue
		}
		lay[i] = need - 1
		used += need
	}
	if flex >= 0 {
		lay[flex] = max(w-used, 0)
	}
	return lay
}

// width is a fixed or Fit column's width over rows.
func (cs Columns[T]) width(i int, rows []T) int {
	c := cs[i]
	if !c.Fit {
		return c.Width
	}
	n := max(c.Width, Width(c.Title))
	for _, r := range rows {
		n = max(n, Width(c.Cell(r)))
	}
	if c.Max > 0 {
		n = min(n, c.Max)
	}
	return n
}

// Titles is the header's text at lay, plain; it ends with the last
// titled column (a meter's column has no title, and no trailing gap).
func (cs Columns[T]) Titles(lay Layout) string {
	last := -1
	for i, c := range cs {
		if lay[i] != 0 && c.Title != "" {
			last = i
		}
	}
	return cs.join(lay, last, func(i int) string { return cs[i].Title }, nil)
}

// Cells is a row's text at lay; with st, each cell coloured by its
// column's Style (nil st: plain).
func (cs Columns[T]) Cells(st *Styles, lay Layout, row T) string {
	var style func(i int, s string) string
	if st != nil {
		style = func(i int, s string) string {
			if cs[i].Style == nil {
				return s
			}
			return cs[i].Style(st, row, s)
		}
	}
	return cs.join(lay, len(cs)-1, func(i int) string {
		s := cs[i].Cell(row)
		if c := cs[i].Cut; c != nil && lay[i] > 0 && Width(s) > lay[i] {
			s = c(row, s, lay[i])
		}
		return s
	}, style)
}

// Texts are a row's cells as text, every column's (a filter looks in
// them: what the user reads is what matches).
func (cs Columns[T]) Texts(row T) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Cell(row)
	}
	return out
}

// join fits the text of the shown columns up to last to their widths, one
// space apart.
func (cs Columns[T]) join(lay Layout, last int, text func(i int) string, style func(i int, s string) string) string {
	var b strings.Builder
	first := true
	for i := 0; i <= last; i++ {
		if lay[i] == 0 {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		s := text(i)
		switch {
		case lay[i] == Free:
		case cs[i].Right:
			s = FitRight(s, lay[i])
		default:
			s = Fit(s, lay[i])
		}
		if style != nil {
			s = style(i, s)
		}
		b.WriteString(s)
	}
	return b.String()
}

// Gutter is the cells before a list's row: the cursor's mark, or blank.
const Gutter = 2

// Lines draws a list w cells wide: its header, then rows [from, to) of
// rows, the cursor's row marked and reversed, the others' cells styled.
// The Fit columns are as wide as the values of the rows drawn. Pure, so
// that the tests can pin every row.
func (cs Columns[T]) Lines(st *Styles, rows []T, cursor, from, to, w int) []string {
	from, to = Clamp(from, 0, len(rows)), Clamp(to, 0, len(rows))
	lay := cs.Lay(rows[from:to], w-Gutter)
	out := make([]string, 0, to-from+1)
	out = append(out, st.ColumnHeader.Render(Truncate("  "+cs.Titles(lay), w)))
	for i := from; i < to; i++ {
		out = append(out, cs.Row(st, lay, rows[i], i == cursor, w))
	}
	return out
}

// Row draws one row of a list w cells wide at lay: the cursor's marked
// and reversed, any other with its gutter blank and its cells styled.
func (cs Columns[T]) Row(st *Styles, lay Layout, row T, cursor bool, w int) string {
	if cursor {
		return st.Cursor.Render(Fit("▸ "+cs.Cells(nil, lay, row), w))
	}
	return "  " + Truncate(cs.Cells(st, lay, row), w-Gutter)
}

// MarkGutter is the cells before a row of a list whose rows can be
// marked: the cursor's ▸, the mark's ✓, a space.
const MarkGutter = 3

// MarkedRow is Row for a list whose rows can be marked (space), drawn as
// the jobs table draws its rows: ▸ for the cursor, then ✓ for a mark (in
// the Mark style but on the cursor's row, which is reversed whole).
func (cs Columns[T]) MarkedRow(st *Styles, lay Layout, row T, cursor, marked bool, w int) string {
	mark := " "
	if marked {
		mark = "✓"
	}
	if cursor {
		return st.Cursor.Render(Fit("▸"+mark+" "+cs.Cells(nil, lay, row), w))
	}
	if marked {
		mark = st.Mark.Render(mark)
	}
	return " " + mark + " " + Truncate(cs.Cells(st, lay, row), w-MarkGutter)
}
