package debug

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/join"
)

// The planner: each part of a query (a scan, a filter, a projection, a
// LIMIT, a lookup join) is a stage, a goroutine of the run's group, and the
// stages pass rows through channels of join.Element, as the operator takes
// them.

// drow is a row in flight through a debug run: its values, the source row
// it came from, and the lookup time spent on it so far.
type drow struct {
	vals join.Row
	src  int64
	lat  time.Duration
}

// stream is a relation being computed: its columns and its rows.
type stream struct {
	scope scope
	ch    <-chan join.Element[drow]
}

// group runs the stages of a run and keeps the first failure.
type group struct {
	wg     sync.WaitGroup
	mu     sync.Mutex
	err    error
	cancel context.CancelFunc
}

func (g *group) go_(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.fail(err)
		}
	}()
}

func (g *group) fail(err error) {
	g.mu.Lock()
	if g.err == nil {
		g.err = err
	}
	g.mu.Unlock()
	g.cancel()
}

// stop ends the stages started so far (the plan failed).
func (g *group) stop() {
	g.cancel()
	g.wg.Wait()
}

func (g *group) wait() error {
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}

// send delivers e or gives up when the run ends.
func send(ctx context.Context, ch chan<- join.Element[drow], e join.Element[drow]) error {
	select {
	case ch <- e:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// plan builds the stages of a query. ctes are the WITH tables in scope.
func (d *runner) plan(ctx context.Context, g *group, q *flinksql.Query, ctes map[string]*flinksql.Query) (*stream, error) {
	if q.With != nil {
		inner := map[string]*flinksql.Query{}
		for k, v := range ctes {
			inner[k] = v
		}
		for _, c := range q.With.CTEs {
			if len(c.Columns) > 0 {
				return nil, refuse(c, "WITH %s (columns) is not supported in debug runs", c.Name.Name)
			}
			inner[strings.ToLower(c.Name.Name)] = c.Query
		}
		ctes = inner
	}
	if len(q.OrderBy) > 0 {
		return nil, refuse(q.OrderBy[0], "ORDER BY is out of scope for debug runs (a streaming job's order is its input's)")
	}
	if q.Offset != nil {
		return nil, refuse(q.Offset, "OFFSET is not supported in debug runs")
	}
	sel, ok := q.Body.(*flinksql.Select)
	if !ok {
		if p, ok := q.Body.(*flinksql.ParenQuery); ok && q.Limit == nil && q.Fetch == nil {
			return d.plan(ctx, g, p.Query, ctes)
		}
		return nil, refuse(q.Body, "%s is out of scope for debug runs", strings.TrimPrefix(fmt.Sprintf("%T", q.Body), "*flinksql."))
	}
	limit := q.Limit
	if limit == nil {
		limit = q.Fetch
	}
	if limit == nil {
		return d.planSelect(ctx, g, sel, ctes)
	}
	n, ok := limit.(*flinksql.NumberLit)
	if !ok || n.Kind != flinksql.NumInteger {
		return nil, refuse(limit, "LIMIT needs a number")
	}
	max, err := strconv.ParseInt(n.Text, 10, 64)
	if err != nil {
		return nil, refuse(limit, "LIMIT %s: %v", n.Text, err)
	}
	// The stages under a LIMIT run in a group of their own, which the limit
	// ends once it has its rows: an unbounded source must not run on.
	subCtx, cancel := context.WithCancel(ctx)
	sub := &group{cancel: cancel}
	st, err := d.planSelect(subCtx, sub, sel, ctes)
	if err != nil {
		sub.stop()
		return nil, err
	}
	return d.limit(ctx, g, sub, st, max), nil
}

// limit passes the first n records of in, then stops the stages that feed it.
func (d *runner) limit(ctx context.Context, g *group, sub *group, in *stream, n int64) *stream {
	out := make(chan join.Element[drow], 64)
	g.go_(func() error {
		defer close(out)
		var seen int64
		for seen < n {
			e, ok := <-in.ch
			if !ok {
				break
			}
			if !e.Watermark {
				seen++
			}
			if err := send(ctx, out, e); err != nil {
				sub.stop()
				return err
			}
		}
		reached := seen >= n
		sub.cancel()
		for range in.ch {
			// Let the stopped stages finish their sends.
		}
		err := sub.wait()
		if reached && errors.Is(err, context.Canceled) && ctx.Err() == nil {
			return nil // ended by the limit, not by a failure
		}
		return err
	})
	return &stream{scope: in.scope, ch: out}
}

func (d *runner) planSelect(ctx context.Context, g *group, s *flinksql.Select, ctes map[string]*flinksql.Query) (*stream, error) {
	switch {
	case s.From == nil:
		return nil, refuse(s, "SELECT without FROM is not supported in debug runs")
	case len(s.GroupBy) > 0 || s.Having != nil:
		return nil, refuse(s, "GROUP BY and aggregations are out of scope for debug runs")
	case s.Distinct:
		return nil, refuse(s, "SELECT DISTINCT is out of scope for debug runs (it aggregates)")
	case len(s.Windows) > 0:
		return nil, refuse(s, "WINDOW clauses are out of scope for debug runs")
	}
	hints := lookupHints(s.Hints)
	var conds []flinksql.Expr
	if s.Where != nil {
		conds = conjuncts(s.Where)
	}
	in, err := d.planFrom(ctx, g, s.From, ctes, hints, &conds)
	if err != nil {
		return nil, err
	}
	var where evalFn
	for _, c := range conds {
		f, _, err := in.scope.compile(c)
		if err != nil {
			return nil, err
		}
		where = and(where, f)
	}
	items, out, err := projection(s.Items, in.scope)
	if err != nil {
		return nil, err
	}
	ch := make(chan join.Element[drow], 64)
	g.go_(func() error {
		defer close(ch)
		for e := range in.ch {
			if e.Watermark {
				continue
			}
			env := &evalEnv{now: d.opts.Now()}
			if where != nil {
				ok, err := where(env, e.Value.vals)
				if err != nil {
					return fmt.Errorf("WHERE, input row %d: %w", e.Value.src, err)
				}
				if ok != true {
					continue
				}
			}
			vals := make(join.Row, len(items))
			for i, f := range items {
				v, err := f(env, e.Value.vals)
				if err != nil {
					return fmt.Errorf("SELECT column %s, input row %d: %w", out[i].name, e.Value.src, err)
				}
				vals[i] = v
			}
			e.Value.vals = vals
			if err := send(ctx, ch, e); err != nil {
				return err
			}
		}
		return nil
	})
	return &stream{scope: out, ch: ch}, nil
}

// lookupHints are the options of a SELECT's LOOKUP hints, by their 'table'
// in lower case.
func lookupHints(hints []*flinksql.Hint) map[string]map[string]string {
	byTable := map[string]map[string]string{}
	for _, h := range hints {
		if !strings.EqualFold(h.Name.Name, "LOOKUP") {
			continue
		}
		kv := map[string]string{}
		for _, p := range h.KVs {
			k, v := hintText(p.Key), hintText(p.Value)
			kv[k] = v
		}
		byTable[strings.ToLower(kv["table"])] = kv
	}
	return byTable
}

// projection compiles a SELECT list over the columns in, * and t.* too: the
// closures and the columns they give.
func projection(list []*flinksql.SelectItem, in scope) (items []evalFn, out scope, err error) {
	for i, it := range list {
		if star, ok := it.Expr.(*flinksql.Star); ok {
			qual := ""
			if len(star.Qualifier) > 0 {
				qual = star.Qualifier[len(star.Qualifier)-1].Name
			}
			matched := false
			for j, f := range in {
				if qual == "" || strings.EqualFold(f.table, qual) {
					items = append(items, func(_ *evalEnv, row join.Row) (any, error) { return row[j], nil })
					out = append(out, field{name: f.name, typ: f.typ})
					matched = true
				}
			}
			if !matched {
				return nil, nil, refuse(star, "no table %s in FROM", qual)
			}
			continue
		}
		f, t, err := in.compile(it.Expr)
		if err != nil {
			return nil, nil, err
		}
		name := fmt.Sprintf("EXPR$%d", i)
		if it.Alias != nil {
			name = it.Alias.Name
		} else if ref, ok := it.Expr.(*flinksql.ColumnRef); ok {
			name = ref.Name()
		}
		items = append(items, f)
		out = append(out, field{name: name, typ: t})
	}
	return items, out, nil
}

// filter is a stage that keeps the rows every condition holds for.
func (d *runner) filter(ctx context.Context, g *group, in *stream, conds []evalFn) *stream {
	ch := make(chan join.Element[drow], 64)
	g.go_(func() error {
		defer close(ch)
	rows:
		for e := range in.ch {
			if !e.Watermark {
				env := &evalEnv{now: d.opts.Now()}
				for _, c := range conds {
					ok, err := c(env, e.Value.vals)
					if err != nil {
						return fmt.Errorf("WHERE, input row %d: %w", e.Value.src, err)
					}
					if ok != true {
						continue rows
					}
				}
			}
			if err := send(ctx, ch, e); err != nil {
				return err
			}
		}
		return nil
	})
	return &stream{scope: in.scope, ch: ch}
}

func hintText(e flinksql.Expr) string {
	switch v := e.(type) {
	case *flinksql.StringLit:
		return v.Value
	case *flinksql.ColumnRef:
		return v.Key()
	case *flinksql.NumberLit:
		return v.Text
	}
	return flinksql.FormatExpr(e)
}

// planFrom plans a FROM item. where holds the WHERE conjuncts; a lookup join
// takes those it can apply before its lookups.
func (d *runner) planFrom(ctx context.Context, g *group, from flinksql.TableExpr, ctes map[string]*flinksql.Query, hints map[string]map[string]string, where *[]flinksql.Expr) (*stream, error) {
	switch f := from.(type) {
	case *flinksql.ParenTable:
		return d.planFrom(ctx, g, f.Table, ctes, hints, where)
	case *flinksql.TableRef:
		if f.SystemTime != nil {
			return nil, refuse(f, "FOR SYSTEM_TIME AS OF is for the right side of a lookup join")
		}
		alias := f.Name.Last()
		if f.Alias != nil {
			alias = f.Alias.Name.Name
		}
		if q, ok := ctes[strings.ToLower(f.Name.Key())]; ok {
			return d.subquery(ctx, g, q, ctes, alias)
		}
		if q, ok := d.views[strings.ToLower(f.Name.Key())]; ok {
			return d.subquery(ctx, g, q, nil, alias)
		}
		t := d.table(f.Name)
		if t == nil {
			return nil, refuse(f, "no CREATE TABLE for %s", f.Name)
		}
		return d.scan(ctx, g, t, alias)
	case *flinksql.DerivedTable:
		if f.Lateral {
			return nil, refuse(f, "LATERAL is out of scope for debug runs")
		}
		alias := ""
		if f.Alias != nil {
			alias = f.Alias.Name.Name
		}
		return d.subquery(ctx, g, f.Query, ctes, alias)
	case *flinksql.Join:
		return d.planJoin(ctx, g, f, ctes, hints, where)
	}
	return nil, refuse(from, "%s in FROM is out of scope for debug runs", strings.TrimPrefix(fmt.Sprintf("%T", from), "*flinksql."))
}

func (d *runner) subquery(ctx context.Context, g *group, q *flinksql.Query, ctes map[string]*flinksql.Query, alias string) (*stream, error) {
	st, err := d.plan(ctx, g, q, ctes)
	if err != nil {
		return nil, err
	}
	renamed := make(scope, len(st.scope))
	for i, f := range st.scope {
		renamed[i] = field{table: alias, name: f.name, typ: f.typ}
	}
	return &stream{scope: renamed, ch: st.ch}, nil
}
