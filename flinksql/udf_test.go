package flinksql

import (
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/ast"
)

const udfScript = `CREATE TABLE src (id BIGINT, s STRING) WITH ('connector' = 'datagen');
CREATE TABLE snk (id BIGINT, s STRING) WITH ('connector' = 'blackhole');
INSERT INTO snk
SELECT id, mask(s) FROM src;
`

// TestRegisteredFunctionsValidate: with the registry given, a call of a
// function nobody defines is an error at its line:col; a registered one
// passes, and its signature decides how many arguments it takes.
func TestRegisteredFunctionsValidate(t *testing.T) {
	errsOf := func(src string, fns map[string]FunctionInfo) []string {
		var out []string
		for _, d := range Check(src, Options{Functions: fns}).Diagnostics {
			if d.Severity == SeverityError {
				out = append(out, d.Pos.String()+" "+d.Msg)
			}
		}
		return out
	}
	if got := errsOf(udfScript, map[string]FunctionInfo{}); len(got) != 1 || !strings.HasPrefix(got[0], "4:12 unknown function 'mask'") {
		t.Errorf("unregistered mask: %q", got)
	}
	if got := errsOf(udfScript, map[string]FunctionInfo{"MASK": {}}); len(got) != 0 {
		t.Errorf("registered mask: %q", got)
	}
	if got := errsOf(udfScript, map[string]FunctionInfo{"MASK": {Signature: "(STRING, INT) -> STRING"}}); len(got) != 1 ||
		!strings.Contains(got[0], "'mask' takes 2 arguments, called with 1") {
		t.Errorf("mask with a two-argument signature: %q", got)
	}
	own := "CREATE TEMPORARY FUNCTION mask AS 'com.example.Mask';\n" + udfScript
	if got := errsOf(own, map[string]FunctionInfo{}); len(got) != 0 {
		t.Errorf("a function the script creates: %q", got)
	}
	// Without the registry, an unknown function is not judged.
	if got := errsOf(udfScript, nil); len(got) != 0 {
		t.Errorf("no registry: %q", got)
	}
	if calls := UserFunctionCalls(mustParseScript(t, own)); len(calls) != 0 {
		t.Errorf("UserFunctionCalls of a script that creates mask: %+v", calls)
	}
	if calls := UserFunctionCalls(mustParseScript(t, udfScript)); len(calls) != 1 || calls[0].Name != "mask" || calls[0].Pos.String() != "4:12" {
		t.Errorf("UserFunctionCalls: %+v", calls)
	}
}

func mustParseScript(t *testing.T, src string) *Script {
	t.Helper()
	s, errs := ParseScript(src)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	return s
}

func TestParseSignature(t *testing.T) {
	args, res, err := ParseSignature("(STRING, DECIMAL(10, 2), MAP<STRING, INT>) -> STRING")
	if err != nil || len(args) != 3 || res == nil {
		t.Errorf("ParseSignature = %v, %v, %v", args, res, err)
	}
	if args, _, err := ParseSignature("() -> INT"); err != nil || len(args) != 0 {
		t.Errorf("no arguments: %v, %v", args, err)
	}
	for _, bad := range []string{"STRING -> STRING", "(STRING, NOPE(1) -> INT", "(STRING)", "(STRING) -> "} {
		if _, _, err := ParseSignature(bad); err == nil {
			t.Errorf("ParseSignature(%q) accepted it", bad)
		}
	}
}

// TestStandIns: a stand-in replaces each call, nested ones too, with the
// call's arguments for its parameters — the tree of the text written with
// the stand-in in its place; the result validates without the function,
// and a call of the wrong arity is an error at its line:col.
func TestStandIns(t *testing.T) {
	in, err := ParseStandIn("mask(s)=UPPER(s)")
	if err != nil {
		t.Fatal(err)
	}
	two, err := ParseStandIn("pick(a, b) = COALESCE(a, b)")
	if err != nil {
		t.Fatal(err)
	}
	apply := func(src string, ins ...StandIn) (*Script, error) {
		t.Helper()
		script, errs := ParseScript(src)
		if len(errs) > 0 {
			t.Fatal(errs[0])
		}
		return script, ApplyStandIns(script, ins)
	}
	got, err := apply("SELECT mask(mask(name) || 'x'), pick(id + 1, 0), s FROM t", in, two)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ParseScript("SELECT (UPPER(((UPPER((name))) || 'x'))), (COALESCE((id + 1), (0))), s FROM t")
	if Format(got) != Format(want) {
		t.Errorf("ApplyStandIns:\n got %s\nwant %s", Format(got), Format(want))
	}
	if sel := got.Stmts[0].(*ast.QueryStmt).Query.Body.(*ast.Select); sel.Items[0].Expr.Range().Pos.Col != 8 || sel.Items[1].Expr.Range().Pos.Col != 33 {
		t.Errorf("the stand-ins stand at %s and %s, want where the calls stood (1:8, 1:33)", sel.Items[0].Expr.Range().Pos, sel.Items[1].Expr.Range().Pos)
	}
	out, err := apply(udfScript, in)
	if err != nil {
		t.Fatal(err)
	}
	if errs := Validate(out, Options{Functions: map[string]FunctionInfo{}}); len(errs) != 0 && errs[0].Severity == SeverityError {
		t.Errorf("the stood-in script does not validate: %v", errs)
	}
	if _, err := apply("SELECT mask(a, b) FROM t", in); err == nil || !strings.Contains(err.Error(), "1:8: mask is called with 2 argument(s)") {
		t.Errorf("a call with too many arguments: %v", err)
	}
	self, _ := ParseStandIn("mask(s)=mask(s)")
	if _, err := apply("SELECT mask(a) FROM t", self); err == nil {
		t.Error("a stand-in that calls itself expanded for ever")
	}
	for _, bad := range []string{"mask", "mask(s)", "mask(s)=", "(s)=s", "mask(1)=s", "mask(s)=UPPER(", "m-x(s)=s"} {
		if _, err := ParseStandIn(bad); err == nil {
			t.Errorf("ParseStandIn(%q) accepted it", bad)
		}
	}
}
