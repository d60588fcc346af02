package logview

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/kit"
)

// pane is what of the log the viewer holds and shows: the window of a few
// chunks (win) and what is known of the file past it, the line of it on
// top and the wrapped row within it, the sideways scroll when lines are
// not wrapped, and the size on screen. Its moves stay inside the window;
// reading past it is the viewer's.
type pane struct {
	win    logWindow
	loaded bool  // the window was read at least once
	size   int64 // the file's size as last seen; -1 unknown
	more   bool  // the last read said bytes follow
	// offs are the file offsets of the window's lines when they are not
	// the file's bytes in a row (a filter's); nil for the file's.
	offs []int64

	top, sub, xoff int
	wrap           bool
	width, height  int
}

// viewAtEnd reports that the view shows the window's last page.
func (p *pane) viewAtEnd() bool {
	t, s := p.lastPage()
	return p.loaded && p.top == t && p.sub == s
}

// hasMore reports bytes after the window.
func (p *pane) hasMore() bool {
	if p.size >= 0 {
		return p.win.end() < p.size
	}
	return p.more
}

// atBottom reports that the view shows the end of the file as last seen.
func (p *pane) atBottom() bool { return p.viewAtEnd() && !p.hasMore() }

// lineOff is the file offset where line i starts.
func (p *pane) lineOff(i int) int64 {
	if p.offs != nil {
		return p.offs[i]
	}
	return p.win.lineOffset(i)
}

// topOffset is the file offset of the top line.
func (p *pane) topOffset() int64 {
	if len(p.win.lines) == 0 {
		return 0
	}
	return p.lineOff(p.top)
}

// textRows renders the rows of log text from the top of the view, rows at
// most, as pt styles them.
func (p *pane) textRows(pt painter, rows int) []string {
	out := make([]string, 0, rows)
	cols := p.cols()
	for i, sub := p.top, p.sub; len(out) < rows && i < len(p.win.lines); i, sub = i+1, 0 {
		styled, w := pt.paint(p.win.line(i), p.lineOff(i))
		if !p.wrap {
			switch {
			case w-p.xoff > cols:
				// Cut on the right, at any sideways scroll: say so.
				styled = ansi.Cut(styled, p.xoff, p.xoff+cols-1) + "…"
			case p.xoff > 0:
				styled = ansi.Cut(styled, p.xoff, p.xoff+cols)
			}
			out = append(out, styled)
			continue
		}
		n := max((w+cols-1)/cols, 1)
		for r := sub; r < n && len(out) < rows; r++ {
			if n == 1 {
				out = append(out, styled)
			} else {
				out = append(out, ansi.Cut(styled, r*cols, (r+1)*cols))
			}
		}
	}
	return out
}

// page is the number of rows of log text on screen.
func (p *pane) page() int { return max(p.height-3, 1) }

// cols is the width of log text.
func (p *pane) cols() int { return max(p.width-2, 1) }

// rowsOf is how many screen rows line i takes.
func (p *pane) rowsOf(i int) int {
	if !p.wrap {
		return 1
	}
	w := kit.Width(cleanLine(p.win.line(i)))
	return max((w+p.cols()-1)/p.cols(), 1)
}

// scroll moves the view by n rows (negative: up), within the window.
func (p *pane) scroll(n int) {
	for ; n > 0; n-- {
		if p.sub+1 < p.rowsOf(p.top) {
			p.sub++
		} else if p.top+1 < len(p.win.lines) {
			p.top, p.sub = p.top+1, 0
		} else {
			break
		}
	}
	for ; n < 0; n++ {
		if p.sub > 0 {
			p.sub--
		} else if p.top > 0 {
			p.top--
			p.sub = p.rowsOf(p.top) - 1
		} else {
			break
		}
	}
	p.clampView()
}

// lastPage is the top of the window's last page.
func (p *pane) lastPage() (top, sub int) {
	n := len(p.win.lines)
	if n == 0 {
		return 0, 0
	}
	rows := 0
	for i := n - 1; i >= 0; i-- {
		r := p.rowsOf(i)
		if rows+r >= p.page() {
			return i, rows + r - p.page()
		}
		rows += r
	}
	return 0, 0
}

// clampView keeps the view inside the window, never past its last page.
func (p *pane) clampView() {
	if len(p.win.lines) == 0 {
		p.top, p.sub = 0, 0
		return
	}
	p.top = kit.Clamp(p.top, 0, len(p.win.lines)-1)
	p.sub = kit.Clamp(p.sub, 0, p.rowsOf(p.top)-1)
	if t, s := p.lastPage(); p.top > t || (p.top == t && p.sub > s) {
		p.top, p.sub = t, s
	}
}

// reveal scrolls sideways, when it must, so that the columns [a, b) of a
// line show: no further than needed (with a few columns after them), so
// that as much as possible of the other lines stays in view. The last
// column is kept for the "…" of a line cut on the right.
func (p *pane) reveal(a, b int) {
	room := max(p.cols()-1, 1)
	if a >= p.xoff && b <= p.xoff+room {
		return
	}
	if b <= room {
		p.xoff = 0
		return
	}
	p.xoff = max(min(a, b-room+min(room/10, 10)), 0)
}

func (p *pane) toBottom() { p.top, p.sub = p.lastPage() }
