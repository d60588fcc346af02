package tui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The formatters here are pure: the same input gives the same text, so rows
// can be table-tested and golden files stay stable.

// noValue stands for a figure that is unknown or does not apply.
const noValue = "-"

// fmtAge renders a duration the way k9s and kubectl do: the two largest
// units, compact ("9s", "14m", "3h12m", "3d4h").
func fmtAge(d time.Duration) string {
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

// fmtSince is fmtAge of now − t, or "-" for a zero time.
func fmtSince(now, t time.Time) string {
	if t.IsZero() {
		return noValue
	}
	return fmtAge(now.Sub(t))
}

// fmtAgo is fmtSince with " ago", for prose.
func fmtAgo(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return fmtAge(now.Sub(t)) + " ago"
}

// fmtRate renders records per second with a metric suffix: "850", "3.1k",
// "48.0k", "1.2M".
func fmtRate(v float64) string {
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

// fmtBytes renders a size in binary units.
func fmtBytes(n int64) string {
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

// fmtBackpressure renders Flink's backpressure ratio with Flink's own levels
// (OK ≤ 10 %, LOW ≤ 50 %, HIGH above) as a shade, so the eye finds the
// problem without reading numbers.
func fmtBackpressure(ratio float64) string {
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

// fmtDuration renders a short duration with sub-second precision ("1.2s", "340ms").
func fmtDuration(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmtAge(d)
}

// shortID keeps the head and tail of a long id ("3f9c…a21e").
func shortID(s string, keep int) string {
	if len(s) <= 2*keep+1 {
		return s
	}
	return s[:keep] + "…" + s[len(s)-keep:]
}

// width is the number of cells s takes. Most cells are plain ASCII, whose
// width is their length; only the others pay for grapheme segmentation,
// which is most of a frame's cost otherwise.
func width(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == 0x1b || c < 0x20 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// fit pads or truncates s (which may carry ANSI styles) to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := width(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-sw)
}

// fitRight is fit with the text aligned right.
func fitRight(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := width(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-sw) + s
}

// truncate cuts s to at most w cells.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// firstLine is the first line of s, marked when more follow.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// padLines makes s exactly h lines of width w, so that the frame below it
// never moves.
func padLines(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fit(l, w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}
