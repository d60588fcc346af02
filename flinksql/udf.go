package flinksql

import (
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql/ast"

	"github.com/palink/palink/flinksql/builtin"
)

// FunctionInfo is a user function that exists outside the script: one of
// palink's UDF registry, which a deploy creates before the script runs.
type FunctionInfo struct {
	// Name is the name as registered (the map's key is upper-case):
	// what completion writes.
	Name string
	// Signature is the SQL signature when one was given, "(STRING, INT)
	// -> STRING"; "" when not known.
	Signature string
}

// Args is how many arguments the signature takes, -1 when there is no
// signature to tell.
func (f FunctionInfo) Args() int {
	if f.Signature == "" {
		return -1
	}
	args, _, err := ParseSignature(f.Signature)
	if err != nil {
		return -1
	}
	return len(args)
}

// ParseSignature reads a function signature, "(STRING, INT) -> STRING":
// the argument types and the result type, each a Flink data type.
func ParseSignature(sig string) (args []*ast.DataType, result *ast.DataType, err error) {
	s := strings.TrimSpace(sig)
	in, out, ok := strings.Cut(s, "->")
	in = strings.TrimSpace(in)
	if !ok || !strings.HasPrefix(in, "(") || !strings.HasSuffix(in, ")") {
		return nil, nil, fmt.Errorf("signature %q: want (TYPE, …) -> TYPE, like (STRING, INT) -> STRING", sig)
	}
	for _, part := range splitTopLevel(in[1 : len(in)-1]) {
		t, errs := ParseDataType(part)
		if len(errs) > 0 {
			return nil, nil, fmt.Errorf("signature %q: argument type %q: %s", sig, part, errs[0].Msg)
		}
		args = append(args, t)
	}
	result, errs := ParseDataType(strings.TrimSpace(out))
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("signature %q: result type %q: %s", sig, strings.TrimSpace(out), errs[0].Msg)
	}
	return args, result, nil
}

// splitTopLevel splits s at the commas outside parentheses and angle
// brackets (DECIMAL(10, 2), MAP<STRING, INT>); an empty s has no parts.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" || len(out) > 0 {
		out = append(out, last)
	}
	return out
}

// FunctionCall is one call of a function that is neither built in nor
// created by the script.
type FunctionCall struct {
	Name string // as the script writes it
	Pos  ast.Pos
	Args int
}

// UserFunctionCalls returns the calls of the script to functions that are
// neither Flink's built-ins nor created by the script, in source order:
// what a deploy must create from the UDF registry, and what a local debug
// run cannot run.
func UserFunctionCalls(script *Script) []FunctionCall {
	if script == nil {
		return nil
	}
	created := scriptFunctions(script)
	var out []FunctionCall
	for _, st := range script.Stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			f, ok := n.(*ast.FuncCall)
			if !ok || len(f.Name.Parts) != 1 || f.NoParens {
				return true
			}
			up := strings.ToUpper(f.Name.Parts[0].Name)
			if builtin.BuiltinFunctions[up] || builtin.FunctionNamed(up) != nil || builtin.ReservedWords[up] || created[up] {
				return true
			}
			out = append(out, FunctionCall{Name: f.Name.Parts[0].Name, Pos: f.Pos, Args: len(f.Args)})
			return true
		})
	}
	return out
}

// scriptFunctions are the functions the script creates, upper-case.
func scriptFunctions(script *Script) map[string]bool {
	out := map[string]bool{}
	for _, st := range script.Stmts {
		if c, ok := st.(*ast.CreateFunction); ok {
			out[strings.ToUpper(c.Name.Last())] = true
		}
	}
	return out
}

// checkUserFunction judges, when Options.Functions is given, a call of a
// function that is not built in: one of the registry with the number of
// arguments its signature takes, or one the script creates. Anything else
// Flink would refuse with "No match found for function signature".
func (ec *exprChecker) checkUserFunction(f *ast.FuncCall, name string) {
	fns := ec.cat.opts.Functions
	if fns == nil || !ec.cat.catalogKnown || ec.cat.functions[name] || ec.cat.opts.scriptFunctions[name] {
		return
	}
	info, ok := fns[name]
	if !ok {
		ec.errorf(CodeUnknownFunction, f.Name, "register it with palink udf add, or create it in the script",
			"unknown function '%s': not built in, not created by the script, not in the UDF registry", f.Name.Parts[0].Name)
		return
	}
	if n := info.Args(); n >= 0 && n != len(f.Args) {
		ec.errorf(CodeUnknownFunction, f.Name, "its signature is "+info.Signature,
			"function '%s' takes %d argument%s, called with %d", f.Name.Parts[0].Name, n, plural(n), len(f.Args))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
