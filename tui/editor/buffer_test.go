package editor

import (
	"testing"
)

// typeInto types s rune by rune, as keys do.
func typeInto(b *textBuffer, s string) {
	for _, r := range s {
		if r == '\n' {
			b.newline()
			continue
		}
		b.insert(string(r), editTyping)
	}
}

func TestBufferEditing(t *testing.T) {
	b := newTextBuffer("")
	typeInto(b, "SELECT a\n  FROM t")
	if got := b.Text(); got != "SELECT a\n  FROM t" {
		t.Fatalf("typed %q", got)
	}
	// enter keeps the indentation of the line.
	b.newline()
	typeInto(b, "WHERE x")
	if got := b.Text(); got != "SELECT a\n  FROM t\n  WHERE x" || b.cursor != (pos{2, 9}) {
		t.Fatalf("after newline: %q at %v", got, b.cursor)
	}
	// backspace at a line start joins the lines.
	b.moveTo(pos{1, 0}, false, false)
	b.backspace()
	if got := b.Text(); got != "SELECT a  FROM t\n  WHERE x" || b.cursor != (pos{0, 8}) {
		t.Fatalf("backspace at line start: %q at %v", got, b.cursor)
	}
	b.deleteForward()
	b.deleteForward()
	if got := b.Text(); got != "SELECT aFROM t\n  WHERE x" {
		t.Fatalf("delete: %q", got)
	}
	b.moveTo(pos{0, 14}, false, false)
	b.deleteForward() // joins with the next line
	if got := b.Text(); got != "SELECT aFROM t  WHERE x" {
		t.Fatalf("delete at line end: %q", got)
	}
	b.moveTo(b.end(b.cursor), false, false)
	b.deleteWordBack()
	if got := b.Text(); got != "SELECT aFROM t  WHERE " {
		t.Fatalf("delete word back: %q", got)
	}
	b.moveTo(pos{0, 0}, false, false)
	b.deleteWordForward()
	if got := b.Text(); got != " aFROM t  WHERE " {
		t.Fatalf("delete word forward: %q", got)
	}
}

func TestBufferMovement(t *testing.T) {
	b := newTextBuffer("SELECT o.order_id,\n    u.name\nFROM t")
	for _, tc := range []struct {
		name string
		move func() pos
		want pos
	}{
		{"word right", func() pos { return b.wordRight(pos{0, 0}) }, pos{0, 6}},
		{"word right skips punctuation", func() pos { return b.wordRight(pos{0, 8}) }, pos{0, 17}},
		{"word right crosses a line end", func() pos { return b.wordRight(pos{0, 18}) }, pos{1, 0}},
		{"word left", func() pos { return b.wordLeft(pos{0, 17}) }, pos{0, 9}},
		{"word left crosses a line start", func() pos { return b.wordLeft(pos{1, 0}) }, pos{0, 18}},
		{"home goes to the first non-blank", func() pos { return b.home(pos{1, 8}) }, pos{1, 4}},
		{"home again goes to column 0", func() pos { return b.home(pos{1, 4}) }, pos{1, 0}},
		{"end", func() pos { return b.end(pos{1, 0}) }, pos{1, 10}},
		{"left crosses lines", func() pos { return b.left(pos{2, 0}) }, pos{1, 10}},
		{"right crosses lines", func() pos { return b.right(pos{1, 10}) }, pos{2, 0}},
	} {
		if got := tc.move(); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// Vertical moves keep the goal column across a short line.
	b.moveTo(pos{0, 15}, false, false)
	b.vertical(1, false)
	if b.cursor != (pos{1, 10}) {
		t.Fatalf("down onto a short line: %v", b.cursor)
	}
	b.vertical(1, false)
	if b.cursor != (pos{2, 6}) {
		t.Fatalf("down again: %v", b.cursor)
	}
	b.vertical(-2, false)
	if b.cursor != (pos{0, 15}) {
		t.Fatalf("back up: %v, want the goal column 15", b.cursor)
	}
	b.vertical(-1, false)
	if b.cursor != (pos{0, 0}) {
		t.Fatalf("up on the first line: %v", b.cursor)
	}
}

func TestBufferSelection(t *testing.T) {
	b := newTextBuffer("SELECT a FROM t")
	b.moveTo(pos{0, 7}, false, false)
	b.moveTo(b.wordRight(b.cursor), true, false) // shift+ctrl+right
	if got := b.selectedText(); got != "a" {
		t.Fatalf("selected %q", got)
	}
	typeInto(b, "x, y")
	if got := b.Text(); got != "SELECT x, y FROM t" {
		t.Fatalf("typing over the selection: %q", got)
	}
	b.selectAll()
	if got := b.selectedText(); got != "SELECT x, y FROM t" {
		t.Fatalf("select all: %q", got)
	}
	// A selection over lines, then indent and dedent of those lines.
	b = newTextBuffer("a\nb\nc")
	b.moveTo(pos{0, 0}, false, false)
	b.moveTo(pos{1, 1}, true, false)
	b.indent()
	if got := b.Text(); got != "  a\n  b\nc" {
		t.Fatalf("indent: %q", got)
	}
	b.dedent()
	if got := b.Text(); got != "a\nb\nc" {
		t.Fatalf("dedent: %q", got)
	}
	if !b.deleteSelection() || b.Text() != "\nc" {
		t.Fatalf("delete the selected lines: %q", b.Text())
	}
}

func TestBufferUndoRedo(t *testing.T) {
	b := newTextBuffer("")
	typeInto(b, "SELECT a")
	b.newline()
	typeInto(b, "FROM t")
	// Undo goes back word by word (a word with the blank after it), and
	// over the line break.
	for _, want := range []string{"SELECT a\nFROM ", "SELECT a\n", "SELECT a", "SELECT ", ""} {
		if !b.undo() {
			t.Fatal("nothing to undo")
		}
		if got := b.Text(); got != want {
			t.Fatalf("undo gave %q, want %q", got, want)
		}
	}
	if b.undo() {
		t.Fatal("undo past the start")
	}
	for _, want := range []string{"SELECT ", "SELECT a", "SELECT a\n"} {
		b.redo()
		if got := b.Text(); got != want {
			t.Fatalf("redo gave %q, want %q", got, want)
		}
	}
	// A new edit clears what could be redone.
	typeInto(b, "x")
	if b.redo() {
		t.Fatal("redo after a new edit")
	}
	// A run of backspaces undoes as one step, and the cursor comes back.
	b = newTextBuffer("SELECT abc")
	b.moveTo(pos{0, 10}, false, false)
	b.backspace()
	b.backspace()
	b.backspace()
	if b.Text() != "SELECT " {
		t.Fatalf("backspaces: %q", b.Text())
	}
	b.undo()
	if b.Text() != "SELECT abc" || b.cursor != (pos{0, 10}) {
		t.Fatalf("undo of backspaces: %q at %v", b.Text(), b.cursor)
	}
	// Replacing the selection is one step.
	b.selectAll()
	typeInto(b, "Z")
	b.undo()
	if b.Text() != "SELECT abc" {
		t.Fatalf("undo of a replaced selection: %q", b.Text())
	}
}

func TestBufferFind(t *testing.T) {
	b := newTextBuffer("select a\nFROM orders\nwhere a > 1 -- orders")
	for _, tc := range []struct {
		q         string
		from      pos
		backwards bool
		want      pos
		ok        bool
	}{
		{"orders", pos{0, 0}, false, pos{1, 5}, true},
		{"ORDERS", pos{1, 6}, false, pos{2, 15}, true},
		{"orders", pos{2, 16}, false, pos{1, 5}, true}, // wraps around
		{"A", pos{2, 0}, true, pos{0, 7}, true},
		{"select", pos{2, 3}, true, pos{0, 0}, true},
		{"nothing", pos{0, 0}, false, pos{}, false},
	} {
		got, ok := b.find(tc.q, tc.from, tc.backwards)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("find(%q from %v, back %v) = %v %v, want %v %v", tc.q, tc.from, tc.backwards, got, ok, tc.want, tc.ok)
		}
	}
}

func TestLineDiffAndHunks(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	b := "one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n"
	lines := lineDiff(a, b)
	var changes []diffLine
	for _, l := range lines {
		if l.kind != diffSame {
			changes = append(changes, l)
		}
	}
	want := []diffLine{{diffDel, 2, 0, "two"}, {diffAdd, 0, 2, "TWO"}, {diffAdd, 0, 11, "eleven"}}
	if len(changes) != len(want) {
		t.Fatalf("changes %+v", changes)
	}
	for i := range want {
		if changes[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, changes[i], want[i])
		}
	}
	hs := hunks(lines, 3)
	if len(hs) != 2 || hs[0].header() != "@@ -1,5 +1,5 @@" || hs[1].header() != "@@ -8,3 +8,4 @@" {
		for _, h := range hs {
			t.Log(h.header())
		}
		t.Fatalf("%d hunks", len(hs))
	}
	// Changes closer than twice the context share a hunk.
	if hs := hunks(lineDiff("a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n"), 3); len(hs) != 1 {
		t.Errorf("%d hunks for two close changes", len(hs))
	}
	if hs := hunks(lineDiff("same\n", "same\n"), 3); len(hs) != 0 {
		t.Errorf("hunks for equal texts: %+v", hs)
	}
}
