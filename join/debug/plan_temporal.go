package debug

import (
	"context"
	"fmt"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planTemporalJoin plans `left [LEFT] JOIN versioned FOR SYSTEM_TIME AS OF
// left.rowtime ON …` against a versioned table (a primary key and a
// watermark, not a lookup source): Flink's event-time temporal join.
func (d joins) planTemporalJoin(ctx context.Context, j *ast.Join, right *ast.TableRef, t *tableDef, ctes map[string]*cte, hints map[string]map[string]string) (*rel, error) {
	if len(t.pk) == 0 || t.wm == nil {
		return nil, errorAt(right, "Temporal Table Join requires primary key in versioned table, but no primary key can be found. (%s needs a PRIMARY KEY and a WATERMARK to be a versioned table)", t.name)
	}
	left, err := d.planFrom(ctx, j.L, ctes, hints, nil)
	if err != nil {
		return nil, err
	}
	if left.updating {
		return nil, errorAt(j, "an event-time temporal join's input must be append-only in debug runs; %s gives updates", left.producer)
	}
	ref, ok := right.SystemTime.(*ast.ColumnRef)
	lt := -1
	if ok {
		if i, fields, err := left.cols.resolve(ref); err == nil && len(fields) == 0 {
			lt = i
		}
	}
	if lt < 0 || left.cols[lt].time == plainTime {
		return nil, errorAt(right.SystemTime, "Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field")
	}
	if left.cols[lt].time == proctime {
		return nil, errorAt(right.SystemTime, "Processing-time temporal join is not supported yet.")
	}
	alias := t.name
	if right.Alias != nil {
		alias = right.Alias.Name.Name
	}
	rr, err := sources{d.runner}.scan(t, alias)
	if err != nil {
		return nil, err
	}
	rt := -1
	for i, c := range rr.cols {
		if c.time == rowtime {
			rt = i
		}
	}
	var kind bool
	switch j.Kind {
	case ast.JoinInner:
	case ast.JoinLeft:
		kind = true
	default:
		return nil, errorAt(j, "Temporal table join currently only supports INNER JOIN and LEFT JOIN, not %s", j.Kind)
	}
	cols := append(scope{}, left.cols...)
	for _, c := range rr.cols {
		c.typ = c.typ.Nullable()
		c.time = plainTime
		cols = append(cols, c)
	}
	op := stream.NewTemporalJoin(kind)
	op.Width = [2]int{len(left.cols), len(rr.cols)}
	var keyFns [2][]evalFn
	var rest []ast.Expr
	if j.On != nil {
		for _, e := range conjuncts(j.On) {
			if l, r, ok := d.sides(e, left.cols, rr.cols); ok {
				keyFns[0], keyFns[1] = append(keyFns[0], l), append(keyFns[1], r)
				continue
			}
			rest = append(rest, e)
		}
	}
	if len(keyFns[0]) == 0 {
		return nil, errorAt(j, "Temporal table join requires an equality condition on fields of table [%s].", t.name)
	}
	for i := range keyFns {
		fns := keyFns[i]
		op.Key[i] = func(row value.Row) (string, bool, error) {
			vals := make([]any, len(fns))
			for k, f := range fns {
				v, err := f(row)
				if err != nil || v == nil {
					return "", false, err
				}
				vals[k] = v
			}
			return value.Key(vals, nil), true, nil
		}
	}
	millis := func(col int) func(value.Row) (int64, bool) {
		return func(row value.Row) (int64, bool) {
			ts, ok := row[col].(time.Time)
			if !ok {
				return 0, false
			}
			return ts.UnixMilli(), true
		}
	}
	op.Time = [2]func(value.Row) (int64, bool){millis(lt), millis(rt)}
	if len(rest) > 0 {
		c := d.compiler(cols)
		var cond evalFn
		for _, e := range rest {
			f, _, err := c.compile(e)
			if err != nil {
				return nil, err
			}
			cond = and(cond, f)
		}
		op.Cond = func(row value.Row) (bool, error) {
			v, err := cond(row)
			return v == true, err
		}
	}
	left.out.To(op.Input(0))
	rr.out.To(op.Input(1))
	name := fmt.Sprintf("TemporalJoin(joinType=[%s])", map[bool]string{false: "InnerJoin", true: "LeftOuterJoin"}[kind])
	d.graph.Add(name, op)
	return &rel{cols: cols, out: &op.Out}, nil
}
