package flinksql

import (
	"strconv"
	"strings"
)

// lineWidth is where the formatter breaks a clause into one item per line.
const lineWidth = 100

// Format renders a parsed script in palink's canonical style: keywords
// upper-case, two-space indent, one clause per line, one column or option
// per line, statements ending in ';' and separated by a blank line.
//
// Comments are kept: those between statements stay where they are, and
// those inside a statement move to the start or end of the nearest line
// of the formatted statement. A statement that failed to parse is copied
// as written. The output is stable: formatting it again changes nothing,
// and it parses to the same tree as the input.
func Format(s *Script) string {
	f := &formatter{comments: s.Comments}
	var out strings.Builder
	var prev []outLine // the previous statement, held back for a trailing comment after its ';'
	flushPrev := func() {
		writeLines(&out, prev)
		prev = nil
	}
	lastEndLine := 0
	for i, st := range s.Stmts {
		r := st.Range()
		var lead []string
		for f.ci < len(f.comments) && f.comments[f.ci].Pos.Offset < r.Pos.Offset {
			c := f.comments[f.ci]
			f.ci++
			if c.Trailing && canTrail(prev) && c.Pos.Line == lastEndLine {
				prev[len(prev)-1].trailing = append(prev[len(prev)-1].trailing, c.Text)
				continue
			}
			next := r.Pos.Line
			if f.ci < len(f.comments) && f.comments[f.ci].Pos.Offset < r.Pos.Offset {
				next = f.comments[f.ci].Pos.Line
			}
			lead = append(lead, c.Text)
			if next-c.End.Line > 1 {
				lead = append(lead, "")
			}
		}
		flushPrev()
		if i > 0 {
			out.WriteByte('\n')
		}
		for _, l := range lead {
			out.WriteString(l)
			out.WriteByte('\n')
		}
		prev = f.statementLines(s, st)
		lastEndLine = semicolonLine(s, st)
	}
	for f.ci < len(f.comments) {
		c := f.comments[f.ci]
		f.ci++
		if c.Trailing && canTrail(prev) && c.Pos.Line == lastEndLine {
			prev[len(prev)-1].trailing = append(prev[len(prev)-1].trailing, c.Text)
			continue
		}
		flushPrev()
		if out.Len() > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(c.Text)
		out.WriteByte('\n')
	}
	flushPrev()
	return out.String()
}

// canTrail reports whether a comment can go at the end of the last line:
// not after a -- comment, which would swallow it.
func canTrail(lines []outLine) bool {
	if len(lines) == 0 {
		return false
	}
	tr := lines[len(lines)-1].trailing
	return len(tr) == 0 || !strings.HasPrefix(tr[len(tr)-1], "--")
}

// semicolonLine is the line of the ';' ending the statement, or of its
// last token when there is none.
func semicolonLine(s *Script, st Statement) int {
	r := st.Range()
	rest := s.Src[r.End.Offset:]
	line := r.End.Line
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ';':
			return line
		case '\n':
			line++
		case ' ', '\t', '\r':
		default:
			return r.End.Line
		}
	}
	return r.End.Line
}

// FormatStatement renders one statement (without a terminating ';'),
// without comments.
func FormatStatement(st Statement) string {
	f := &formatter{}
	f.stmt(st, 0)
	var b strings.Builder
	for i, l := range f.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
	}
	return b.String()
}

// FormatExpr renders an expression on one line (subqueries aside).
func FormatExpr(e Expr) string { return (&formatter{}).expr(e, 0) }

// String renders the data type as SQL.
func (t *DataType) String() string { return typeString(t) }

type outLine struct {
	text     string
	trailing []string
}

func writeLines(b *strings.Builder, lines []outLine) {
	for _, l := range lines {
		b.WriteString(l.text)
		for _, c := range l.trailing {
			b.WriteByte(' ')
			b.WriteString(c)
		}
		b.WriteByte('\n')
	}
}

type formatter struct {
	lines    []outLine
	comments []Comment
	ci       int // next comment not yet placed
	limit    int // comments at or past this offset belong to a later statement
}

func indent(n int) string { return strings.Repeat("  ", n) }

// statementLines renders one statement of a script with the comments
// inside it, and the terminating ';'.
func (f *formatter) statementLines(s *Script, st Statement) []outLine {
	r := st.Range()
	f.lines = nil
	f.limit = r.End.Offset
	if _, bad := st.(*BadStmt); bad {
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

// emit writes a line (which may hold further lines after '\n', already
// indented) after placing the comments that come before anchor.
func (f *formatter) emit(anchor Pos, ind int, text string) {
	if anchor.IsValid() {
		f.flushBefore(anchor.Offset, ind)
	}
	parts := strings.Split(text, "\n")
	for i, part := range parts {
		if i == 0 {
			part = indent(ind) + part
		}
		f.lines = append(f.lines, outLine{text: part})
	}
}

// emitNode is emit for a node's line: the comments that end the node's
// last source line stay at the end of its line.
func (f *formatter) emitNode(sp Span, ind int, text string) {
	f.emit(sp.Pos, ind, text)
	f.flushTrailing(sp.End)
}

// appendTrailing puts a comment at the end of the last line, unless that
// line already ends in a -- comment, which would swallow it: then the
// comment gets a line of its own.
func (f *formatter) appendTrailing(c Comment, ind int) {
	last := &f.lines[len(f.lines)-1]
	if n := len(last.trailing); n > 0 && strings.HasPrefix(last.trailing[n-1], "--") {
		f.lines = append(f.lines, outLine{text: indent(ind) + c.Text})
		return
	}
	last.trailing = append(last.trailing, c.Text)
}

// flushTrailing places the pending comments that follow end on its source
// line at the end of the last line written.
func (f *formatter) flushTrailing(end Pos) {
	for f.ci < len(f.comments) && len(f.lines) > 0 {
		c := f.comments[f.ci]
		if c.Pos.Offset < end.Offset || c.Pos.Line != end.Line || !c.Trailing || f.limit > 0 && c.Pos.Offset >= f.limit {
			return
		}
		f.ci++
		f.appendTrailing(c, leadingIndent(f.lines[len(f.lines)-1].text))
	}
}

// leadingIndent is the indent level of a written line.
func leadingIndent(line string) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n / 2
}

// flushBefore places the pending comments that start before off: a comment
// that ended a source line goes to the end of the last line written, the
// others on lines of their own.
func (f *formatter) flushBefore(off, ind int) {
	for f.ci < len(f.comments) {
		c := f.comments[f.ci]
		if c.Pos.Offset >= off || c.Pos.Offset >= f.limit && f.limit > 0 {
			return
		}
		f.ci++
		if c.Trailing && len(f.lines) > 0 {
			f.appendTrailing(c, ind)
			continue
		}
		f.lines = append(f.lines, outLine{text: indent(ind) + c.Text})
	}
}

// capture renders into a string what fn emits, for a construct (such as a
// subquery) that sits inside a line.
func (f *formatter) capture(fn func()) string {
	saved := f.lines
	f.lines = nil
	fn()
	var b strings.Builder
	for i, l := range f.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
		for _, c := range l.trailing {
			b.WriteByte(' ')
			b.WriteString(c)
		}
	}
	f.lines = saved
	return b.String()
}

// hasCommentsIn reports whether unplaced comments fall inside the span, in
// which case a clause is laid out one item per line so they stay close.
func (f *formatter) hasCommentsIn(s Span) bool {
	for i := f.ci; i < len(f.comments); i++ {
		o := f.comments[i].Pos.Offset
		if o >= s.End.Offset {
			return false
		}
		if o >= s.Pos.Offset {
			return true
		}
	}
	return false
}

// ---- statements ----

func (f *formatter) stmt(st Statement, ind int) {
	switch s := st.(type) {
	case *QueryStmt:
		f.query(s.Query, ind)
	case *InsertStmt:
		f.insert(s, ind)
	case *CreateTable:
		f.createTable(s, ind)
	case *CreateView:
		line := "CREATE " + kw(s.OrReplace, "OR REPLACE ") + kw(s.Temporary, "TEMPORARY ") + "VIEW " +
			kw(s.IfNotExists, "IF NOT EXISTS ") + qname(s.Name)
		if len(s.Columns) > 0 {
			line += " (" + identList(s.Columns) + ")"
		}
		f.emit(s.Pos, ind, line)
		if s.Comment != nil {
			f.emit(s.Comment.Pos, ind, "COMMENT "+quoteString(s.Comment.Value))
		}
		f.lines[len(f.lines)-1].text += " AS"
		f.query(s.Query, ind)
	case *CreateFunction:
		line := "CREATE " + kw(s.OrReplace, "OR REPLACE ") + kw(s.Temporary, "TEMPORARY ") + kw(s.System, "SYSTEM ") +
			"FUNCTION " + kw(s.IfNotExists, "IF NOT EXISTS ") + qname(s.Name) + " AS " + quoteString(s.Class.Value)
		if s.Language != "" {
			line += " LANGUAGE " + s.Language
		}
		if len(s.Jars) > 0 {
			jars := make([]string, len(s.Jars))
			for i, j := range s.Jars {
				jars[i] = "JAR " + quoteString(j.Value)
			}
			line += " USING " + strings.Join(jars, ", ")
		}
		f.emit(s.Pos, ind, line)
	case *CreateCatalog:
		f.emit(s.Pos, ind, "CREATE CATALOG "+kw(s.IfNotExists, "IF NOT EXISTS ")+s.Name.String())
		f.comment(s.Comment, ind)
		f.with(s.With, s.With != nil, ind)
	case *CreateDatabase:
		f.emit(s.Pos, ind, "CREATE DATABASE "+kw(s.IfNotExists, "IF NOT EXISTS ")+qname(s.Name))
		f.comment(s.Comment, ind)
		f.with(s.With, s.With != nil, ind)
	case *DropStmt:
		line := "DROP " + kw(s.Temporary, "TEMPORARY ") + kw(s.System, "SYSTEM ") + s.Object + " " +
			kw(s.IfExists, "IF EXISTS ") + qname(s.Name)
		if s.Behavior != "" {
			line += " " + s.Behavior
		}
		f.emit(s.Pos, ind, line)
	case *AlterTable:
		f.alterTable(s, ind)
	case *AlterView:
		f.emit(s.Pos, ind, "ALTER VIEW "+qname(s.Name))
		if s.RenameTo != nil {
			f.lines[len(f.lines)-1].text += " RENAME TO " + qname(s.RenameTo)
		} else {
			f.lines[len(f.lines)-1].text += " AS"
			f.query(s.As, ind)
		}
	case *AlterFunction:
		line := "ALTER " + kw(s.Temporary, "TEMPORARY ") + kw(s.System, "SYSTEM ") + "FUNCTION " +
			kw(s.IfExists, "IF EXISTS ") + qname(s.Name) + " AS " + quoteString(s.Class.Value)
		if s.Language != "" {
			line += " LANGUAGE " + s.Language
		}
		f.emit(s.Pos, ind, line)
	case *AlterDatabase:
		f.emit(s.Pos, ind, "ALTER DATABASE "+qname(s.Name)+" SET (")
		f.props(s.Props, ind+1)
		f.emit(Pos{}, ind, ")")
	case *AlterCatalog:
		switch {
		case s.Comment != nil:
			f.emit(s.Pos, ind, "ALTER CATALOG "+s.Name.String()+" COMMENT "+quoteString(s.Comment.Value))
		case s.Reset != nil:
			f.emit(s.Pos, ind, "ALTER CATALOG "+s.Name.String()+" RESET ("+stringList(s.Reset)+")")
		default:
			f.emit(s.Pos, ind, "ALTER CATALOG "+s.Name.String()+" SET (")
			f.props(s.Set, ind+1)
			f.emit(Pos{}, ind, ")")
		}
	case *SetStmt:
		line := "SET"
		if s.Key != "" || s.HasValue {
			line += " " + rawOrQuoted(s.Key, s.KeyQuoted) + " = " + rawOrQuoted(s.Value, s.ValueQuoted)
		}
		f.emit(s.Pos, ind, line)
	case *ResetStmt:
		line := "RESET"
		if s.Key != "" {
			line += " " + rawOrQuoted(s.Key, s.KeyQuoted)
		}
		f.emit(s.Pos, ind, line)
	case *UseStmt:
		f.emit(s.Pos, ind, "USE "+kw(s.Catalog, "CATALOG ")+qname(s.Name))
	case *UseModules:
		f.emit(s.Pos, ind, "USE MODULES "+identList(s.Names))
	case *ShowStmt:
		f.emit(s.Pos, ind, showString(s))
	case *DescribeStmt:
		line := "DESCRIBE "
		if s.Object != "" {
			line += s.Object + " "
		}
		if s.JobID != nil {
			line += quoteString(s.JobID.Value)
		} else {
			line += kw(s.Extended, "EXTENDED ") + qname(s.Name)
		}
		f.emit(s.Pos, ind, line)
	case *ExplainStmt:
		line := "EXPLAIN"
		if s.PlanFor {
			line += " PLAN FOR"
		} else if len(s.Details) > 0 {
			line += " " + strings.Join(s.Details, ", ")
		}
		f.emit(s.Pos, ind, line)
		f.stmt(s.Stmt, ind)
	case *LoadModule:
		f.emit(s.Pos, ind, "LOAD MODULE "+s.Name.String())
		if s.With != nil {
			f.lines[len(f.lines)-1].text += " WITH ("
			f.props(s.With, ind+1)
			f.emit(Pos{}, ind, ")")
		}
	case *UnloadModule:
		f.emit(s.Pos, ind, "UNLOAD MODULE "+s.Name.String())
	case *JarStmt:
		op := "ADD"
		if s.Remove {
			op = "REMOVE"
		}
		f.emit(s.Pos, ind, op+" JAR "+quoteString(s.Path.Value))
	case *StatementSet:
		f.statementSet(s, ind)
	case *ExecuteStmt:
		f.emit(s.Pos, ind, "EXECUTE")
		f.stmt(s.Stmt, ind)
	case *ExecutePlan:
		f.emit(s.Pos, ind, "EXECUTE PLAN "+quoteString(s.Path.Value))
	case *CompilePlan:
		f.emit(s.Pos, ind, "COMPILE "+kw(s.Execute, "AND EXECUTE ")+"PLAN "+quoteString(s.Path.Value)+kw(s.IfNotExists, " IF NOT EXISTS")+" FOR")
		f.stmt(s.Stmt, ind)
	case *CallStmt:
		f.emit(s.Pos, ind, "CALL "+f.expr(s.Call, ind))
	case *AnalyzeStmt:
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
	case *TruncateStmt:
		f.emit(s.Pos, ind, "TRUNCATE TABLE "+qname(s.Table))
	case *DeleteStmt:
		line := "DELETE FROM " + qname(s.Table)
		if s.Alias != nil {
			line += " AS " + s.Alias.String()
		}
		f.emit(s.Pos, ind, line)
		if s.Where != nil {
			f.condition("WHERE", s.Where, ind)
		}
	case *UpdateStmt:
		line := "UPDATE " + qname(s.Table)
		if s.Alias != nil {
			line += " AS " + s.Alias.String()
		}
		f.emit(s.Pos, ind, line)
		sets := make([]string, len(s.Set))
		for i, a := range s.Set {
			sets[i] = f.expr(a.Column, ind) + " = " + f.expr(a.Value, ind)
		}
		f.emit(s.Set[0].Pos, ind, "SET "+strings.Join(sets, ", "))
		if s.Where != nil {
			f.condition("WHERE", s.Where, ind)
		}
	case *StopJob:
		f.emit(s.Pos, ind, "STOP JOB "+quoteString(s.JobID.Value)+kw(s.WithSavepoint, " WITH SAVEPOINT")+kw(s.WithDrain, " WITH DRAIN"))
	case *BadStmt:
		f.emit(s.Pos, ind, "-- (statement did not parse)")
	}
}

func kw(on bool, s string) string {
	if on {
		return s
	}
	return ""
}

func rawOrQuoted(s string, quoted bool) string {
	if quoted {
		return quoteString(s)
	}
	return s
}

func (f *formatter) comment(c *StringLit, ind int) {
	if c != nil {
		f.emit(c.Pos, ind, "COMMENT "+quoteString(c.Value))
	}
}

// with writes WITH ( 'k' = 'v', ... ) one option per line.
func (f *formatter) with(props Properties, present bool, ind int) {
	if !present {
		return
	}
	if len(props) == 0 {
		f.emit(Pos{}, ind, "WITH ()")
		return
	}
	// No anchor: a comment before the first option stays inside the parentheses.
	f.emit(Pos{}, ind, "WITH (")
	f.props(props, ind+1)
	f.emit(Pos{}, ind, ")")
}

func (f *formatter) props(props Properties, ind int) {
	for i, p := range props {
		line := quoteString(p.Key.Value) + " = " + quoteString(p.Value.Value)
		if i < len(props)-1 {
			line += ","
		}
		f.emitNode(p.Span, ind, line)
	}
}

func (f *formatter) createTable(s *CreateTable, ind int) {
	head := "CREATE "
	if s.Replace {
		head = ""
	}
	head += kw(s.OrReplace, "OR REPLACE ") + kw(s.Replace, "REPLACE ") + kw(s.Temporary, "TEMPORARY ") +
		"TABLE " + kw(s.IfNotExists, "IF NOT EXISTS ") + qname(s.Name)
	if s.HasSchema {
		f.emit(s.Pos, ind, head+" (")
		type elem struct {
			span Span
			text string
		}
		var elems []elem
		for _, c := range s.Columns {
			elems = append(elems, elem{c.Span, f.column(c, ind+1)})
		}
		for _, w := range s.Watermarks {
			elems = append(elems, elem{w.Span, f.watermark(w, ind+1)})
		}
		for _, c := range s.Constraints {
			elems = append(elems, elem{c.Span, constraintString(c)})
		}
		for i, e := range elems {
			if i < len(elems)-1 {
				e.text += ","
			}
			f.emitNode(e.span, ind+1, e.text)
		}
		f.emit(Pos{}, ind, ")")
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
			f.emit(Pos{}, ind, ")")
		}
	}
	if s.As != nil {
		f.lines[len(f.lines)-1].text += " AS"
		f.query(s.As, ind)
	}
}

func (f *formatter) column(c *ColumnDef, ind int) string {
	s := c.Name.String()
	if c.Expr != nil {
		s += " AS " + f.expr(c.Expr, ind)
	} else {
		s += " " + typeString(c.Type)
		if c.Metadata {
			s += " METADATA"
			if c.MetadataFrom != nil {
				s += " FROM " + quoteString(c.MetadataFrom.Value)
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
		s += " COMMENT " + quoteString(c.Comment.Value)
	}
	if c.Position != nil {
		if c.Position.First {
			s += " FIRST"
		} else {
			s += " AFTER " + c.Position.After.String()
		}
	}
	return s
}

func (f *formatter) watermark(w *Watermark, ind int) string {
	return "WATERMARK FOR " + qname(w.Column) + " AS " + f.expr(w.Expr, ind)
}

func constraintString(c *TableConstraint) string {
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

func (f *formatter) distribution(d *Distribution, word string, ind int) string {
	s := word
	if len(d.Columns) > 0 {
		s += " BY "
		if d.Kind != "" {
			s += d.Kind
		}
		s += "(" + identList(d.Columns) + ")"
	}
	if d.Buckets != nil {
		s += " INTO " + f.expr(d.Buckets, ind) + " BUCKETS"
	}
	return s
}

func (f *formatter) alterTable(s *AlterTable, ind int) {
	head := "ALTER TABLE " + kw(s.IfExists, "IF EXISTS ") + qname(s.Name)
	switch a := s.Action.(type) {
	case *RenameTable:
		f.emit(s.Pos, ind, head+" RENAME TO "+qname(a.To))
	case *RenameColumn:
		f.emit(s.Pos, ind, head+" RENAME "+qname(a.From)+" TO "+a.To.String())
	case *SetOptions:
		f.emit(s.Pos, ind, head+" SET (")
		f.props(a.Props, ind+1)
		f.emit(Pos{}, ind, ")")
	case *ResetOptions:
		f.emit(s.Pos, ind, head+" RESET ("+stringList(a.Keys)+")")
	case *AlterSchema:
		verb := " ADD"
		if a.Modify {
			verb = " MODIFY"
		}
		if !a.Parens {
			f.emit(s.Pos, ind, head+verb+" "+f.schemaItem(a.Items[0], ind))
			return
		}
		f.emit(s.Pos, ind, head+verb+" (")
		for i, it := range a.Items {
			text := f.schemaItem(it, ind+1)
			if i < len(a.Items)-1 {
				text += ","
			}
			f.emitNode(it.Range(), ind+1, text)
		}
		f.emit(Pos{}, ind, ")")
	case *DropSchema:
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
		f.emit(s.Pos, ind, line)
	case *AddPartitions:
		f.emit(s.Pos, ind, head+" ADD"+kw(a.IfNotExists, " IF NOT EXISTS"))
		for _, p := range a.Partitions {
			f.emit(p.Pos, ind+1, f.partitionSpec(p, ind+1))
		}
	case *DropPartitions:
		parts := make([]string, len(a.Partitions))
		for i, p := range a.Partitions {
			parts[i] = f.partitionSpec(p, ind)
		}
		f.emit(s.Pos, ind, head+" DROP "+kw(a.IfExists, "IF EXISTS ")+strings.Join(parts, ", "))
	}
}

func (f *formatter) schemaItem(n Node, ind int) string {
	switch x := n.(type) {
	case *ColumnDef:
		return f.column(x, ind)
	case *Watermark:
		return f.watermark(x, ind)
	case *TableConstraint:
		return constraintString(x)
	case *Distribution:
		return f.distribution(x, "DISTRIBUTION", ind)
	}
	return ""
}

func (f *formatter) partitionSpec(p *PartitionSpec, ind int) string {
	s := "PARTITION (" + f.partitionValues(p.Values, ind) + ")"
	if p.With != nil {
		kvs := make([]string, len(p.With))
		for i, kv := range p.With {
			kvs[i] = quoteString(kv.Key.Value) + " = " + quoteString(kv.Value.Value)
		}
		s += " WITH (" + strings.Join(kvs, ", ") + ")"
	}
	return s
}

func (f *formatter) partitionValues(vals []*PartitionValue, ind int) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = v.Name.String()
		if v.Value != nil {
			parts[i] += " = " + f.expr(v.Value, ind)
		}
	}
	return strings.Join(parts, ", ")
}

func (f *formatter) insert(s *InsertStmt, ind int) {
	line := "INSERT INTO "
	if s.Overwrite {
		line = "INSERT OVERWRITE "
	}
	line += qname(s.Table)
	if len(s.Hints) > 0 {
		line += " " + f.hints(s.Hints)
	}
	if len(s.Partition) > 0 {
		line += " PARTITION (" + f.partitionValues(s.Partition, ind) + ")"
	}
	if len(s.Columns) > 0 {
		line += " (" + identList(s.Columns) + ")"
	}
	f.emit(s.Pos, ind, line)
	f.query(s.Query, ind)
}

func (f *formatter) statementSet(s *StatementSet, ind int) {
	switch s.Form {
	case SetFormClient:
		f.emit(s.Pos, ind, "BEGIN STATEMENT SET;")
	case SetFormExecute:
		f.emit(s.Pos, ind, "EXECUTE STATEMENT SET")
		f.emit(Pos{}, ind, "BEGIN")
	case SetFormBare:
		f.emit(s.Pos, ind, "STATEMENT SET")
		f.emit(Pos{}, ind, "BEGIN")
	}
	for _, st := range s.Stmts {
		f.stmt(st, ind+1)
		f.lines[len(f.lines)-1].text += ";"
	}
	f.flushBefore(s.End.Offset-len("END"), ind+1)
	f.emit(Pos{}, ind, "END")
}

func showString(s *ShowStmt) string {
	line := "SHOW " + s.Object
	if s.Target != nil {
		line += " " + qname(s.Target)
	}
	if len(s.Partition) > 0 {
		line += " PARTITION (" + (&formatter{}).partitionValues(s.Partition, 0) + ")"
	}
	if s.From != nil {
		line += " " + s.FromKw + " " + qname(s.From)
	}
	if s.LikeOp != "" {
		line += kw(s.Not, " NOT") + " " + s.LikeOp + " " + quoteString(s.Pattern.Value)
	}
	return line
}

// ---- queries ----

func (f *formatter) query(q *Query, ind int) {
	if q.With != nil {
		for i, c := range q.With.CTEs {
			line := ""
			if i == 0 {
				line = "WITH " + kw(q.With.Recursive, "RECURSIVE ")
			} else {
				line = "), "
			}
			line += c.Name.String()
			if len(c.Columns) > 0 {
				line += " (" + identList(c.Columns) + ")"
			}
			line += " AS ("
			f.emit(c.Pos, ind, line)
			f.query(c.Query, ind+1)
		}
		f.emit(Pos{}, ind, ")")
	}
	f.body(q.Body, ind)
	if len(q.OrderBy) > 0 {
		f.emit(q.OrderBy[0].Pos, ind, "ORDER BY "+f.orderItems(q.OrderBy, ind))
	}
	if q.Limit != nil {
		f.emit(q.Limit.Range().Pos, ind, "LIMIT "+f.expr(q.Limit, ind))
	}
	if q.Offset != nil {
		f.emit(q.Offset.Range().Pos, ind, "OFFSET "+f.expr(q.Offset, ind)+" ROWS")
	}
	if q.Fetch != nil {
		f.emit(q.Fetch.Range().Pos, ind, "FETCH FIRST "+f.expr(q.Fetch, ind)+" ROWS ONLY")
	}
}

func (f *formatter) body(b QueryBody, ind int) {
	switch x := b.(type) {
	case *Select:
		f.selectBlock(x, ind)
	case *SetOp:
		f.body(x.L, ind)
		line := x.Op + kw(x.All, " ALL") + kw(x.Distinct, " DISTINCT")
		f.emit(Pos{}, ind, line)
		f.body(x.R, ind)
	case *Values:
		rows := make([]string, len(x.Rows))
		for i, r := range x.Rows {
			rows[i] = f.expr(r, ind+1)
		}
		if len(rows) == 1 {
			f.emit(x.Pos, ind, "VALUES "+rows[0])
			return
		}
		f.emit(x.Pos, ind, "VALUES")
		for i, r := range rows {
			if i < len(rows)-1 {
				r += ","
			}
			f.emitNode(x.Rows[i].Range(), ind+1, r)
		}
	case *ParenQuery:
		f.emit(x.Pos, ind, "(")
		f.query(x.Query, ind+1)
		f.emit(Pos{}, ind, ")")
	}
}

func (f *formatter) selectBlock(s *Select, ind int) {
	head := "SELECT"
	if len(s.Hints) > 0 {
		head += " " + f.hints(s.Hints)
	}
	if s.Distinct {
		head += " DISTINCT"
	} else if s.All {
		head += " ALL"
	}
	f.flushBefore(s.Pos.Offset, ind)
	items := make([]string, len(s.Items))
	// Comments anywhere before the next clause put the items on lines of
	// their own, so each comment stays next to its item.
	listEnd := s.End
	if s.From != nil {
		listEnd = s.From.Range().Pos
	} else if s.Where != nil {
		listEnd = s.Where.Range().Pos
	}
	oneLine := !f.hasCommentsIn(Span{s.Pos, listEnd})
	total := len(head)
	for i, it := range s.Items {
		items[i] = f.expr(it.Expr, ind+1)
		if it.Alias != nil {
			items[i] += " AS " + it.Alias.String()
		}
		total += len(items[i]) + 2
		if strings.Contains(items[i], "\n") {
			oneLine = false
		}
	}
	if oneLine && ind*2+total <= lineWidth {
		f.emit(s.Pos, ind, head+" "+strings.Join(items, ", "))
	} else {
		f.emit(s.Pos, ind, head)
		for i, it := range items {
			if i < len(items)-1 {
				it += ","
			}
			f.emitNode(s.Items[i].Span, ind+1, it)
		}
	}
	if s.From != nil {
		f.from(s.From, ind)
	}
	if s.Where != nil {
		f.condition("WHERE", s.Where, ind)
	}
	if len(s.GroupBy) > 0 {
		f.emit(s.GroupBy[0].Range().Pos, ind, "GROUP BY "+f.exprList(s.GroupBy, ind))
	}
	if s.Having != nil {
		f.condition("HAVING", s.Having, ind)
	}
	if len(s.Windows) > 0 {
		ws := make([]string, len(s.Windows))
		for i, w := range s.Windows {
			ws[i] = w.Name.String() + " AS " + f.windowSpec(w.Spec, ind)
		}
		f.emit(s.Windows[0].Pos, ind, "WINDOW "+strings.Join(ws, ", "))
	}
}

// condition writes WHERE/HAVING cond, breaking a long AND chain into one
// conjunct per line. Each conjunct is rendered once: rendering twice would
// be exponential in the nesting of subqueries, and would place comments
// twice.
func (f *formatter) condition(word string, cond Expr, ind int) {
	f.flushBefore(cond.Range().Pos.Offset, ind)
	comments := f.hasCommentsIn(cond.Range())
	var conj []Expr
	var flatten func(e Expr)
	flatten = func(e Expr) {
		if b, ok := e.(*BinaryExpr); ok && b.Op == "AND" {
			flatten(b.L)
			flatten(b.R)
			return
		}
		conj = append(conj, e)
	}
	flatten(cond)
	parts := make([]string, len(conj))
	multi := false
	for i, c := range conj {
		in := ind + 1
		if i == 0 {
			in = ind
		}
		parts[i] = f.sub(c, precAnd+1, in)
		multi = multi || strings.Contains(parts[i], "\n")
	}
	one := strings.Join(parts, " AND ")
	if len(conj) == 1 || !comments && !multi && ind*2+len(word)+1+len(one) <= lineWidth {
		f.emit(cond.Range().Pos, ind, word+" "+one)
		return
	}
	for i, c := range conj {
		if i == 0 {
			f.emit(c.Range().Pos, ind, word+" "+parts[i])
		} else {
			f.emit(c.Range().Pos, ind+1, "AND "+parts[i])
		}
	}
}

func (f *formatter) from(t TableExpr, ind int) {
	var chain []*Join
	base := t
	for {
		j, ok := base.(*Join)
		if !ok {
			break
		}
		chain = append([]*Join{j}, chain...)
		base = j.L
	}
	anchor := base.Range().Pos
	f.flushBefore(anchor.Offset, ind)
	line := "FROM " + f.table(base, ind)
	for _, j := range chain {
		if j.Kind == JoinComma {
			line += ", " + f.table(j.R, ind)
			continue
		}
		f.emit(anchor, ind, line)
		anchor = j.R.Range().Pos
		line = kw(j.Natural, "NATURAL ") + j.Kind.String() + " " + f.table(j.R, ind)
		if len(j.Using) > 0 {
			line += " USING (" + identList(j.Using) + ")"
		}
		if j.On != nil {
			f.emit(anchor, ind, line)
			on := f.expr(j.On, ind+1)
			anchor = j.On.Range().Pos
			line = "  ON " + on
		}
	}
	f.emit(anchor, ind, line)
}

// table renders a table expression inline (a subquery spans lines).
func (f *formatter) table(t TableExpr, ind int) string {
	switch x := t.(type) {
	case *TableRef:
		s := qname(x.Name)
		if len(x.Hints) > 0 {
			s += " " + f.hints(x.Hints)
		}
		if x.SystemTime != nil {
			s += " FOR SYSTEM_TIME AS OF " + f.expr(x.SystemTime, ind)
		}
		return s + aliasString(x.Alias)
	case *DerivedTable:
		inner := f.capture(func() { f.query(x.Query, ind+1) })
		return kw(x.Lateral, "LATERAL ") + "(\n" + inner + "\n" + indent(ind) + ")" + aliasString(x.Alias)
	case *TableFunc:
		call := f.expr(x.Call, ind)
		if x.Wrapped {
			call = "TABLE(" + call + ")"
		}
		return kw(x.Lateral, "LATERAL ") + call + aliasString(x.Alias)
	case *Unnest:
		return "UNNEST(" + f.exprList(x.Args, ind) + ")" + kw(x.WithOrdinality, " WITH ORDINALITY") + aliasString(x.Alias)
	case *Join:
		s := f.table(x.L, ind)
		if x.Kind == JoinComma {
			return s + ", " + f.table(x.R, ind)
		}
		s += " " + kw(x.Natural, "NATURAL ") + x.Kind.String() + " " + f.table(x.R, ind)
		if x.On != nil {
			s += " ON " + f.expr(x.On, ind)
		}
		if len(x.Using) > 0 {
			s += " USING (" + identList(x.Using) + ")"
		}
		return s
	case *ParenTable:
		return "(" + f.table(x.Table, ind) + ")"
	case *MatchRecognize:
		return f.matchRecognize(x, ind)
	}
	return ""
}

func aliasString(a *Alias) string {
	if a == nil {
		return ""
	}
	s := " AS " + a.Name.String()
	if len(a.Columns) > 0 {
		s += " (" + identList(a.Columns) + ")"
	}
	return s
}

func (f *formatter) matchRecognize(m *MatchRecognize, ind int) string {
	in := indent(ind + 1)
	var b strings.Builder
	b.WriteString(f.table(m.Input, ind))
	b.WriteString("\n" + in + "MATCH_RECOGNIZE (")
	in2 := indent(ind + 2)
	in3 := indent(ind + 3)
	if len(m.PartitionBy) > 0 {
		b.WriteString("\n" + in2 + "PARTITION BY " + f.exprList(m.PartitionBy, ind+2))
	}
	if len(m.OrderBy) > 0 {
		b.WriteString("\n" + in2 + "ORDER BY " + f.orderItems(m.OrderBy, ind+2))
	}
	if len(m.Measures) > 0 {
		b.WriteString("\n" + in2 + "MEASURES")
		for i, it := range m.Measures {
			b.WriteString("\n" + in3 + f.expr(it.Expr, ind+3) + " AS " + it.Alias.String())
			if i < len(m.Measures)-1 {
				b.WriteByte(',')
			}
		}
	}
	if m.RowsPerMatch != "" {
		b.WriteString("\n" + in2 + m.RowsPerMatch)
	}
	if m.AfterMatch != nil {
		b.WriteString("\n" + in2 + "AFTER MATCH SKIP " + m.AfterMatch.Kind)
		if m.AfterMatch.Var != nil {
			b.WriteString(" " + m.AfterMatch.Var.String())
		}
	}
	b.WriteString("\n" + in2 + "PATTERN (" + kw(m.StrictStart, "^ ") + patternString(m.Pattern) + kw(m.StrictEnd, " $") + ")")
	if m.Within != nil {
		b.WriteString(" WITHIN " + f.expr(m.Within, ind+2))
	}
	if len(m.Subsets) > 0 {
		subs := make([]string, len(m.Subsets))
		for i, s := range m.Subsets {
			subs[i] = s.Name.String() + " = (" + identList(s.Vars) + ")"
		}
		b.WriteString("\n" + in2 + "SUBSET " + strings.Join(subs, ", "))
	}
	b.WriteString("\n" + in2 + "DEFINE")
	for i, d := range m.Define {
		b.WriteString("\n" + in3 + d.Alias.String() + " AS " + f.expr(d.Expr, ind+3))
		if i < len(m.Define)-1 {
			b.WriteByte(',')
		}
	}
	b.WriteString("\n" + in + ")")
	b.WriteString(aliasString(m.Alias))
	return b.String()
}

func patternString(t PatternTerm) string {
	switch x := t.(type) {
	case *PatternVar:
		return x.Name.String() + x.Quant
	case *PatternSeq:
		parts := make([]string, len(x.Items))
		for i, it := range x.Items {
			parts[i] = patternString(it)
		}
		return strings.Join(parts, " ")
	case *PatternAlt:
		parts := make([]string, len(x.Alts))
		for i, it := range x.Alts {
			parts[i] = patternString(it)
		}
		return strings.Join(parts, " | ")
	case *PatternGroup:
		return "(" + patternString(x.Inner) + ")" + x.Quant
	case *PatternPermute:
		parts := make([]string, len(x.Items))
		for i, it := range x.Items {
			parts[i] = patternString(it)
		}
		return "PERMUTE(" + strings.Join(parts, ", ") + ")"
	case *PatternExclude:
		return "{- " + patternString(x.Inner) + " -}"
	}
	return ""
}

func (f *formatter) hints(hs []*Hint) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		s := h.Name.String()
		if h.Parens {
			var args []string
			for _, a := range h.Args {
				args = append(args, f.expr(a, 0))
			}
			for _, kv := range h.KVs {
				args = append(args, f.expr(kv.Key, 0)+" = "+f.expr(kv.Value, 0))
			}
			s += "(" + strings.Join(args, ", ") + ")"
		}
		parts[i] = s
	}
	return "/*+ " + strings.Join(parts, ", ") + " */"
}

func (f *formatter) orderItems(items []*OrderItem, ind int) string {
	parts := make([]string, len(items))
	for i, o := range items {
		parts[i] = f.expr(o.Expr, ind)
		if o.Dir != "" {
			parts[i] += " " + o.Dir
		}
		if o.Nulls != "" {
			parts[i] += " NULLS " + o.Nulls
		}
	}
	return strings.Join(parts, ", ")
}

func (f *formatter) windowSpec(w *WindowSpec, ind int) string {
	var parts []string
	if w.Ref != nil {
		parts = append(parts, w.Ref.String())
	}
	if len(w.PartitionBy) > 0 {
		parts = append(parts, "PARTITION BY "+f.exprList(w.PartitionBy, ind))
	}
	if len(w.OrderBy) > 0 {
		parts = append(parts, "ORDER BY "+f.orderItems(w.OrderBy, ind))
	}
	if w.Frame != nil {
		s := w.Frame.Unit + " "
		if w.Frame.End != nil {
			s += "BETWEEN " + f.frameBound(w.Frame.Start, ind) + " AND " + f.frameBound(w.Frame.End, ind)
		} else {
			s += f.frameBound(w.Frame.Start, ind)
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func (f *formatter) frameBound(b *FrameBound, ind int) string {
	if b.Offset != nil {
		return f.sub(b.Offset, precConcat, ind) + " " + b.Kind
	}
	return b.Kind
}

// ---- expressions ----

func exprPrec(e Expr) int {
	switch x := e.(type) {
	case *BinaryExpr:
		switch x.Op {
		case "OR":
			return precOr
		case "AND":
			return precAnd
		case "||":
			return precConcat
		case "+", "-":
			return precAdd
		case "*", "/", "%":
			return precMul
		}
		return precCmp
	case *UnaryExpr:
		if x.Op == "NOT" {
			return precNot
		}
		return precUnary
	case *IsExpr, *IsDistinctExpr, *InExpr, *BetweenExpr, *LikeExpr, *QuantifiedExpr:
		return precCmp
	}
	return precUnary + 1
}

// sub renders e, parenthesized when it binds looser than min (only for
// trees built by hand: parsed ones keep their ParenExpr).
func (f *formatter) sub(e Expr, min, ind int) string {
	s := f.expr(e, ind)
	if exprPrec(e) < min {
		return "(" + s + ")"
	}
	return s
}

func (f *formatter) exprList(es []Expr, ind int) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = f.expr(e, ind)
	}
	return strings.Join(parts, ", ")
}

func (f *formatter) subquery(q *Query, ind int) string {
	inner := f.capture(func() { f.query(q, ind+1) })
	return "(\n" + inner + "\n" + indent(ind) + ")"
}

func (f *formatter) expr(e Expr, ind int) string {
	switch x := e.(type) {
	case nil:
		return ""
	case *ColumnRef:
		return identPath(x.Parts)
	case *Star:
		if len(x.Qualifier) > 0 {
			return identPath(x.Qualifier) + ".*"
		}
		return "*"
	case *NumberLit:
		return x.Text
	case *StringLit:
		return quoteString(x.Value)
	case *BinaryLit:
		return "X'" + x.Hex + "'"
	case *BoolLit:
		if x.Value {
			return "TRUE"
		}
		return "FALSE"
	case *NullLit:
		return "NULL"
	case *TypedLit:
		return x.Type + " " + quoteString(x.Value.Value)
	case *IntervalLit:
		return "INTERVAL " + kw(x.Negative, "-") + f.expr(x.Value, ind) + " " + qualifierString(x.Qualifier)
	case *Param:
		return "?"
	case *UnaryExpr:
		if x.Op == "-" || x.Op == "+" {
			s := f.sub(x.X, precUnary, ind)
			if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
				s = " " + s
			}
			return x.Op + s
		}
		if x.Op == "NOT" {
			return "NOT " + f.sub(x.X, precNot, ind)
		}
		return x.Op + " " + f.sub(x.X, precUnary, ind)
	case *BinaryExpr:
		return f.binary(x, ind)
	case *IsExpr:
		return f.sub(x.X, precCmp, ind) + " IS " + kw(x.Not, "NOT ") + x.What
	case *IsDistinctExpr:
		return f.sub(x.L, precCmp, ind) + " IS " + kw(x.Not, "NOT ") + "DISTINCT FROM " + f.sub(x.R, precConcat, ind)
	case *InExpr:
		s := f.sub(x.X, precCmp, ind) + kw(x.Not, " NOT") + " IN "
		if x.Query != nil {
			return s + f.subquery(x.Query, ind)
		}
		return s + "(" + f.exprList(x.List, ind) + ")"
	case *BetweenExpr:
		s := f.sub(x.X, precCmp, ind) + kw(x.Not, " NOT") + " BETWEEN "
		if x.Mode != "" {
			s += x.Mode + " "
		}
		return s + f.sub(x.Lo, precConcat, ind) + " AND " + f.sub(x.Hi, precConcat, ind)
	case *LikeExpr:
		s := f.sub(x.X, precCmp, ind) + kw(x.Not, " NOT") + " " + x.Op + " " + f.sub(x.Pattern, precConcat, ind)
		if x.Escape != nil {
			s += " ESCAPE " + f.sub(x.Escape, precConcat, ind)
		}
		return s
	case *QuantifiedExpr:
		s := f.sub(x.L, precCmp, ind) + " " + x.Op + " " + x.Quantifier + " "
		if x.Query != nil {
			return s + f.subquery(x.Query, ind)
		}
		return s + "(" + f.exprList(x.List, ind) + ")"
	case *ExistsExpr:
		return "EXISTS " + f.subquery(x.Query, ind)
	case *SubqueryExpr:
		return f.subquery(x.Query, ind)
	case *CaseExpr:
		s := "CASE"
		if x.Operand != nil {
			s += " " + f.expr(x.Operand, ind)
		}
		for _, w := range x.Whens {
			s += " WHEN " + f.expr(w.Cond, ind) + " THEN " + f.expr(w.Result, ind)
		}
		if x.Else != nil {
			s += " ELSE " + f.expr(x.Else, ind)
		}
		return s + " END"
	case *CastExpr:
		name := "CAST"
		if x.Try {
			name = "TRY_CAST"
		}
		return name + "(" + f.expr(x.X, ind) + " AS " + typeString(x.Type) + ")"
	case *FuncCall:
		return f.funcCall(x, ind)
	case *NamedArg:
		return x.Name.String() + " => " + f.expr(x.Value, ind)
	case *TableArg:
		s := "TABLE " + qname(x.Name)
		if len(x.PartitionBy) == 1 {
			s += " PARTITION BY " + f.sub(x.PartitionBy[0], precConcat, ind)
		} else if len(x.PartitionBy) > 1 {
			s += " PARTITION BY (" + f.exprList(x.PartitionBy, ind) + ")"
		}
		if len(x.OrderBy) == 1 {
			s += " ORDER BY " + f.orderItems(x.OrderBy, ind)
		} else if len(x.OrderBy) > 1 {
			s += " ORDER BY (" + f.orderItems(x.OrderBy, ind) + ")"
		}
		return s
	case *DescriptorExpr:
		return "DESCRIPTOR(" + identList(x.Columns) + ")"
	case *TimeUnitExpr:
		return x.Unit
	case *ExtractExpr:
		return "EXTRACT(" + x.Unit + " FROM " + f.expr(x.X, ind) + ")"
	case *TrimExpr:
		s := "TRIM("
		if x.Side != "" {
			s += x.Side + " "
		}
		if x.Chars != nil {
			s += f.expr(x.Chars, ind) + " "
		}
		if x.From {
			s += "FROM "
		}
		return s + f.expr(x.X, ind) + ")"
	case *PositionExpr:
		s := "POSITION(" + f.sub(x.Sub, precConcat, ind) + " IN " + f.sub(x.X, precConcat, ind)
		if x.Start != nil {
			s += " FROM " + f.expr(x.Start, ind)
		}
		return s + ")"
	case *SubstringExpr:
		s := "SUBSTRING(" + f.expr(x.X, ind) + " FROM " + f.expr(x.From, ind)
		if x.Length != nil {
			s += " FOR " + f.expr(x.Length, ind)
		}
		return s + ")"
	case *OverlayExpr:
		s := "OVERLAY(" + f.expr(x.X, ind) + " PLACING " + f.expr(x.Placing, ind) + " FROM " + f.expr(x.From, ind)
		if x.Length != nil {
			s += " FOR " + f.expr(x.Length, ind)
		}
		return s + ")"
	case *FloorCeilExpr:
		return x.Name + "(" + f.expr(x.X, ind) + " TO " + x.Unit + ")"
	case *JSONCallExpr:
		return f.jsonCall(x, ind)
	case *RowExpr:
		s := "(" + f.exprList(x.Items, ind) + ")"
		if x.Explicit {
			return "ROW" + s
		}
		return s
	case *ArrayExpr:
		if x.Query != nil {
			return "ARRAY" + f.subquery(x.Query, ind)
		}
		return "ARRAY[" + f.exprList(x.Items, ind) + "]"
	case *MapExpr:
		if x.Query != nil {
			return "MAP" + f.subquery(x.Query, ind)
		}
		return "MAP[" + f.exprList(x.Items, ind) + "]"
	case *ParenExpr:
		return "(" + f.expr(x.X, ind) + ")"
	case *IndexExpr:
		return f.sub(x.X, precUnary+1, ind) + "[" + f.expr(x.Index, ind) + "]"
	case *FieldExpr:
		return f.sub(x.X, precUnary+1, ind) + "." + x.Field.String()
	case *GroupingSets:
		return "GROUPING SETS (" + f.exprList(x.Sets, ind) + ")"
	case *Rollup:
		return "ROLLUP (" + f.exprList(x.Items, ind) + ")"
	case *Cube:
		return "CUBE (" + f.exprList(x.Items, ind) + ")"
	}
	return ""
}

// binary renders a chain of left-associated operators of one precedence
// (a + b + c ...) in one pass: rendering it recursively would copy the
// growing left side at every step.
func (f *formatter) binary(x *BinaryExpr, ind int) string {
	p := exprPrec(x)
	var chain []*BinaryExpr
	var base Expr = x
	for {
		b, ok := base.(*BinaryExpr)
		if !ok || exprPrec(b) != p {
			break
		}
		chain = append(chain, b)
		base = b.L
	}
	var sb strings.Builder
	sb.WriteString(f.sub(base, p, ind))
	for i := len(chain) - 1; i >= 0; i-- {
		b := chain[i]
		rmin := p + 1
		if p == precCmp {
			rmin = precConcat
		}
		sb.WriteByte(' ')
		sb.WriteString(b.Op)
		sb.WriteByte(' ')
		sb.WriteString(f.sub(b.R, rmin, ind))
	}
	return sb.String()
}

func (f *formatter) funcCall(x *FuncCall, ind int) string {
	s := qname(x.Name)
	if x.NoParens {
		return s
	}
	s += "(" + kw(x.Distinct, "DISTINCT ") + kw(x.All, "ALL ") + f.exprList(x.Args, ind) + ")"
	if len(x.WithinGroup) > 0 {
		s += " WITHIN GROUP (ORDER BY " + f.orderItems(x.WithinGroup, ind) + ")"
	}
	if x.Filter != nil {
		s += " FILTER (WHERE " + f.expr(x.Filter, ind) + ")"
	}
	if x.NullTreatment != "" {
		s += " " + x.NullTreatment
	}
	if x.Over != nil {
		s += " OVER " + f.windowSpec(x.Over, ind)
	} else if x.OverRef != nil {
		s += " OVER " + x.OverRef.String()
	}
	return s
}

func (f *formatter) jsonCall(x *JSONCallExpr, ind int) string {
	var parts []string
	for _, a := range x.Args {
		parts = append(parts, f.expr(a, ind))
	}
	for _, e := range x.Entries {
		k := f.sub(e.Key, precConcat, ind)
		if e.KeyWord {
			k = "KEY " + k
		}
		if e.Colon {
			parts = append(parts, k+" : "+f.expr(e.Value, ind))
		} else {
			parts = append(parts, k+" VALUE "+f.expr(e.Value, ind))
		}
	}
	s := x.Name + "(" + strings.Join(parts, ", ")
	if x.Returning != nil {
		s += " RETURNING " + typeString(x.Returning)
	}
	for _, c := range x.Clauses {
		text := c.Text
		if c.Default != nil {
			text = strings.Replace(text, "DEFAULT", "DEFAULT "+f.sub(c.Default, precConcat, ind), 1)
		}
		s += " " + text
	}
	return s + ")"
}

func qualifierString(q *IntervalQualifier) string {
	if q == nil {
		return ""
	}
	s := q.From + intParams(q.FromParams)
	if q.To != "" {
		s += " TO " + q.To + intParams(q.ToParams)
	}
	return s
}

func intParams(ps []int) string {
	if len(ps) == 0 {
		return ""
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = strconv.Itoa(p)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func typeString(t *DataType) string {
	if t == nil {
		return ""
	}
	var s string
	switch {
	case t.UserType != nil:
		s = qname(t.UserType)
	case t.Postfix:
		s = typeString(t.Elem) + " " + t.Name
	case t.Name == "ARRAY" || t.Name == "MULTISET":
		s = t.Name + "<" + typeString(t.Elem) + ">"
	case t.Name == "MAP":
		s = "MAP<" + typeString(t.Key) + ", " + typeString(t.Value) + ">"
	case t.Name == "ROW":
		fields := make([]string, len(t.Fields))
		for i, fd := range t.Fields {
			fields[i] = fd.Name.String() + " " + typeString(fd.Type)
			if fd.Comment != nil {
				fields[i] += " " + quoteString(fd.Comment.Value)
			}
		}
		switch {
		case t.Parens:
			s = "ROW(" + strings.Join(fields, ", ") + ")"
		case len(fields) == 0:
			s = "ROW<>"
		default:
			s = "ROW<" + strings.Join(fields, ", ") + ">"
		}
	case t.Name == "RAW":
		s = "RAW(" + quoteString(t.RawClass.Value)
		if t.RawSnapshot != nil {
			s += ", " + quoteString(t.RawSnapshot.Value)
		}
		s += ")"
	case t.Name == "INTERVAL":
		s = "INTERVAL " + qualifierString(t.Interval)
	default:
		s = t.Name + intParams(t.Params)
		if t.Zone != "" {
			s += " " + t.Zone
		}
	}
	if t.NotNull {
		s += " NOT NULL"
	} else if t.Null {
		s += " NULL"
	}
	return s
}

func qname(q *QualifiedName) string { return q.String() }

func identPath(ids []*Ident) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, ".")
}

func identList(ids []*Ident) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id.String()
	}
	return strings.Join(parts, ", ")
}

func stringList(ss []*StringLit) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = quoteString(s.Value)
	}
	return strings.Join(parts, ", ")
}
