package tuitest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// -update rewrites the golden files in testdata/. teatest's golden package
// defines the same flag; both then follow it.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata/")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Pinned renders styled output as a 256-colour terminal would receive it,
// so golden files do not depend on the machine's terminal.
func Pinned(s string) string {
	var b strings.Builder
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI256}
	if _, err := w.WriteString(s); err != nil {
		panic(err)
	}
	return b.String()
}

// NoColor renders styled output as a terminal under NO_COLOR receives it:
// no colour, the attributes (bold, faint, reverse, underline) kept.
func NoColor(s string) string {
	var b strings.Builder
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.ASCII}
	if _, err := w.WriteString(s); err != nil {
		panic(err)
	}
	return b.String()
}

// Golden compares got with testdata/<name>.golden of the package under
// test (-update rewrites it).
func Golden(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test -run %s -update in its package to create it): %v", t.Name(), err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs from the golden file at line %d (run with -update if the change is intended)\n got: %s\nwant: %s\n got (escaped): %q\nwant (escaped): %q\n\nwhole screen:\n%s",
				path, i+1, ansi.Strip(g), ansi.Strip(w), g, w, ansi.Strip(got))
		}
	}
	t.Fatalf("%s differs from the golden file", path)
}

// Sizes are the terminal sizes every view is pinned at.
var Sizes = []struct{ W, H int }{{120, 40}, {80, 24}, {60, 20}}

// SizeName names a size of Sizes in golden files: "120x40".
func SizeName(w, h int) string { return fmt.Sprintf("%dx%d", w, h) }

// GoldenFrame pins the whole frame that setup leaves at every size of
// Sizes, in testdata/<name>_<size>.golden; start makes the harness of a
// size.
func GoldenFrame[H interface{ Render() string }](t *testing.T, name string, start func(t *testing.T, w, h int) H, setup func(H)) {
	t.Helper()
	for _, sz := range Sizes {
		t.Run(SizeName(sz.W, sz.H), func(t *testing.T) {
			h := start(t, sz.W, sz.H)
			setup(h)
			frame := h.Render()
			if got := len(strings.Split(frame, "\n")); got != sz.H {
				t.Fatalf("frame has %d lines, want %d", got, sz.H)
			}
			for i, l := range strings.Split(frame, "\n") {
				if w := ansi.StringWidth(l); w > sz.W {
					t.Fatalf("line %d is %d cells wide, more than %d: %q", i+1, w, sz.W, ansi.Strip(l))
				}
			}
			Golden(t, fmt.Sprintf("%s_%s", name, SizeName(sz.W, sz.H)), Pinned(frame))
		})
	}
}

// SizeMsg is the message of a terminal size.
func SizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// Strip removes the styles of s.
func Strip(s string) string { return ansi.Strip(s) }
