package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rooms stay readable (issues 11, 24): no Go file over maxLines (a file is
// one seam; a count is no reason to split one) and no type with
// over maxMethods methods ("about 30": the simulator's Cluster, at 32, is
// the largest and is held there). The SQL parser and formatter and the simulator
// are exempt from the file rule (a grammar reads best whole); the parser,
// the REST clients in yarn/ and the agent's client, whose methods mirror
// an API, from the type rule.
const (
	maxLines   = 800
	maxMethods = 32
)

func longFileExempt(path string) bool {
	return strings.HasPrefix(path, "flinksql/parse") || strings.HasPrefix(path, "flinksql/format") ||
		strings.HasPrefix(path, "yarn/sim/")
}

var bigTypeExempt = map[string]bool{
	"flinksql.parser": true,
	"yarn.Flink":      true, "yarn.RM": true, "yarn.Gateway": true, "yarn.NodeManager": true,
	// The agent's client is api.Service over the socket, its stubs
	// generated from the method table: it mirrors the API.
	"agent.Client": true,
	// The guard wraps every api.Service method, generated from the same
	// declarations: it mirrors the API too.
	"api.guarded": true,
}

func goFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestNoFileOverEightHundredLines(t *testing.T) {
	for _, path := range goFiles(t) {
		if longFileExempt(path) {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n > maxLines {
			t.Errorf("%s has %d lines; split it by what its parts do (at most %d)", path, n, maxLines)
		}
	}
}

// methodCounts counts the methods of each named type, per package dir.
func methodCounts(fset *token.FileSet, files map[string]string) (map[string]int, error) {
	counts := map[string]int{}
	for path, src := range files {
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			typ := fd.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if ix, ok := typ.(*ast.IndexExpr); ok {
				typ = ix.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				counts[filepath.Base(filepath.Dir(path))+"."+id.Name]++
			}
		}
	}
	return counts, nil
}

func TestNoTypeOverThirtyMethods(t *testing.T) {
	files := map[string]string{}
	for _, path := range goFiles(t) {
		if strings.HasSuffix(path, "_test.go") || strings.Contains(path, "/internal/") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files[path] = string(b)
	}
	counts, err := methodCounts(token.NewFileSet(), files)
	if err != nil {
		t.Fatal(err)
	}
	for typ, n := range counts {
		if n > maxMethods && !bigTypeExempt[typ] {
			t.Errorf("%s has %d methods; give its parts types of their own (at most %d)", typ, n, maxMethods)
		}
	}
}

// TestMethodCountsCatchABigType shows the count at work: a type of 31
// methods spread over two files is one type too big.
func TestMethodCountsCatchABigType(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("package p\ntype T struct{}\n")
	b.WriteString("package p\n")
	for i := range 31 {
		w := &a
		if i%2 == 1 {
			w = &b
		}
		w.WriteString("func (t *T) M" + strings.Repeat("x", i+1) + "() {}\n")
	}
	counts, err := methodCounts(token.NewFileSet(), map[string]string{"p/a.go": a.String(), "p/b.go": b.String()})
	if err != nil {
		t.Fatal(err)
	}
	if counts["p.T"] != 31 {
		t.Fatalf("counted %v, want p.T: 31", counts)
	}
}
