package editor

import (
	"strings"
	"unicode"

	"github.com/palink/palink/tui/kit"
)

// pos is a place in an editor's text: a line and a rune column, from 0.
type pos struct{ line, col int }

func (p pos) before(q pos) bool { return p.line < q.line || p.line == q.line && p.col < q.col }

// order returns a and b, the earlier first.
func order(a, b pos) (pos, pos) {
	if b.before(a) {
		return b, a
	}
	return a, b
}

// editKind groups edits for undo: a run of typing or of deleting undoes as
// one step, as in every editor people know.
type editKind int

const (
	editOther editKind = iota
	editTyping
	editDeleting
)

// edit is one change of the text, kept so that it can be undone: the text
// removed at `at` and the text inserted in its place, with the cursor
// before and after.
type edit struct {
	at       pos
	removed  string
	inserted string
	before   pos
	after    pos
	kind     editKind
}

// lines is a text as lines of runes, with the places and moves that only
// read it.
type lines [][]rune

// textBuffer is the editor's text with a cursor, a selection and undo. It is
// pure: no I/O, no styles; the editor screen renders it.
type textBuffer struct {
	lines
	cursor pos
	// goal is the column vertical moves aim for, so that moving through a
	// short line and on keeps the column.
	goal int
	// anchor is the other end of the selection while selecting.
	anchor    pos
	selecting bool

	undos, redos []edit
	// version counts changes: highlighting and validation are keyed on it.
	version int
}

func newTextBuffer(text string) *textBuffer {
	b := &textBuffer{}
	b.setText(text)
	return b
}

// setText replaces everything without undo (a freshly loaded text).
func (b *textBuffer) setText(text string) {
	b.lines = splitLines(text)
	b.cursor, b.goal, b.selecting = pos{}, 0, false
	b.undos, b.redos = nil, nil
	b.version++
}

func splitLines(text string) [][]rune {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	parts := strings.Split(text, "\n")
	out := make([][]rune, len(parts))
	for i, p := range parts {
		out[i] = []rune(p)
	}
	return out
}

// Text is the whole text, lines joined by "\n".
func (b *textBuffer) Text() string {
	var sb strings.Builder
	for i, l := range b.lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(string(l))
	}
	return sb.String()
}

func (t lines) clampPos(p pos) pos {
	p.line = kit.Clamp(p.line, 0, len(t)-1)
	p.col = kit.Clamp(p.col, 0, len(t[p.line]))
	return p
}

// textRange is the text between two places.
func (t lines) textRange(from, to pos) string {
	from, to = order(t.clampPos(from), t.clampPos(to))
	if from.line == to.line {
		return string(t[from.line][from.col:to.col])
	}
	var sb strings.Builder
	sb.WriteString(string(t[from.line][from.col:]))
	for l := from.line + 1; l < to.line; l++ {
		sb.WriteByte('\n')
		sb.WriteString(string(t[l]))
	}
	sb.WriteByte('\n')
	sb.WriteString(string(t[to.line][:to.col]))
	return sb.String()
}

// replace puts text in place of [from, to) and returns the end of the
// inserted text. It records nothing: edits go through apply.
func (b *textBuffer) replace(from, to pos, text string) pos {
	from, to = order(b.clampPos(from), b.clampPos(to))
	head := b.lines[from.line][:from.col]
	tail := b.lines[to.line][to.col:]
	ins := splitLines(text)
	repl := make([][]rune, len(ins))
	for i, l := range ins {
		repl[i] = l
	}
	end := pos{line: from.line + len(ins) - 1, col: len(ins[len(ins)-1])}
	first := make([]rune, 0, len(head)+len(repl[0]))
	repl[0] = append(append(first, head...), repl[0]...)
	if len(ins) == 1 {
		end.col += len(head)
	}
	last := repl[len(repl)-1]
	repl[len(repl)-1] = append(append(make([]rune, 0, len(last)+len(tail)), last...), tail...)
	lines := make([][]rune, 0, len(b.lines)-(to.line-from.line)+len(repl)-1)
	lines = append(lines, b.lines[:from.line]...)
	lines = append(lines, repl...)
	lines = append(lines, b.lines[to.line+1:]...)
	b.lines = lines
	b.version++
	return end
}

// apply makes an edit and records it for undo, merging it into the last
// one when both belong to the same run of typing or deleting.
func (b *textBuffer) apply(from, to pos, text string, kind editKind) {
	from, to = order(b.clampPos(from), b.clampPos(to))
	e := edit{at: from, removed: b.textRange(from, to), inserted: text, before: b.cursor, kind: kind}
	e.after = b.replace(from, to, text)
	b.cursor, b.goal, b.selecting = e.after, e.after.col, false
	b.redos = nil
	if n := len(b.undos); n > 0 && b.mergeable(b.undos[n-1], e) {
		last := &b.undos[n-1]
		switch kind {
		case editTyping:
			last.inserted += e.inserted
		case editDeleting:
			if e.at.before(last.at) { // backspace: the removed text grows to the left
				last.removed = e.removed + last.removed
				last.at = e.at
			} else { // delete: it grows to the right
				last.removed += e.removed
			}
		}
		last.after = e.after
		return
	}
	b.undos = append(b.undos, e)
}

// mergeable: typing continues a typing run until a word ends, and deleting
// continues a deleting run, as long as the cursor has not jumped.
func (b *textBuffer) mergeable(last, e edit) bool {
	if last.kind != e.kind || last.after != e.before {
		return false
	}
	switch e.kind {
	case editTyping:
		if last.removed != "" || e.removed != "" || strings.Contains(e.inserted, "\n") {
			return false
		}
		prev := []rune(last.inserted)
		// A new word starts a new step: "SELECT a" undoes " a", then "SELECT".
		return len(prev) == 0 || !(unicode.IsSpace(prev[len(prev)-1]) && !unicode.IsSpace([]rune(e.inserted)[0]))
	case editDeleting:
		return last.inserted == "" && e.inserted == "" && !strings.Contains(e.removed, "\n")
	}
	return false
}

// undo reverts the last edit; it reports whether there was one.
func (b *textBuffer) undo() bool {
	if len(b.undos) == 0 {
		return false
	}
	e := b.undos[len(b.undos)-1]
	b.undos = b.undos[:len(b.undos)-1]
	end := b.endOf(e.at, e.inserted)
	b.replace(e.at, end, e.removed)
	b.cursor, b.goal, b.selecting = b.clampPos(e.before), e.before.col, false
	b.redos = append(b.redos, e)
	return true
}

// redo makes the last undone edit again.
func (b *textBuffer) redo() bool {
	if len(b.redos) == 0 {
		return false
	}
	e := b.redos[len(b.redos)-1]
	b.redos = b.redos[:len(b.redos)-1]
	b.replace(e.at, b.endOf(e.at, e.removed), e.inserted)
	b.cursor, b.goal, b.selecting = b.clampPos(e.after), e.after.col, false
	b.undos = append(b.undos, e)
	return true
}

// endOf is where text ends when it starts at p.
func (t lines) endOf(p pos, text string) pos {
	ls := strings.Split(text, "\n")
	if len(ls) == 1 {
		return pos{p.line, p.col + len([]rune(text))}
	}
	return pos{p.line + len(ls) - 1, len([]rune(ls[len(ls)-1]))}
}

// selection returns the selected range, if any.
func (b *textBuffer) selection() (from, to pos, ok bool) {
	if !b.selecting || b.anchor == b.cursor {
		return pos{}, pos{}, false
	}
	from, to = order(b.anchor, b.cursor)
	return from, to, true
}

func (b *textBuffer) selectedText() string {
	from, to, ok := b.selection()
	if !ok {
		return ""
	}
	return b.textRange(from, to)
}

func (b *textBuffer) selectAll() {
	b.anchor, b.selecting = pos{}, true
	last := len(b.lines) - 1
	b.cursor = pos{last, len(b.lines[last])}
	b.goal = b.cursor.col
}

// insert types text at the cursor, over the selection if there is one.
func (b *textBuffer) insert(text string, kind editKind) {
	from, to, ok := b.selection()
	if !ok {
		from, to = b.cursor, b.cursor
		if kind == editTyping && text == "" {
			return
		}
	} else {
		kind = editOther // replacing a selection is its own step
	}
	b.apply(from, to, text, kind)
}

// newline breaks the line and indents the new one like the old.
func (b *textBuffer) newline() {
	line := b.lines[b.cursor.line]
	indent := 0
	for indent < len(line) && indent < b.cursor.col && (line[indent] == ' ' || line[indent] == '\t') {
		indent++
	}
	b.insert("\n"+string(line[:indent]), editOther)
}

// deleteSelection removes the selection; it reports whether there was one.
func (b *textBuffer) deleteSelection() bool {
	from, to, ok := b.selection()
	if !ok {
		return false
	}
	b.apply(from, to, "", editOther)
	return true
}

// backspace deletes the selection or the rune (or line break) before the cursor.
func (b *textBuffer) backspace() {
	if b.deleteSelection() || b.cursor == (pos{}) {
		return
	}
	b.apply(b.left(b.cursor), b.cursor, "", editDeleting)
}

// deleteForward deletes the selection or the rune (or line break) after the cursor.
func (b *textBuffer) deleteForward() {
	if b.deleteSelection() {
		return
	}
	if next := b.right(b.cursor); next != b.cursor {
		b.apply(b.cursor, next, "", editDeleting)
	}
}

// deleteWordBack deletes back to the start of the word.
func (b *textBuffer) deleteWordBack() {
	if b.deleteSelection() {
		return
	}
	if start := b.wordLeft(b.cursor); start != b.cursor {
		b.apply(start, b.cursor, "", editOther)
	}
}

// deleteWordForward deletes to the end of the word.
func (b *textBuffer) deleteWordForward() {
	if b.deleteSelection() {
		return
	}
	if end := b.wordRight(b.cursor); end != b.cursor {
		b.apply(b.cursor, end, "", editOther)
	}
}

// indent adds two spaces at the cursor, or at the start of every selected line.
func (b *textBuffer) indent() {
	from, to, ok := b.selection()
	if !ok {
		b.insert("  ", editTyping)
		return
	}
	b.reindent(from.line, to.line, func(l []rune) string { return "  " + string(l) })
}

// dedent removes up to two leading spaces (or a tab) of the cursor's line or the selected lines.
func (b *textBuffer) dedent() {
	from, to, ok := b.selection()
	if !ok {
		from, to = b.cursor, b.cursor
	}
	b.reindent(from.line, to.line, func(l []rune) string {
		s := string(l)
		switch {
		case strings.HasPrefix(s, "\t"):
			return s[1:]
		case strings.HasPrefix(s, "  "):
			return s[2:]
		}
		return strings.TrimPrefix(s, " ")
	})
}

// reindent rewrites lines first..last as one undo step, keeping them selected.
func (b *textBuffer) reindent(first, last int, fn func([]rune) string) {
	var out []string
	for l := first; l <= last; l++ {
		out = append(out, fn(b.lines[l]))
	}
	text := strings.Join(out, "\n")
	end := pos{last, len(b.lines[last])}
	if b.textRange(pos{first, 0}, end) == text {
		return
	}
	b.apply(pos{first, 0}, end, text, editOther)
	b.anchor, b.selecting = pos{first, 0}, first != last
	b.cursor = pos{last, len(b.lines[last])}
}

// Movement. extend keeps (or starts) the selection, as shift does.

func (b *textBuffer) moveTo(p pos, extend, keepGoal bool) {
	p = b.clampPos(p)
	switch {
	case extend && !b.selecting:
		b.anchor, b.selecting = b.cursor, true
	case !extend:
		b.selecting = false
	}
	b.cursor = p
	if !keepGoal {
		b.goal = p.col
	}
}

func (t lines) left(p pos) pos {
	switch {
	case p.col > 0:
		return pos{p.line, p.col - 1}
	case p.line > 0:
		return pos{p.line - 1, len(t[p.line-1])}
	}
	return p
}

func (t lines) right(p pos) pos {
	switch {
	case p.col < len(t[p.line]):
		return pos{p.line, p.col + 1}
	case p.line < len(t)-1:
		return pos{p.line + 1, 0}
	}
	return p
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordLeft is the start of the word before p (crossing a line start).
func (t lines) wordLeft(p pos) pos {
	if p.col == 0 {
		return t.left(p)
	}
	l := t[p.line]
	c := p.col
	for c > 0 && !isWordRune(l[c-1]) {
		c--
	}
	for c > 0 && isWordRune(l[c-1]) {
		c--
	}
	return pos{p.line, c}
}

// wordRight is the end of the word after p (crossing a line end).
func (t lines) wordRight(p pos) pos {
	l := t[p.line]
	if p.col == len(l) {
		return t.right(p)
	}
	c := p.col
	for c < len(l) && !isWordRune(l[c]) {
		c++
	}
	for c < len(l) && isWordRune(l[c]) {
		c++
	}
	return pos{p.line, c}
}

// home goes to the first non-blank of the line, then to column 0.
func (t lines) home(p pos) pos {
	l := t[p.line]
	first := 0
	for first < len(l) && (l[first] == ' ' || l[first] == '\t') {
		first++
	}
	if p.col == first {
		return pos{p.line, 0}
	}
	return pos{p.line, first}
}

func (t lines) end(p pos) pos { return pos{p.line, len(t[p.line])} }

// vertical moves n lines down (up when negative), aiming for the goal column.
func (b *textBuffer) vertical(n int, extend bool) {
	line := kit.Clamp(b.cursor.line+n, 0, len(b.lines)-1)
	target := pos{line, min(b.goal, len(b.lines[line]))}
	switch {
	case n < 0 && b.cursor.line == 0:
		target = pos{} // up on the first line goes to its start
	case n > 0 && b.cursor.line == len(b.lines)-1:
		target = b.end(b.cursor)
	}
	b.moveTo(target, extend, target.line != b.cursor.line)
}

// find returns the next place after (or, backwards, before) from where
// query occurs, case-insensitively, wrapping around the text.
func (t lines) find(query string, from pos, backwards bool) (pos, bool) {
	q := []rune(strings.ToLower(query))
	if len(q) == 0 {
		return pos{}, false
	}
	n := len(t)
	match := func(l []rune, c int) bool {
		if c+len(q) > len(l) {
			return false
		}
		for i, r := range q {
			if unicode.ToLower(l[c+i]) != r {
				return false
			}
		}
		return true
	}
	for i := 0; i <= n; i++ {
		var line int
		if backwards {
			line = ((from.line-i)%n + n) % n
		} else {
			line = (from.line + i) % n
		}
		l := t[line]
		if backwards {
			start := len(l) - 1
			if i == 0 {
				start = from.col - 1
			}
			for c := start; c >= 0; c-- {
				if match(l, c) {
					return pos{line, c}, true
				}
			}
			continue
		}
		start := 0
		if i == 0 {
			start = from.col
		}
		for c := start; c < len(l); c++ {
			if match(l, c) {
				return pos{line, c}, true
			}
		}
	}
	return pos{}, false
}
