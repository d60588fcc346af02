package complete

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/palink/palink/flinksql"
)

// FuzzComplete completes at any place of arbitrary text: it must never
// panic, the replaced text must end at the cursor, and every suggestion
// must have a text.
func FuzzComplete(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*/*.sql")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, st := range flinksql.SplitStatements(string(src)) {
			f.Add(st.Text, uint16(len(st.Text)/2))
		}
	}
	for _, s := range []string{
		completionDDL + "SELECT o. FROM orders o", "CREATE TABLE t (a INT) WITH ('connector' = 'kafka', '",
		"SELECT /*+ LOOKUP('table'='u', ' */", "SELECT * FROM TABLE(TUMBLE(TABLE", "SET '", "x.`a", "'''",
	} {
		f.Add(s, uint16(len(s)))
	}
	f.Fuzz(func(t *testing.T, src string, at uint16) {
		off := min(int(at), len(src))
		for off > 0 && off < len(src) && !utf8.RuneStart(src[off]) {
			off--
		}
		p := posOf(src, off)
		c := At(src, p.Line, p.Col, flinksql.Options{})
		if c.Start.Offset < 0 || c.Start.Offset > off {
			t.Fatalf("replaced text starts at %d, after the cursor %d", c.Start.Offset, off)
		}
		for _, it := range c.Items {
			if it.Text == "" {
				t.Fatalf("a suggestion without text: %+v", it)
			}
		}
	})
}
