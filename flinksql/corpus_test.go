package flinksql

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/palink/palink/flinksql/ast"
)

// TestFlinkDocsCorpus parses every example collected from Flink's own
// documentation (testdata/flinkdocs, one file per docs page).
func TestFlinkDocsCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/flinkdocs/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files: %v", err)
	}
	total, bad := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		script, errs := ParseFile(filepath.Base(f), string(src))
		total += len(script.Stmts)
		for _, st := range script.Stmts {
			if _, ok := st.(*ast.BadStmt); ok {
				bad++
			}
		}
		for _, e := range errs {
			t.Errorf("%s\n%s", e.Error(), e.Snippet())
		}
	}
	t.Logf("corpus: %d files, %d statements, %d failed", len(files), total, bad)
}

// TestValidJobsAreClean runs Check over complete, correct jobs: any
// diagnostic is a false alarm, but for the one that says a third-party
// connector's options are not checked, which is about palink, not the job.
func TestValidJobsAreClean(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.sql")
	if len(files) == 0 {
		t.Fatal("no files in testdata/valid")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := Check(string(src), Options{File: filepath.Base(f)})
		for _, d := range r.Diagnostics {
			if d.Code != CodeUncheckedOptions {
				t.Errorf("%s\n%s", d.Error(), d.Snippet())
			}
		}
		checkRoundTrip(t, filepath.Base(f), string(src))
	}
}
