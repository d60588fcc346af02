package logview

import (
	"bytes"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/tui/kit"
)

// maxCopy caps what c puts on the clipboard: terminals refuse OSC 52
// sequences much longer (xterm's default limit is about 100 KB encoded).
const maxCopy = 64 << 10

// current is the line c copies: the current match when it is on screen
// (n and N move it), else the line on top. ok is false when there is no
// line.
func (p *pane) current(match *logMatchPos) (i int, ok bool) {
	if !p.loaded || len(p.win.lines) == 0 {
		return 0, false
	}
	if match != nil && match.off >= p.win.start && match.off < p.win.end() {
		if j := p.win.lineAt(match.off); j >= p.top && j < p.top+p.page() {
			return j, true
		}
	}
	return p.top, true
}

// copyLine puts line i of p on the clipboard through the terminal (OSC 52:
// it works over SSH, where palink's host has no clipboard of the user's)
// and says which line it was: its number in the file when the window
// knows it, else where it is.
func copyLine(p *pane, i int) tea.Cmd {
	line := bytes.TrimRight(p.win.line(i), " \t\r")
	cut := len(line) > maxCopy
	if cut {
		line = line[:maxCopy]
	}
	text := strings.ToValidUTF8(string(line), "\uFFFD")
	which := fmt.Sprintf("the line at %s", kit.Bytes(p.lineOff(i)))
	if n := p.win.lineNumber(i); n > 0 {
		which = fmt.Sprintf("line %d", n)
	}
	say := fmt.Sprintf("copied %s (%s) to the clipboard", which, kit.Bytes(int64(len(line))))
	if cut {
		say = fmt.Sprintf("copied the first %s of %s to the clipboard", kit.Bytes(maxCopy), which)
	}
	return tea.Batch(tea.SetClipboard(text), kit.Flash(kit.FlashInfo, say))
}
