package tui

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const apiPath = "github.com/palink/palink/core/api"

// TestScreensUseTheirService: each screen package says in one place what
// it may ask of core, and asks nothing else. The root (the app, which
// wires the one api.Service) and kit (whose Env carries it) aside, a
// package under tui never names api.Service, reads kit.Env.Svc only in
// its svc.go, once, where it narrows it to its Service, composed of
// core/api's role interfaces only (each method is declared once, in
// core/api), and never asks a value whether it has a capability by
// asserting it to one of core/api's interfaces: what it needs is declared
// and given to it.
func TestScreensUseTheirService(t *testing.T) {
	ifaces, err := apiInterfaces(filepath.Join("..", "core", "api"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		switch path {
		case ".":
			return nil // the app
		case "kit", "internal", "testdata":
			return filepath.SkipDir // the Env's home; the tests' fakes and harness
		}
		bad, n, err := narrowViolations(path, ifaces)
		if err != nil {
			return err
		}
		for _, b := range bad {
			t.Error(b)
		}
		checked += n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 12 {
		t.Fatalf("only %d packages reach core through a Service; the walk missed the screens", checked)
	}
}

// TestNarrowViolationsCatchAScreenReachingPastItsService: the check sees
// each way past a screen's Service.
func TestNarrowViolationsCatchAScreenReachingPastItsService(t *testing.T) {
	ifaces, err := apiInterfaces(filepath.Join("..", "core", "api"))
	if err != nil {
		t.Fatal(err)
	}
	const head = "package jobs\n\nimport (\n\tcoreapi \"" + apiPath + "\"\n\t\"github.com/palink/palink/tui/kit\"\n)\n\n"
	for _, c := range []struct {
		name, svc, screen, want string
	}{
		{"ok", "type Service interface {\n\tcoreapi.JobService\n}\n\nfunc call(e *kit.Env) kit.Call[Service] { return kit.CallOf[Service](e, e.Svc) }\n",
			"func load(e *kit.Env) { _ = call(e).Service }\n", ""},
		{"reads Svc outside svc.go", "type Service interface {\n\tcoreapi.JobService\n}\n",
			"func load(e *kit.Env) { _ = e.Svc }\n", "screen.go:8: reads .Svc, the whole service, outside svc.go"},
		{"reads Svc twice", "type Service interface {\n\tcoreapi.JobService\n}\n\nfunc a(e *kit.Env) Service { return e.Svc }\n\nfunc b(e *kit.Env) Service { return e.Svc }\n",
			"", "svc.go:14: reads .Svc, the whole service, a second time"},
		{"names the whole service", "type Service interface {\n\tcoreapi.JobService\n}\n\nfunc call(e *kit.Env) Service { return e.Svc }\n",
			"var whole coreapi.Service\n", "screen.go:8: names api.Service"},
		{"asserts a capability", "type Service interface {\n\tcoreapi.JobService\n}\n\nfunc call(e *kit.Env) Service { return e.Svc }\n",
			"func f(s Service) { _, _ = s.(coreapi.DiagnoseService) }\n", "screen.go:8: asserts a value to api.DiagnoseService"},
		{"switches on a capability", "type Service interface {\n\tcoreapi.JobService\n}\n\nfunc call(e *kit.Env) Service { return e.Svc }\n",
			"func f(s Service) {\n\tswitch s.(type) {\n\tcase coreapi.DebugSamples:\n\t}\n}\n", "screen.go:10: asserts a value to api.DebugSamples"},
		{"embeds the whole service", "type Service interface {\n\tcoreapi.Service\n}\n\nfunc call(e *kit.Env) Service { return e.Svc }\n",
			"", "svc.go:9: names api.Service"},
		{"declares a method of its own", "type Service interface {\n\tcoreapi.JobService\n\tAct() error\n}\n\nfunc call(e *kit.Env) Service { return e.Svc }\n",
			"", "svc.go:10: Service declares Act itself"},
		{"no Service", "func call(e *kit.Env) kit.Call[coreapi.JobService] { return kit.CallOf[coreapi.JobService](e, e.Svc) }\n",
			"", "reads .Svc, the whole service, without a Service in svc.go"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "svc.go"), []byte(head+c.svc), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "screen.go"), []byte(head+c.screen), 0o600); err != nil {
			t.Fatal(err)
		}
		bad, _, err := narrowViolations(dir, ifaces)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := strings.Join(bad, "\n")
		switch {
		case c.want == "" && got != "":
			t.Errorf("%s: %s", c.name, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// apiInterfaces are the names of the interfaces core/api declares.
func apiInterfaces(dir string) (map[string]bool, error) {
	files, err := parseDir(dir)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f.file, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if _, ok := ts.Type.(*ast.InterfaceType); ok {
					names[ts.Name.Name] = true
				}
			}
			return true
		})
	}
	if !names["Service"] || !names["JobService"] {
		return nil, fmt.Errorf("%s declares no Service and JobService: not core/api", dir)
	}
	return names, nil
}

type parsedFile struct {
	name string // base name
	file *ast.File
	fset *token.FileSet
}

// parseDir parses the Go files of dir, its tests left out.
func parseDir(dir string) ([]parsedFile, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var out []parsedFile
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, parsedFile{name: filepath.Base(p), file: f, fset: fset})
	}
	return out, nil
}

// narrowViolations says how the package in dir reaches past its Service;
// n is 1 when it reaches core at all (through its svc.go).
func narrowViolations(dir string, ifaces map[string]bool) (bad []string, n int, err error) {
	files, err := parseDir(dir)
	if err != nil {
		return nil, 0, err
	}
	hasService := false
	for _, f := range files {
		at := func(n ast.Node) string {
			return fmt.Sprintf("%s:%d", filepath.Join(dir, f.name), f.fset.Position(n.Pos()).Line)
		}
		api := apiName(f.file)
		isAPI := func(e ast.Expr) (string, bool) {
			s, ok := e.(*ast.SelectorExpr)
			if !ok || api == "" {
				return "", false
			}
			x, ok := s.X.(*ast.Ident)
			return s.Sel.Name, ok && x.Name == api
		}
		ast.Inspect(f.file, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.SelectorExpr:
				if name, ok := isAPI(x); ok && name == "Service" {
					bad = append(bad, at(x)+": names api.Service")
				}
				if x.Sel.Name != "Svc" {
					break
				}
				switch {
				case f.name != "svc.go":
					bad = append(bad, at(x)+": reads .Svc, the whole service, outside svc.go")
				case n > 0:
					bad = append(bad, at(x)+": reads .Svc, the whole service, a second time")
				default:
					n++
				}
			case *ast.TypeAssertExpr:
				if name, ok := isAPI(x.Type); ok && ifaces[name] {
					bad = append(bad, at(x)+": asserts a value to api."+name)
				}
			case *ast.TypeSwitchStmt:
				for _, s := range x.Body.List {
					for _, e := range s.(*ast.CaseClause).List {
						if name, ok := isAPI(e); ok && ifaces[name] {
							bad = append(bad, at(e)+": asserts a value to api."+name)
						}
					}
				}
			case *ast.TypeSpec:
				it, ok := x.Type.(*ast.InterfaceType)
				if !ok || x.Name.Name != "Service" || f.name != "svc.go" {
					break
				}
				hasService = true
				for _, m := range it.Methods.List {
					name, ok := isAPI(m.Type)
					switch {
					case len(m.Names) > 0:
						bad = append(bad, at(m)+": Service declares "+m.Names[0].Name+" itself")
					case !ok || !ifaces[name] || name == "Service":
						bad = append(bad, at(m)+": Service embeds something other than a role interface of core/api")
					}
				}
			}
			return true
		})
	}
	if n > 0 && !hasService {
		bad = append(bad, dir+": reads .Svc, the whole service, without a Service in svc.go")
	}
	return bad, n, nil
}

// apiName is the name f imports core/api as, "" when it does not.
func apiName(f *ast.File) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == apiPath {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "api"
		}
	}
	return ""
}
