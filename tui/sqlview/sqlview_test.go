package sqlview

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/palink/palink/tui/kit"
)

func TestHighlightClassesEveryRuneLineByLine(t *testing.T) {
	text := "SELECT amount -- total\nFROM orders WHERE id = 'x';"
	lines := Highlight(text)
	if len(lines) != 2 {
		t.Fatalf("%d lines of classes, want 2", len(lines))
	}
	for i, want := range []int{len("SELECT amount -- total"), len("FROM orders WHERE id = 'x';")} {
		n := 0
		for _, s := range lines[i] {
			n += s.N
		}
		if n != want {
			t.Errorf("line %d: classes cover %d runes, want %d", i+1, n, want)
		}
	}
	if s := lines[0][0]; s.Class != synKeyword || s.N != len("SELECT") {
		t.Errorf("SELECT is %+v", s)
	}
	if s := lines[0][len(lines[0])-1]; s.Class != synComment {
		t.Errorf("the comment is %+v", s)
	}
}

func TestRenderLineFillsItsWidth(t *testing.T) {
	st := kit.DarkStyles()
	line := []rune("\tSELECT 1")
	for _, w := range []int{3, 8, 20} {
		got := RenderLine(NewStyler(&st.Editor), line, Highlight(string(line))[0], Marks{Cursor: 2}, 1, w)
		if cw := ansi.StringWidth(got); cw != w {
			t.Errorf("width %d: rendered %d cells: %q", w, cw, ansi.Strip(got))
		}
	}
}
