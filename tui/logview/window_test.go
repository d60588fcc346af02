package logview

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// numbered is a file of n lines "line 00042 …" of varied lengths.
func numbered(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "line %05d %s\n", i, strings.Repeat("x", i%37))
	}
	return b.Bytes()
}

// checkWindow asserts the window's invariants against the file: it holds
// the file's bytes at its offset, starts at a line start, and fits max.
func checkWindow(t *testing.T, w *logWindow, file []byte) {
	t.Helper()
	if !bytes.Equal(w.data, file[w.start:w.end()]) {
		t.Fatalf("window [%d,%d) differs from the file", w.start, w.end())
	}
	if w.start > 0 && file[w.start-1] != '\n' {
		t.Fatalf("window starts at %d, inside a line", w.start)
	}
	if len(w.data) > w.max {
		t.Fatalf("window holds %d bytes, more than %d", len(w.data), w.max)
	}
	if w.first >= 0 && int64(bytes.Count(file[:w.start], []byte{'\n'})) != w.first {
		t.Fatalf("window at %d says its first line is line %d; it is line %d", w.start, w.first, bytes.Count(file[:w.start], []byte{'\n'}))
	}
	for i := range w.lines {
		l := w.line(i)
		if bytes.IndexByte(l, '\n') >= 0 {
			t.Fatalf("line %d holds a newline", i)
		}
		if off := w.lineOffset(i); off > 0 && file[off-1] != '\n' {
			t.Fatalf("line %d starts at %d, inside a line", i, off)
		}
		if got := w.lineAt(w.lineOffset(i) + int64(len(l))/2); got != i {
			t.Fatalf("lineAt(middle of line %d) = %d", i, got)
		}
	}
}

func TestLogWindowJoinsAndTrimsAtLineBoundaries(t *testing.T) {
	file := numbered(5000) // ≈ 120 KB
	const chunk = 10_000
	w := newLogWindow(3 * chunk)
	read := func(off int64) (int64, []byte) {
		end := min(off+chunk, int64(len(file)))
		return off, bytes.Clone(file[off:end])
	}

	// The tail, read at an arbitrary offset: the cut first line is dropped.
	off := int64(len(file) - chunk)
	w.reset(read(off))
	checkWindow(t, &w, file)
	if w.start <= off || w.end() != int64(len(file)) {
		t.Fatalf("tail window [%d,%d)", w.start, w.end())
	}
	// Up to the top, a chunk at a time: the window never outgrows max and
	// drops its tail.
	for w.start > 0 {
		from := max(w.start-chunk, 0)
		o, data := read(from)
		if !w.prepend(o, data[:w.start-from]) {
			t.Fatal("prepend refused a chunk that ends at the window's start")
		}
		checkWindow(t, &w, file)
	}
	if !strings.HasPrefix(string(w.line(0)), "line 00000") {
		t.Fatalf("first line %q", w.line(0))
	}
	if w.lineNumber(3) != 4 {
		t.Fatalf("read up to the file's start, the window numbers its line 3 as %d", w.lineNumber(3))
	}
	// And down to the end again.
	for w.end() < int64(len(file)) {
		if !w.appendChunk(read(w.end())) {
			t.Fatal("append refused a chunk read at the window's end")
		}
		checkWindow(t, &w, file)
	}
	if last := string(w.line(len(w.lines) - 1)); !strings.HasPrefix(last, "line 04999") {
		t.Fatalf("last line %q", last)
	}
	if n := w.lineNumber(len(w.lines) - 1); n != 5000 {
		t.Fatalf("the last line is numbered %d", n)
	}
	if w.prepend(0, []byte("x\n")) || w.appendChunk(5, []byte("y")) {
		t.Fatal("a chunk that does not touch the window was joined")
	}
}

func TestLogWindowKeepsALineLongerThanAChunk(t *testing.T) {
	long := strings.Repeat("z", 500)
	file := []byte("a\n" + long + "\nb\n")
	w := newLogWindow(1000)
	// A chunk inside the long line, with no newline at all: kept as a cut line.
	w.reset(10, file[10:300])
	if len(w.lines) != 1 || w.start != 10 {
		t.Fatalf("start %d, %d lines", w.start, len(w.lines))
	}
	// A chunk whose only newline ends it: kept too.
	w.reset(100, file[100:503])
	if w.start != 100 || len(w.lines) != 1 {
		t.Fatalf("start %d, %d lines", w.start, len(w.lines))
	}
	// An unterminated last line is a line.
	w.reset(0, []byte("a\nb"))
	if len(w.lines) != 2 || string(w.line(1)) != "b" {
		t.Fatalf("lines %d, last %q", len(w.lines), w.line(len(w.lines)-1))
	}
}
