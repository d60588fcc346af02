package debug

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planMatch plans MATCH_RECOGNIZE as Flink's StreamExecMatch: the pattern
// Flink's CEP library takes (a sequence of quantified variables), DEFINE
// and MEASURES with pattern navigation (A.col, FIRST, LAST, PREV,
// aggregates over a variable's rows, MATCH_ROWTIME), ONE ROW PER MATCH,
// AFTER MATCH SKIP and WITHIN. What Flink refuses is refused in its words.
func (d tableFuncs) planMatch(ctx context.Context, m *ast.MatchRecognize, ctes map[string]*cte, hints map[string]map[string]string) (*rel, error) {
	var where []ast.Expr
	in, err := d.planFrom(ctx, m.Input, ctes, hints, &where)
	if err != nil {
		return nil, err
	}
	if in.updating {
		return nil, errorAt(m, "StreamPhysicalMatch doesn't support consuming update and delete changes which is produced by node %s", in.producer)
	}
	if at, msg, ok := flinksql.MatchPatternProblem(m); !ok {
		return nil, errorAt(at, "%s", msg)
	}
	if m.StrictStart || m.StrictEnd {
		return nil, errorAt(m.Pattern, "Anchors ^ and $ are not supported in streaming MATCH_RECOGNIZE")
	}
	op := stream.NewMatch()
	vars := map[string]int{}
	var names []string
	op.Elems = matchPattern(m.Pattern, vars, &names)
	// ORDER BY: a time attribute ascending first.
	if len(m.OrderBy) == 0 {
		return nil, errorAt(m, "You must specify either rowtime or proctime for order by.")
	}
	tc := -1
	if ref, ok := m.OrderBy[0].Expr.(*ast.ColumnRef); ok {
		if j, fields, err := in.cols.resolve(ref); err == nil && len(fields) == 0 && in.cols[j].time != plainTime {
			tc = j
		}
	}
	if tc < 0 {
		return nil, errorAt(m.OrderBy[0], "You must specify either rowtime or proctime for order by as the first one.")
	}
	if m.OrderBy[0].Desc() {
		return nil, errorAt(m.OrderBy[0], "Primary sort order of a streaming table must be ascending on time.")
	}
	op.Time = tc
	if in.cols[tc].time == proctime {
		op.Time = -1
	}
	// The keys after the time attribute order the rows of one time.
	for _, o := range m.OrderBy[1:] {
		ref, ok := o.Expr.(*ast.ColumnRef)
		if !ok {
			return nil, errorAt(o, "ORDER BY of MATCH_RECOGNIZE takes columns")
		}
		j, fields, err := in.cols.resolve(ref)
		if err != nil {
			return nil, err
		}
		if len(fields) > 0 || o.Nulls != "" {
			return nil, errorAt(o, "ORDER BY of MATCH_RECOGNIZE takes columns, without NULLS FIRST/LAST, in debug runs")
		}
		op.Sort.Cols = append(op.Sort.Cols, j)
		op.Sort.Desc = append(op.Sort.Desc, o.Desc())
	}
	op.Partition = []int{}
	var outCols scope
	for _, p := range m.PartitionBy {
		ref, ok := p.(*ast.ColumnRef)
		if !ok {
			return nil, errorAt(p, "PARTITION BY of MATCH_RECOGNIZE takes columns")
		}
		j, fields, err := in.cols.resolve(ref)
		if err != nil {
			return nil, err
		}
		if len(fields) > 0 {
			return nil, errorAt(p, "PARTITION BY of MATCH_RECOGNIZE takes columns")
		}
		op.Partition = append(op.Partition, j)
		c := in.cols[j]
		c.time = plainTime
		outCols = append(outCols, c)
	}
	mc := &matchCompiler{runner: d.runner, in: in, vars: vars, nVars: len(names), timeCol: tc}
	// SUBSET u = (a, b): u reads the rows of a and b.
	for _, sub := range m.Subsets {
		key := strings.ToLower(sub.Name.Name)
		if _, dup := vars[key]; dup {
			return nil, errorAt(sub.Name, "Pattern variable '%s' has already been defined", sub.Name.Name)
		}
		var members []int
		for _, id := range sub.Vars {
			v, ok := vars[strings.ToLower(id.Name)]
			if !ok || v >= len(names) {
				return nil, errorAt(id, "Unknown pattern '%s'", id.Name)
			}
			members = append(members, v)
		}
		vars[key] = len(names) + len(mc.subsets)
		mc.subsets = append(mc.subsets, members)
	}
	op.Define = make([]func(stream.MatchRows) (bool, error), len(names))
	for _, def := range m.Define {
		v, ok := vars[strings.ToLower(def.Alias.Name)]
		if !ok || v >= len(names) {
			return nil, errorAt(def.Alias, "Unknown pattern variable '%s' in DEFINE", def.Alias.Name)
		}
		f, t, err := mc.compile(def.Expr)
		if err != nil {
			return nil, err
		}
		if t.Kind != value.Boolean && t.Kind != value.Null {
			return nil, errorAt(def.Expr, "DEFINE %s must be a condition, not %s", def.Alias.Name, t)
		}
		name := def.Alias.Name
		op.Define[v] = func(mr stream.MatchRows) (bool, error) {
			b, err := f(mr)
			if err != nil {
				return false, fmt.Errorf("DEFINE %s: %w", name, err)
			}
			return b == true, nil
		}
	}
	var measures []func(stream.MatchRows) (any, error)
	for _, ms := range m.Measures {
		f, t, err := mc.compile(ms.Expr)
		if err != nil {
			return nil, err
		}
		measures = append(measures, f)
		c := col{name: ms.Alias.Name, typ: t}
		if call, ok := unwrapFinal(ms.Expr).(*ast.FuncCall); ok && call.FuncName() == "MATCH_ROWTIME" && op.Time >= 0 {
			c.time = rowtime
		}
		outCols = append(outCols, c)
	}
	part := op.Partition
	op.Measure = func(mr stream.MatchRows) (value.Row, error) {
		row := make(value.Row, 0, len(part)+len(measures))
		for _, j := range part {
			row = append(row, mr.Rows[0][j])
		}
		for _, f := range measures {
			v, err := f(mr)
			if err != nil {
				return nil, err
			}
			row = append(row, v)
		}
		return row, nil
	}
	if op.Skip, op.SkipVar, err = afterMatch(m.AfterMatch, vars); err != nil {
		return nil, err
	}
	if op.SkipVar >= len(names) {
		// Flink hands the name to CEP's skipToFirst/skipToLast, and CEP's
		// NFACompiler knows only the pattern's own variables.
		return nil, errorAt(m.AfterMatch, "The pattern name specified in AfterMatchSkipStrategy can not be found in the given Pattern")
	}
	if m.Within != nil {
		v, _, err := d.compiler(nil).constValue(m.Within)
		if err != nil {
			return nil, err
		}
		dur, ok := v.(time.Duration)
		if !ok || dur <= 0 {
			return nil, errorAt(m.Within, "Only constant intervals with millisecond resolution are supported as time constraints of patterns.")
		}
		op.Within = dur.Milliseconds()
	}
	op.Now = d.driver.Now
	in.out.To(op)
	d.graph.Add("Match", op)
	alias := ""
	if m.Alias != nil {
		alias = m.Alias.Name.Name
	}
	for i := range outCols {
		outCols[i].table = alias
	}
	return aliasColumns(&rel{cols: outCols, out: &op.Out, producer: "Match"}, m.Alias)
}

func unwrapFinal(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.UnaryExpr:
			if x.Op != "FINAL" && x.Op != "RUNNING" {
				return e
			}
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return e
		}
	}
}

// matchPattern flattens a pattern flinksql.MatchPatternProblem passed
// into CEP's sequence of quantified variables.
func matchPattern(p ast.PatternTerm, vars map[string]int, names *[]string) []stream.MatchElem {
	switch x := p.(type) {
	case *ast.PatternSeq:
		var out []stream.MatchElem
		for _, it := range x.Items {
			out = append(out, matchPattern(it, vars, names)...)
		}
		return out
	case *ast.PatternGroup:
		return matchPattern(x.Inner, vars, names)
	case *ast.PatternVar:
		vars[strings.ToLower(x.Name.Name)] = len(*names)
		*names = append(*names, x.Name.Name)
		q, _ := flinksql.ParseQuantifier(x.Quant)
		return []stream.MatchElem{{Var: len(*names) - 1, Min: q.Min, Max: q.Max, Greedy: q.Greedy}}
	}
	return nil
}

// afterMatch reads AFTER MATCH SKIP; without it Flink (Calcite) skips to
// the next row.
func afterMatch(a *ast.AfterMatch, vars map[string]int) (stream.Skip, int, error) {
	if a == nil {
		return stream.SkipToNextRow, -1, nil
	}
	switch a.Kind {
	case "PAST LAST ROW":
		return stream.SkipPastLastRow, -1, nil
	case "TO NEXT ROW":
		return stream.SkipToNextRow, -1, nil
	}
	v, ok := vars[strings.ToLower(a.Var.Name)]
	if !ok {
		return 0, 0, errorAt(a.Var, "Unknown pattern variable '%s' in AFTER MATCH SKIP", a.Var.Name)
	}
	if a.Kind == "TO FIRST" {
		return stream.SkipToFirst, v, nil
	}
	return stream.SkipToLast, v, nil
}
