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
	p.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: p.importer}
	if _, err := conf.Check(p.importPath, p.fset, p.files, p.info); err != nil {
		return nil, fmt.Errorf("type-check %s: %w", p.importPath, err)
	}
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
