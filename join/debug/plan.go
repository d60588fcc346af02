package debug

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/flinksql/format"
	"github.com/palink/palink/join"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// The planner turns each INSERT and SELECT into operators of the run's
// graph, from its sources up: plan.go has the query and SELECT levels,
// plan_from.go the FROM clause, and plan_*.go one kind of operator each.

// rel is a planned relation: its columns, the Fan its records come out
// of, and what the planner knows of its changes.
type rel struct {
	cols scope
	out  *stream.Fan
	// updating says it may carry -U, +U and -D; producer names the
	// operator that makes them, in Flink's words.
	updating bool
	producer string
	// key is a unique key of its rows when one is known (a GROUP BY's
	// keys, a primary key), by column index.
	key []int
	// bounded, if set, ends the relation (a LIMIT).
	bounded stream.Doner
	// session says its window columns are a SESSION TVF's, which only a
	// window aggregate may read (it merges the windows).
	session bool
	// sliced says its window columns are a HOP or CUMULATE TVF's (or GROUP
	// BY HOP's), whose slices Flink's window aggregate merges.
	sliced bool
	// zonedWindows says its window columns cut a TIMESTAMP_LTZ in the
	// session time zone; procWindows that they are by processing time
	// (plan_wintime.go). Projections keep them; window_time need not be
	// selected.
	zonedWindows, procWindows bool
}

// with is r with other columns, the same stream.
func (r *rel) with(cols scope) *rel {
	out := *r
	out.cols = cols
	return &out
}

// renamed is r with its columns under a new table alias.
func (r *rel) renamed(alias string) *rel {
	cols := make(scope, len(r.cols))
	for i, c := range r.cols {
		c.table = alias
		cols[i] = c
	}
	return r.with(cols)
}

// calc adds a stateless operator computing each record's row.
func (d *runner) calc(in *rel, cols scope, fn func(stream.Rec) (value.Row, bool, error)) *rel {
	c := &stream.Calc{Fn: fn}
	in.out.To(c)
	out := *in
	out.cols, out.out = cols, &c.Out
	out.key = nil
	return &out
}

// filter adds a WHERE.
func (d *runner) filter(in *rel, cond evalFn, what string) *rel {
	return d.calc(in, in.cols, func(r stream.Rec) (value.Row, bool, error) {
		v, err := cond(r.Row)
		if err != nil {
			return nil, false, fmt.Errorf("%s, input row %d: %w", what, r.Src, err)
		}
		return r.Row, v == true, nil
	})
}

func (d *runner) compiler(cols scope) *compiler { return &compiler{cols: cols, rt: d} }

// planJob plans one INSERT or SELECT into its captured sink.
func (d *runner) planJob(ctx context.Context, st ast.Statement, n, of int) (*Sink, error) {
	var query *ast.Query
	sink := &Sink{Name: fmt.Sprintf("SELECT #%d", n+1)}
	var sinkTable *tableDef
	switch s := st.(type) {
	case *ast.InsertStmt:
		query = s.Query
		sink.Name = s.Table.String()
		sinkTable = d.table(s.Table)
		if sinkTable == nil {
			return nil, errorAt(s, "INSERT INTO %s: no CREATE TABLE for the sink", sink.Name)
		}
		cols, err := insertColumns(s, sinkTable, sink.Name)
		if err != nil {
			return nil, err
		}
		sink.cols = cols
	case *ast.QueryStmt:
		query = s.Query
	}
	r, err := d.planQuery(ctx, query, nil)
	if err != nil {
		return nil, err
	}
	if sink.cols == nil {
		for _, c := range r.cols {
			sink.cols = append(sink.cols, col{name: c.name, typ: c.typ})
		}
	}
	if len(sink.cols) != len(r.cols) {
		return nil, errorAt(query, "Column types of query result and sink for '%s' do not match: the query gives %d columns, the sink has %d", sink.Name, len(r.cols), len(sink.cols))
	}
	coll := &stream.Collector{AppendOnly: !r.updating, Limit: int64(d.opts.Limit), Keep: d.opts.Keep}
	if sinkTable != nil {
		mode := sinkModeOf(sinkTable)
		if r.updating && !mode.updates {
			return nil, errorAt(st, "%s", mode.refusal(sink.Name, r.producer))
		}
		coll.Key = pkIndexes(sinkTable.pk, sink.cols)
		coll.Upsert = mode.upsert && coll.Key != nil
		for _, i := range coll.Key {
			sink.Key = append(sink.Key, sink.cols[i].name)
		}
	}
	sink.coll = coll
	sink.zone = d.zone
	sink.mask = d.opts.Mask
	if err := sink.open(d.opts.Out, n, of); err != nil {
		return nil, err
	}
	onRow, rowJSON, first := d.opts.OnRow, d.opts.RowJSON, true
	coll.OnChange = func(rec stream.Rec) error {
		if err := sink.write(rec); err != nil {
			return err
		}
		if onRow != nil {
			r := SinkRow{Sink: sink.Name, Kind: rec.Kind.String(), Values: sink.print(rec.Row), Input: rec.Src, Lookup: rec.Lat,
				Changelog: !coll.AppendOnly}
			if rowJSON {
				r.JSON = sink.rowJSON(rec.Row)
			}
			if first {
				r.Columns, first = sink.Columns, false
			}
			onRow(r)
		}
		return nil
	}
	// The query's columns are cast to the sink's types, as Flink's sink
	// conversion does.
	from := make([]value.Type, len(r.cols))
	for i, c := range r.cols {
		from[i] = c.typ
	}
	to := sink.types()
	loc := d.zone
	cast := d.calc(r, sink.cols, func(rec stream.Rec) (value.Row, bool, error) {
		out := make(value.Row, len(rec.Row))
		for i, v := range rec.Row {
			c, err := value.Cast(v, from[i], to[i], loc)
			if err != nil {
				return nil, false, fmt.Errorf("sink %s column %s, from input row %d: %w", sink.Name, sink.cols[i].name, rec.Src, err)
			}
			out[i] = c
		}
		return out, true, nil
	})
	cast.out.To(coll)
	done := stream.Doner(coll)
	if r.bounded != nil {
		done = either{coll, r.bounded}
	}
	d.graph.AddSink(done)
	if r.bounded != nil && (n == 0 || d.allLimited) {
		d.allLimited = true
	} else {
		d.allLimited = false
	}
	return sink, nil
}

// either is done when one of two is.
type either struct{ a, b stream.Doner }

func (e either) Done() bool { return e.a.Done() || e.b.Done() }

// insertColumns are the columns an INSERT writes: those it names, else the
// sink's physical columns in DDL order.
func insertColumns(ins *ast.InsertStmt, t *tableDef, sinkName string) (scope, error) {
	var cols scope
	for _, c := range t.cols {
		if c.phys >= 0 || c.metadata != "" && !c.virtual {
			cols = append(cols, col{name: c.name, typ: c.typ})
		}
	}
	if len(ins.Columns) == 0 {
		return cols, nil
	}
	var named scope
	for _, id := range ins.Columns {
		found := false
		for _, c := range cols {
			if strings.EqualFold(c.name, id.Name) {
				named, found = append(named, c), true
			}
		}
		if !found {
			return nil, errorAt(id, "INSERT INTO %s: no column %s", sinkName, id.Name)
		}
	}
	return named, nil
}

// sinkMode is what changes a sink connector takes.
type sinkMode struct {
	updates bool // it takes updates and deletes
	upsert  bool // by its primary key, without -U
	pkOnly  bool // it takes updates only with a primary key (JDBC)
}

func sinkModeOf(t *tableDef) sinkMode {
	hasPK := len(t.pk) > 0
	switch c := t.connector(); {
	case c == "upsert-kafka":
		return sinkMode{updates: true, upsert: true}
	case c == "jdbc" || strings.HasPrefix(c, "elasticsearch") || strings.HasPrefix(c, "opensearch") ||
		strings.HasPrefix(c, "hbase") || c == "mongodb" || c == "starrocks" || c == "doris" || c == "redis":
		return sinkMode{updates: hasPK, upsert: true, pkOnly: c == "jdbc"}
	case c == "kafka" || c == "filesystem" || c == "pulsar" || c == "kinesis" || c == "firehose":
		return sinkMode{updates: t.changelog()}
	}
	return sinkMode{updates: true}
}

// refusal is Flink's planner error for updates into this sink.
func (m sinkMode) refusal(sink, producer string) string {
	if m.pkOnly {
		return "please declare primary key for sink table when query contains update/delete record."
	}
	if producer == "" {
		producer = "an operator"
	}
	return fmt.Sprintf("Table sink 'default_catalog.default_database.%s' doesn't support consuming update changes which is produced by node %s", sink, producer)
}

// planQuery plans a query: WITH, its body, ORDER BY and LIMIT.
func (d *runner) planQuery(ctx context.Context, q *ast.Query, ctes map[string]*cte) (*rel, error) {
	if q.With != nil {
		inner := map[string]*cte{}
		for k, v := range ctes {
			inner[k] = v
		}
		for _, c := range q.With.CTEs {
			if q.With.Recursive {
				return nil, errorAt(q.With, "WITH RECURSIVE is not supported by Flink")
			}
			inner[strings.ToLower(c.Name.Name)] = &cte{def: c, scope: inner}
		}
		ctes = inner
	}
	if q.Offset != nil {
		return nil, errorAt(q.Offset, "OFFSET is not supported in streaming mode without ORDER BY … LIMIT")
	}
	limit := q.Limit
	if limit == nil {
		limit = q.Fetch
	}
	if len(q.OrderBy) > 0 {
		return ranks{d}.planOrderBy(ctx, q, ctes, limit)
	}
	r, err := d.planBody(ctx, q.Body, ctes)
	if err != nil || limit == nil {
		return r, err
	}
	n, err := limitValue(limit)
	if err != nil {
		return nil, err
	}
	if r.updating {
		return ranks{d}.planTopN(ctx, r, nil, nil, n, -1, q)
	}
	l := &stream.Limit{N: n}
	r.out.To(l)
	out := *r
	out.out, out.bounded = &l.Out, l
	return &out, nil
}

// cte is a WITH query and the WITH queries it may read.
type cte struct {
	def   *ast.CTE
	scope map[string]*cte
}

func limitValue(e ast.Expr) (int64, error) {
	n, ok := e.(*ast.NumberLit)
	if !ok || n.Kind != ast.NumInteger {
		return 0, errorAt(e, "LIMIT needs a whole number")
	}
	v, err := strconv.ParseInt(n.Text, 10, 64)
	if err != nil {
		return 0, errorAt(e, "LIMIT %s: %v", n.Text, err)
	}
	return v, nil
}

// planBody plans a SELECT, a set operation, VALUES or a parenthesized query.
func (d *runner) planBody(ctx context.Context, body ast.QueryBody, ctes map[string]*cte) (*rel, error) {
	switch b := body.(type) {
	case *ast.Select:
		return d.planSelect(ctx, b, ctes)
	case *ast.ParenQuery:
		return d.planQuery(ctx, b.Query, ctes)
	case *ast.SetOp:
		return setOps{d}.planSetOp(ctx, b, ctes)
	case *ast.Values:
		return d.planValues(b)
	}
	return nil, errorAt(body, "this query is not supported in debug runs")
}

// planSelect plans one SELECT block.
func (d *runner) planSelect(ctx context.Context, s *ast.Select, ctes map[string]*cte) (*rel, error) {
	if s.From == nil {
		return d.planValues(&ast.Values{Span: s.Span, Rows: []ast.Expr{&ast.RowExpr{}}}, s)
	}
	if r, ok, err := (ranks{d}).planRankSelect(ctx, s, ctes); ok || err != nil {
		return r, err
	}
	var conds []ast.Expr
	if s.Where != nil {
		conds = conjuncts(s.Where)
	}
	in, err := d.planFrom(ctx, s.From, ctes, lookupHints(s.Hints), &conds)
	if err != nil {
		return nil, err
	}
	subst := map[string]int{}
	var scalar []ast.Expr
	if in, conds, scalar, err = (tableFuncs{d}).planScalarConds(ctx, in, conds, ctes, subst); err != nil {
		return nil, err
	}
	if in, conds, err = (tableFuncs{d}).planSubqueryConds(ctx, in, conds, ctes); err != nil {
		return nil, err
	}
	aggregated := len(s.GroupBy) > 0 || s.Having != nil || s.Distinct || hasAggregate(s) || hasOver(s)
	if !aggregated {
		if in, err = (tableFuncs{d}).planScalarItems(ctx, in, s.Items, ctes, subst); err != nil {
			return nil, err
		}
	}
	conds = append(conds, scalar...)
	if len(conds) > 0 {
		c := d.compiler(in.cols)
		if len(subst) > 0 {
			c.subst = subst
		}
		c.where = "WHERE"
		var where evalFn
		for _, e := range conds {
			f, _, err := c.compile(e)
			if err != nil {
				return nil, err
			}
			where = and(where, f)
		}
		in = d.filter(in, where, "WHERE")
	}
	if len(s.GroupBy) > 0 || s.Having != nil || s.Distinct || hasAggregate(s) {
		return aggregates{d}.planAggregate(ctx, s, in, ctes)
	}
	if hasOver(s) {
		return aggregates{d}.planOver(ctx, s, in)
	}
	if len(subst) > 0 {
		c := d.compiler(in.cols)
		c.subst = subst
		return d.project(in, s.Items, c)
	}
	return d.project(in, s.Items, nil)
}

// project plans a SELECT list over in; c, if set, compiles it (with an
// aggregation's substitutions).
func (d *runner) project(in *rel, items []*ast.SelectItem, c *compiler) (*rel, error) {
	if c == nil {
		c = d.compiler(in.cols)
	}
	fns, cols, err := d.selectList(in, items, c)
	if err != nil {
		return nil, err
	}
	if identity(fns, cols, in.cols) {
		out := in.with(cols)
		return out, nil
	}
	names := cols
	out := d.calc(in, cols, func(r stream.Rec) (value.Row, bool, error) {
		row := make(value.Row, len(fns))
		for i, f := range fns {
			v, err := f(r.Row)
			if err != nil {
				return nil, false, fmt.Errorf("SELECT column %s, input row %d: %w", names[i].name, r.Src, err)
			}
			row[i] = v
		}
		return row, true, nil
	})
	out.key = projectKey(in, fns, cols)
	return out, nil
}

// identity says whether a projection passes every column as it is.
func identity(fns []evalFn, cols, in scope) bool {
	return false
}

// projectKey keeps the input's unique key when the projection keeps its
// columns (unknown here: dropped).
func projectKey(in *rel, fns []evalFn, cols scope) []int { return nil }

// selectList compiles a SELECT list over in, * and t.* too: the closures
// and the columns they give.
func (d *runner) selectList(in *rel, items []*ast.SelectItem, c *compiler) ([]evalFn, scope, error) {
	var fns []evalFn
	var out scope
	for i, it := range items {
		if star, ok := it.Expr.(*ast.Star); ok {
			qual := ""
			if len(star.Qualifier) > 0 {
				qual = star.Qualifier[len(star.Qualifier)-1].Name
			}
			matched := false
			for j, f := range in.cols {
				if strings.HasPrefix(f.name, "$") {
					continue // a planner's hidden column (a scalar subquery's value)
				}
				if qual == "" || strings.EqualFold(f.table, qual) {
					fns = append(fns, func(row value.Row) (any, error) { return row[j], nil })
					out = append(out, col{name: f.name, typ: f.typ, time: f.time, win: f.win})
					matched = true
				}
			}
			if !matched {
				return nil, nil, errorAt(star, "Unknown identifier '%s'", qual)
			}
			continue
		}
		f, t, err := c.compile(it.Expr)
		if err != nil {
			return nil, nil, err
		}
		name := fmt.Sprintf("EXPR$%d", i)
		var attr timeAttr
		var role winRole
		if ref, ok := it.Expr.(*ast.ColumnRef); ok {
			name = ref.Name()
			if j, fields, err := c.cols.resolve(ref); err == nil && len(fields) == 0 {
				if c.subst == nil {
					attr = c.cols[j].time
				}
				role = c.cols[j].win
			}
		}
		if it.Alias != nil {
			name = it.Alias.Name
		}
		fns = append(fns, f)
		out = append(out, col{name: name, typ: t, time: attr, win: role})
	}
	return fns, out, nil
}

// conjuncts splits a condition at its top-level ANDs.
func conjuncts(e ast.Expr) []ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return conjuncts(x.X)
	case *ast.BinaryExpr:
		if strings.EqualFold(x.Op, "AND") {
			return append(conjuncts(x.L), conjuncts(x.R)...)
		}
	}
	return []ast.Expr{e}
}

// planValues plans VALUES (…), (…) (and a SELECT without FROM, sel): a
// bounded source of its rows.
func (d *runner) planValues(v *ast.Values, sel ...*ast.Select) (*rel, error) {
	c := d.compiler(nil)
	var rows []value.Row
	var types []value.Type
	for _, e := range v.Rows {
		items := []ast.Expr{e}
		if r, ok := e.(*ast.RowExpr); ok {
			items = r.Items
		}
		var row value.Row
		for i, it := range items {
			val, t, err := c.constValue(it)
			if err != nil {
				return nil, err
			}
			if i >= len(types) {
				types = append(types, t)
			} else {
				types[i] = value.Common(types[i], t)
			}
			row = append(row, val)
		}
		rows = append(rows, row)
	}
	cols := make(scope, len(types))
	for i, t := range types {
		cols[i] = col{name: fmt.Sprintf("EXPR$%d", i), typ: t}
	}
	src := &stream.Source{Name: "VALUES", Reader: &valuesReader{rows: rows}, Rowtime: -1}
	d.driver.Sources = append(d.driver.Sources, src)
	r := &rel{cols: cols, out: &src.Out}
	if len(sel) == 1 {
		return d.project(r, sel[0].Items, nil)
	}
	return r, nil
}

// valuesReader gives the rows of a VALUES clause.
type valuesReader struct {
	rows []value.Row
	next int
}

func (v *valuesReader) Next() (stream.Rec, bool, error) {
	if v.next >= len(v.rows) {
		return stream.Rec{}, false, nil
	}
	v.next++
	return stream.Rec{Row: append(value.Row(nil), v.rows[v.next-1]...), Src: int64(v.next)}, true, nil
}

func (v *valuesReader) Close() error { return nil }

// lookupHints are the options of a SELECT's LOOKUP hints, by their 'table'
// in lower case.
func lookupHints(hints []*ast.Hint) map[string]map[string]string {
	byTable := map[string]map[string]string{}
	for _, h := range hints {
		if !strings.EqualFold(h.Name.Name, "LOOKUP") {
			continue
		}
		kv := map[string]string{}
		for _, p := range h.KVs {
			kv[hintText(p.Key)] = hintText(p.Value)
		}
		byTable[strings.ToLower(kv["table"])] = kv
	}
	return byTable
}

func hintText(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.StringLit:
		return v.Value
	case *ast.ColumnRef:
		return v.Key()
	case *ast.NumberLit:
		return v.Text
	}
	return format.Expr(e)
}

var _ = join.InnerJoin
