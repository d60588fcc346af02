package tuitest

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Vterm is a small terminal emulator for program tests. bubbletea's
// renderer writes only the cells that change, so a phrase on screen is
// rarely contiguous in the output stream; replaying the stream onto a grid
// shows what a user sees. It covers what the renderer emits: printable
// graphemes, CR/LF/BS/TAB, cursor moves (CUP, CUU/CUD/CUF/CUB, CNL/CPL, CHA,
// VPA), erases (EL, ED, ECH), REP, character and line insert/delete, scrolling
// with a scroll region, and save/restore cursor; everything else (colours,
// modes, OSC) is skipped.
type Vterm struct {
	w, h     int
	grid     [][]string
	x, y     int
	top, bot int // scroll region, inclusive
	savedX   int
	savedY   int
	wrapNext bool
	last     string // the last grapheme printed, for REP
	lastW    int
	p        *ansi.Parser
	state    byte
	pending  []byte // an incomplete sequence at the end of the last write
}

// NewVterm is a blank w×h terminal.
func NewVterm(w, h int) *Vterm {
	t := &Vterm{w: w, h: h, bot: h - 1, p: ansi.NewParser()}
	t.grid = make([][]string, h)
	for i := range t.grid {
		t.grid[i] = t.blankLine()
	}
	return t
}

func (t *Vterm) blankLine() []string {
	l := make([]string, t.w)
	for i := range l {
		l[i] = " "
	}
	return l
}

// Text is the screen as lines of text.
func (t *Vterm) Text() string {
	var b strings.Builder
	for _, l := range t.grid {
		b.WriteString(strings.TrimRight(strings.Join(l, ""), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// Write replays terminal output onto the grid.
func (t *Vterm) Write(data []byte) {
	data = append(t.pending, data...)
	t.pending = nil
	for len(data) > 0 {
		seq, width, n, st := ansi.DecodeSequence(data, t.state, t.p)
		if n == 0 || (st != 0 && n == len(data)) {
			// An escape sequence cut by the end of this write: wait for the rest.
			t.pending = append([]byte(nil), data...)
			return
		}
		t.state = st
		data = data[n:]
		switch {
		case width > 0:
			t.put(string(seq), width)
		case len(seq) == 1 && seq[0] < 0x20:
			t.control(seq[0])
		case ansi.HasCsiPrefix(seq):
			t.csi(ansi.Cmd(t.p.Command()), t.p.Params())
		case ansi.HasEscPrefix(seq) && len(seq) == 2:
			t.esc(seq[1])
		}
	}
}

func (t *Vterm) put(g string, width int) {
	if t.wrapNext {
		t.x, t.wrapNext = 0, false
		t.lineFeed()
	}
	if t.x+width > t.w {
		t.x = 0
		t.lineFeed()
	}
	t.last, t.lastW = g, width
	t.grid[t.y][t.x] = g
	for i := 1; i < width && t.x+i < t.w; i++ {
		t.grid[t.y][t.x+i] = ""
	}
	t.x += width
	if t.x >= t.w {
		t.x, t.wrapNext = t.w-1, true
	}
}

func (t *Vterm) control(c byte) {
	switch c {
	case '\r':
		t.x, t.wrapNext = 0, false
	case '\n', '\v', '\f':
		// The output is not a terminal, so the renderer counts on the
		// output processing of a cooked tty (ONLCR): a newline also
		// returns the carriage.
		t.x = 0
		t.lineFeed()
	case '\b':
		if t.x > 0 {
			t.x--
		}
		t.wrapNext = false
	case '\t':
		t.x = min((t.x/8+1)*8, t.w-1)
	}
}

func (t *Vterm) lineFeed() {
	t.wrapNext = false
	if t.y == t.bot {
		t.scrollUp(1)
		return
	}
	if t.y < t.h-1 {
		t.y++
	}
}

func (t *Vterm) scrollUp(n int) {
	for ; n > 0; n-- {
		copy(t.grid[t.top:t.bot], t.grid[t.top+1:t.bot+1])
		t.grid[t.bot] = t.blankLine()
	}
}

func (t *Vterm) scrollDown(n int) {
	for ; n > 0; n-- {
		copy(t.grid[t.top+1:t.bot+1], t.grid[t.top:t.bot])
		t.grid[t.top] = t.blankLine()
	}
}

func (t *Vterm) esc(c byte) {
	switch c {
	case '7':
		t.savedX, t.savedY = t.x, t.y
	case '8':
		t.x, t.y = t.savedX, t.savedY
	case 'M': // reverse index
		if t.y == t.top {
			t.scrollDown(1)
		} else if t.y > 0 {
			t.y--
		}
	case 'D':
		t.lineFeed()
	case 'E':
		t.x = 0
		t.lineFeed()
	}
}

func (t *Vterm) csi(cmd ansi.Cmd, ps ansi.Params) {
	if cmd.Prefix() != 0 || cmd.Intermediate() != 0 {
		return // private modes and the like
	}
	p := func(i, def int) int {
		v, _, _ := ps.Param(i, def)
		if v == 0 {
			v = def
		}
		return v
	}
	clampY := func(y int) int { return max(0, min(y, t.h-1)) }
	clampX := func(x int) int { return max(0, min(x, t.w-1)) }
	t.wrapNext = false
	switch cmd.Final() {
	case 'H', 'f':
		t.y, t.x = clampY(p(0, 1)-1), clampX(p(1, 1)-1)
	case 'A':
		t.y = clampY(t.y - p(0, 1))
	case 'B', 'e':
		t.y = clampY(t.y + p(0, 1))
	case 'C', 'a':
		t.x = clampX(t.x + p(0, 1))
	case 'D':
		t.x = clampX(t.x - p(0, 1))
	case 'E':
		t.y, t.x = clampY(t.y+p(0, 1)), 0
	case 'F':
		t.y, t.x = clampY(t.y-p(0, 1)), 0
	case 'G', '`':
		t.x = clampX(p(0, 1) - 1)
	case 'd':
		t.y = clampY(p(0, 1) - 1)
	case 'K':
		v, _, _ := ps.Param(0, 0)
		from, to := t.x, t.w
		switch v {
		case 1:
			from, to = 0, t.x+1
		case 2:
			from, to = 0, t.w
		}
		for i := from; i < to; i++ {
			t.grid[t.y][i] = " "
		}
	case 'J':
		v, _, _ := ps.Param(0, 0)
		switch v {
		case 0:
			for i := t.x; i < t.w; i++ {
				t.grid[t.y][i] = " "
			}
			for y := t.y + 1; y < t.h; y++ {
				t.grid[y] = t.blankLine()
			}
		case 1:
			for y := 0; y < t.y; y++ {
				t.grid[y] = t.blankLine()
			}
			for i := 0; i <= t.x; i++ {
				t.grid[t.y][i] = " "
			}
		default:
			for y := range t.grid {
				t.grid[y] = t.blankLine()
			}
		}
	case 'X':
		for i := t.x; i < min(t.x+p(0, 1), t.w); i++ {
			t.grid[t.y][i] = " "
		}
	case 'P':
		n := min(p(0, 1), t.w-t.x)
		row := t.grid[t.y]
		copy(row[t.x:], row[t.x+n:])
		for i := t.w - n; i < t.w; i++ {
			row[i] = " "
		}
	case '@':
		n := min(p(0, 1), t.w-t.x)
		row := t.grid[t.y]
		copy(row[t.x+n:], row[t.x:t.w-n])
		for i := t.x; i < t.x+n; i++ {
			row[i] = " "
		}
	case 'L', 'M':
		if t.y < t.top || t.y > t.bot {
			return
		}
		saved := t.top
		t.top = t.y
		if cmd.Final() == 'L' {
			t.scrollDown(p(0, 1))
		} else {
			t.scrollUp(p(0, 1))
		}
		t.top = saved
	case 'S':
		t.scrollUp(p(0, 1))
	case 'T':
		t.scrollDown(p(0, 1))
	case 'r':
		top, bot := p(0, 1)-1, p(1, t.h)-1
		if top < bot && bot < t.h {
			t.top, t.bot = top, bot
		}
		t.x, t.y = 0, 0
	case 'b': // REP: the renderer repeats a run of one character
		if t.last != "" {
			for i := p(0, 1); i > 0; i-- {
				t.put(t.last, t.lastW)
			}
		}
	case 's':
		t.savedX, t.savedY = t.x, t.y
	case 'u':
		t.x, t.y = t.savedX, t.savedY
	}
}
