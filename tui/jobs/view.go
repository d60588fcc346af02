package jobs

import (
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// View implements kit.Screen.
func (m *Screen) View() string {
	st := m.env.Styles
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	inner := w - 2
	lay := m.layout()

	title := st.Title.Render(m.Title())
	switch {
	case m.filter.active:
		title += " " + m.filter.input.View()
	case m.queryText != "":
		title += st.Dim.Render(" filter: ") + m.queryText
	}
	if m.queryErr != nil {
		title += " " + st.Error.Render("✖ "+m.queryErr.Error())
	}
	// What the width hides is named, in the room the note's first part
	// leaves: the position, or that the order holds.
	keep := fmt.Sprintf("%d/%d", min(m.cursor+1, len(m.rows)), len(m.rows))
	if m.held != nil {
		keep = heldLabel
	}
	title += st.Dim.Render(hiddenNote(lay.hidden(), inner-2-kit.Width(title)-1-(kit.Width(keep)+2)))
	note := m.note(kit.Width(title), inner)
	lines := make([]string, 0, h-2)
	lines = append(lines, "   "+headerRow(st, lay, m.sortCol, m.sortDesc, m.held == nil))
	body := h - 3
	switch {
	case !m.loaded && m.loadErr != nil:
		lines = append(lines, kit.Centered(st.LoadFailed(m.loadErr), inner, body)...)
	case !m.loaded:
		lines = append(lines, kit.Centered(st.Dim.Render("loading jobs…"), inner, body)...)
	case len(m.byID) == 0:
		lines = append(lines, kit.Centered(st.Dim.Render("no jobs yet — n creates one, :cluster adopts a running application"), inner, body)...)
	case len(m.rows) == 0:
		lines = append(lines, kit.Centered(st.Dim.Render("no job matches — esc clears the filter"), inner, body)...)
	default:
		end := min(m.offset+body, len(m.rows))
		for i := m.offset; i < end; i++ {
			j := m.rows[i]
			lines = append(lines, renderRow(st, m.env.Now, j, lay, i == m.cursor, m.marks[j.ID], inner))
		}
	}
	return kit.Box(st, title, note, lines, w, h)
}

// note is the right of the table's top edge: the sort (or that it is
// paused), the marks and the position. When the title leaves too little
// room, the sort label goes first, then the marks (the footer counts them
// too), then the position; "sort paused" stays while the order holds.
func (m *Screen) note(titleWidth, inner int) string {
	st := m.env.Styles
	var parts [3]string // sort, marks, position
	switch {
	case m.held != nil:
		parts[0] = st.Warn.Render(heldLabel)
	case m.sortCol != colName || m.sortDesc:
		parts[0] = st.Dim.Render("sort " + sortLabel(m.sortCol, m.sortDesc))
	}
	if n := len(m.marks); n > 0 {
		parts[1] = st.Mark.Render(fmt.Sprintf("✓ %d marked", n))
	}
	parts[2] = fmt.Sprintf("%d/%d", min(m.cursor+1, len(m.rows)), len(m.rows))
	join := func() string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, st.Border.Render(" ─ "))
	}
	room := inner - titleWidth - 4 // the spaces around the title and the note
	drop := []int{1, 2}
	if m.held == nil {
		drop = []int{0, 1, 2}
	}
	for _, i := range drop {
		if kit.Width(join()) <= room {
			break
		}
		parts[i] = ""
	}
	return join()
}

// hiddenNote names the hidden columns, the most telling first, in at most
// room cells: " · hidden: UP CKPT +5", or "" when none is hidden or not
// even a count fits.
func hiddenNote(hidden []column, room int) string {
	if len(hidden) == 0 {
		return ""
	}
	for k := len(hidden); k >= 0; k-- {
		names := make([]string, 0, k+1)
		for _, c := range hidden[:k] {
			names = append(names, jobColumns[c].title)
		}
		if k < len(hidden) {
			names = append(names, fmt.Sprintf("+%d", len(hidden)-k))
		}
		text := " · hidden: " + strings.Join(names, " ")
		if kit.Width(text) <= room {
			return text
		}
	}
	return ""
}

// heldLabel says that the order holds (the note's).
const heldLabel = "sort paused"

// sortLabel is a column's title with the direction of its sort.
func sortLabel(c column, desc bool) string {
	arrow := "▲"
	if desc {
		arrow = "▼"
	}
	return jobColumns[c].title + arrow
}

// layout is the columns the table shows at its width: the box, the mark
// column and a margin on the right taken.
func (m *Screen) layout() layout {
	f := m.fits
	f[colState] += m.env.Styles.StateMarkWidth()
	return jobLayout(m.width-6, f, m.sortCol, m.oneCluster())
}

// headerRow is the column headings, the sort column's with its arrow, and
// in each the letter that shift sorts by underlined (keys: not while the
// order holds, when sorting waits).
func headerRow(st *kit.Styles, lay layout, sortCol column, desc, keys bool) string {
	var out, run strings.Builder // run: the plain text not yet rendered
	for i, c := range lay.cols {
		if i > 0 {
			run.WriteByte(' ')
		}
		t := jobColumns[c].title
		if c == sortCol {
			t = sortLabel(c, desc)
		}
		w := lay.widths[c]
		if kit.Width(t) > w {
			t = kit.Truncate(t, w)
		}
		pad := strings.Repeat(" ", w-kit.Width(t))
		if jobColumns[c].right {
			run.WriteString(pad)
		}
		k := jobColumns[c].key
		if at := strings.Index(t, k); keys && k != "" && at >= 0 {
			run.WriteString(t[:at])
			if run.Len() > 0 {
				out.WriteString(st.ColumnHeader.Render(run.String()))
			}
			out.WriteString(st.SortKey.Render(k))
			run.Reset()
			t = t[at+len(k):]
		}
		run.WriteString(t)
		if !jobColumns[c].right {
			run.WriteString(pad)
		}
	}
	if run.Len() > 0 {
		out.WriteString(st.ColumnHeader.Render(run.String()))
	}
	return out.String()
}

// renderRow renders one visible row: the cursor row is reversed as a whole,
// other rows colour only their state badge (which, without colour, a
// failed or killed job's symbol leads).
func renderRow(st *kit.Styles, now time.Time, j *api.JobView, lay layout, isCursor, marked bool, inner int) string {
	cells := jobCells(j, now)
	cells[colIn] = inCell(cells[colIn], lay.widths[colIn])
	cells[colState] = st.StateMark(j.State) + cells[colState]
	stale := showsFigures(j) && now.Sub(j.Figures.At) >= staleFigures
	var b strings.Builder
	switch {
	case isCursor:
		b.WriteString("▸")
	default:
		b.WriteString(" ")
	}
	mark := " "
	if marked {
		mark = "✓"
	}
	if !isCursor && mark != " " {
		mark = st.Mark.Render(mark)
	}
	b.WriteString(mark)
	b.WriteByte(' ')
	for i, c := range lay.cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		var cell string
		if jobColumns[c].right {
			cell = kit.FitRight(cells[c], lay.widths[c])
		} else {
			cell = kit.Fit(cells[c], lay.widths[c])
		}
		switch {
		case isCursor:
		case c == colState:
			cell = st.Job(&j.Job).Render(cell)
		case stale && (c == colIn || c == colOut || c == colBP || c == colLag):
			cell = st.Dim.Render(cell)
		}
		b.WriteString(cell)
	}
	if isCursor {
		return st.Cursor.Render(kit.Fit(b.String(), inner))
	}
	return b.String()
}
