package cli

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/palink/palink/tui"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated sections of the guides in docs/")

// TestDocsKeymap keeps the key guide (docs/keys.md) the keymap the TUI
// handles keys with.
func TestDocsKeymap(t *testing.T) {
	const path = "../docs/keys.md"
	const start, end = "<!-- keymap:start -->\n", "<!-- keymap:end -->"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("docs/keys.md has no keymap markers")
	}
	want := tui.KeymapMarkdown(false)
	if s[i+len(start):j] == want {
		return
	}
	if !*updateDocs {
		t.Fatal("docs/keys.md differs from tui.KeymapMarkdown; run: go test ./cli -run TestDocsKeymap -update")
	}
	s = s[:i+len(start)] + want + s[j:]
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
