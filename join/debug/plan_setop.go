package debug

import (
	"fmt"
	"strings"

	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// allSetOp plans INTERSECT ALL and EXCEPT ALL as Flink's planner rewrites
// them (FlinkRewriteIntersectAllRule, FlinkRewriteMinusAllRule): both
// sides' rows with a marker, unioned, counted per distinct row by a
// GroupAggregate (INTERSECT: COUNT of each side's marker; EXCEPT: SUM of
// +1 and -1), filtered to the rows with copies left (both counts at least
// one; the sum above zero), and each change of the count replicated as
// many times as copies are left (the $REPLICATE_ROWS$ table function), of
// the change's kind.
func (d setOps) allSetOp(op string, l, r *rel, cols scope) (*rel, error) {
	n := len(cols)
	intersect := op == "INTERSECT"
	mark := func(in *rel, left bool) *rel {
		return d.calc(in, nil, func(rec stream.Rec) (value.Row, bool, error) {
			row := make(value.Row, n, n+2)
			copy(row, rec.Row)
			switch {
			case intersect && left:
				row = append(row, true, nil)
			case intersect:
				row = append(row, nil, true)
			case left:
				row = append(row, int64(1))
			default:
				row = append(row, int64(-1))
			}
			return row, true, nil
		})
	}
	u := stream.NewUnion(2)
	mark(l, true).out.To(u.Input(0))
	mark(r, false).out.To(u.Input(1))
	names := make([]string, n)
	for i, c := range cols {
		names[i] = c.name
	}
	keys := strings.Join(names, ", ")
	var specs []stream.AggSpec
	var agg string
	if intersect {
		specs = []stream.AggSpec{
			{Func: "COUNT", Arg: n, Filter: -1, In: value.TBool, Out: value.TBigInt},
			{Func: "COUNT", Arg: n + 1, Filter: -1, In: value.TBool, Out: value.TBigInt},
		}
		agg = fmt.Sprintf("GroupAggregate(groupBy=[%s], select=[%s, COUNT(vcol_left_marker) AS vcol_left_cnt, COUNT(vcol_right_marker) AS vcol_right_cnt])", keys, keys)
	} else {
		specs = []stream.AggSpec{{Func: "SUM", Arg: n, Filter: -1, In: value.TBigInt, Out: value.TBigInt}}
		agg = fmt.Sprintf("GroupAggregate(groupBy=[%s], select=[%s, SUM(vcol_marker) AS sum_vcol_marker])", keys, keys)
	}
	g := stream.NewGroupAgg(n, specs)
	u.Out.To(g)
	d.graph.Add(agg, g)
	rep := &stream.FlatMap{Fn: func(rec stream.Rec, emit func(value.Row) error) error {
		var copies int64
		if intersect {
			lc, _ := rec.Row[n].(int64)
			rc, _ := rec.Row[n+1].(int64)
			if lc < 1 || rc < 1 {
				return nil
			}
			copies = min(lc, rc)
		} else {
			sum, _ := rec.Row[n].(int64)
			copies = sum
		}
		for i := int64(0); i < copies; i++ {
			if err := emit(append(value.Row(nil), rec.Row[:n]...)); err != nil {
				return err
			}
		}
		return nil
	}}
	g.Out.To(rep)
	out := make(scope, n)
	for i, c := range cols {
		c.time = plainTime
		out[i] = c
	}
	return &rel{cols: out, out: &rep.Out, updating: true, producer: agg}, nil
}
