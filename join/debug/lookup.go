package debug

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planJoin plans a join of the FROM clause: a lookup join when the right
// side is `t FOR SYSTEM_TIME AS OF …` on a lookup table, else a regular join.
func (d joins) planJoin(ctx context.Context, j *ast.Join, ctes map[string]*cte, hints map[string]map[string]string, where *[]ast.Expr) (*rel, error) {
	right, ok := j.R.(*ast.TableRef)
	if !ok || right.SystemTime == nil {
		return d.planRegularJoin(ctx, j, ctes, hints, where)
	}
	var kind join.JoinKind
	switch j.Kind {
	case ast.JoinInner:
		kind = join.InnerJoin
	case ast.JoinLeft:
		kind = join.LeftJoin
	default:
		return nil, errorAt(j, "Temporal table join currently only supports INNER JOIN and LEFT JOIN, not %s", j.Kind)
	}
	if j.On == nil {
		return nil, errorAt(j, "Temporal table join requires an equality condition on fields of table [%s].", right.Name)
	}
	t := d.table(right.Name)
	if t == nil {
		return nil, errorAt(right, "Object '%s' not found", right.Name)
	}
	if t.connector() != "jdbc" && (t.wm != nil || len(t.pk) > 0) {
		return d.planTemporalJoin(ctx, j, right, t, ctes, hints)
	}
	for _, c := range t.cols {
		if c.phys < 0 {
			return nil, errorAt(right, "lookup table %s has computed or metadata columns: not supported in debug runs yet", t.name)
		}
	}
	alias := t.name
	if right.Alias != nil {
		alias = right.Alias.Name.Name
	}
	left, err := d.planFrom(ctx, j.L, ctes, hints, where)
	if err != nil {
		return nil, err
	}
	if left.updating {
		return nil, errorAt(j, "a lookup join's input must be append-only in debug runs; %s gives updates", left.producer)
	}
	dimScope := make(scope, len(t.physical))
	for i, c := range t.physical {
		dimScope[i] = col{table: alias, name: c.Name, typ: t.types[i].Nullable()}
	}
	both := append(append(scope{}, left.cols...), dimScope...)
	if early := d.pushDown(where, left.cols, both); early != nil {
		left = d.filter(left, early, "WHERE")
	}
	on, err := d.compileOn(j.On, t.name, dimScope, left.cols, both)
	if err != nil {
		return nil, err
	}
	hint := hints[strings.ToLower(alias)]
	if hint == nil {
		hint = hints[strings.ToLower(t.name)]
	}
	cfg, err := join.ParseLookupConfig(d.sets, hint)
	if err != nil {
		return nil, errorAt(j, "lookup join on %s: %v", t.name, err)
	}
	srcOpts, err := join.ParseSourceOptions(t.with)
	if err != nil {
		return nil, errorAt(t.node, "lookup table %s: %v", t.name, err)
	}
	if to, ok := d.opts.Databases[srcOpts.URL]; ok {
		srcOpts.URL = to
	}
	srcOpts.ConnectTimeout, srcOpts.Log = cfg.Options.Timeout, d.opts.Log
	src, err := join.OpenSource(ctx, srcOpts, join.Table{Name: t.name, Columns: t.physical, Keys: on.keys}, cfg.Options.Capacity)
	if err != nil {
		return nil, err
	}
	report := &LookupReport{Table: t.name, Config: cfg}
	n := &lookupNode{ctx: ctx, table: t.name, src: src, report: report, timeout: cfg.Options.Timeout, dimTypes: t.types, width: len(left.cols), capacity: cfg.Options.Capacity}
	if !cfg.Async {
		n.capacity = 1
	}
	lj := &join.LookupJoin{Source: src, Kind: kind, MissRetry: cfg.MissRetry}
	lj.KeyOf = func(in join.Row) ([]any, error) {
		key := make([]any, len(on.keyOf))
		for i, f := range on.keyOf {
			v, err := f(value.Row(in))
			if err != nil {
				return nil, fmt.Errorf("key %s: %w", on.keys[i], err)
			}
			key[i] = toJoin(v, on.keyTypes[i])
		}
		return key, nil
	}
	if on.cond != nil {
		lj.Condition = func(in, dim join.Row) (bool, error) {
			row := make(value.Row, 0, len(in)+len(dim))
			row = append(row, in...)
			dv, err := n.dimRow(dim)
			if err != nil {
				return false, err
			}
			v, err := on.cond(append(row, dv...))
			return v == true, err
		}
	}
	n.fn = lj.Func()
	d.mu.Lock()
	d.lookups = append(d.lookups, report)
	d.lookupOp = append(d.lookupOp, n)
	d.mu.Unlock()
	left.out.To(n)
	d.graph.Add("LookupJoin", n)
	out := *left
	out.cols, out.out, out.key = both, &n.Out, nil
	return &out, nil
}

// pushDown takes from where the conditions on the input alone, as Flink's
// planner does: they are applied before the lookup, and the rows they drop
// are not looked up.
func (d joins) pushDown(where *[]ast.Expr, left, both scope) evalFn {
	if where == nil {
		return nil
	}
	var early evalFn
	var keep []ast.Expr
	for _, c := range *where {
		f, _, errLeft := d.compiler(left).compile(c)
		_, _, errBoth := d.compiler(both).compile(c)
		if errLeft == nil && errBoth == nil && !hasSubquery(c) {
			early = and(early, f)
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
	keys     []string     // the table's key columns
	keyOf    []evalFn     // the input's values for them, over the input row
	keyTypes []value.Type // of the table's key columns
	cond     evalFn       // the rest, over the joined row; nil if none
}

// compileOn compiles the ON clause of the lookup join on table; without a
// key it is refused.
func (d joins) compileOn(on ast.Expr, table string, dim, left, both scope) (*onClause, error) {
	c := &onClause{}
	var rest []ast.Expr
	for _, e := range conjuncts(on) {
		if i, expr, ok := d.keyEquality(e, dim, left); ok {
			f, _, err := d.compiler(left).compile(expr)
			if err != nil {
				return nil, err
			}
			c.keys = append(c.keys, dim[i].name)
			c.keyOf = append(c.keyOf, f)
			c.keyTypes = append(c.keyTypes, dim[i].typ)
			continue
		}
		rest = append(rest, e)
	}
	if len(c.keys) == 0 {
		return nil, errorAt(on, "Temporal table join requires an equality condition on fields of table [%s].", table)
	}
	for _, e := range rest {
		f, _, err := d.compiler(both).compile(e)
		if err != nil {
			return nil, err
		}
		c.cond = and(c.cond, f)
	}
	return c, nil
}

// keyEquality recognizes `dim.col = expr` (either way round) where expr
// reads only the left side: a lookup key.
func (d joins) keyEquality(e ast.Expr, dim, left scope) (int, ast.Expr, bool) {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != "=" {
		return 0, nil, false
	}
	try := func(colSide, exprSide ast.Expr) (int, ast.Expr, bool) {
		for {
			p, ok := colSide.(*ast.ParenExpr)
			if !ok {
				break
			}
			colSide = p.X
		}
		ref, ok := colSide.(*ast.ColumnRef)
		if !ok {
			return 0, nil, false
		}
		i, fields, err := dim.resolve(ref)
		if err != nil || len(fields) > 0 {
			return 0, nil, false
		}
		if len(ref.Parts) == 1 {
			if _, _, err := left.resolve(ref); err == nil {
				return 0, nil, false // the name is the left side's too: ambiguous
			}
		}
		if _, _, err := d.compiler(left).compile(exprSide); err != nil {
			return 0, nil, false
		}
		return i, exprSide, true
	}
	if i, expr, ok := try(b.L, b.R); ok {
		return i, expr, true
	}
	return try(b.R, b.L)
}

// lookupNode runs each input row's lookups against the table, in the
// order the rows come (Flink's ordered output; an unordered one gives the
// same rows).
type lookupNode struct {
	ctx      context.Context
	table    string
	src      join.Source
	fn       join.Func[join.Row, join.Row]
	report   *LookupReport
	timeout  time.Duration
	dimTypes []value.Type
	width    int
	closed   bool
	// capacity is how many inputs' lookups may be in flight at once
	// (table.exec.async-lookup.buffer-capacity; 1 for a synchronous
	// lookup); their rows are emitted in input order.
	capacity int
	inflight []*lookupCall
	Out      stream.Fan
}

// lookupCall is one input's lookups, in flight.
type lookupCall struct {
	rec  stream.Rec
	done chan struct{}
	rows []join.Row
	err  error
	took time.Duration
}

// dimRow is a lookup table row as the runtime holds its values.
func (n *lookupNode) dimRow(dim join.Row) (value.Row, error) {
	out := make(value.Row, len(n.dimTypes))
	for i := range out {
		if i >= len(dim) {
			continue
		}
		v, err := fromJoin(dim[i], n.dimTypes[i])
		if err != nil {
			return nil, fmt.Errorf("lookup table %s column %d: %w", n.table, i+1, err)
		}
		out[i] = v
	}
	return out, nil
}

// Push starts one input row's lookups, then emits the rows of those that
// finished, in input order, waiting while capacity inputs are in flight.
func (n *lookupNode) Push(r stream.Rec) error {
	c := &lookupCall{rec: r, done: make(chan struct{})}
	n.inflight = append(n.inflight, c)
	go func() {
		defer close(c.done)
		ctx := n.ctx
		if n.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, n.timeout)
			defer cancel()
		}
		began := time.Now()
		c.rows, c.err = n.fn(ctx, join.Row(r.Row))
		c.took = max(time.Since(began), time.Nanosecond)
	}()
	return n.drain(max(n.capacity, 1) - 1)
}

// drain emits the finished lookups at the head of the queue, waiting
// until at most keep are in flight.
func (n *lookupNode) drain(keep int) error {
	for len(n.inflight) > 0 {
		c := n.inflight[0]
		if len(n.inflight) <= keep {
			select {
			case <-c.done:
			default:
				return nil
			}
		}
		<-c.done
		n.inflight = n.inflight[1:]
		if err := n.emit(c); err != nil {
			return err
		}
	}
	return nil
}

// emit passes one input's joined rows on.
func (n *lookupNode) emit(c *lookupCall) error {
	r := c.rec
	if c.err != nil {
		if errors.Is(c.err, context.Canceled) && n.ctx.Err() != nil {
			return n.ctx.Err()
		}
		return fmt.Errorf("lookup join on %s, input row %d: %w", n.table, r.Src, c.err)
	}
	n.report.Latency = append(n.report.Latency, c.took)
	for _, jr := range c.rows {
		dv, err := n.dimRow(jr[n.width:])
		if err != nil {
			return err
		}
		row := make(value.Row, 0, n.width+len(dv))
		row = append(append(row, jr[:n.width]...), dv...)
		if err := n.Out.Push(stream.Rec{Kind: r.Kind, Row: row, Src: r.Src, Lat: r.Lat + c.took}); err != nil {
			return err
		}
	}
	return nil
}

// Watermark emits every lookup in flight, then passes the watermark on
// (Flink's async operator keeps watermarks in order with the rows).
func (n *lookupNode) Watermark(ts int64) error {
	if err := n.drain(0); err != nil {
		return err
	}
	return n.Out.Watermark(ts)
}

// Finish emits the lookups still in flight at the end of the input.
func (n *lookupNode) Finish() error { return n.drain(0) }

// wait lets every lookup in flight end, without emitting them (a run
// that failed or was cancelled).
func (n *lookupNode) wait() {
	for _, c := range n.inflight {
		<-c.done
	}
	n.inflight = nil
}

// stopLookups closes the lookup tables and takes their statistics.
func (d *runner) stopLookups() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, n := range d.lookupOp {
		if n.closed {
			continue
		}
		n.closed = true
		n.wait()
		n.report.Stats = n.src.Stats()
		n.src.Close()
	}
}
