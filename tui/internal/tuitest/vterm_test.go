package tuitest

import (
	"strings"
	"testing"
)

func TestVtermReplaysCursorMovesAndErases(t *testing.T) {
	v := NewVterm(20, 4)
	v.Write([]byte("1 firing · 0 res…\r\n\x1b[2;1Hline two"))
	// The renderer writes only the cells that change: "1 firing · 0 res…" →
	// "2 firing", then erases the rest of the line.
	v.Write([]byte("\x1b[1;1H2\x1b[6C\x1b[1Cx\x1b[1;9H\x1b[K"))
	v.Write([]byte("\x1b[3;5Hx\x1b[3;1H\x1b[2Xab"))
	lines := strings.Split(v.Text(), "\n")
	want := []string{"2 firing", "line two", "ab  x"}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	// A sequence cut between two writes is completed by the next.
	v.Write([]byte("\x1b[4;"))
	v.Write([]byte("3Hzz"))
	if got := strings.Split(v.Text(), "\n")[3]; got != "  zz" {
		t.Errorf("split sequence: %q", got)
	}
}
