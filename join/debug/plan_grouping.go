package debug

import (
	"fmt"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// groupingCalls computes the GROUPING(…) and GROUPING_ID(…) calls of a
// grouped SELECT list and HAVING after the aggregation: a bit per argument,
// the first the highest, set when the grouping set of the row leaves that
// key out (rolled up). nKeys is how many GROUP BY keys lead out's row; with
// grouping sets (expand) the set's number follows them.
func (d aggregates) groupingCalls(s *ast.Select, out *rel, nKeys int, expand [][]bool, subst map[string]int) (*rel, error) {
	var calls []*ast.FuncCall
	seen := map[string]bool{}
	visit := func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Query:
			return false
		case *ast.FuncCall:
			if name := x.FuncName(); (name == "GROUPING" || name == "GROUPING_ID") && !seen[exprKey(x)] {
				seen[exprKey(x)] = true
				calls = append(calls, x)
				return false
			}
		}
		return true
	}
	for _, it := range s.Items {
		ast.Inspect(it.Expr, visit)
	}
	if s.Having != nil {
		ast.Inspect(s.Having, visit)
	}
	if len(calls) == 0 {
		return out, nil
	}
	var args [][]int
	for _, f := range calls {
		if len(f.Args) == 0 {
			return nil, errorAt(f, "Invalid number of arguments to function '%s'. Was expecting 1 arguments", f.FuncName())
		}
		var idx []int
		for _, a := range f.Args {
			i, ok := subst[exprKey(a)]
			if !ok || i >= nKeys {
				return nil, errorAt(a, "Argument to %s operator must be a grouped expression", f.FuncName())
			}
			idx = append(idx, i)
		}
		args = append(args, idx)
	}
	width := len(out.cols)
	cols := append(scope{}, out.cols...)
	for i, f := range calls {
		subst[exprKey(f)] = width + i
		cols = append(cols, col{name: fmt.Sprintf("$g%d", i), typ: value.Type{Kind: value.BigInt, NotNull: true}})
	}
	key := out.key
	r := d.calc(out, cols, func(rec stream.Rec) (value.Row, bool, error) {
		set := -1
		if expand != nil {
			e, _ := rec.Row[nKeys].(int64)
			set = int(e)
		}
		row := make(value.Row, width, width+len(args))
		copy(row, rec.Row)
		for _, idx := range args {
			var bits int64
			for _, i := range idx {
				bits <<= 1
				if set >= 0 && !expand[set][i] {
					bits |= 1
				}
			}
			row = append(row, bits)
		}
		return row, true, nil
	})
	r.key = key
	return r, nil
}
