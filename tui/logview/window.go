package logview

import (
	"bytes"
	"sort"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// logWindow is the part of a log the viewer holds: contiguous bytes of the
// file, starting at a line start, at most max bytes (a few chunks around
// the view; the rest of the file stays on the server). It is pure data:
// the viewer decides what to fetch, the window only joins and trims.
type logWindow struct {
	start int64  // file offset of data[0]: 0 or just after a newline
	data  []byte // may end in the middle of a line
	// lines holds the index in data where each line starts.
	lines []int
	max   int
	// first is the number (from 0) of the window's first line in the
	// file, -1 when unknown: known once the window was read from the
	// file's start, and kept as lines join and leave; a window read at the
	// tail of a big file does not know how many lines precede it.
	first int64
}

func newLogWindow(max int) logWindow { return logWindow{max: max, first: -1} }

// lineNumber is the number (from 1) of line i in the file, 0 when unknown.
func (w *logWindow) lineNumber(i int) int64 {
	if w.first < 0 {
		return 0
	}
	return w.first + int64(i) + 1
}

// end is the file offset just after the window.
func (w *logWindow) end() int64 { return w.start + int64(len(w.data)) }

// empty reports whether the window holds nothing yet.
func (w *logWindow) empty() bool { return len(w.data) == 0 }

// line is line i without its newline.
func (w *logWindow) line(i int) []byte {
	s := w.lines[i]
	e := len(w.data)
	if i+1 < len(w.lines) {
		e = w.lines[i+1] - 1
	} else if e > s && w.data[e-1] == '\n' {
		e--
	}
	return w.data[s:e]
}

// lineOffset is the file offset where line i starts.
func (w *logWindow) lineOffset(i int) int64 { return w.start + int64(w.lines[i]) }

// lineAt is the index of the line holding file offset off (clamped to the
// window).
func (w *logWindow) lineAt(off int64) int {
	if len(w.lines) == 0 {
		return 0
	}
	rel := off - w.start
	i := sort.Search(len(w.lines), func(i int) bool { return int64(w.lines[i]) > rel }) - 1
	return kit.Clamp(i, 0, len(w.lines)-1)
}

// dropHead removes a partial first line: the bytes of data (read at off)
// up to its first newline, unless off is the start of the file. A chunk
// with no whole line in it is kept, as one line cut at its head: a line
// longer than a chunk is shown rather than skipped.
func dropHead(off int64, data []byte) (int64, []byte) {
	if off == 0 {
		return off, data
	}
	i := bytes.IndexByte(data, '\n')
	if i < 0 || i == len(data)-1 {
		return off, data
	}
	return off + int64(i) + 1, data[i+1:]
}

// reset replaces the window with a chunk read at off; the window owns data
// from now on.
func (w *logWindow) reset(off int64, data []byte) {
	w.start, w.data = dropHead(off, data)
	w.first = -1
	if w.start == 0 {
		w.first = 0
	}
	w.trimTail()
	w.index()
}

// prepend joins a chunk that ends where the window starts, then trims the
// window's tail to stay within max.
func (w *logWindow) prepend(off int64, data []byte) bool {
	if off+int64(len(data)) != w.start || len(data) == 0 {
		return false
	}
	off, data = dropHead(off, data)
	joined := make([]byte, 0, len(data)+len(w.data))
	joined = append(append(joined, data...), w.data...)
	switch {
	case off == 0:
		w.first = 0
	case w.first >= 0:
		w.first -= int64(bytes.Count(data, []byte{'\n'}))
	}
	w.start, w.data = off, joined
	w.trimTail()
	w.index()
	return true
}

// appendChunk joins a chunk read at the window's end, then trims the
// window's head to stay within max.
func (w *logWindow) appendChunk(off int64, data []byte) bool {
	if off != w.end() {
		return false
	}
	if len(data) == 0 {
		return true
	}
	w.data = append(w.data, data...)
	w.trimHead()
	w.index()
	return true
}

// continues checks a chunk read to join the window (above or below it)
// against the file the window holds, and returns it without the bytes it
// read again: a read below the window starts within it (the window's last
// bytes, asked for again), and they must be the same. A file shorter than
// the window's end, or whose bytes there differ, is another file: the log
// was rotated or truncated (ok false).
func (w *logWindow) continues(req api.LogRequest, ch api.LogChunk) (api.LogChunk, bool) {
	if ch.Size >= 0 && ch.Size < w.end() {
		return ch, false
	}
	if req.Tail || req.Offset >= w.start+int64(len(w.data)) || req.Offset < w.start {
		return ch, true
	}
	again := w.end() - req.Offset
	if ch.Offset != req.Offset || int64(len(ch.Data)) < again || !bytes.Equal(ch.Data[:again], w.data[int64(len(w.data))-again:]) {
		return ch, false
	}
	ch.Data, ch.Offset = ch.Data[again:], ch.Offset+again
	return ch, true
}

// cutBefore drops the lines before off, a line start (a since's first
// line): a window read from before it keeps only what is shown.
func (w *logWindow) cutBefore(off int64) {
	if off <= w.start {
		return
	}
	cut := min(off, w.end()) - w.start
	if w.first >= 0 {
		w.first += int64(bytes.Count(w.data[:cut], []byte{'\n'}))
	}
	w.start += cut
	w.data = append([]byte(nil), w.data[cut:]...)
	w.index()
}

// trimHead drops whole lines from the front until the window fits.
func (w *logWindow) trimHead() {
	over := len(w.data) - w.max
	if over <= 0 {
		return
	}
	i := bytes.IndexByte(w.data[over:], '\n')
	if i < 0 {
		return // one huge line: keep it rather than cut it
	}
	cut := over + i + 1
	if w.first >= 0 {
		w.first += int64(bytes.Count(w.data[:cut], []byte{'\n'}))
	}
	w.start += int64(cut)
	// Copy, so that the dropped bytes are freed rather than kept by the
	// slice's array.
	w.data = append(make([]byte, 0, len(w.data)-cut+w.max/4), w.data[cut:]...)
}

// trimTail drops whole lines from the end until the window fits.
func (w *logWindow) trimTail() {
	if len(w.data) <= w.max {
		return
	}
	i := bytes.LastIndexByte(w.data[:w.max], '\n')
	if i < 0 {
		return
	}
	w.data = w.data[:i+1]
}

// index finds the line starts.
func (w *logWindow) index() {
	w.lines = w.lines[:0]
	if len(w.data) == 0 {
		return
	}
	w.lines = append(w.lines, 0)
	for i := 0; ; {
		j := bytes.IndexByte(w.data[i:], '\n')
		if j < 0 || i+j+1 >= len(w.data) {
			break
		}
		i += j + 1
		w.lines = append(w.lines, i)
	}
}
