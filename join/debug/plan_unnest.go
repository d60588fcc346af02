package debug

import (
	"fmt"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planUnnest plans `left CROSS JOIN UNNEST(expr) [WITH ORDINALITY] AS
// t(…)` (or JOIN/LEFT JOIN … ON TRUE): each row of left once per element
// of its array (a ROW element gives its fields as columns), per entry of
// its map (key and value), per copy of its multiset's elements; a NULL or
// empty one gives no row, or for a LEFT JOIN one row of NULLs.
func (d joins) planUnnest(j *ast.Join, u *ast.Unnest, left *rel) (*rel, error) {
	outer := false
	switch j.Kind {
	case ast.JoinCross, ast.JoinComma:
	case ast.JoinInner, ast.JoinLeft:
		if b, ok := j.On.(*ast.BoolLit); !ok || !b.Value {
			return nil, errorAt(j, "a join with UNNEST needs ON TRUE in debug runs")
		}
		outer = j.Kind == ast.JoinLeft
	default:
		return nil, errorAt(j, "%s with UNNEST is not supported", j.Kind)
	}
	if len(u.Args) != 1 {
		return nil, errorAt(u, "UNNEST of several collections is not supported in debug runs yet")
	}
	f, t, err := d.compiler(left.cols).compile(u.Args[0])
	if err != nil {
		return nil, err
	}
	var elem scope
	switch t.Kind {
	case value.ArrayKind, value.MultisetKind:
		if t.Elem.Kind == value.RowKind {
			for _, fl := range t.Elem.Fields {
				elem = append(elem, col{name: fl.Name, typ: fl.Type.Nullable()})
			}
		} else {
			elem = scope{{name: "EXPR$0", typ: t.Elem.Nullable()}}
		}
	case value.MapKind:
		elem = scope{{name: "KEY", typ: t.Elem.Nullable()}, {name: "VALUE", typ: t.Val.Nullable()}}
	default:
		return nil, errorAt(u.Args[0], "UNNEST needs an ARRAY, MAP or MULTISET, not %s", t)
	}
	if u.WithOrdinality {
		elem = append(elem, col{name: "ORDINALITY", typ: value.Type{Kind: value.Int, NotNull: true}})
	}
	alias := ""
	if u.Alias != nil {
		alias = u.Alias.Name.Name
		if len(u.Alias.Columns) > 0 {
			if len(u.Alias.Columns) != len(elem) {
				return nil, errorAt(u.Alias, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(elem), len(u.Alias.Columns))
			}
			for i, c := range u.Alias.Columns {
				elem[i].name = c.Name
			}
		}
	}
	for i := range elem {
		elem[i].table = alias
	}
	rowFields := t.Kind != value.MapKind && t.Elem.Kind == value.RowKind
	width, n := len(left.cols), len(elem)
	ordinal := u.WithOrdinality
	fm := &stream.FlatMap{Fn: func(r stream.Rec, emit func(value.Row) error) error {
		v, err := f(r.Row)
		if err != nil {
			return fmt.Errorf("UNNEST, input row %d: %w", r.Src, err)
		}
		out := func(vals ...any) error {
			row := make(value.Row, width, width+n)
			copy(row, r.Row)
			row = append(row, vals...)
			return emit(row)
		}
		elemVals := func(e any, i int) []any {
			var vals []any
			if rowFields {
				er, _ := e.(value.Row)
				vals = make([]any, len(t.Elem.Fields))
				copy(vals, er)
			} else {
				vals = []any{e}
			}
			if ordinal {
				vals = append(vals, int64(i+1))
			}
			return vals
		}
		emitted := 0
		switch x := v.(type) {
		case value.Array:
			for i, e := range x {
				if err := out(elemVals(e, i)...); err != nil {
					return err
				}
				emitted++
			}
		case *value.Map:
			for i := range x.Keys {
				var vals []any
				if t.Kind == value.MultisetKind {
					cnt, _ := x.Vals[i].(int64)
					for c := int64(0); c < cnt; c++ {
						if err := out(elemVals(x.Keys[i], emitted)...); err != nil {
							return err
						}
						emitted++
					}
					continue
				}
				vals = []any{x.Keys[i], x.Vals[i]}
				if ordinal {
					vals = append(vals, int64(i+1))
				}
				if err := out(vals...); err != nil {
					return err
				}
				emitted++
			}
		}
		if emitted == 0 && outer {
			return out(make([]any, n)...)
		}
		return nil
	}}
	left.out.To(fm)
	out := *left
	out.cols = append(append(scope{}, left.cols...), elem...)
	out.out, out.key = &fm.Out, nil
	return &out, nil
}
