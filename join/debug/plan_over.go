package debug

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planOver plans a SELECT whose list has aggregates OVER a window: Flink's
// OverAggregate, every call on the same window, ordered by a time
// attribute ascending.
func (d aggregates) planOver(ctx context.Context, s *ast.Select, in *rel) (*rel, error) {
	if in.updating {
		return nil, errorAt(s, "StreamPhysicalOverAggregate doesn't support consuming update and delete changes which is produced by node %s", in.producer)
	}
	var calls []*ast.FuncCall
	for _, it := range s.Items {
		ast.Inspect(it.Expr, func(n ast.Node) bool {
			if f, ok := n.(*ast.FuncCall); ok && (f.Over != nil || f.OverRef != nil) {
				calls = append(calls, f)
				return false
			}
			return true
		})
	}
	var w *ast.WindowSpec
	for _, f := range calls {
		if windowFunctions[f.FuncName()] {
			return nil, errorAt(f, "%s() OVER runs in debug runs only as a top-N or deduplication: SELECT … FROM (SELECT …, %s() OVER (…) AS rn FROM …) WHERE rn <= N", f.FuncName(), f.FuncName())
		}
		fw, err := overWindow(f, s.Windows)
		if err != nil {
			return nil, err
		}
		if w == nil {
			w = fw
		}
		if windowText(fw) != windowText(w) {
			return nil, errorAt(f, "Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window.")
		}
	}
	if len(w.OrderBy) != 1 || w.OrderBy[0].Desc() {
		return nil, errorAt(w, "OVER windows' ordering in stream mode must be defined on a time attribute.")
	}
	ref, ok := w.OrderBy[0].Expr.(*ast.ColumnRef)
	tc := -1
	if ok {
		if j, fields, err := in.cols.resolve(ref); err == nil && len(fields) == 0 && in.cols[j].time != plainTime {
			tc = j
		}
	}
	if tc < 0 {
		return nil, errorAt(w.OrderBy[0], "OVER windows' ordering in stream mode must be defined on a time attribute.")
	}
	rng, preceding, err := d.frame(w)
	if err != nil {
		return nil, err
	}
	// The Calc before: the row, its partition keys, the aggregates' arguments.
	inC := d.compiler(in.cols)
	pre := []evalFn{}
	width := len(in.cols)
	var partition []int
	for _, p := range w.PartitionBy {
		f, _, err := inC.compile(p)
		if err != nil {
			return nil, err
		}
		partition = append(partition, width+len(pre))
		pre = append(pre, f)
	}
	if partition == nil {
		partition = []int{}
	}
	var specs []stream.AggSpec
	subst := map[string]int{}
	var cols scope
	for _, f := range calls {
		key := exprKey(f)
		if _, ok := subst[key]; ok {
			continue
		}
		plain := *f
		plain.Over = nil
		sp, err := d.aggSpec(&plain, inC, &pre)
		if err != nil {
			return nil, err
		}
		if sp.Arg >= 0 {
			sp.Arg += width
		}
		if sp.Filter >= 0 {
			sp.Filter += width
		}
		specs = append(specs, sp)
		cols = append(cols, col{name: fmt.Sprintf("$w%d", len(specs)-1), typ: sp.Out})
		subst[key] = -1 // placed below
	}
	calc := d.calc(in, nil, func(r stream.Rec) (value.Row, bool, error) {
		row := make(value.Row, width, width+len(pre))
		copy(row, r.Row)
		for _, f := range pre {
			v, err := f(r.Row)
			if err != nil {
				return nil, false, fmt.Errorf("OVER, input row %d: %w", r.Src, err)
			}
			row = append(row, v)
		}
		return row, true, nil
	})
	timeCol := tc
	if in.cols[tc].time == proctime {
		timeCol = -1
	}
	op := stream.NewOver(partition, timeCol, rng, preceding, specs)
	calc.out.To(op)
	d.graph.Add("OverAggregate", op)
	all := append(append(scope{}, in.cols...), make(scope, len(pre))...)
	for i := width; i < len(all); i++ {
		all[i] = col{name: fmt.Sprintf("$h%d", i)}
	}
	n := 0
	for _, f := range calls {
		key := exprKey(f)
		if subst[key] == -1 {
			subst[key] = len(all) + n
			n++
		}
	}
	all = append(all, cols...)
	out := &rel{cols: all, out: &op.Out, producer: "OverAggregate"}
	c := d.compiler(all)
	c.subst = subst
	return d.project(out, s.Items, c)
}

// windowText is a window's text, by which windows are compared.
func windowText(w *ast.WindowSpec) string {
	var b strings.Builder
	for _, p := range w.PartitionBy {
		b.WriteString(exprKey(p) + ",")
	}
	b.WriteString("|")
	for _, o := range w.OrderBy {
		b.WriteString(exprKey(o.Expr) + " " + o.Dir + ",")
	}
	if f := w.Frame; f != nil {
		b.WriteString("|" + f.Unit + " " + f.Start.Kind)
		if f.Start.Offset != nil {
			b.WriteString(exprKey(f.Start.Offset))
		}
		if f.End != nil {
			b.WriteString(" " + f.End.Kind)
		}
	}
	return b.String()
}

// frame reads a window's frame: RANGE or ROWS, and its preceding bound
// (-1 unbounded); it must end at the current row.
func (d aggregates) frame(w *ast.WindowSpec) (bool, int64, error) {
	f := w.Frame
	if f == nil {
		return true, -1, nil // RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
	}
	if f.End != nil && f.End.Kind != "CURRENT ROW" {
		return false, 0, errorAt(f.End, "OVER RANGE FOLLOWING windows are not supported yet.")
	}
	rng := strings.EqualFold(f.Unit, "RANGE")
	switch f.Start.Kind {
	case "UNBOUNDED PRECEDING":
		return rng, -1, nil
	case "CURRENT ROW":
		return rng, 0, nil
	case "PRECEDING":
	default:
		return false, 0, errorAt(f.Start, "OVER RANGE FOLLOWING windows are not supported yet.")
	}
	v, _, err := d.compiler(nil).constValue(f.Start.Offset)
	if err != nil {
		return false, 0, err
	}
	switch x := v.(type) {
	case int64:
		if rng {
			return false, 0, errorAt(f.Start.Offset, "a RANGE frame's bound is an INTERVAL")
		}
		return false, x, nil
	case time.Duration:
		if !rng {
			return false, 0, errorAt(f.Start.Offset, "a ROWS frame's bound is a number of rows")
		}
		return true, x.Milliseconds(), nil
	}
	return false, 0, errorAt(f.Start.Offset, "the frame's bound must be a number of rows or an INTERVAL")
}

// overWindow is the window a call is OVER: its own, a named one of the
// WINDOW clause (OVER w), or a named one refined (OVER (w ORDER BY …)).
func overWindow(f *ast.FuncCall, named []*ast.NamedWindow) (*ast.WindowSpec, error) {
	lookup := func(id *ast.Ident) (*ast.WindowSpec, error) {
		for _, n := range named {
			if strings.EqualFold(n.Name.Name, id.Name) {
				if n.Spec.Ref != nil {
					return nil, errorAt(n.Spec.Ref, "a named window built on another named window is not supported in debug runs yet")
				}
				return n.Spec, nil
			}
		}
		return nil, errorAt(id, "Window '%s' not found", id.Name)
	}
	switch {
	case f.OverRef != nil:
		return lookup(f.OverRef)
	case f.Over != nil && f.Over.Ref != nil:
		base, err := lookup(f.Over.Ref)
		if err != nil {
			return nil, err
		}
		// The refinement adds what the named window leaves out (SQL's rules:
		// no PARTITION BY of its own; ORDER BY and frame only when absent).
		if len(f.Over.PartitionBy) > 0 {
			return nil, errorAt(f.Over, "PARTITION BY not allowed with existing window reference")
		}
		if len(f.Over.OrderBy) > 0 && len(base.OrderBy) > 0 {
			return nil, errorAt(f.Over, "ORDER BY not allowed in both base and referenced windows")
		}
		out := *base
		out.Ref = nil
		if len(f.Over.OrderBy) > 0 {
			out.OrderBy = f.Over.OrderBy
		}
		if f.Over.Frame != nil {
			out.Frame = f.Over.Frame
		}
		return &out, nil
	}
	return f.Over, nil
}
