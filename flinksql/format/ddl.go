package format

import (
	"github.com/palink/palink/flinksql/ast"
)

// formatNewer lays out the statements of Flink 1.20 and 2.x (ast_ddl.go)
// in the style of the others: one clause a line, one option a line.
func formatNewer(f stmtFormatter, st ast.Statement, ind int) {
	switch s := st.(type) {
	case *ast.CreateMaterializedTable:
		formatCreateMT(f, s, ind)
	case *ast.AlterMaterializedTable:
		formatAlterMT(f, s, ind)
	case *ast.CreateModel:
		head := "CREATE " + kw(s.Temporary, "TEMPORARY ") + "MODEL " + kw(s.IfNotExists, "IF NOT EXISTS ") + qname(s.Name)
		f.emit(s.Pos, ind, head)
		if s.Input != nil {
			f.schema(ast.Pos{}, "INPUT", schemaParts{columns: s.Input}, ind)
		}
		if s.Output != nil {
			f.schema(ast.Pos{}, "OUTPUT", schemaParts{columns: s.Output}, ind)
		}
		f.comment(s.Comment, ind)
		f.with(s.With, s.With != nil, ind)
		if s.As != nil {
			f.lines[len(f.lines)-1].text += " AS"
			f.queries.query(s.As, ind)
		}
	case *ast.CreateConnection:
		f.emit(s.Pos, ind, "CREATE "+kw(s.Temporary, "TEMPORARY ")+kw(s.System, "SYSTEM ")+"CONNECTION "+
			kw(s.IfNotExists, "IF NOT EXISTS ")+qname(s.Name))
		f.comment(s.Comment, ind)
		f.with(s.With, s.With != nil, ind)
	case *ast.AlterObject:
		head := "ALTER " + s.Object + " " + kw(s.IfExists, "IF EXISTS ") + qname(s.Name)
		switch {
		case s.RenameTo != nil:
			f.emit(s.Pos, ind, head+" RENAME TO "+qname(s.RenameTo))
		case s.Reset != nil:
			f.emit(s.Pos, ind, head+" RESET ("+stringList(s.Reset)+")")
		default:
			f.emit(s.Pos, ind, head+" SET (")
			f.props(s.Set, ind+1)
			f.emit(ast.Pos{}, ind, ")")
		}
	}
}

func formatCreateMT(f stmtFormatter, s *ast.CreateMaterializedTable, ind int) {
	head := "CREATE " + kw(s.OrAlter, "OR ALTER ") + "MATERIALIZED TABLE " + qname(s.Name)
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
	if s.StartMode != nil {
		f.emit(s.StartMode.Pos, ind, startModeString(f, s.StartMode, ind))
	}
	if s.Freshness != nil {
		f.emit(s.Freshness.Range().Pos, ind, "FRESHNESS = "+f.exprs.expr(s.Freshness, ind))
	}
	if s.RefreshMode != "" {
		f.emit(ast.Pos{}, ind, "REFRESH_MODE = "+s.RefreshMode)
	}
	f.lines[len(f.lines)-1].text += " AS"
	f.queries.query(s.As, ind)
}

func startModeString(f stmtFormatter, m *ast.StartMode, ind int) string {
	s := "START_MODE = " + m.Kind
	if m.Arg != nil {
		s += "(" + f.exprs.expr(m.Arg, ind) + ")"
	}
	return s
}

func formatAlterMT(f stmtFormatter, s *ast.AlterMaterializedTable, ind int) {
	head := "ALTER MATERIALIZED TABLE " + qname(s.Name)
	switch s.Op {
	case "":
		f.alterAction(s.Pos, head, s.Action, ind)
	case "SUSPEND":
		f.emit(s.Pos, ind, head+" SUSPEND")
	case "RESUME":
		f.emit(s.Pos, ind, head+" RESUME")
		f.with(s.With, s.With != nil, ind)
	case "REFRESH":
		line := head + " REFRESH"
		if s.Partition != nil {
			line += " PARTITION (" + f.partitionValues(s.Partition, ind) + ")"
		}
		f.emit(s.Pos, ind, line)
	case "SET FRESHNESS":
		f.emit(s.Pos, ind, head+" SET FRESHNESS = "+f.exprs.expr(s.Freshness, ind))
	case "SET REFRESH_MODE":
		f.emit(s.Pos, ind, head+" SET REFRESH_MODE = "+s.RefreshMode)
	case "SET":
		f.emit(s.Pos, ind, head+" SET (")
		f.props(s.With, ind+1)
		f.emit(ast.Pos{}, ind, ")")
	case "RESET":
		f.emit(s.Pos, ind, head+" RESET ("+stringList(s.Reset)+")")
	case "AS":
		f.emit(s.Pos, ind, head)
		if s.StartMode != nil {
			f.emit(s.StartMode.Pos, ind, startModeString(f, s.StartMode, ind))
		}
		f.lines[len(f.lines)-1].text += " AS"
		f.queries.query(s.As, ind)
	}
}
