package cli

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/palink/palink/tui"
)

var updateREADME = flag.Bool("update", false, "rewrite the README's generated sections")

// TestREADMEKeymap keeps the README's keymap the one the TUI handles keys with.
func TestREADMEKeymap(t *testing.T) {
	const start, end = "<!-- keymap:start -->\n", "<!-- keymap:end -->"
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("README.md has no keymap markers")
	}
	want := tui.KeymapMarkdown(false)
	if s[i+len(start):j] == want {
		return
	}
	if !*updateREADME {
		t.Fatal("the README keymap differs from tui.KeymapMarkdown; run: go test . -run TestREADMEKeymap -update")
	}
	s = s[:i+len(start)] + want + s[j:]
	if err := os.WriteFile("../README.md", []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
