package debug

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planMatch plans MATCH_RECOGNIZE as Flink's StreamExecMatch: the pattern
// Flink's CEP library takes (a sequence of quantified variables), DEFINE
// and MEASURES with pattern navigation (A.col, FIRST, LAST, PREV,
// aggregates over a variable's rows, MATCH_ROWTIME), ONE ROW PER MATCH,
// AFTER MATCH SKIP and WITHIN. What Flink refuses is refused in its words.
func (d tableFuncs) planMatch(ctx context.Context, m *flinksql.MatchRecognize, ctes map[string]*cte, hints map[string]map[string]string) (*rel, error) {
	var where []flinksql.Expr
	in, err := d.planFrom(ctx, m.Input, ctes, hints, &where)
	if err != nil {
		return nil, err
	}
	if in.updating {
		return nil, errorAt(m, "Match Recognize doesn't support consuming update and delete changes which is produced by node %s", in.producer)
	}
	if strings.HasPrefix(m.RowsPerMatch, "ALL ROWS") {
		return nil, errorAt(m, "All rows per match mode is not supported yet.")
	}
	if len(m.Subsets) > 0 {
		return nil, errorAt(m.Subsets[0], "SUBSET is not supported in debug runs yet")
	}
	if m.StrictStart || m.StrictEnd {
		return nil, errorAt(m.Pattern, "Anchors ^ and $ are not supported in streaming MATCH_RECOGNIZE")
	}
	op := stream.NewMatch()
	vars := map[string]int{}
	var names []string
	if op.Elems, err = matchPattern(m.Pattern, vars, &names); err != nil {
		return nil, err
	}
	if err := checkPattern(m.Pattern, op.Elems); err != nil {
		return nil, err
	}
	// ORDER BY: a time attribute ascending first.
	if len(m.OrderBy) == 0 {
		return nil, errorAt(m, "You must specify either rowtime or proctime for order by.")
	}
	tc := -1
	if ref, ok := m.OrderBy[0].Expr.(*flinksql.ColumnRef); ok {
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
	if len(m.OrderBy) > 1 {
		return nil, errorAt(m.OrderBy[1], "MATCH_RECOGNIZE ordered by more than its time attribute is not supported in debug runs yet")
	}
	op.Time = tc
	if in.cols[tc].time == proctime {
		op.Time = -1
	}
	op.Partition = []int{}
	var outCols scope
	for _, p := range m.PartitionBy {
		ref, ok := p.(*flinksql.ColumnRef)
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
	mc := &matchCompiler{runner: d.runner, in: in, vars: vars, timeCol: tc}
	op.Define = make([]func(stream.MatchRows) (bool, error), len(names))
	for _, def := range m.Define {
		v, ok := vars[strings.ToLower(def.Alias.Name)]
		if !ok {
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
		if call, ok := unwrapFinal(ms.Expr).(*flinksql.FuncCall); ok && call.FuncName() == "MATCH_ROWTIME" && op.Time >= 0 {
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

func unwrapFinal(e flinksql.Expr) flinksql.Expr {
	for {
		switch x := e.(type) {
		case *flinksql.UnaryExpr:
			if x.Op != "FINAL" && x.Op != "RUNNING" {
				return e
			}
			e = x.X
		case *flinksql.ParenExpr:
			e = x.X
		default:
			return e
		}
	}
}

// matchPattern flattens a pattern into CEP's sequence of quantified
// variables, refusing what CEP does not take in Flink's words.
func matchPattern(p flinksql.PatternTerm, vars map[string]int, names *[]string) ([]stream.MatchElem, error) {
	switch x := p.(type) {
	case *flinksql.PatternSeq:
		var out []stream.MatchElem
		for _, it := range x.Items {
			e, err := matchPattern(it, vars, names)
			if err != nil {
				return nil, err
			}
			out = append(out, e...)
		}
		return out, nil
	case *flinksql.PatternVar:
		key := strings.ToLower(x.Name.Name)
		if _, dup := vars[key]; dup {
			return nil, errorAt(x, "Pattern variables must be unique. That might change in the future.")
		}
		vars[key] = len(*names)
		*names = append(*names, x.Name.Name)
		e, err := quantifier(x, x.Quant)
		e.Var = vars[key]
		return []stream.MatchElem{e}, err
	case *flinksql.PatternGroup:
		if x.Quant == "" {
			return matchPattern(x.Inner, vars, names)
		}
		return nil, errorAt(x, "Expression not supported: %s Group patterns are not supported yet.", patternText(x.Inner))
	case *flinksql.PatternAlt:
		return nil, errorAt(x, "Expression not supported: %s. Currently, CEP doesn't support branching patterns.", patternText(x))
	case *flinksql.PatternPermute:
		return nil, errorAt(x, "Expression not supported: %s. Currently, CEP doesn't support PERMUTE patterns.", patternText(x))
	case *flinksql.PatternExclude:
		return nil, errorAt(x, "Expression not supported: %s. Currently, CEP doesn't support '{-' '-}' patterns.", patternText(x))
	}
	return nil, errorAt(p, "this pattern is not supported in debug runs")
}

func patternText(p flinksql.PatternTerm) string {
	switch x := p.(type) {
	case *flinksql.PatternVar:
		return x.Name.Name + x.Quant
	case *flinksql.PatternSeq:
		parts := make([]string, len(x.Items))
		for i, it := range x.Items {
			parts[i] = patternText(it)
		}
		return strings.Join(parts, " ")
	case *flinksql.PatternAlt:
		parts := make([]string, len(x.Alts))
		for i, it := range x.Alts {
			parts[i] = patternText(it)
		}
		return strings.Join(parts, " | ")
	case *flinksql.PatternGroup:
		return "(" + patternText(x.Inner) + ")" + x.Quant
	case *flinksql.PatternPermute:
		parts := make([]string, len(x.Items))
		for i, it := range x.Items {
			parts[i] = patternText(it)
		}
		return "PERMUTE(" + strings.Join(parts, ", ") + ")"
	case *flinksql.PatternExclude:
		return "{- " + patternText(x.Inner) + " -}"
	}
	return "?"
}

// quantifier reads *, +, ?, {n}, {n,}, {,m}, {n,m}, each maybe reluctant.
func quantifier(at flinksql.Node, q string) (stream.MatchElem, error) {
	e := stream.MatchElem{Min: 1, Max: 1, Greedy: true}
	if q == "" {
		return e, nil
	}
	base := q
	if len(q) > 1 && strings.HasSuffix(q, "?") {
		base, e.Greedy = q[:len(q)-1], false
	}
	switch base {
	case "*":
		e.Min, e.Max = 0, -1
	case "+":
		e.Min, e.Max = 1, -1
	case "?":
		e.Min, e.Max = 0, 1
	default:
		inner := strings.TrimSuffix(strings.TrimPrefix(base, "{"), "}")
		lo, hi, comma := strings.Cut(inner, ",")
		var err error
		num := func(s string, def int) int {
			s = strings.TrimSpace(s)
			if s == "" {
				return def
			}
			n, e := strconv.Atoi(s)
			if e != nil {
				err = e
			}
			return n
		}
		e.Min = num(lo, 0)
		e.Max = e.Min
		if comma {
			e.Max = num(hi, -1)
		}
		if err != nil || e.Max >= 0 && e.Max < e.Min || e.Max == 0 {
			return e, errorAt(at, "the quantifier %s is not valid", q)
		}
	}
	if !e.Greedy && e.Min == 0 && e.Max == 1 {
		return e, errorAt(at, "Reluctant optional variables are not supported yet.")
	}
	return e, nil
}

// checkPattern refuses the patterns Flink's planner does.
func checkPattern(p flinksql.PatternTerm, elems []stream.MatchElem) error {
	empty := true
	for _, e := range elems {
		empty = empty && e.Min == 0
	}
	if empty {
		return errorAt(p, "Patterns that can produce empty matches are not supported. There must be at least one non-optional state.")
	}
	last := elems[len(elems)-1]
	if last.Greedy && last.Min != last.Max && !(last.Min == 0 && last.Max == 1) {
		for {
			seq, ok := p.(*flinksql.PatternSeq)
			if !ok || len(seq.Items) == 0 {
				break
			}
			p = seq.Items[len(seq.Items)-1]
		}
		return errorAt(p, "Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.")
	}
	return nil
}

// afterMatch reads AFTER MATCH SKIP; without it Flink (Calcite) skips to
// the next row.
func afterMatch(a *flinksql.AfterMatch, vars map[string]int) (stream.Skip, int, error) {
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
