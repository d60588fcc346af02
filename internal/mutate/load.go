package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// pkg is one package under test: its sources parsed and type-checked, so a
// mutant that would not compile is told before anything is built.
type pkg struct {
	importPath string
	dir        string // absolute
	rel        string // module-relative, slash-separated
	fset       *token.FileSet
	files      []*ast.File       // the package's non-test files, in go list order
	names      []string          // their absolute paths
	srcs       map[string][]byte // by absolute path
	info       *types.Info
	importer   types.Importer
	checking   sync.Mutex // the importer is not safe for concurrent use
	// judges are the other packages whose tests judge its mutants
	// (module-relative; mutate.conf's "judge … by …").
	judges []string
	// runs narrows a judge to the tests its regexp selects, by judge.
	runs     map[string]string
	codeHash string // of the non-test files its tests and its judges' are built from
	testHash string // of everything else they are built from
	// testHashes digest, by test package ("" for its own, else the
	// judge), what that package's tests alone are built from besides the
	// code: a kill holds while its killer's package is unchanged.
	testHashes map[string]string
	// readers says where the package's code reads each package-level var,
	// by name: what judges a table's mutants.
	readers map[string]*reads
	// testRefs lists, by top-level declaration of the package's own test
	// files, the names it mentions: a test that reads a table through a
	// helper of its own judges that table too.
	testRefs map[string]map[string]bool
}

// reads are the places a package-level var is read from: positions in
// function bodies, and whether a package-level initializer reads it (then
// every test does).
type reads struct {
	at     []token.Position
	atInit bool
}

type listed struct {
	Dir, ImportPath                 string
	Standard                        bool
	Module                          *struct{ Path string }
	GoFiles, CgoFiles, EmbedFiles   []string
	TestGoFiles, XTestGoFiles       []string
	TestEmbedFiles, XTestEmbedFiles []string
	Export                          string
}

func goList(ctx context.Context, root string, args ...string) ([]listed, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-e", "-json"}, args...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var ps []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// loadPkg parses and type-checks the package in dir (module-relative),
// whose mutants the tests of judges judge too.
// runs narrows judges to the tests its regexps select.
func loadPkg(ctx context.Context, root, module, rel string, judges []string, runs map[string]string) (*pkg, error) {
	deps, err := goList(ctx, root, "-export", "-deps", "./"+rel)
	if err != nil {
		return nil, err
	}
	exports := map[string]string{}
	var self *listed
	for i, d := range deps {
		exports[d.ImportPath] = d.Export
		if filepath.Clean(d.Dir) == filepath.Join(root, filepath.FromSlash(rel)) {
			self = &deps[i]
		}
	}
	if self == nil {
		return nil, fmt.Errorf("go list found no package in %s", rel)
	}
	p := &pkg{importPath: self.ImportPath, dir: self.Dir, rel: rel, fset: token.NewFileSet(), srcs: map[string][]byte{}, judges: judges, runs: runs}
	for _, name := range append(append([]string{}, self.GoFiles...), self.CgoFiles...) {
		path := filepath.Join(self.Dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(p.fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files, p.names, p.srcs[path] = append(p.files, f), append(p.names, path), src
	}
	p.importer = importer.ForCompiler(p.fset, "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(exports[path])
	})
	p.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: p.importer}
	tp, err := conf.Check(p.importPath, p.fset, p.files, p.info)
	if err != nil {
		return nil, fmt.Errorf("type-check %s: %w", p.importPath, err)
	}
	p.readers = tableReaders(p.files, p.info, tp.Scope(), p.fset)
	var tests []*ast.File
	for _, name := range append(append([]string{}, self.TestGoFiles...), self.XTestGoFiles...) {
		f, err := parser.ParseFile(p.fset, filepath.Join(self.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		tests = append(tests, f)
	}
	p.testRefs = declRefs(tests)
	var perRel map[string]string
	if p.codeHash, p.testHash, perRel, err = inputHashes(ctx, root, module, append([]string{rel}, judges...)); err != nil {
		return nil, err
	}
	p.testHashes = map[string]string{"": perRel[rel]}
	for _, j := range judges {
		p.testHashes[j] = perRel[j]
	}
	// Narrowing a judge changes which tests decide: survivors and the
	// coverage are decided again.
	h := sha256.New()
	h.Write([]byte(p.testHash))
	for _, j := range judges {
		fmt.Fprintf(h, "\x00%s -run %s", j, runs[j])
	}
	p.testHash = hex.EncodeToString(h.Sum(nil))
	return p, nil
}

// compiles reports whether the package still type-checks with the file at
// path replaced by src; the error says why not.
func (p *pkg) compiles(path string, src []byte) error {
	p.checking.Lock()
	defer p.checking.Unlock()
	f, err := parser.ParseFile(p.fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	files := make([]*ast.File, len(p.files))
	copy(files, p.files)
	for i, name := range p.names {
		if name == path {
			files[i] = f
		}
	}
	conf := types.Config{Importer: p.importer}
	_, err = conf.Check(p.importPath, p.fset, files, nil)
	return err
}

// inputHashes digests what the tests of the packages rels (module-relative)
// are built from inside the module, and the Go version: code is the
// non-test files of the packages and their dependencies, tests everything
// else (their test files, packages only their tests import, testdata), and
// perRel the same for the tests of each package of rels alone. A cached
// result is reused while code is unchanged; a survivor is decided again
// when tests changed, a killed mutant when its killer's package's did.
func inputHashes(ctx context.Context, root, module string, rels []string) (code, tests string, perRel map[string]string, err error) {
	args := make([]string, len(rels))
	for i, rel := range rels {
		args[i] = "./" + rel
	}
	var deps []listed
	if deps, err = goList(ctx, root, append([]string{"-deps"}, args...)...); err != nil {
		return "", "", nil, err
	}
	// The non-test files of the module's packages in ps; the test files
	// too of those in dir (the package under test, its test variant, its
	// external test package), not of its dependencies.
	moduleFiles := func(ps []listed, dir string) map[string]bool {
		files := map[string]bool{}
		for _, p := range ps {
			if p.Standard || p.Module == nil || p.Module.Path != module {
				continue
			}
			groups := [][]string{p.GoFiles, p.CgoFiles, p.EmbedFiles}
			if filepath.Clean(p.Dir) == dir {
				groups = append(groups, p.TestGoFiles, p.XTestGoFiles, p.TestEmbedFiles, p.XTestEmbedFiles)
			}
			for _, group := range groups {
				for _, f := range group {
					if !filepath.IsAbs(f) { // the generated test main lives in the build cache
						files[filepath.Join(p.Dir, f)] = true
					}
				}
			}
		}
		return files
	}
	codeFiles := moduleFiles(deps, "")
	all := map[string]bool{}
	perRel = map[string]string{}
	for _, rel := range rels {
		ps, err := goList(ctx, root, "-deps", "-test", "./"+rel)
		if err != nil {
			return "", "", nil, err
		}
		dir := filepath.Join(root, filepath.FromSlash(rel))
		files := moduleFiles(ps, dir)
		for f := range codeFiles {
			delete(files, f)
		}
		_ = filepath.WalkDir(filepath.Join(dir, "testdata"), func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files[path] = true
			}
			return nil
		})
		if perRel[rel], err = digest(root, files); err != nil {
			return "", "", nil, err
		}
		for f := range files {
			all[f] = true
		}
	}
	if code, err = digest(root, codeFiles); err != nil {
		return "", "", nil, err
	}
	tests, err = digest(root, all)
	return code, tests, perRel, err
}

// tableReaders finds, for each package-level var of scope, where the
// package's code reads it: inside a function body (a FuncDecl's or a
// FuncLit's, which the coverage profile covers), or in a package-level
// initializer, which every test runs.
func tableReaders(files []*ast.File, info *types.Info, scope *types.Scope, fset *token.FileSet) map[string]*reads {
	out := map[string]*reads{}
	for _, f := range files {
		var bodies []ast.Node // the function bodies around the node visited
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				return true
			}
			for len(bodies) > 0 && n.Pos() >= bodies[len(bodies)-1].End() {
				bodies = bodies[:len(bodies)-1]
			}
			switch x := n.(type) {
			case *ast.FuncDecl:
				if x.Body != nil {
					bodies = append(bodies, x.Body)
				}
			case *ast.FuncLit:
				bodies = append(bodies, x.Body)
			case *ast.Ident:
				v, ok := info.Uses[x].(*types.Var)
				if !ok || v.Parent() != scope {
					return true
				}
				r := out[v.Name()]
				if r == nil {
					r = &reads{}
					out[v.Name()] = r
				}
				if len(bodies) == 0 {
					r.atInit = true
				} else {
					r.at = append(r.at, fset.Position(x.Pos()))
				}
			}
			return true
		})
	}
	return out
}

// declRefs lists the names each top-level declaration of files mentions
// (a function or method by its name; a var, const or type declaration by
// each name it declares).
func declRefs(files []*ast.File) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	collect := func(names []string, n ast.Node) {
		refs := map[string]bool{}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				refs[id.Name] = true
			}
			return true
		})
		for _, name := range names {
			if out[name] == nil {
				out[name] = map[string]bool{}
			}
			for r := range refs {
				out[name][r] = true
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch x := d.(type) {
			case *ast.FuncDecl:
				collect([]string{x.Name.Name}, x)
			case *ast.GenDecl:
				var names []string
				for _, spec := range x.Specs {
					switch sp := spec.(type) {
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							names = append(names, n.Name)
						}
					case *ast.TypeSpec:
						names = append(names, sp.Name.Name)
					}
				}
				collect(names, x)
			}
		}
	}
	return out
}

// testsReading lists the top-level declarations of the package's test files
// that mention name, or mention one that does (a test reading a table
// through a helper), by name. The match is by name only: a local variable
// of the same name adds a test, which costs time, never a wrong verdict.
func (p *pkg) testsReading(name string) map[string]bool {
	reach := map[string]bool{name: true}
	for grew := true; grew; {
		grew = false
		for decl, refs := range p.testRefs {
			if reach[decl] {
				continue
			}
			for r := range refs {
				if reach[r] {
					reach[decl], grew = true, true
					break
				}
			}
		}
	}
	return reach
}

func digest(root string, files map[string]bool) (string, error) {
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", runtime.Version(), driverVersion)
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return "", err
		}
		r, _ := filepath.Rel(root, name)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(r), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
