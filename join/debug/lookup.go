package debug

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/join"
)

// planJoin plans `left [LEFT] JOIN dim FOR SYSTEM_TIME AS OF … ON …`: the
// left side is any relation, the right one a lookup table, and the rows go
// through the async operator.
func (d *runner) planJoin(ctx context.Context, g *group, j *flinksql.Join, ctes map[string]*flinksql.Query, hints map[string]map[string]string, where *[]flinksql.Expr) (*stream, error) {
	right, ok := j.R.(*flinksql.TableRef)
	if !ok || right.SystemTime == nil {
		return nil, refuse(j, "regular joins are out of scope for debug runs: only lookup joins (JOIN t FOR SYSTEM_TIME AS OF …) run")
	}
	var kind join.JoinKind
	switch j.Kind {
	case flinksql.JoinInner:
		kind = join.InnerJoin
	case flinksql.JoinLeft:
		kind = join.LeftJoin
	default:
		return nil, refuse(j, "a lookup join is JOIN or LEFT JOIN, not %s", j.Kind)
	}
	if j.On == nil {
		return nil, refuse(j, "a lookup join needs an ON clause with an equality on the table's columns")
	}
	t := d.table(right.Name)
	if t == nil {
		return nil, refuse(right, "no CREATE TABLE for %s", right.Name)
	}
	if len(t.computed) > 0 {
		return nil, refuse(right, "lookup table %s has computed or metadata columns: not supported in debug runs", t.name)
	}
	alias := t.name
	if right.Alias != nil {
		alias = right.Alias.Name.Name
	}
	left, err := d.planFrom(ctx, g, j.L, ctes, hints, where)
	if err != nil {
		return nil, err
	}
	dimScope := make(scope, len(t.physical))
	for i, c := range t.physical {
		ct, err := join.ParseType(c.Type)
		if err != nil {
			return nil, refuse(right, "column %s: %v", c.Name, err)
		}
		dimScope[i] = field{table: alias, name: c.Name, typ: ct}
	}
	both := append(append(scope{}, left.scope...), dimScope...)

	if early := pushDown(where, left.scope, both); len(early) > 0 {
		left = d.filter(ctx, g, left, early)
	}
	on, err := compileOn(j.On, t.name, dimScope, left.scope, both)
	if err != nil {
		return nil, err
	}

	hint := hints[strings.ToLower(alias)]
	if hint == nil {
		hint = hints[strings.ToLower(t.name)]
	}
	cfg, err := join.ParseLookupConfig(d.sets, hint)
	if err != nil {
		return nil, refuse(j, "lookup join on %s: %v", t.name, err)
	}
	srcOpts, err := join.ParseSourceOptions(t.with)
	if err != nil {
		return nil, refuse(t.node, "lookup table %s: %v", t.name, err)
	}
	if to, ok := d.opts.Databases[srcOpts.URL]; ok {
		srcOpts.URL = to
	}
	src, err := join.OpenSource(ctx, srcOpts, join.Table{Name: t.name, Columns: t.physical, Keys: on.keys}, cfg.Options.Capacity)
	if err != nil {
		return nil, err
	}
	report := &LookupReport{Table: t.name, Config: cfg}
	d.mu.Lock()
	d.lookups = append(d.lookups, report)
	d.mu.Unlock()
	lj := &join.LookupJoin{Source: src, Kind: kind, MissRetry: cfg.MissRetry}
	return d.lookupStage(ctx, g, left, lj, on, report, cfg.Options), nil
}

// pushDown takes from where the conditions on the input alone, as Flink's
// planner does: they are applied before the lookup, and the rows they drop
// are not looked up.
func pushDown(where *[]flinksql.Expr, left, both scope) []evalFn {
	if where == nil {
		return nil
	}
	var early []evalFn
	var keep []flinksql.Expr
	for _, c := range *where {
		f, _, errLeft := left.compile(c)
		_, _, errBoth := both.compile(c)
		if errLeft == nil && errBoth == nil {
			early = append(early, f)
			continue
		}
		keep = append(keep, c)
	}
	*where = keep
	return early
}

// onClause is a lookup join's ON clause, compiled: the equalities between a
// table column and an expression of the input are the lookup keys; the rest
// filters the matches.
type onClause struct {
	keys  []string // the table's key columns
	keyOf []evalFn // the input's values for them, over the input row
	cond  evalFn   // the rest, over the joined row; nil if none
	dim   scope    // the table's columns
	both  scope    // the joined row's
}

// compileOn compiles the ON clause of the lookup join on table; without a
// key it is refused.
func compileOn(on flinksql.Expr, table string, dim, left, both scope) (*onClause, error) {
	c := &onClause{dim: dim, both: both}
	var rest []flinksql.Expr
	for _, e := range conjuncts(on) {
		if col, expr, ok := keyEquality(e, dim, left); ok {
			f, _, err := left.compile(expr)
			if err != nil {
				return nil, err
			}
			c.keys = append(c.keys, col)
			c.keyOf = append(c.keyOf, f)
			continue
		}
		rest = append(rest, e)
	}
	if len(c.keys) == 0 {
		return nil, refuse(on, "the ON clause of the lookup join on %s has no equality between its columns and the input's", table)
	}
	for _, e := range rest {
		f, _, err := both.compile(e)
		if err != nil {
			return nil, err
		}
		c.cond = and(c.cond, f)
	}
	return c, nil
}

// lookupStage is the stage that runs the lookups of left's rows through the
// async operator, as lj (to which it adds the keys and condition of on) with
// opts, and counts what they did in report.
func (d *runner) lookupStage(ctx context.Context, g *group, left *stream, lj *join.LookupJoin, on *onClause, report *LookupReport, opts join.Options) *stream {
	now := d.opts.Now
	lj.KeyOf = func(in join.Row) ([]any, error) {
		env := &evalEnv{now: now()}
		key := make([]any, len(on.keyOf))
		for i, f := range on.keyOf {
			v, err := f(env, in)
			if err != nil {
				return nil, fmt.Errorf("key %s: %w", on.keys[i], err)
			}
			key[i] = outKey(v)
		}
		return key, nil
	}
	if on.cond != nil {
		lj.Condition = func(in, dim join.Row) (bool, error) {
			row := append(append(join.Row{}, in...), internalRow(dim, on.dim)...)
			v, err := on.cond(&evalEnv{now: now()}, row)
			return v == true, err
		}
	}
	fn := lj.Func()
	op := join.New(func(ctx context.Context, in drow) ([]drow, error) {
		began := time.Now()
		rows, err := fn(ctx, in.vals)
		took := time.Since(began)
		if err != nil {
			return nil, &rowError{row: in.src, err: err}
		}
		d.mu.Lock()
		report.Latency = append(report.Latency, took)
		d.mu.Unlock()
		out := make([]drow, len(rows))
		for i, r := range rows {
			out[i] = drow{vals: internalRow(r, on.both), src: in.src, lat: in.lat + took}
		}
		return out, nil
	}, opts)

	out := make(chan join.Element[drow], 64)
	src, table := lj.Source, report.Table
	g.go_(func() error {
		defer src.Close()
		err := op.Run(ctx, left.ch, out)
		d.mu.Lock()
		report.Stats = src.Stats()
		d.mu.Unlock()
		if err != nil {
			var ie *join.InputError[drow]
			var re *rowError
			switch {
			case errors.As(err, &re):
				return fmt.Errorf("lookup join on %s, input row %d: %w", table, re.row, re.err)
			case errors.As(err, &ie):
				return fmt.Errorf("lookup join on %s, input row %d: %w", table, ie.Input.src, ie.Err)
			}
			return fmt.Errorf("lookup join on %s: %w", table, err)
		}
		return nil
	})
	return &stream{scope: on.both, ch: out}
}

// internalRow is a row of canonical values (a source's or a file's) as the
// evaluator reads them: decimals computed with.
func internalRow(r join.Row, s scope) join.Row {
	out := make(join.Row, len(r))
	for i, v := range r {
		if i < len(s) {
			out[i] = internal(v, s[i].typ)
		} else {
			out[i] = v
		}
	}
	return out
}

// outKey is a computed key as a source takes it.
func outKey(v any) any {
	if r, ok := v.(interface{ FloatString(int) string }); ok {
		return str(r)
	}
	return v
}

// conjuncts splits a condition at its top-level ANDs.
func conjuncts(e flinksql.Expr) []flinksql.Expr {
	switch x := e.(type) {
	case *flinksql.ParenExpr:
		return conjuncts(x.X)
	case *flinksql.BinaryExpr:
		if strings.EqualFold(x.Op, "AND") {
			return append(conjuncts(x.L), conjuncts(x.R)...)
		}
	}
	return []flinksql.Expr{e}
}

// keyEquality recognizes `dim.col = expr` (either way round) where expr
// reads only the left side: a lookup key.
func keyEquality(e flinksql.Expr, dim, left scope) (string, flinksql.Expr, bool) {
	b, ok := e.(*flinksql.BinaryExpr)
	if !ok || b.Op != "=" {
		return "", nil, false
	}
	try := func(colSide, exprSide flinksql.Expr) (string, flinksql.Expr, bool) {
		for {
			p, ok := colSide.(*flinksql.ParenExpr)
			if !ok {
				break
			}
			colSide = p.X
		}
		ref, ok := colSide.(*flinksql.ColumnRef)
		if !ok {
			return "", nil, false
		}
		i, _, err := dim.resolve(ref)
		if err != nil {
			return "", nil, false
		}
		if len(ref.Parts) == 1 {
			if _, _, err := left.resolve(ref); err == nil {
				return "", nil, false // the name is the left side's too: ambiguous
			}
		}
		if _, _, err := left.compile(exprSide); err != nil {
			return "", nil, false
		}
		return dim[i].name, exprSide, true
	}
	if col, expr, ok := try(b.L, b.R); ok {
		return col, expr, true
	}
	return try(b.R, b.L)
}

// rowError is a lookup's failure with the input row it was for: the
// operator returns lookup errors as they are, so the debug run names the row
// itself.
type rowError struct {
	row int64
	err error
}

// Error names the row and the cause.
func (e *rowError) Error() string { return fmt.Sprintf("input row %d: %v", e.row, e.err) }

// Unwrap returns the cause.
func (e *rowError) Unwrap() error { return e.err }
