package flinksql

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary text to the whole front end. The parser must
// never panic (its top-level guard turns a panic into an "internal" error,
// which this target treats as a failure), every error position must lie
// inside the source, and whatever parses must format to text that parses
// to the same statements.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.sql")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, st := range SplitStatements(string(src)) {
			f.Add(st.Text)
		}
	}
	for _, s := range []string{
		"SELECT ((((1", "SELECT CASE WHEN", "INSERT INTO t (a", "CREATE TABLE t (a ARRAY<MAP<INT,",
		"BEGIN STATEMENT SET; INSERT INTO a SELECT 1; END", "SELECT `a``b`, 'x''y', X'0F' FROM t /*+ OPTIONS('a'='b') */",
		"SELECT * FROM t MATCH_RECOGNIZE (PATTERN (A{2,}? B) DEFINE A AS TRUE)", "SET a.b-c = d e;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		script, errs := ParseScript(src)
		for _, e := range errs {
			if e.code == CodeInternal {
				t.Fatalf("parser panicked: %s", e.Message())
			}
			if e.Pos.Offset < 0 || e.Pos.Offset > len(src) || e.End.Offset > len(src) {
				t.Fatalf("error position %v..%v outside the source (%d bytes): %s", e.Pos, e.End, len(src), e.Msg)
			}
			_ = e.Snippet()
		}
		for _, st := range script.Stmts {
			r := st.Range()
			if r.Pos.Offset > r.End.Offset || r.End.Offset > len(src) {
				t.Fatalf("statement span %v..%v is not inside the source", r.Pos, r.End)
			}
		}
		_ = Validate(script, Options{})
		_ = SplitStatements(src)
		if len(errs) > 0 || !isASCIIPrintable(src) {
			return
		}
		out := Format(script)
		again, errs2 := ParseScript(out)
		if len(errs2) > 0 {
			t.Fatalf("formatted output does not parse: %v\ninput:\n%s\noutput:\n%s", errs2[0], src, out)
		}
		if out2 := Format(again); out2 != out {
			t.Fatalf("Format not stable\ninput:\n%s\nfirst:\n%s\nsecond:\n%s", src, out, out2)
		}
	})
}

// isASCIIPrintable limits the format round trip to inputs without control
// characters, which the lexer treats as white space but Format may not keep.
func isASCIIPrintable(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f })
}
