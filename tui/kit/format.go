package kit

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The formatters here are pure: the same input gives the same text, so rows
// can be table-tested and golden files stay stable.

// NoValue stands for a figure that is unknown or does not apply.
const NoValue = "-"

// Age renders a duration the way k9s and kubectl do: the two largest
// units, compact ("9s", "14m", "3h12m", "3d4h").
func Age(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 24*time.Hour:
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 {
			return fmt.Sprintf("%dh", h)
		}
		return fmt.Sprintf("%dh%dm", h, m)
	default:
		days, h := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
		if h == 0 {
			return fmt.Sprintf("%dd", days)
		}
		return fmt.Sprintf("%dd%dh", days, h)
	}
}

// Since is Age of now − t, or "-" for a zero time.
func Since(now, t time.Time) string {
	if t.IsZero() {
		return NoValue
	}
	return Age(now.Sub(t))
}

// Ago is Since with " ago", for prose.
func Ago(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return Age(now.Sub(t)) + " ago"
}

// Rate renders records per second with a metric suffix: "850", "3.1k",
// "48.0k", "1.2M".
func Rate(v float64) string {
	switch {
	case v <= 0 || math.IsNaN(v):
		return "0"
	case v < 1000:
		return fmt.Sprintf("%.0f", v)
	case v < 1e6:
		return fmt.Sprintf("%.1fk", v/1e3)
	default:
		return fmt.Sprintf("%.1fM", v/1e6)
	}
}

// Count renders a count (records of lag) in at most four cells: "850",
// "3.1k", "48k", "1.2M", "340M".
func Count(v float64) string {
	switch {
	case v <= 0 || math.IsNaN(v):
		return "0"
	case v < 1000:
		return fmt.Sprintf("%.0f", v)
	case v < 9950:
		return fmt.Sprintf("%.1fk", v/1e3)
	case v < 999500:
		return fmt.Sprintf("%.0fk", v/1e3)
	case v < 9.95e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v < 999.5e6:
		return fmt.Sprintf("%.0fM", v/1e6)
	}
	return fmt.Sprintf("%.0fG", v/1e9)
}

// Bytes renders a size in binary units.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// Backpressure renders Flink's backpressure ratio with Flink's own levels
// (OK ≤ 10 %, LOW ≤ 50 %, HIGH above) as a shade, so the eye finds the
// problem without reading numbers.
func Backpressure(ratio float64) string {
	pct := int(math.Round(ratio * 100))
	switch {
	case ratio > 0.5:
		return fmt.Sprintf("█ %d%%", pct)
	case ratio > 0.1:
		return fmt.Sprintf("▒ %d%%", pct)
	default:
		return fmt.Sprintf("░ %d%%", pct)
	}
}

// Duration renders a short duration with sub-second precision ("1.2s", "340ms").
func Duration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return Age(d)
}

// Percent renders a ratio (0..1) as a whole percentage, "?" when
// unknown (negative).
func Percent(ratio float64) string {
	if ratio < 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f%%", 100*ratio)
}

// ContainerShort shortens a YARN container id to what tells the
// containers of one application apart: "…042_01_000002".
func ContainerShort(id string) string {
	if len(id) <= 14 {
		return id
	}
	return "…" + id[len(id)-13:]
}

// VertexShort is a Flink vertex's name without its argument lists:
// "LookupJoin[3]" for "LookupJoin[3](table=[…], …)".
func VertexShort(name string) string {
	if i := strings.IndexByte(name, '('); i > 0 {
		return name[:i]
	}
	return name
}

// ShortID keeps the head and tail of a long id ("3f9c…a21e").
func ShortID(s string, keep int) string {
	if len(s) <= 2*keep+1 {
		return s
	}
	return s[:keep] + "…" + s[len(s)-keep:]
}

// Width is the number of cells s takes. Most cells are plain ASCII, whose
// width is their length; only the others pay for grapheme segmentation,
// which is most of a frame's cost otherwise.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == 0x1b || c < 0x20 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// Fit pads or truncates s (which may carry ANSI styles) to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := Width(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-sw)
}

// FitRight is Fit with the text aligned right.
func FitRight(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := Width(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-sw) + s
}

// Truncate cuts s to at most w cells.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// ElideMiddle cuts s (plain text) to at most w cells by taking out its
// middle: its head and its tail stay, "…" between them. An id or a name
// is told apart by both ends; Truncate keeps only the first.
func ElideMiddle(s string, w int) string {
	sw := Width(s)
	switch {
	case w <= 0:
		return ""
	case sw <= w:
		return s
	case w == 1:
		return "…"
	}
	keep := w - 1
	tail := keep / 2
	return ansi.Truncate(s, keep-tail, "") + "…" + ansi.TruncateLeft(s, sw-tail, "")
}

// PathName is the last part of a path or URL, the one that names it:
// "savepoint-7f3a21" of hdfs:///flink/sp/orders-enrich/savepoint-7f3a21/.
func PathName(p string) string {
	p = strings.TrimRight(p, "/")
	return p[strings.LastIndexByte(p, '/')+1:]
}

// ElidePath cuts a path or URL (hdfs:///flink/ck/3f9c0d1e/chk-8812) to at
// most w cells by taking out the middle of its directories, so that its
// last part, the one that names it (chk-8812, savepoint-7f3a21), stays
// whole: "hdfs:///fl…/chk-8812". Where even that part does not fit, it
// loses its own middle (ElideMiddle).
func ElidePath(p string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(p) <= w {
		return p
	}
	trimmed := strings.TrimRight(p, "/")
	i := strings.LastIndexByte(trimmed, '/')
	if i < 0 {
		return ElideMiddle(p, w)
	}
	dir, name := trimmed[:i], p[i:] // name keeps its "/" and any trailing one
	room := w - Width(name) - 1     // for the head of dir, after "…"
	if room < 0 {
		return ElideMiddle(strings.TrimPrefix(name, "/"), w)
	}
	return ansi.Truncate(dir, room, "") + "…" + name
}

// WrapPath breaks a path or URL into lines of at most w cells after its
// slashes, so that each line holds whole parts of it; a part wider than w
// is broken where it must be.
func WrapPath(p string, w int) []string {
	if w <= 0 || Width(p) <= w {
		return []string{p}
	}
	var parts []string
	for rest := p; rest != ""; {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			parts = append(parts, rest)
			break
		}
		parts = append(parts, rest[:i+1])
		rest = rest[i+1:]
	}
	var out []string
	line := ""
	for _, part := range parts {
		if line != "" && Width(line)+Width(part) > w {
			out, line = append(out, line), ""
		}
		line += part
		for Width(line) > w {
			out = append(out, ansi.Truncate(line, w, ""))
			line = ansi.TruncateLeft(line, w, "")
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// FirstLine is the first line of s, marked when more follow.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// PadLines makes s exactly h lines of width w, so that the frame below it
// never moves.
func PadLines(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = Fit(l, w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}

// Wrap breaks prose into lines of at most w cells.
func Wrap(s string, w int) []string {
	if w <= 0 {
		return []string{s}
	}
	return strings.Split(ansi.Wrap(s, w, " "), "\n")
}

// Flow packs parts into lines of at most w cells, joined by sep, starting
// a new line where the next part would not fit: a summary of figures wraps
// between figures, never inside one. A part wider than w is a line of its
// own.
func Flow(parts []string, sep string, w int) []string {
	var out []string
	line := ""
	for _, p := range parts {
		switch {
		case line == "":
			line = p
		case Width(line)+Width(sep)+Width(p) <= w:
			line += sep + p
		default:
			out = append(out, line)
			line = p
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// ClockTime renders a timestamp for history lists: the time alone when it is
// today, the date too when it is not.
func ClockTime(now, t time.Time) string {
	if t.IsZero() {
		return NoValue
	}
	t = t.In(now.Location())
	y1, m1, d1 := now.Date()
	if y2, m2, d2 := t.Date(); y1 == y2 && m1 == m2 && d1 == d2 {
		return t.Format("15:04:05")
	}
	return t.Format("Jan 02 15:04")
}

// Plural is "1 word" or "n words".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// OrDash is s, or NoValue when s is empty.
func OrDash(s string) string {
	if s == "" {
		return NoValue
	}
	return s
}
