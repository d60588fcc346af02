package ast

// The statements of Flink 1.20 and 2.x: materialized tables, models and
// connections.

// CreateMaterializedTable is
//
//	CREATE [OR ALTER] MATERIALIZED TABLE name [(schema)] [COMMENT 'c']
//	  [DISTRIBUTED ...] [PARTITIONED BY (cols)] [WITH (...)]
//	  [START_MODE = mode] [FRESHNESS = INTERVAL ...] [REFRESH_MODE = FULL|CONTINUOUS]
//	  AS query
type CreateMaterializedTable struct {
	Span
	OrAlter bool
	Name    *QualifiedName
	// The schema, as in CREATE TABLE (Flink 2.3); ColumnNames when it
	// only names the query's columns.
	HasSchema    bool
	Columns      []*ColumnDef
	ColumnNames  []*Ident
	Watermarks   []*Watermark
	Constraints  []*TableConstraint
	Comment      *StringLit
	Distribution *Distribution
	PartitionBy  []*Ident
	With         Properties
	StartMode    *StartMode
	Freshness    Expr   // an *IntervalLit; nil when not written (Flink 2.2 and later)
	RefreshMode  string // "", FULL or CONTINUOUS
	As           *Query
}

// StartMode is START_MODE = FROM_BEGINNING | FROM_NOW [(interval)] |
// FROM_TIMESTAMP(ts) | RESUME_OR_FROM_BEGINNING | RESUME_OR_FROM_NOW
// [(interval)] | RESUME_OR_FROM_TIMESTAMP(ts): where a materialized table's
// refresh pipeline starts (Flink 2.3).
type StartMode struct {
	Span
	Kind string
	Arg  Expr // the interval or timestamp, if any
}

// AlterMaterializedTable is ALTER MATERIALIZED TABLE name followed by one of
//
//	SUSPEND | RESUME [WITH (...)] | REFRESH [PARTITION (...)]
//	SET FRESHNESS = interval | SET REFRESH_MODE = FULL|CONTINUOUS
//	SET (...) | RESET (...) | [START_MODE = mode] AS query
//	ADD|MODIFY|DROP DISTRIBUTION ... | ADD|MODIFY (schema) | DROP col | RENAME TO new
//
// Op names the first form: SUSPEND, RESUME, REFRESH, SET FRESHNESS, SET
// REFRESH_MODE, SET, RESET or AS; the last line's forms are an ALTER TABLE
// action in Action and leave Op empty.
type AlterMaterializedTable struct {
	Span
	Name        *QualifiedName
	Op          string
	With        Properties // RESUME WITH (...), SET (...)
	Reset       []*StringLit
	Partition   []*PartitionValue // REFRESH PARTITION (...)
	Freshness   Expr
	RefreshMode string
	StartMode   *StartMode
	As          *Query
	Action      AlterTableAction
}

// CreateModel is CREATE [TEMPORARY] MODEL [IF NOT EXISTS] name
// [INPUT (cols)] [OUTPUT (cols)] [COMMENT 'c'] [WITH (...)] [AS query].
type CreateModel struct {
	Span
	Temporary   bool
	IfNotExists bool
	Name        *QualifiedName
	Input       []*ColumnDef
	Output      []*ColumnDef
	Comment     *StringLit
	With        Properties
	As          *Query
}

// CreateConnection is CREATE [TEMPORARY [SYSTEM]] CONNECTION [IF NOT EXISTS]
// name [COMMENT 'c'] WITH (...): credentials and endpoints that tables,
// models and catalogs refer to (Flink 2.2).
type CreateConnection struct {
	Span
	Temporary   bool
	System      bool
	IfNotExists bool
	Name        *QualifiedName
	Comment     *StringLit
	With        Properties
}

// AlterObject is ALTER MODEL|CONNECTION [IF EXISTS] name RENAME TO new |
// SET (...) | RESET (...).
type AlterObject struct {
	Span
	Object   string // MODEL or CONNECTION
	IfExists bool
	Name     *QualifiedName
	RenameTo *QualifiedName
	Set      Properties
	Reset    []*StringLit
}

// Resource is one JAR 'path' or ARTIFACT 'path' of CREATE FUNCTION ... USING.
type Resource struct {
	Span
	Kind string // JAR or ARTIFACT
	Path *StringLit
}

// ModelArg is MODEL name passed to a function, as ML_PREDICT and
// ML_EVALUATE take it.
type ModelArg struct {
	Span
	Name *QualifiedName
}

func (*CreateMaterializedTable) stmtNode() {}
func (*AlterMaterializedTable) stmtNode()  {}
func (*CreateModel) stmtNode()             {}
func (*CreateConnection) stmtNode()        {}
func (*AlterObject) stmtNode()             {}

func (*ModelArg) exprNode() {}
