package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// mutant is one small change to one file: the bytes [start, end) of the
// original source replaced by repl. before and after say it for people, and
// are what TESTING.md's equivalent list matches.
type mutant struct {
	file string // module-relative path, slash-separated
	fn   string // enclosing function: "Name" or "Recv.Name"; a table's var name
	// table is the package-level var whose literal the mutant changes;
	// "" for a mutant in a function body. Such a mutant has no coverage
	// line of its own: the tests that read the table judge it.
	table     string
	line, col int
	// covLine:covCol is where coverage is read: a mutant matters only to
	// the tests that run the code there.
	covLine, covCol int
	lineText        string // the mutated line, trimmed: what TESTING.md may name it by
	start, end      int
	repl            string
	kind            string
	before          string
	after           string
}

// desc is the mutation in one line: "`before` → `after`", or
// "`before` removed".
func (m mutant) desc() string {
	if m.kind == kindDelete || m.kind == kindEntry || m.kind == kindField {
		return fmt.Sprintf("`%s` removed", m.before)
	}
	return fmt.Sprintf("`%s` → `%s`", m.before, m.after)
}

// apply returns src with the mutation made.
func (m mutant) apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(m.repl))
	out = append(out, src[:m.start]...)
	out = append(out, m.repl...)
	return append(out, src[m.end:]...)
}

// The kinds of mutation, each a bug a person could plausibly write.
const (
	kindBoundary = "boundary"  // < ↔ <=, > ↔ >=
	kindNegate   = "negate"    // == ↔ !=, < ↔ >=, > ↔ <=
	kindOperand  = "operand"   // a && b → a (or b): one of two checks dropped
	kindNot      = "not"       // !a → a
	kindArith    = "arith"     // + ↔ -, * ↔ /, % → *
	kindIncDec   = "incdec"    // ++ ↔ --
	kindLoopCtrl = "loopctrl"  // break ↔ continue
	kindGuard    = "guard"     // if c / case c → never taken
	kindDelete   = "delete"    // a call, assignment or ++ removed
	kindAssignOp = "assign-op" // += ↔ -=
	// In a package-level table (a var's composite literal):
	kindEntry = "entry" // an entry of a map, slice or array removed
	kindField = "field" // a keyed field of a struct entry removed
	kindBool  = "bool"  // true ↔ false
	kindEnum  = "enum"  // a constant replaced by the next of its type
)

var opSwaps = map[token.Token][]struct {
	to   token.Token
	kind string
}{
	token.LSS: {{token.LEQ, kindBoundary}, {token.GEQ, kindNegate}},
	token.LEQ: {{token.LSS, kindBoundary}, {token.GTR, kindNegate}},
	token.GTR: {{token.GEQ, kindBoundary}, {token.LEQ, kindNegate}},
	token.GEQ: {{token.GTR, kindBoundary}, {token.LSS, kindNegate}},
	token.EQL: {{token.NEQ, kindNegate}},
	token.NEQ: {{token.EQL, kindNegate}},
	token.ADD: {{token.SUB, kindArith}},
	token.SUB: {{token.ADD, kindArith}},
	token.MUL: {{token.QUO, kindArith}},
	token.QUO: {{token.MUL, kindArith}},
	token.REM: {{token.MUL, kindArith}},
}

// finder walks one file and collects its mutants.
type finder struct {
	fset  *token.FileSet
	src   []byte
	path  string
	info  *types.Info
	funcs map[string]bool // only these functions (and tables), when not empty
	pkg   *types.Package  // the package of the table being visited
	out   []mutant
	cov   token.Pos // coverage position of the node being visited; 0: its own
	// inList: the node being visited is a statement of a block or a case,
	// not a for loop's post statement or an if's init.
	inList bool
}

// findMutants lists the mutants of one parsed file. info may be nil (no
// type information: arithmetic on strings is then not told apart and the
// type check of each mutant weeds it out).
func findMutants(fset *token.FileSet, f *ast.File, src []byte, path string, info *types.Info, funcs []string) []mutant {
	fd := &finder{fset: fset, src: src, path: path, info: info, funcs: map[string]bool{}}
	for _, name := range funcs {
		fd.funcs[name] = true
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		name := funcName(fn)
		if len(fd.funcs) > 0 && !fd.funcs[name] && !fd.funcs[fn.Name.Name] {
			continue
		}
		fd.walk(fn.Body, name)
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			fd.tables(g)
		}
	}
	// In the file's order, tables among the functions.
	sort.SliceStable(fd.out, func(i, j int) bool {
		return before(fd.out[i].line, fd.out[i].col, fd.out[j].line, fd.out[j].col)
	})
	return fd.out
}

func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}

// walk visits every node of a function body. break and continue are
// swapped only when the nearest statement they could bind to is a loop.
// A mutant inside a function literal is named as Go names the closure:
// "Outer.func2", "Outer.func2.1".
func (fd *finder) walk(body *ast.BlockStmt, fn string) {
	var stack []ast.Node
	names := map[ast.Node]string{}
	count := map[string]int{}
	current := func() string {
		for i := len(stack) - 1; i >= 0; i-- {
			if name, ok := names[stack[i]]; ok {
				return name
			}
		}
		return fn
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		name := current()
		if lit, ok := n.(*ast.FuncLit); ok {
			count[name]++
			if name == fn {
				names[lit] = fmt.Sprintf("%s.func%d", fn, count[name])
			} else {
				names[lit] = fmt.Sprintf("%s.%d", name, count[name])
			}
		}
		if x, ok := n.(*ast.BranchStmt); ok && x.Label == nil && (x.Tok == token.BREAK || x.Tok == token.CONTINUE) && inLoop(stack) {
			to := token.CONTINUE
			if x.Tok == token.CONTINUE {
				to = token.BREAK
			}
			fd.add(x.Pos(), x.Pos(), x.End(), to.String(), kindLoopCtrl, name, x.Tok.String(), to.String())
		}
		fd.cov = casePos(stack, n)
		fd.inList = len(stack) > 0 && isStmtList(stack[len(stack)-1])
		fd.visit(n, name)
		stack = append(stack, n)
		return true
	})
}

// casePos is, for a node inside the expression list of a switch's case,
// the switch statement: the coverage tool counts a case's body, not its
// expressions, which are evaluated whenever the switch is reached. 0
// elsewhere.
func casePos(stack []ast.Node, n ast.Node) token.Pos {
	for i := len(stack) - 1; i >= 2; i-- {
		if cc, ok := stack[i].(*ast.CaseClause); ok {
			if n.Pos() < cc.Colon {
				return stack[i-2].Pos() // CaseClause ← BlockStmt ← SwitchStmt
			}
			return 0
		}
	}
	return 0
}

// inLoop reports whether the innermost breakable statement around the top
// of stack is a for or range loop.
func inLoop(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncLit:
			return false
		}
	}
	return false
}

// visit adds the mutants rooted at one node.
func (fd *finder) visit(n ast.Node, fn string) {
	switch x := n.(type) {
	case *ast.BinaryExpr:
		fd.binary(x, fn)
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			fd.add(x.Pos(), x.Pos(), x.End(), fd.text(x.X), kindNot, fn, fd.short(x), fd.short(x.X))
		}
	case *ast.IfStmt:
		if !fd.constant(x.Cond) {
			fd.guard(x.Cond, x.If, firstStmt(x.Body.List), fn, "if ")
		}
	case *ast.CaseClause:
		// Only a tagless switch's cases are conditions of their own.
		for _, e := range x.List {
			if fd.isBool(e) && !fd.constant(e) {
				fd.guard(e, e.Pos(), firstStmt(x.Body), fn, "case ")
			}
		}
	case *ast.IncDecStmt:
		to := token.DEC
		if x.Tok == token.DEC {
			to = token.INC
		}
		fd.add(x.TokPos, x.TokPos, x.TokPos+2, to.String(), kindIncDec, fn, fd.short(x), fd.short(x.X)+to.String())
		fd.del(x, fn)
	case *ast.ExprStmt:
		if _, ok := ast.Unparen(x.X).(*ast.CallExpr); ok {
			fd.del(x, fn)
		}
	case *ast.AssignStmt:
		switch x.Tok {
		case token.DEFINE:
		case token.ADD_ASSIGN, token.SUB_ASSIGN:
			if fd.numeric(x.Lhs[0]) {
				to := token.SUB_ASSIGN
				if x.Tok == token.SUB_ASSIGN {
					to = token.ADD_ASSIGN
				}
				fd.add(x.TokPos, x.TokPos, x.TokPos+token.Pos(len(x.Tok.String())), to.String(), kindAssignOp, fn,
					fd.short(x), fd.short(x.Lhs[0])+" "+to.String()+" "+fd.short(x.Rhs[0]))
			}
			fd.del(x, fn)
		default:
			if !allBlank(x.Lhs) {
				fd.del(x, fn)
			}
		}
	}
}

func allBlank(lhs []ast.Expr) bool {
	for _, e := range lhs {
		if id, ok := e.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	return true
}

func (fd *finder) binary(x *ast.BinaryExpr, fn string) {
	switch x.Op {
	case token.LAND, token.LOR:
		fd.add(x.OpPos, x.Pos(), x.End(), fd.text(x.X), kindOperand, fn, fd.short(x), fd.short(x.X))
		fd.add(x.OpPos, x.Pos(), x.End(), fd.text(x.Y), kindOperand, fn, fd.short(x), fd.short(x.Y))
		return
	}
	swaps, ok := opSwaps[x.Op]
	if !ok || fd.constant(x) {
		return
	}
	if x.Op == token.ADD || x.Op == token.SUB || x.Op == token.MUL || x.Op == token.QUO || x.Op == token.REM {
		if !fd.numeric(x) {
			return
		}
	}
	for _, s := range swaps {
		opEnd := x.OpPos + token.Pos(len(x.Op.String()))
		after := fd.shortPart(x.X) + " " + s.to.String() + " " + fd.shortPart(x.Y)
		fd.add(x.OpPos, x.OpPos, opEnd, s.to.String(), s.kind, fn, fd.short(x), after)
	}
}

// guard makes a condition never hold: `if c` → `if false && (c)`, which
// keeps every name in c used, so the mutant still compiles. It matters
// only where the body would have run: body is its first statement (0 for
// an empty body).
func (fd *finder) guard(cond ast.Expr, at, body token.Pos, fn, prefix string) {
	repl := "false && (" + fd.text(cond) + ")"
	saved := fd.cov
	if body.IsValid() {
		fd.cov = body
	}
	fd.add(at, cond.Pos(), cond.End(), repl, kindGuard, fn, prefix+fd.short(cond), prefix+"false")
	fd.cov = saved
}

func firstStmt(list []ast.Stmt) token.Pos {
	if len(list) == 0 {
		return token.NoPos
	}
	return list[0].Pos()
}

// del removes a statement.
// del removes a statement. In a block it becomes `if false { … }`, which
// keeps every name in it used, so the mutant still compiles (a removed
// call in a loop would leave its loop variable unused); elsewhere (a for
// loop's post statement) it is cut out.
func (fd *finder) del(s ast.Stmt, fn string) {
	repl := ""
	if fd.inList {
		repl = "if false { " + fd.text(s) + " }"
	}
	fd.add(s.Pos(), s.Pos(), s.End(), repl, kindDelete, fn, fd.short(s), "")
}

func isStmtList(n ast.Node) bool {
	switch n.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

func (fd *finder) add(at, start, end token.Pos, repl, kind, fn, before, after string) {
	p := fd.fset.Position(at)
	c := p
	if fd.cov.IsValid() {
		c = fd.fset.Position(fd.cov)
	}
	s, e := fd.fset.Position(start).Offset, fd.fset.Position(end).Offset
	fd.out = append(fd.out, mutant{file: fd.path, fn: fn, line: p.Line, col: p.Column, covLine: c.Line, covCol: c.Column,
		lineText: lineAt(fd.src, p.Offset), start: s, end: e, repl: repl, kind: kind, before: before, after: after})
}

func (fd *finder) text(n ast.Node) string {
	return string(fd.src[fd.fset.Position(n.Pos()).Offset:fd.fset.Position(n.End()).Offset])
}

// short is a node's text on one line, at most 60 characters.
func (fd *finder) short(n ast.Node) string {
	if b, ok := n.(*ast.BinaryExpr); ok {
		return fd.shortPart(b.X) + " " + b.Op.String() + " " + fd.shortPart(b.Y)
	}
	return shorten(fd.text(n), 60)
}

func (fd *finder) shortPart(n ast.Node) string { return shorten(fd.text(n), 28) }

// shorten collapses white space and cuts the middle of a long text.
func shorten(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	half := (max - 1) / 2
	return string(r[:half]) + "…" + string(r[len(r)-half:])
}

func (fd *finder) constant(e ast.Expr) bool {
	if fd.info == nil {
		return false
	}
	tv, ok := fd.info.Types[e]
	return ok && tv.Value != nil
}

func (fd *finder) basic(e ast.Expr) (*types.Basic, bool) {
	if fd.info == nil {
		return nil, false
	}
	tv, ok := fd.info.Types[e]
	if !ok || tv.Type == nil {
		return nil, false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return b, ok
}

// numeric is true for numbers, and when there is no type information.
func (fd *finder) numeric(e ast.Expr) bool {
	if fd.info == nil {
		return true
	}
	b, ok := fd.basic(e)
	return ok && b.Info()&types.IsNumeric != 0
}

// isBool is true for a boolean expression (a case of a tagless switch);
// without type information, a comparison or logical operation.
func (fd *finder) isBool(e ast.Expr) bool {
	if fd.info != nil {
		b, ok := fd.basic(e)
		return ok && b.Info()&types.IsBoolean != 0
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR, token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return true
		}
	case *ast.UnaryExpr:
		return x.Op == token.NOT
	}
	return false
}

// lineAt is the line of src around offset, trimmed.
func lineAt(src []byte, offset int) string {
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	end := bytes.IndexByte(src[offset:], '\n')
	if end < 0 {
		end = len(src) - offset
	}
	return strings.TrimSpace(string(src[start : offset+end]))
}

// tables adds the mutants of the package-level tables a var declaration
// holds: each composite literal it is initialised with, named by its var.
func (fd *finder) tables(g *ast.GenDecl) {
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		if len(vs.Values) != len(vs.Names) {
			continue // var a, b = f(): no literal of its own
		}
		for i, v := range vs.Values {
			name := vs.Names[i].Name
			if name == "_" || len(fd.funcs) > 0 && !fd.funcs[name] {
				continue
			}
			if lit := literal(v); lit != nil {
				if fd.info != nil && fd.info.Defs[vs.Names[i]] != nil {
					fd.pkg = fd.info.Defs[vs.Names[i]].Pkg()
				}
				fd.table(lit, name)
			}
		}
	}
}

// literal is e's composite literal, also behind an &; nil if e is none.
func literal(e ast.Expr) *ast.CompositeLit {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// table adds the mutants of one literal of table name, and of the literals
// nested in it: each entry of a map, slice or array removed, each keyed
// field of a struct removed, and in both each bool flipped and each enum
// constant replaced. Without type information only entries are removed.
func (fd *finder) table(lit *ast.CompositeLit, name string) {
	var t types.Type
	if fd.info != nil {
		if tv, ok := fd.info.Types[lit]; ok && tv.Type != nil {
			t = tv.Type.Underlying()
			if p, ok := t.(*types.Pointer); ok { // an elided &T
				t = p.Elem().Underlying()
			}
		}
	}
	_, isMap := t.(*types.Map)
	_, isStruct := t.(*types.Struct)
	for i, e := range lit.Elts {
		kv, keyed := e.(*ast.KeyValueExpr)
		switch {
		case isStruct && keyed:
			fd.drop(lit.Elts, i, kindField, name)
		case !isStruct:
			fd.drop(lit.Elts, i, kindEntry, name)
		}
		if !keyed {
			fd.tableValue(nil, e, name)
			continue
		}
		if isMap {
			fd.tableValue(nil, kv.Key, name)
		}
		fd.tableValue(kv, kv.Value, name)
	}
}

// tableValue adds the mutants of one key, value or field of a table: a
// nested literal's, a flipped bool, an enum constant's neighbour. kv is the
// key-value pair e is the value of, if any, which names the flipped bool.
func (fd *finder) tableValue(kv *ast.KeyValueExpr, e ast.Expr, name string) {
	if lit := literal(e); lit != nil {
		fd.table(lit, name)
		return
	}
	if fd.info == nil {
		return
	}
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") && fd.info.Uses[id] == types.Universe.Lookup(id.Name) {
		to := "false"
		if id.Name == "false" {
			to = "true"
		}
		before, after := id.Name, to
		if kv != nil {
			before, after = fd.short(kv.Key)+": "+id.Name, fd.short(kv.Key)+": "+to
		}
		fd.tableAdd(id.Pos(), id.Pos(), id.End(), to, kindBool, name, before, after)
		return
	}
	id, _ := e.(*ast.Ident)
	qual := ""
	if sel, ok := e.(*ast.SelectorExpr); ok {
		id, qual = sel.Sel, fd.text(sel.X)+"."
	}
	if id == nil {
		return
	}
	if next := fd.neighbour(id); next != "" {
		fd.tableAdd(id.Pos(), id.Pos(), id.End(), next, kindEnum, name, fd.short(e), qual+next)
	}
}

// neighbour is the constant of the same named type as the one id names
// that comes next in value (the one before, for the last): the enum value
// a slip of the hand writes instead. "" when id names no such constant, or
// its type has no other that this package can name.
func (fd *finder) neighbour(id *ast.Ident) string {
	c, ok := fd.info.Uses[id].(*types.Const)
	if !ok || c.Pkg() == nil {
		return ""
	}
	if _, named := types.Unalias(c.Type()).(*types.Named); !named {
		return ""
	}
	scope := c.Pkg().Scope()
	var same []*types.Const
	for _, n := range scope.Names() {
		o, ok := scope.Lookup(n).(*types.Const)
		if ok && types.Identical(o.Type(), c.Type()) && (o.Exported() || o.Pkg() == fd.pkg) {
			same = append(same, o)
		}
	}
	sort.SliceStable(same, func(i, j int) bool {
		a, b := same[i].Val(), same[j].Val()
		if a.Kind() == b.Kind() && a.Kind() != constant.Unknown && !constant.Compare(a, token.EQL, b) {
			return constant.Compare(a, token.LSS, b)
		}
		return same[i].Pos() < same[j].Pos()
	})
	var after, before *types.Const
	seen := false
	for _, o := range same {
		switch {
		case o == c:
			seen = true
		case constant.Compare(o.Val(), token.EQL, c.Val()):
		case seen && after == nil:
			after = o
		case !seen:
			before = o
		}
	}
	if after == nil {
		after = before
	}
	if after == nil {
		return ""
	}
	return after.Name()
}

// drop removes element i of a literal with its comma: up to the next
// element, or from the one before when it is the last.
func (fd *finder) drop(elts []ast.Expr, i int, kind, name string) {
	e := elts[i]
	start, end := e.Pos(), e.End()
	switch {
	case i+1 < len(elts):
		end = elts[i+1].Pos()
	case i > 0:
		start = elts[i-1].End()
	default: // the only element: its trailing comma goes too
		off := fd.fset.Position(end).Offset
		rest := bytes.TrimLeft(fd.src[off:], " \t")
		if len(rest) > 0 && rest[0] == ',' {
			end += token.Pos(len(fd.src[off:]) - len(rest) + 1)
		}
	}
	before := fd.short(e)
	if kv, ok := e.(*ast.KeyValueExpr); ok { // a map's key and value, each in full up to 60
		before = fd.short(kv.Key) + ": " + fd.short(kv.Value)
	}
	fd.tableAdd(e.Pos(), start, end, "", kind, name, before, "")
}

// tableAdd adds a mutant of table name, judged by the tests that read it.
func (fd *finder) tableAdd(at, start, end token.Pos, repl, kind, name, before, after string) {
	saved := fd.cov
	fd.cov = token.NoPos
	fd.add(at, start, end, repl, kind, name, before, after)
	fd.cov = saved
	fd.out[len(fd.out)-1].table = name
}
