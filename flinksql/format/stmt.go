package format

import (
	"strings"

	"github.com/palink/palink/flinksql/ast"
)

// stmtFormatter lays out statements: DDL with one column or option per
// line, INSERT, statement sets and the rest; queries go to the query
// formatter, expressions to the expression formatter.
type stmtFormatter struct {
	*printer
	queries queryFormatter
	exprs   exprFormatter
}

// newFormatter makes the formatters of one run, all writing to p.
func newFormatter(p *printer) stmtFormatter {
	exprs := exprFormatter{printer: p}
	return stmtFormatter{printer: p, queries: queryFormatter{printer: p, exprs: exprs}, exprs: exprs}
}

// statementLines renders one statement of a script with the comments
// inside it, and the terminating ';'.
func (f stmtFormatter) statementLines(s *script, st ast.Statement) []outLine {
	r := st.Range()
	f.lines = nil
	f.limit = r.End.Offset
	if _, bad := st.(*ast.BadStmt); bad {
		for _, l := range strings.Split(s.Text(st), "\n") {
			f.lines = append(f.lines, outLine{text: strings.TrimRight(l, "\r")})
		}
		for f.ci < len(f.comments) && f.comments[f.ci].Pos.Offset < r.End.Offset {
			f.ci++
		}
	} else {
		f.stmt(st, 0)
		// Comments after the last line of the statement stay on that line;
		// comments on lines of their own go before the next statement, where
		// a second format would find them.
		f.flushTrailing(r.End)
	}
	if n := len(f.lines); n > 0 {
		f.lines[n-1].text += ";"
	}
	return f.lines
}

func (f stmtFormatter) stmt(st ast.Statement, ind int) {
	switch s := st.(type) {
	case *ast.QueryStmt:
		f.queries.query(s.Query, ind)
	case *ast.InsertStmt:
		f.insert(s, ind)
	case *ast.CreateTable:
		f.createTable(s, ind)
	case *ast.CreateView:
		line := "CREATE " + kw(s.OrReplace, "OR REPLACE ") + kw(s.Temporary, "TEMPORARY ") + "VIEW " +
			kw(s.IfNotExists, "IF NOT EXISTS ") + qname(s.Name)
		if len(s.Columns) > 0 {
			line += " (" + identList(s.Columns) + ")"
		}
		f.emit(s.Pos, ind, line)
		if s.Comment != nil {
			f.emit(s.Comment.Pos, ind, "COMMENT "+ast.QuoteString(s.Comment.Value))
		}
		f.lines[len(f.lines)-1].text += " AS"
		f.queries.query(s.Query, ind)
	case *ast.CreateFunction:
		line := "CREATE " + kw(s.OrReplace, "OR REPLACE ") + kw(s.Temporary, "TEMPORARY ") + kw(s.System, "SYSTEM ") +
			"FUNCTION " + kw(s.IfNotExists, "IF NOT EXISTS ") + qname(s.Name) + " AS " + ast.QuoteString(s.Class.Value)
		if s.Language != "" {
			line += " LANGUAGE " + s.Language
		}
		switch {
		case len(s.Using) > 0:
			res := make([]string, len(s.Using))
			for i, r := range s.Using {
				res[i] = r.Kind + " " + ast.QuoteString(r.Path.Value)
			}
			line += " USING " + strings.Join(res, ", ")
		case len(s.Jars) > 0:
			jars := make([]string, len(s.Jars))
			for i, j := range s.Jars {
				jars[i] = "JAR " + ast.QuoteString(j.Value)
			}
			line += " USING " + strings.Join(jars, ", ")
		}
		f.emit(s.Pos, ind, line)
		f.with(s.With, s.With != nil, ind)
	case *ast.CreateCatalog:
		f.emit(s.Pos, ind, "CREATE CATALOG "+kw(s.IfNotExists, "IF NOT EXISTS ")+s.Name.String())
		f.comment(s.Comment, ind)
		f.with(s.With, s.With != nil, ind)
	case *ast.CreateDatabase:
		f.emit(s.Pos, ind, "CREATE DATABASE "+kw(s.IfNotExists, "IF NOT EXISTS ")+qname(s.Name))
		f.comment(s.Comment, ind)
		f.with(s.With, s.With != nil, ind)
	case *ast.DropStmt:
		line := "DROP " + kw(s.Temporary, "TEMPORARY ") + kw(s.System, "SYSTEM ") + s.Object + " " +
			kw(s.IfExists, "IF EXISTS ") + qname(s.Name)
		if s.Behavior != "" {
			line += " " + s.Behavior
		}
		f.emit(s.Pos, ind, line)
	case *ast.AlterTable:
		f.alterTable(s, ind)
	case *ast.AlterView:
		f.emit(s.Pos, ind, "ALTER VIEW "+qname(s.Name))
		if s.RenameTo != nil {
			f.lines[len(f.lines)-1].text += " RENAME TO " + qname(s.RenameTo)
		} else {
			f.lines[len(f.lines)-1].text += " AS"
			f.queries.query(s.As, ind)
		}
	case *ast.AlterFunction:
		line := "ALTER " + kw(s.Temporary, "TEMPORARY ") + kw(s.System, "SYSTEM ") + "FUNCTION " +
			kw(s.IfExists, "IF EXISTS ") + qname(s.Name) + " AS " + ast.QuoteString(s.Class.Value)
		if s.Language != "" {
			line += " LANGUAGE " + s.Language
		}
		f.emit(s.Pos, ind, line)
	case *ast.AlterDatabase:
		f.emit(s.Pos, ind, "ALTER DATABASE "+qname(s.Name)+" SET (")
		f.props(s.Props, ind+1)
		f.emit(ast.Pos{}, ind, ")")
	case *ast.AlterCatalog:
		switch {
		case s.Comment != nil:
			f.emit(s.Pos, ind, "ALTER CATALOG "+s.Name.String()+" COMMENT "+ast.QuoteString(s.Comment.Value))
		case s.Reset != nil:
			f.emit(s.Pos, ind, "ALTER CATALOG "+s.Name.String()+" RESET ("+stringList(s.Reset)+")")
		default:
			f.emit(s.Pos, ind, "ALTER CATALOG "+s.Name.String()+" SET (")
			f.props(s.Set, ind+1)
			f.emit(ast.Pos{}, ind, ")")
		}
	case *ast.SetStmt:
		line := "SET"
		if s.Key != "" || s.HasValue {
			line += " " + rawOrQuoted(s.Key, s.KeyQuoted) + " = " + rawOrQuoted(s.Value, s.ValueQuoted)
		}
		f.emit(s.Pos, ind, line)
	case *ast.ResetStmt:
		line := "RESET"
		if s.Key != "" {
			line += " " + rawOrQuoted(s.Key, s.KeyQuoted)
		}
		f.emit(s.Pos, ind, line)
	case *ast.UseStmt:
		f.emit(s.Pos, ind, "USE "+kw(s.Catalog, "CATALOG ")+qname(s.Name))
	case *ast.UseModules:
		f.emit(s.Pos, ind, "USE MODULES "+identList(s.Names))
	case *ast.ShowStmt:
		f.emit(s.Pos, ind, showString(s))
	case *ast.DescribeStmt:
		line := "DESCRIBE "
		if s.Object != "" {
			line += s.Object + " "
		}
		if s.JobID != nil {
			line += ast.QuoteString(s.JobID.Value)
		} else {
			line += kw(s.Extended, "EXTENDED ") + qname(s.Name)
		}
		f.emit(s.Pos, ind, line)
	case *ast.ExplainStmt:
		line := "EXPLAIN"
		if s.PlanFor {
			line += " PLAN FOR"
		} else if len(s.Details) > 0 {
			line += " " + strings.Join(s.Details, ", ")
		}
		f.emit(s.Pos, ind, line)
		f.stmt(s.Stmt, ind)
	case *ast.LoadModule:
		f.emit(s.Pos, ind, "LOAD MODULE "+s.Name.String())
		if s.With != nil {
			f.lines[len(f.lines)-1].text += " WITH ("
			f.props(s.With, ind+1)
			f.emit(ast.Pos{}, ind, ")")
		}
	case *ast.UnloadModule:
		f.emit(s.Pos, ind, "UNLOAD MODULE "+s.Name.String())
	case *ast.JarStmt:
		op := "ADD"
		if s.Remove {
			op = "REMOVE"
		}
		f.emit(s.Pos, ind, op+" JAR "+ast.QuoteString(s.Path.Value))
	case *ast.StatementSet:
		f.statementSet(s, ind)
	case *ast.ExecuteStmt:
		f.emit(s.Pos, ind, "EXECUTE")
		f.stmt(s.Stmt, ind)
	case *ast.ExecutePlan:
		f.emit(s.Pos, ind, "EXECUTE PLAN "+ast.QuoteString(s.Path.Value))
	case *ast.CompilePlan:
		f.emit(s.Pos, ind, "COMPILE "+kw(s.Execute, "AND EXECUTE ")+"PLAN "+ast.QuoteString(s.Path.Value)+kw(s.IfNotExists, " IF NOT EXISTS")+" FOR")
		f.stmt(s.Stmt, ind)
	case *ast.CallStmt:
		f.emit(s.Pos, ind, "CALL "+f.exprs.expr(s.Call, ind))
	case *ast.AnalyzeStmt:
		line := "ANALYZE TABLE " + qname(s.Table)
		if len(s.Partition) > 0 {
			line += " PARTITION (" + f.partitionValues(s.Partition, ind) + ")"
		}
		line += " COMPUTE STATISTICS"
		if s.AllColumns {
			line += " FOR ALL COLUMNS"
		} else if len(s.Columns) > 0 {
			line += " FOR COLUMNS " + identList(s.Columns)
		}
		f.emit(s.Pos, ind, line)
	case *ast.TruncateStmt:
		f.emit(s.Pos, ind, "TRUNCATE TABLE "+qname(s.Table))
	case *ast.DeleteStmt:
		line := "DELETE FROM " + qname(s.Table)
		if s.Alias != nil {
			line += " AS " + s.Alias.String()
		}
		f.emit(s.Pos, ind, line)
		if s.Where != nil {
			f.queries.condition("WHERE", s.Where, ind)
		}
	case *ast.UpdateStmt:
		line := "UPDATE " + qname(s.Table)
		if s.Alias != nil {
			line += " AS " + s.Alias.String()
		}
		f.emit(s.Pos, ind, line)
		sets := make([]string, len(s.Set))
		for i, a := range s.Set {
			sets[i] = f.exprs.expr(a.Column, ind) + " = " + f.exprs.expr(a.Value, ind)
		}
		f.emit(s.Set[0].Pos, ind, "SET "+strings.Join(sets, ", "))
		if s.Where != nil {
			f.queries.condition("WHERE", s.Where, ind)
		}
	case *ast.StopJob:
		f.emit(s.Pos, ind, "STOP JOB "+ast.QuoteString(s.JobID.Value)+kw(s.WithSavepoint, " WITH SAVEPOINT")+kw(s.WithDrain, " WITH DRAIN"))
	case *ast.BadStmt:
		f.emit(s.Pos, ind, "-- (statement did not parse)")
	default:
		formatNewer(f, st, ind)
	}
}

func (f stmtFormatter) comment(c *ast.StringLit, ind int) {
	if c != nil {
		f.emit(c.Pos, ind, "COMMENT "+ast.QuoteString(c.Value))
	}
}

// with writes WITH ( 'k' = 'v', ... ) one option per line.
func (f stmtFormatter) with(props ast.Properties, present bool, ind int) {
	if !present {
		return
	}
	if len(props) == 0 {
		f.emit(ast.Pos{}, ind, "WITH ()")
		return
	}
	// No anchor: a comment before the first option stays inside the parentheses.
	f.emit(ast.Pos{}, ind, "WITH (")
	f.props(props, ind+1)
	f.emit(ast.Pos{}, ind, ")")
}

func (f stmtFormatter) props(props ast.Properties, ind int) {
	for i, p := range props {
		line := ast.QuoteString(p.Key.Value) + " = " + ast.QuoteString(p.Value.Value)
		if i < len(props)-1 {
			line += ","
		}
		f.emitNode(p.Span, ind, line)
	}
}

func (f stmtFormatter) createTable(s *ast.CreateTable, ind int) {
	head := "CREATE "
	if s.Replace {
		head = ""
	}
	head += kw(s.OrReplace, "OR REPLACE ") + kw(s.Replace, "REPLACE ") + kw(s.Temporary, "TEMPORARY ") +
		"TABLE " + kw(s.IfNotExists, "IF NOT EXISTS ") + qname(s.Name)
	if s.HasSchema {
		f.schema(s.Pos, head, schemaParts{columns: s.Columns, names: s.ColumnNames, watermarks: s.Watermarks, constraints: s.Constraints}, ind)
	} else {
		f.emit(s.Pos, ind, head)
	}
	f.comment(s.Comment, ind)
	if s.Distribution != nil {
		f.emit(s.Distribution.Pos, ind, f.distribution(s.Distribution, "DISTRIBUTED", ind))
	}
	if len(s.PartitionBy) > 0 {
		f.emit(s.PartitionBy[0].Pos, ind, "PARTITIONED BY ("+identList(s.PartitionBy)+")")
	}
	f.with(s.With, s.With != nil, ind)
	if s.Like != nil {
		line := "LIKE " + qname(s.Like.Table)
		if len(s.Like.Options) == 0 {
			f.emit(s.Like.Pos, ind, line)
		} else {
			f.emit(s.Like.Pos, ind, line+" (")
			for _, o := range s.Like.Options {
				f.emitNode(o.Span, ind+1, o.Strategy+" "+o.Feature)
			}
			f.emit(ast.Pos{}, ind, ")")
		}
	}
	if s.As != nil {
		f.lines[len(f.lines)-1].text += " AS"
		f.queries.query(s.As, ind)
	}
}

// schemaParts is what the parentheses of a CREATE hold: columns,
// watermarks and constraints, or only column names.
type schemaParts struct {
	columns     []*ast.ColumnDef
	names       []*ast.Ident
	watermarks  []*ast.Watermark
	constraints []*ast.TableConstraint
}

// schema writes head and a parenthesized schema, one element a line.
func (f stmtFormatter) schema(at ast.Pos, head string, s schemaParts, ind int) {
	if len(s.names) > 0 {
		f.emit(at, ind, head+" ("+identList(s.names)+")")
		return
	}
	f.emit(at, ind, head+" (")
	type elem struct {
		span ast.Span
		text string
	}
	var elems []elem
	for _, c := range s.columns {
		elems = append(elems, elem{c.Span, f.column(c, ind+1)})
	}
	for _, w := range s.watermarks {
		elems = append(elems, elem{w.Span, f.watermark(w, ind+1)})
	}
	for _, c := range s.constraints {
		elems = append(elems, elem{c.Span, constraintString(c)})
	}
	for i, e := range elems {
		if i < len(elems)-1 {
			e.text += ","
		}
		f.emitNode(e.span, ind+1, e.text)
	}
	f.emit(ast.Pos{}, ind, ")")
}

func (f stmtFormatter) column(c *ast.ColumnDef, ind int) string {
	s := c.Name.String()
	if len(c.Qualifier) > 0 {
		s = identPath(c.Qualifier) + "." + s
	}
	if c.Expr != nil {
		s += " AS " + f.exprs.expr(c.Expr, ind)
	} else {
		s += " " + c.Type.String()
		if c.Metadata {
			s += " METADATA"
			if c.MetadataFrom != nil {
				s += " FROM " + ast.QuoteString(c.MetadataFrom.Value)
			}
			if c.Virtual {
				s += " VIRTUAL"
			}
		}
		if c.Constraint != nil {
			s += " " + constraintString(c.Constraint)
		}
	}
	if c.Comment != nil {
		s += " COMMENT " + ast.QuoteString(c.Comment.Value)
	}
	if c.Position != nil {
		if c.Position.First {
			s += " FIRST"
		} else {
			s += " AFTER " + identPath(append(append([]*ast.Ident{}, c.Position.AfterQualifier...), c.Position.After))
		}
	}
	return s
}

func (f stmtFormatter) watermark(w *ast.Watermark, ind int) string {
	return "WATERMARK FOR " + qname(w.Column) + " AS " + f.exprs.expr(w.Expr, ind)
}

func (f stmtFormatter) distribution(d *ast.Distribution, word string, ind int) string {
	s := word
	if len(d.Columns) > 0 {
		s += " BY "
		if d.Kind != "" {
			s += d.Kind
		}
		s += "(" + identList(d.Columns) + ")"
	}
	if d.Buckets != nil {
		s += " INTO " + f.exprs.expr(d.Buckets, ind) + " BUCKETS"
	}
	return s
}

func (f stmtFormatter) alterTable(s *ast.AlterTable, ind int) {
	f.alterAction(s.Pos, "ALTER TABLE "+kw(s.IfExists, "IF EXISTS ")+qname(s.Name), s.Action, ind)
}

// alterAction writes head and an ALTER TABLE action.
func (f stmtFormatter) alterAction(at ast.Pos, head string, action ast.AlterTableAction, ind int) {
	switch a := action.(type) {
	case *ast.RenameTable:
		f.emit(at, ind, head+" RENAME TO "+qname(a.To))
	case *ast.RenameColumn:
		f.emit(at, ind, head+" RENAME "+qname(a.From)+" TO "+identPath(append(append([]*ast.Ident{}, a.ToQualifier...), a.To)))
	case *ast.SetOptions:
		f.emit(at, ind, head+" SET (")
		f.props(a.Props, ind+1)
		f.emit(ast.Pos{}, ind, ")")
	case *ast.ResetOptions:
		f.emit(at, ind, head+" RESET ("+stringList(a.Keys)+")")
	case *ast.AlterSchema:
		verb := " ADD"
		if a.Modify {
			verb = " MODIFY"
		}
		if !a.Parens {
			f.emit(at, ind, head+verb+" "+f.schemaItem(a.Items[0], ind))
			return
		}
		f.emit(at, ind, head+verb+" (")
		for i, it := range a.Items {
			text := f.schemaItem(it, ind+1)
			if i < len(a.Items)-1 {
				text += ","
			}
			f.emitNode(it.Range(), ind+1, text)
		}
		f.emit(ast.Pos{}, ind, ")")
	case *ast.DropSchema:
		line := head + " DROP "
		switch {
		case a.PrimaryKey:
			line += "PRIMARY KEY"
		case a.Constraint != nil:
			line += "CONSTRAINT " + a.Constraint.String()
		case a.Watermark:
			line += "WATERMARK"
		case a.Distribution:
			line += "DISTRIBUTION"
		case a.Parens:
			names := make([]string, len(a.Columns))
			for i, c := range a.Columns {
				names[i] = qname(c)
			}
			line += "(" + strings.Join(names, ", ") + ")"
		default:
			line += qname(a.Columns[0])
		}
		f.emit(at, ind, line)
	case *ast.AddPartitions:
		f.emit(at, ind, head+" ADD"+kw(a.IfNotExists, " IF NOT EXISTS"))
		for _, p := range a.Partitions {
			f.emit(p.Pos, ind+1, f.partitionSpec(p, ind+1))
		}
	case *ast.DropPartitions:
		parts := make([]string, len(a.Partitions))
		for i, p := range a.Partitions {
			parts[i] = f.partitionSpec(p, ind)
		}
		f.emit(at, ind, head+" DROP "+kw(a.IfExists, "IF EXISTS ")+strings.Join(parts, ", "))
	}
}

func (f stmtFormatter) schemaItem(n ast.Node, ind int) string {
	switch x := n.(type) {
	case *ast.ColumnDef:
		return f.column(x, ind)
	case *ast.Watermark:
		return f.watermark(x, ind)
	case *ast.TableConstraint:
		return constraintString(x)
	case *ast.Distribution:
		return f.distribution(x, "DISTRIBUTION", ind)
	}
	return ""
}

func (f stmtFormatter) partitionSpec(p *ast.PartitionSpec, ind int) string {
	s := "PARTITION (" + f.partitionValues(p.Values, ind) + ")"
	if p.With != nil {
		kvs := make([]string, len(p.With))
		for i, kv := range p.With {
			kvs[i] = ast.QuoteString(kv.Key.Value) + " = " + ast.QuoteString(kv.Value.Value)
		}
		s += " WITH (" + strings.Join(kvs, ", ") + ")"
	}
	return s
}

func (f stmtFormatter) partitionValues(vals []*ast.PartitionValue, ind int) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = v.Name.String()
		if v.Value != nil {
			parts[i] += " = " + f.exprs.expr(v.Value, ind)
		}
	}
	return strings.Join(parts, ", ")
}

func (f stmtFormatter) insert(s *ast.InsertStmt, ind int) {
	line := "INSERT INTO "
	if s.Overwrite {
		line = "INSERT OVERWRITE "
	}
	line += qname(s.Table)
	if len(s.Hints) > 0 {
		line += " " + f.exprs.hints(s.Hints)
	}
	if len(s.Partition) > 0 {
		line += " PARTITION (" + f.partitionValues(s.Partition, ind) + ")"
	}
	if len(s.Columns) > 0 {
		line += " (" + identList(s.Columns) + ")"
	}
	f.emit(s.Pos, ind, line)
	f.queries.query(s.Query, ind)
	if s.OnConflict != "" {
		f.emit(ast.Pos{}, ind, "ON CONFLICT DO "+s.OnConflict)
	}
}

func (f stmtFormatter) statementSet(s *ast.StatementSet, ind int) {
	switch s.Form {
	case ast.SetFormClient:
		f.emit(s.Pos, ind, "BEGIN STATEMENT SET;")
	case ast.SetFormExecute:
		f.emit(s.Pos, ind, "EXECUTE STATEMENT SET")
		f.emit(ast.Pos{}, ind, "BEGIN")
	case ast.SetFormBare:
		f.emit(s.Pos, ind, "STATEMENT SET")
		f.emit(ast.Pos{}, ind, "BEGIN")
	}
	for _, st := range s.Stmts {
		f.stmt(st, ind+1)
		f.lines[len(f.lines)-1].text += ";"
	}
	f.flushBefore(s.End.Offset-len("END"), ind+1)
	f.emit(ast.Pos{}, ind, "END")
}

func rawOrQuoted(s string, quoted bool) string {
	if quoted {
		return ast.QuoteString(s)
	}
	return s
}

func constraintString(c *ast.TableConstraint) string {
	s := ""
	if c.Name != nil {
		s = "CONSTRAINT " + c.Name.String() + " "
	}
	s += c.Kind
	if len(c.Columns) > 0 {
		s += " (" + identList(c.Columns) + ")"
	}
	if c.Enforced != "" {
		s += " " + c.Enforced
	}
	return s
}

func showString(s *ast.ShowStmt) string {
	line := "SHOW " + s.Object
	if s.Target != nil {
		line += " " + qname(s.Target)
	}
	if len(s.Partition) > 0 {
		line += " PARTITION (" + newFormatter(&printer{}).partitionValues(s.Partition, 0) + ")"
	}
	if s.From != nil {
		line += " " + s.FromKw + " " + qname(s.From)
	}
	if s.LikeOp != "" {
		line += kw(s.Not, " NOT") + " " + s.LikeOp + " " + ast.QuoteString(s.Pattern.Value)
	}
	return line
}
