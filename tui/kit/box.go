package kit

import (
	"strings"
)

// Box draws lines inside a border of exactly w×h cells, with a title on the
// left of the top edge and a note on its right, as k9s frames its tables:
//
//	┌ Jobs · all clusters ─ filter: state:FAILED ─────── 3/198 ┐
//
// Lines are fitted to the inner width; missing lines are blank.
func Box(st *Styles, title, note string, lines []string, w, h int) string {
	if w < 4 || h < 2 {
		return PadLines(strings.Join(lines, "\n"), max(w, 0), max(h, 0))
	}
	inner := w - 2
	var b strings.Builder
	b.Grow(w * h * 2)

	// Top edge: ┌ title ─…─ note ┐
	left := ""
	if title != "" {
		left = " " + title + " "
	}
	right := ""
	if note != "" {
		right = " " + note + " "
	}
	if Width(left)+Width(right) > inner {
		right = ""
	}
	left = Truncate(left, inner)
	fill := inner - Width(left) - Width(right)
	b.WriteString(st.Border.Render("┌"))
	b.WriteString(left)
	b.WriteString(st.Border.Render(strings.Repeat("─", max(fill, 0))))
	b.WriteString(right)
	b.WriteString(st.Border.Render("┐"))

	side := st.Border.Render("│")
	for i := range h - 2 {
		b.WriteByte('\n')
		b.WriteString(side)
		if i < len(lines) {
			b.WriteString(Fit(lines[i], inner))
		} else {
			b.WriteString(strings.Repeat(" ", inner))
		}
		b.WriteString(side)
	}
	b.WriteByte('\n')
	b.WriteString(st.Border.Render("└" + strings.Repeat("─", inner) + "┘"))
	return b.String()
}

// Centered places a short message in the middle of an otherwise empty area,
// for empty, loading and error states.
func Centered(msg string, w, h int) []string {
	lines := strings.Split(msg, "\n")
	out := make([]string, 0, h)
	top := max((h-len(lines))/2, 0)
	for range top {
		out = append(out, "")
	}
	for _, l := range lines {
		pad := max((w-Width(l))/2, 0)
		out = append(out, strings.Repeat(" ", pad)+l)
	}
	return out
}
