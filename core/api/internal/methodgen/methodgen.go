// Package methodgen writes core/api's method table (methods_gen.go) from the
// one declaration each API method has: a directive on the line above the
// method in its interface,
//
//	//palink:api role=admin writes what="remove function" caller=Issuer timeout=5m custom local on=job(r.JobRef)
//
// role is the least role that may call it (viewer, operator, admin);
// writes, that --read-only refuses it; what, the action a refusal names;
// caller, the field of its last argument the agent fills with the user at
// the other end of the socket; timeout, the agent's bound on one call;
// custom, that the agent's side of it is written by hand; local, that it
// runs in the caller's process; self, that a guard answers it from the
// caller itself. on says what a call acts on, for teams (api.Scope): a
// list (on=list), anything (on=any), nothing of any team's (on=global),
// or one thing named by Go expressions over the method's parameters:
// job(EXPR), command(EXPR), cluster(EXPR), queue(CLUSTER,QUEUE) (a new
// job's) or team(EXPR). Without it, a method that writes is global and
// one that reads is any. A method of an interface of the package
// without one is an error: every method says who may call it, beside it.
//
// It reads the package's source with go/parser and imports nothing of
// palink's: core/api's room imports only model.
package methodgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Directive starts a method's declaration line.
const Directive = "//palink:api "

// decl is one method's declaration as written.
type decl struct {
	name, role, what, caller string
	writes, custom, local    bool
	self                     bool
	// on is the scope's name (api.Scope), onArgs its expressions.
	on      string
	onArgs  []string
	timeout time.Duration
	pos     token.Position
	// root is the API interface it was reached from (Service, Debugger);
	// fn its signature as written.
	root string
	fn   *ast.FuncType
}

// Roots are the API's interfaces: Service, whose embedded interfaces are the
// role interfaces, and the local runs: Debugger, Importer.
var Roots = []string{"Service", "Debugger", "Importer"}

// Generate reads the Go files of dir (not its tests) and returns the
// source of its methods_gen.go: every method of the Roots and of the
// interfaces they embed, in embedding order.
func Generate(dir string) ([]byte, error) {
	decls, err := read(dir)
	if err != nil {
		return nil, err
	}
	return render(decls)
}

// read gathers the declarations of the Roots' methods in dir.
func read(dir string) ([]decl, error) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	ifaces := map[string]*ast.InterfaceType{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") || strings.HasSuffix(p, "_gen.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if it, ok := ts.Type.(*ast.InterfaceType); ok {
					ifaces[ts.Name.Name] = it
				}
			}
		}
	}
	var decls []decl
	var problems []string
	seen := map[string]bool{}
	var walk func(name, root string)
	walk = func(name, root string) {
		it, ok := ifaces[name]
		if seen[name] {
			return
		}
		seen[name] = true
		if !ok {
			problems = append(problems, fmt.Sprintf("no interface %s", name))
			return
		}
		for _, m := range it.Methods.List {
			if len(m.Names) == 0 {
				if id, ok := m.Type.(*ast.Ident); ok {
					walk(id.Name, root)
				}
				continue
			}
			d, err := parse(m)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %s.%s: %v", fset.Position(m.Pos()), name, m.Names[0].Name, err))
				continue
			}
			d.root, d.fn = root, m.Type.(*ast.FuncType)
			decls = append(decls, d)
		}
	}
	for _, r := range Roots {
		walk(r, r)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return decls, nil
}

// parse reads the directive of interface method m.
func parse(m *ast.Field) (decl, error) {
	d := decl{name: m.Names[0].Name}
	var line string
	if m.Doc != nil {
		for _, c := range m.Doc.List {
			if strings.HasPrefix(c.Text, Directive) {
				line = strings.TrimPrefix(c.Text, Directive)
			}
		}
	}
	if line == "" {
		return d, fmt.Errorf("no %q line above it: say who may call it", strings.TrimSpace(Directive))
	}
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		key, rest, _ := strings.Cut(line, "=")
		if i := strings.IndexByte(key, ' '); i >= 0 || !strings.Contains(line, "=") {
			// a bare word
			word := line
			if i := strings.IndexByte(line, ' '); i >= 0 {
				word, line = line[:i], line[i:]
			} else {
				line = ""
			}
			switch word {
			case "writes":
				d.writes = true
			case "custom":
				d.custom = true
			case "local":
				d.local = true
			case "self":
				d.self = true
			default:
				return d, fmt.Errorf("unknown word %q", word)
			}
			continue
		}
		var val string
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return d, fmt.Errorf("%s: %v", key, err)
			}
			val, _ = strconv.Unquote(q)
			line = rest[len(q):]
		} else {
			val, line, _ = strings.Cut(rest, " ")
		}
		switch key {
		case "role":
			if val != "viewer" && val != "operator" && val != "admin" {
				return d, fmt.Errorf("role %q: viewer, operator or admin", val)
			}
			d.role = val
		case "what":
			d.what = val
		case "caller":
			d.caller = val
		case "on":
			on, args, err := parseOn(val)
			if err != nil {
				return d, fmt.Errorf("on=%s: %v", val, err)
			}
			d.on, d.onArgs = on, args
		case "timeout":
			t, err := time.ParseDuration(val)
			if err != nil {
				return d, fmt.Errorf("timeout: %v", err)
			}
			d.timeout = t
		default:
			return d, fmt.Errorf("unknown key %q", key)
		}
	}
	if d.role == "" {
		return d, fmt.Errorf("no role=")
	}
	if d.on == "" {
		d.on = "any"
		if d.writes {
			d.on = "global"
		}
	}
	return d, nil
}

// scopeArgs are the scopes with what each names, and how many expressions.
var scopeArgs = map[string]int{"any": 0, "global": 0, "list": 0, "job": 1, "command": 1, "cluster": 1, "queue": 2, "team": 1}

// parseOn reads an on= value: a scope, with its expressions in
// parentheses, split at the commas outside any.
func parseOn(v string) (string, []string, error) {
	kind, rest, paren := strings.Cut(v, "(")
	n, ok := scopeArgs[kind]
	if !ok {
		return "", nil, fmt.Errorf("unknown scope %q", kind)
	}
	if !paren {
		if n > 0 {
			return "", nil, fmt.Errorf("%s needs %d expression(s) in parentheses", kind, n)
		}
		return kind, nil, nil
	}
	if !strings.HasSuffix(rest, ")") {
		return "", nil, fmt.Errorf("no closing parenthesis")
	}
	rest = strings.TrimSuffix(rest, ")")
	var args []string
	depth, start := 0, 0
	for i, r := range rest {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, rest[start:i])
				start = i + 1
			}
		}
	}
	args = append(args, rest[start:])
	if len(args) != n || slices.Contains(args, "") {
		return "", nil, fmt.Errorf("%s takes %d expression(s), has %q", kind, n, rest)
	}
	return kind, args, nil
}

func render(decls []decl) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprint(&b, `// Code generated by core/api/internal/methodgen from the //palink:api lines of
// the interfaces; DO NOT EDIT. Run: go generate ./core/api

package api

import (
	"time"

	"github.com/palink/palink/model"
)

var _ = time.Second

// methods is every API method, in the embedding order of the API's
// interfaces (Service's role interfaces, then the local runs: Debugger, Importer).
var methods = []Method{
`)
	for _, d := range decls {
		fmt.Fprintf(&b, "\t{Name: %q, Role: model.%s", d.name, strings.ToUpper(d.role[:1])+d.role[1:])
		if d.writes {
			fmt.Fprint(&b, ", Writes: true")
		}
		if d.what != "" {
			fmt.Fprintf(&b, ", What: %q", d.what)
		}
		if d.caller != "" {
			fmt.Fprintf(&b, ", Caller: %q", d.caller)
		}
		switch t := d.timeout; {
		case t == 0:
		case t%time.Hour == 0:
			fmt.Fprintf(&b, ", Timeout: %d * time.Hour", t/time.Hour)
		case t%time.Minute == 0:
			fmt.Fprintf(&b, ", Timeout: %d * time.Minute", t/time.Minute)
		default:
			fmt.Fprintf(&b, ", Timeout: %d * time.Second", t/time.Second)
		}
		if d.custom {
			fmt.Fprint(&b, ", Custom: true")
		}
		if d.local {
			fmt.Fprint(&b, ", Local: true")
		}
		fmt.Fprintf(&b, ", On: Scope%s", strings.ToUpper(d.on[:1])+d.on[1:])
		if d.self {
			fmt.Fprint(&b, ", Self: true")
		}
		fmt.Fprint(&b, "},\n")
	}
	fmt.Fprint(&b, "}\n")
	return format.Source(b.Bytes())
}
