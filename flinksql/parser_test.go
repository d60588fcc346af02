package flinksql

import (
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/ast"
)

// sexpr renders an expression fully parenthesized so tests can check the
// shape the parser built, precedence included.
func sexpr(e ast.Expr) string {
	switch x := e.(type) {
	case nil:
		return "nil"
	case *ast.ColumnRef:
		return x.Key()
	case *ast.Star:
		if len(x.Qualifier) > 0 {
			return identsKey(x.Qualifier) + ".*"
		}
		return "*"
	case *ast.NumberLit:
		return x.Text
	case *ast.StringLit:
		return ast.QuoteString(x.Value)
	case *ast.BoolLit:
		return fmt.Sprint(x.Value)
	case *ast.NullLit:
		return "NULL"
	case *ast.TypedLit:
		return x.Type + " " + ast.QuoteString(x.Value.Value)
	case *ast.IntervalLit:
		q := x.Qualifier.From
		if x.Qualifier.To != "" {
			q += " TO " + x.Qualifier.To
		}
		return "(INTERVAL " + sexpr(x.Value) + " " + q + ")"
	case *ast.UnaryExpr:
		return "(" + x.Op + " " + sexpr(x.X) + ")"
	case *ast.BinaryExpr:
		return "(" + sexpr(x.L) + " " + x.Op + " " + sexpr(x.R) + ")"
	case *ast.IsExpr:
		not := ""
		if x.Not {
			not = "NOT "
		}
		return "(" + sexpr(x.X) + " IS " + not + x.What + ")"
	case *ast.IsDistinctExpr:
		return "(" + sexpr(x.L) + " IS DISTINCT FROM " + sexpr(x.R) + ")"
	case *ast.InExpr:
		not := ""
		if x.Not {
			not = "NOT "
		}
		if x.Query != nil {
			return "(" + sexpr(x.X) + " " + not + "IN subquery)"
		}
		return "(" + sexpr(x.X) + " " + not + "IN " + sexprList(x.List) + ")"
	case *ast.BetweenExpr:
		return "(" + sexpr(x.X) + " BETWEEN " + sexpr(x.Lo) + " " + sexpr(x.Hi) + ")"
	case *ast.LikeExpr:
		s := "(" + sexpr(x.X) + " " + x.Op + " " + sexpr(x.Pattern)
		if x.Escape != nil {
			s += " ESCAPE " + sexpr(x.Escape)
		}
		return s + ")"
	case *ast.FuncCall:
		s := x.Name.String()
		if x.NoParens {
			return s
		}
		if x.Distinct {
			return s + "(DISTINCT " + strings.Trim(sexprList(x.Args), "[]") + ")"
		}
		s += "(" + strings.Trim(sexprList(x.Args), "[]") + ")"
		if x.Filter != nil {
			s += " FILTER " + sexpr(x.Filter)
		}
		if x.Over != nil || x.OverRef != nil {
			s += " OVER"
		}
		return s
	case *ast.CastExpr:
		return "CAST(" + sexpr(x.X) + " AS " + x.Type.Name + ")"
	case *ast.ParenExpr:
		return "[" + sexpr(x.X) + "]"
	case *ast.RowExpr:
		return "ROW" + sexprList(x.Items)
	case *ast.ArrayExpr:
		return "ARRAY" + sexprList(x.Items)
	case *ast.MapExpr:
		return "MAP" + sexprList(x.Items)
	case *ast.IndexExpr:
		return sexpr(x.X) + "[" + sexpr(x.Index) + "]"
	case *ast.FieldExpr:
		return sexpr(x.X) + "." + x.Field.Name
	case *ast.ExtractExpr:
		return "EXTRACT(" + x.Unit + " " + sexpr(x.X) + ")"
	case *ast.TimeUnitExpr:
		return x.Unit
	case *ast.CaseExpr:
		s := "CASE"
		if x.Operand != nil {
			s += " " + sexpr(x.Operand)
		}
		for _, w := range x.Whens {
			s += " WHEN " + sexpr(w.Cond) + " THEN " + sexpr(w.Result)
		}
		if x.Else != nil {
			s += " ELSE " + sexpr(x.Else)
		}
		return s + " END"
	case *ast.NamedArg:
		return x.Name.Name + "=>" + sexpr(x.Value)
	case *ast.TableArg:
		return "TABLE " + x.Name.String()
	case *ast.DescriptorExpr:
		return "DESCRIPTOR(" + identsKey(x.Columns) + ")"
	case *ast.SubqueryExpr:
		return "subquery"
	case *ast.ExistsExpr:
		return "EXISTS subquery"
	}
	return fmt.Sprintf("%T", e)
}

func sexprList(es []ast.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = sexpr(e)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func identsKey(ids []*ast.Ident) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.Name
	}
	return strings.Join(parts, ",")
}

func mustParseExpr(t *testing.T, src string) ast.Expr {
	t.Helper()
	e, errs := ParseExpr(src)
	if len(errs) > 0 {
		t.Fatalf("ParseExpr(%q): %v", src, errs[0])
	}
	return e
}

func mustParse(t *testing.T, src string) ast.Statement {
	t.Helper()
	st, errs := Parse(src)
	if len(errs) > 0 {
		t.Fatalf("Parse(%q): %v\n%s", src, errs[0], errs[0].Snippet())
	}
	return st
}

func TestExprPrecedence(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a OR b AND c", "(a OR (b AND c))"},
		{"NOT a AND b", "((NOT a) AND b)"},
		{"NOT a = b", "(NOT (a = b))"},
		{"a = b OR c <> d", "((a = b) OR (c <> d))"},
		{"a + b * c - d", "((a + (b * c)) - d)"},
		{"a || b + c", "(a || (b + c))"},
		{"a || b = c", "((a || b) = c)"},
		{"-a * b", "((- a) * b)"},
		{"a % 2 = 0", "((a % 2) = 0)"},
		{"a != b", "(a != b)"},
		{"a IS NOT NULL AND b IS TRUE", "((a IS NOT NULL) AND (b IS TRUE))"},
		{"a IS DISTINCT FROM b", "(a IS DISTINCT FROM b)"},
		{"a BETWEEN 1 AND 2 AND c", "((a BETWEEN 1 2) AND c)"},
		{"a NOT BETWEEN SYMMETRIC b + 1 AND c", "(a BETWEEN (b + 1) c)"},
		{"a NOT IN (1, 2) OR b IN ('x')", "((a NOT IN [1, 2]) OR (b IN ['x']))"},
		{"name LIKE 'a%' ESCAPE '!'", "(name LIKE 'a%' ESCAPE '!')"},
		{"name NOT SIMILAR TO 'a+'", "(name SIMILAR TO 'a+')"},
		{"(a + b) * c", "([(a + b)] * c)"},
		{"a.b.c[1].d", "a.b.c[1].d"},
		{"f(x).y", "f(x).y"},
		{"m['k']", "m['k']"},
		{"ts - INTERVAL '5' SECOND", "(ts - (INTERVAL '5' SECOND))"},
		{"INTERVAL '1:30' HOUR TO MINUTE", "(INTERVAL '1:30' HOUR TO MINUTE)"},
		{"DATE '2020-01-01' < CURRENT_DATE", "(DATE '2020-01-01' < CURRENT_DATE)"},
		{"CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP"},
		{"COUNT(*)", "COUNT(*)"},
		{"COUNT(DISTINCT user_id)", "COUNT(DISTINCT user_id)"},
		{"SUM(x) FILTER (WHERE x > 0)", "SUM(x) FILTER (x > 0)"},
		{"CAST(x AS VARCHAR(10)) || 'a'", "(CAST(x AS VARCHAR) || 'a')"},
		{"TRY_CAST(x AS INT)", "CAST(x AS INT)"},
		{"CASE a WHEN 1 THEN 'one' ELSE 'many' END", "CASE a WHEN 1 THEN 'one' ELSE 'many' END"},
		{"CASE WHEN a > 1 THEN 1 END", "CASE WHEN (a > 1) THEN 1 END"},
		{"ROW(1, 'a')", "ROW[1, 'a']"},
		{"ARRAY[1, 2]", "ARRAY[1, 2]"},
		{"MAP['a', 1, 'b', 2]", "MAP['a', 1, 'b', 2]"},
		{"EXTRACT(DAY FROM ts)", "EXTRACT(DAY ts)"},
		{"TIMESTAMPDIFF(HOUR, a, b)", "TIMESTAMPDIFF(HOUR, a, b)"},
		{"UPPER(name)", "UPPER(name)"},
		{"cat.db.my_udf(1)", "cat.db.my_udf(1)"},
		{"`select`.`from`", "select.from"},
		{"a = ANY (SELECT 1)", "*ast.QuantifiedExpr"},
		{"x IN (SELECT id FROM t)", "(x IN subquery)"},
		{"EXISTS (SELECT 1)", "EXISTS subquery"},
		{"(SELECT MAX(a) FROM t) + 1", "(subquery + 1)"},
		{"LEFT(s, 2)", "LEFT(s, 2)"},
		{"a = 1 = b", "((a = 1) = b)"},
		{"- - 1", "(- (- 1))"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			if got := sexpr(mustParseExpr(t, tt.src)); got != tt.want {
				t.Errorf("ParseExpr(%q) = %s, want %s", tt.src, got, tt.want)
			}
		})
	}
}

func TestExprSpans(t *testing.T) {
	src := "a + f(b, 'x') * 2"
	e := mustParseExpr(t, src)
	bin := e.(*ast.BinaryExpr)
	if got := src[bin.Pos.Offset:bin.End.Offset]; got != src {
		t.Errorf("outer span = %q", got)
	}
	mul := bin.R.(*ast.BinaryExpr)
	if got := src[mul.Pos.Offset:mul.End.Offset]; got != "f(b, 'x') * 2" {
		t.Errorf("product span = %q", got)
	}
	call := mul.L.(*ast.FuncCall)
	if call.Pos.Col != 5 || call.End.Col != 14 {
		t.Errorf("call span = %v-%v, want 1:5-1:14", call.Pos, call.End)
	}
}
