package debug

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/join/debug/format"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// planFrom plans a FROM item. where holds the WHERE conjuncts; joins take
// those they apply themselves (a lookup join's filters on its input, an
// interval join's time bounds).
func (d *runner) planFrom(ctx context.Context, from ast.TableExpr, ctes map[string]*cte, hints map[string]map[string]string, where *[]ast.Expr) (*rel, error) {
	switch f := from.(type) {
	case *ast.ParenTable:
		return d.planFrom(ctx, f.Table, ctes, hints, where)
	case *ast.TableRef:
		if f.SystemTime != nil {
			return nil, errorAt(f, "FOR SYSTEM_TIME AS OF is for the right side of a lookup or temporal join")
		}
		alias := f.Name.Last()
		if f.Alias != nil {
			alias = f.Alias.Name.Name
		}
		r, err := d.namedTable(ctx, f, f.Name, ctes, alias)
		if err != nil {
			return nil, err
		}
		return aliasColumns(r, f.Alias)
	case *ast.DerivedTable:
		if f.Lateral {
			return nil, errorAt(f, "LATERAL (subquery) is not supported in debug runs: use a join, or CROSS JOIN UNNEST")
		}
		r, err := d.planQuery(ctx, f.Query, ctes)
		if err != nil {
			return nil, err
		}
		alias := ""
		if f.Alias != nil {
			alias = f.Alias.Name.Name
		}
		return aliasColumns(r.renamed(alias), f.Alias)
	case *ast.Join:
		return joins{d}.planJoin(ctx, f, ctes, hints, where)
	case *ast.TableFunc:
		return tableFuncs{d}.planTableFunc(ctx, f, ctes)
	case *ast.Unnest:
		return tableFuncs{d}.planUnnestAlone(f)
	case *ast.MatchRecognize:
		return tableFuncs{d}.planMatch(ctx, f, ctes, hints)
	}
	return nil, errorAt(from, "this FROM item is not supported in debug runs")
}

// aliasColumns renames a relation's columns as AS t(a, b, …) says.
func aliasColumns(r *rel, a *ast.Alias) (*rel, error) {
	if a == nil || len(a.Columns) == 0 {
		return r, nil
	}
	if len(a.Columns) != len(r.cols) {
		return nil, errorAt(a, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(r.cols), len(a.Columns))
	}
	cols := make(scope, len(r.cols))
	for i, c := range r.cols {
		c.name = a.Columns[i].Name
		cols[i] = c
	}
	return r.with(cols), nil
}

// namedTable is a table, view or WITH query by name.
func (d *runner) namedTable(ctx context.Context, at ast.Node, name *ast.QualifiedName, ctes map[string]*cte, alias string) (*rel, error) {
	if c, ok := ctes[strings.ToLower(name.Key())]; ok {
		r, err := d.planQuery(ctx, c.def.Query, c.scope)
		if err != nil {
			return nil, err
		}
		r = r.renamed(alias)
		if len(c.def.Columns) > 0 {
			return aliasColumns(r, &ast.Alias{Span: c.def.Span, Columns: c.def.Columns})
		}
		return r, nil
	}
	if q, ok := d.views[strings.ToLower(name.Key())]; ok {
		r, err := d.planQuery(ctx, q, nil)
		if err != nil {
			return nil, err
		}
		return r.renamed(alias), nil
	}
	t := d.table(name)
	if t == nil {
		return nil, errorAt(at, "Object '%s' not found", name)
	}
	return sources{d}.scan(t, alias)
}

// scan is the relation of a source table: read once however many times
// the job reads it, its rows fanned out to every reader.
func (d sources) scan(t *tableDef, alias string) (*rel, error) {
	key := strings.ToLower(t.name)
	if r, ok := d.scans[key]; ok {
		return r.renamed(alias), nil
	}
	var fileCols []format.Column
	var fromFile []int // per table column: its index in the file's row, -1: computed
	for _, c := range t.cols {
		if c.expr != nil {
			fromFile = append(fromFile, -1)
			continue
		}
		fromFile = append(fromFile, len(fileCols))
		fileCols = append(fileCols, format.Column{Name: c.name, Type: c.typ, Metadata: c.metadata != ""})
	}
	var keyIdx []int
	for _, k := range t.pk {
		for i, c := range fileCols {
			if strings.EqualFold(c.Name, k) {
				keyIdx = append(keyIdx, i)
			}
		}
	}
	reader, err := d.reader(t, fileCols, keyIdx)
	if err != nil {
		return nil, err
	}
	// The table's columns, in DDL order; computed ones compiled over the
	// ones before them that the file gives.
	cols := make(scope, len(t.cols))
	fileScope := make(scope, len(fileCols))
	for i, c := range fileCols {
		fileScope[i] = col{table: alias, name: c.Name, typ: c.Type}
	}
	computed := make([]evalFn, len(t.cols))
	for i, c := range t.cols {
		if c.expr == nil {
			cols[i] = col{table: alias, name: c.name, typ: c.typ}
			continue
		}
		f, ct, err := d.compiler(fileScope).compile(c.expr)
		if err != nil {
			return nil, fmt.Errorf("table %s column %s: %w", t.name, c.name, err)
		}
		computed[i] = f
		cols[i] = col{table: alias, name: c.name, typ: ct}
		if isProctimeCall(c.expr) {
			cols[i].time = proctime
		}
	}
	src := &stream.Source{Name: t.name, Reader: reader, Rowtime: -1}
	src.Scan = func(r stream.Rec) (stream.Rec, error) {
		row := make(value.Row, len(t.cols))
		for i, at := range fromFile {
			if at >= 0 {
				row[i] = r.Row[at]
				continue
			}
			v, err := computed[i](r.Row)
			if err != nil {
				return r, fmt.Errorf("table %s row %d, column %s: %w", t.name, r.Src, cols[i].name, err)
			}
			row[i] = v
		}
		r.Row = row
		return r, nil
	}
	if t.wm != nil {
		if err := d.watermark(t, src, cols); err != nil {
			return nil, err
		}
	}
	if d.opts.OnRead != nil {
		onRead, name := d.opts.OnRead, t.name
		src.OnRead = func(n int64) { onRead(name, n) }
	}
	d.driver.Sources = append(d.driver.Sources, src)
	r := &rel{cols: cols, out: &src.Out, updating: t.changelog(), producer: "TableSourceScan(table=[[default_catalog, default_database, " + t.name + "]])"}
	if pk := pkIndexes(t.pk, cols); pk != nil {
		r.key = pk
	}
	if t.connector() == "upsert-kafka" {
		// Flink materializes an upsert source into a changelog.
		n := stream.NewNormalize(r.key)
		r.out.To(n)
		d.graph.Add("ChangelogNormalize", n)
		r.out, r.producer = &n.Out, "ChangelogNormalize"
	}
	d.scans[key] = r
	return r, nil
}

func isProctimeCall(e ast.Expr) bool {
	f, ok := e.(*ast.FuncCall)
	return ok && f.FuncName() == "PROCTIME"
}

// watermark makes the WATERMARK FOR col AS expr of a table: its column is
// the rowtime attribute; the expression's value, the source's watermark.
func (d sources) watermark(t *tableDef, src *stream.Source, cols scope) error {
	name := t.wm.Column.Last()
	idx := -1
	for i, c := range cols {
		if strings.EqualFold(c.name, name) {
			idx = i
		}
	}
	if idx < 0 {
		return errorAt(t.wm, "The rowtime attribute field '%s' is not defined in the table schema", name)
	}
	if !cols[idx].typ.IsTimestamp() || cols[idx].typ.Precision > 3 {
		return errorAt(t.wm, "Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to 3, but the time field type is %s", cols[idx].typ)
	}
	cols[idx].time = rowtime
	f, _, err := d.compiler(cols).compile(t.wm.Expr)
	if err != nil {
		return err
	}
	src.Rowtime = idx
	src.Watermark = func(row value.Row) (int64, bool, error) {
		v, err := f(row)
		if err != nil || v == nil {
			return 0, false, err
		}
		ts, ok := v.(time.Time)
		if !ok {
			return 0, false, fmt.Errorf("the WATERMARK expression gives %s, not a timestamp", value.Guess(v, nil))
		}
		return ts.UnixMilli(), true, nil
	}
	return nil
}

// reader is where a source table's rows come from: its data file, or the
// datagen connector's options.
func (d sources) reader(t *tableDef, cols []format.Column, key []int) (stream.Reader, error) {
	path := ""
	for k, v := range d.opts.Data {
		if strings.EqualFold(k, t.name) {
			path = v
		}
	}
	if path == "" && t.connector() == "filesystem" && t.with["path"] != "" {
		// Flink's filesystem source reads its 'path': so does a run (a
		// gateway's session handing its tables to this runtime, a
		// sample copied where the cluster reads it).
		path = strings.TrimPrefix(t.with["path"], "file://")
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return nil, errorAt(t.node, "source table %s: 'path' %s is a directory: a debug run reads one file", t.name, path)
		}
	}
	if path == "" {
		if t.connector() == "datagen" {
			return d.datagen(t, cols)
		}
		return nil, errorAt(t.node, "source table %s (connector '%s'): give its rows with --data %s=FILE (JSON lines or CSV)",
			t.name, t.with["connector"], t.name)
	}
	r, err := format.Open(path, format.Table{Name: t.name, Columns: cols, Options: t.with, Connector: t.connector(), Format: t.format(), Key: key})
	if sk, ok := r.(format.Skipper); ok && err == nil && strings.EqualFold(strings.TrimSpace(t.with[t.format()+".ignore-parse-errors"]), "true") {
		d.skippers = append(d.skippers, sourceSkipper{table: t.name, file: path, of: sk})
	}
	return r, err
}

// sourceSkipper is a source whose ignore-parse-errors passes over what
// does not parse, for the run's report.
type sourceSkipper struct {
	table, file string
	of          format.Skipper
}

// CountRows counts the rows of a data file as a debug run reads them: its
// non-blank lines, less a CSV's header.
func CountRows(path string) (int64, error) { return format.CountRows(path) }
