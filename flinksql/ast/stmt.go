package ast

// Statement is one statement of a script. Its Span covers the statement
// from its first token to its last, without the terminating semicolon, so
// Script.Text(stmt) is the text to send to Flink.
type Statement interface {
	Node
	stmtNode()
}

// SetStmt is SET; (list all), SET 'key' = 'value' or the unquoted SET
// key = value the SQL client also takes. An unquoted part is its tokens'
// text, joined by one space where they were written apart
// (table.exec.mini-batch.enabled stays as it is).
type SetStmt struct {
	Span
	Key         string
	KeyQuoted   bool
	Value       string
	ValueQuoted bool
	// HasValue is false for a bare SET.
	HasValue bool
}

// ResetStmt is RESET; or RESET 'key'.
type ResetStmt struct {
	Span
	Key       string
	KeyQuoted bool
}

// CreateTable is CREATE TABLE, including CREATE TABLE ... AS SELECT,
// CREATE TABLE ... LIKE and [CREATE OR] REPLACE TABLE ... AS.
type CreateTable struct {
	Span
	OrReplace   bool // CREATE OR REPLACE TABLE
	Replace     bool // REPLACE TABLE (without CREATE)
	Temporary   bool
	IfNotExists bool
	Name        *QualifiedName
	// HasSchema is true when a parenthesized schema was written, even an
	// empty one.
	HasSchema bool
	Columns   []*ColumnDef
	// ColumnNames is a schema of names without types, which CREATE TABLE
	// ... AS may give its query's columns (Flink 2.0).
	ColumnNames  []*Ident
	Watermarks   []*Watermark
	Constraints  []*TableConstraint
	Comment      *StringLit
	Distribution *Distribution
	PartitionBy  []*Ident
	With         Properties
	Like         *LikeClause
	As           *Query
}

// Column returns the column with the given name, or nil.
func (c *CreateTable) Column(name string) *ColumnDef {
	for _, col := range c.Columns {
		if col.Name.Name == name {
			return col
		}
	}
	return nil
}

// PrimaryKey returns the primary key columns, from a table constraint or a
// column constraint, or nil.
func (c *CreateTable) PrimaryKey() []string {
	for _, tc := range c.Constraints {
		if tc.Kind == "PRIMARY KEY" {
			names := make([]string, len(tc.Columns))
			for i, id := range tc.Columns {
				names[i] = id.Name
			}
			return names
		}
	}
	for _, col := range c.Columns {
		if col.Constraint != nil && col.Constraint.Kind == "PRIMARY KEY" {
			return []string{col.Name.Name}
		}
	}
	return nil
}

// ColumnKind is the kind of a table column.
type ColumnKind int

// The column kinds.
const (
	ColumnPhysical ColumnKind = iota
	ColumnComputed
	ColumnMetadata
)

// String names the kind.
func (k ColumnKind) String() string {
	switch k {
	case ColumnPhysical:
		return "physical"
	case ColumnComputed:
		return "computed"
	case ColumnMetadata:
		return "metadata"
	}
	return "ColumnKind(?)"
}

// ColumnDef is one column of a table schema:
//
//	name type [[CONSTRAINT c] PRIMARY KEY NOT ENFORCED] [COMMENT 'c']
//	name AS expr [COMMENT 'c']
//	name type METADATA [FROM 'key'] [VIRTUAL] [COMMENT 'c']
type ColumnDef struct {
	Span
	Name         *Ident
	Type         *DataType // nil for a computed column
	Expr         Expr      // the computed column's expression
	Metadata     bool
	MetadataFrom *StringLit
	Virtual      bool
	Constraint   *TableConstraint // a column-level PRIMARY KEY, its Columns empty
	Comment      *StringLit
	Position     *ColumnPosition // FIRST or AFTER col in ALTER TABLE ADD/MODIFY
	// Qualifier is the path of a nested column before Name: ALTER TABLE t
	// ADD a.b INT gives Qualifier [a] and Name b.
	Qualifier []*Ident
}

// Kind tells physical, computed and metadata columns apart.
func (c *ColumnDef) Kind() ColumnKind {
	switch {
	case c.Expr != nil:
		return ColumnComputed
	case c.Metadata:
		return ColumnMetadata
	}
	return ColumnPhysical
}

// ColumnPosition is FIRST or AFTER col.
type ColumnPosition struct {
	Span
	First bool
	After *Ident
	// AfterQualifier is the path before After of a nested column.
	AfterQualifier []*Ident
}

// Watermark is WATERMARK FOR col AS expr.
type Watermark struct {
	Span
	Column *QualifiedName
	Expr   Expr
}

// TableConstraint is [CONSTRAINT name] PRIMARY KEY (cols) [NOT] ENFORCED,
// or UNIQUE (cols).
type TableConstraint struct {
	Span
	Name     *Ident
	Kind     string // PRIMARY KEY or UNIQUE
	Columns  []*Ident
	Enforced string // "", ENFORCED or NOT ENFORCED
}

// Distribution is DISTRIBUTED BY [HASH|RANGE](cols) [INTO n BUCKETS] or
// DISTRIBUTED INTO n BUCKETS.
type Distribution struct {
	Span
	Kind    string // "", HASH or RANGE
	Columns []*Ident
	Buckets Expr
}

// LikeClause is LIKE source (options).
type LikeClause struct {
	Span
	Table   *QualifiedName
	Options []*LikeOption
}

// LikeOption is INCLUDING|EXCLUDING|OVERWRITING feature.
type LikeOption struct {
	Span
	Strategy string // INCLUDING, EXCLUDING or OVERWRITING
	Feature  string // ALL, CONSTRAINTS, DISTRIBUTION, GENERATED, METADATA, OPTIONS, PARTITIONS, WATERMARKS
}

// CreateView is CREATE [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)]
// [COMMENT 'c'] AS query.
type CreateView struct {
	Span
	OrReplace   bool
	Temporary   bool
	IfNotExists bool
	Name        *QualifiedName
	Columns     []*Ident
	Comment     *StringLit
	Query       *Query
}

// CreateFunction is CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS]
// name AS 'class' [LANGUAGE JAVA|SCALA|SQL|PYTHON] [USING JAR|ARTIFACT
// 'path', ...] [WITH (...)].
type CreateFunction struct {
	Span
	OrReplace   bool
	Temporary   bool
	System      bool
	IfNotExists bool
	Name        *QualifiedName
	Class       *StringLit
	Language    string
	// Jars are the paths of Using, JAR and ARTIFACT alike.
	Jars  []*StringLit
	Using []*Resource
	With  Properties
}

// CreateCatalog is CREATE CATALOG [IF NOT EXISTS] name [COMMENT 'c'] WITH (...).
type CreateCatalog struct {
	Span
	IfNotExists bool
	Name        *Ident
	Comment     *StringLit
	With        Properties
}

// CreateDatabase is CREATE DATABASE [IF NOT EXISTS] [catalog.]name
// [COMMENT 'c'] [WITH (...)].
type CreateDatabase struct {
	Span
	IfNotExists bool
	Name        *QualifiedName
	Comment     *StringLit
	With        Properties
}

// DropStmt is DROP [TEMPORARY [SYSTEM]] TABLE|VIEW|FUNCTION|CATALOG|DATABASE
// [IF EXISTS] name [RESTRICT|CASCADE].
type DropStmt struct {
	Span
	Object    string // TABLE, VIEW, FUNCTION, CATALOG, DATABASE, MATERIALIZED TABLE, MODEL
	Temporary bool
	System    bool
	IfExists  bool
	Name      *QualifiedName
	Behavior  string // "", RESTRICT or CASCADE
}

// UseStmt is USE [CATALOG] name.
type UseStmt struct {
	Span
	Catalog bool
	Name    *QualifiedName
}

// UseModules is USE MODULES a, b.
type UseModules struct {
	Span
	Names []*Ident
}

// ShowStmt is one of the SHOW statements.
type ShowStmt struct {
	Span
	// Object is what is shown, upper-case: CATALOGS, CURRENT CATALOG,
	// DATABASES, CURRENT DATABASE, TABLES, VIEWS, FUNCTIONS, USER
	// FUNCTIONS, MODULES, FULL MODULES, JARS, JOBS, COLUMNS, PARTITIONS,
	// PROCEDURES, MODELS, MATERIALIZED TABLES, CREATE TABLE, CREATE VIEW,
	// CREATE CATALOG, ...
	Object  string
	Target  *QualifiedName // SHOW CREATE TABLE t, SHOW PARTITIONS t, SHOW COLUMNS FROM t
	FromKw  string         // FROM or IN, before From
	From    *QualifiedName
	Not     bool
	LikeOp  string // "", LIKE or ILIKE
	Pattern *StringLit
	// Partition is the PARTITION (...) of SHOW PARTITIONS.
	Partition []*PartitionValue
}

// DescribeStmt is DESCRIBE|DESC [CATALOG|DATABASE|FUNCTION|MODEL|JOB]
// [EXTENDED] name.
type DescribeStmt struct {
	Span
	Object   string // "" for a table or view
	Extended bool
	Name     *QualifiedName
	JobID    *StringLit
}

// ExplainStmt is EXPLAIN [PLAN FOR | details,...] statement.
type ExplainStmt struct {
	Span
	PlanFor bool
	Details []string // ESTIMATED_COST, CHANGELOG_MODE, JSON_EXECUTION_PLAN, PLAN_ADVICE
	Stmt    Statement
}

// LoadModule is LOAD MODULE name [WITH (...)].
type LoadModule struct {
	Span
	Name *Ident
	With Properties
}

// UnloadModule is UNLOAD MODULE name.
type UnloadModule struct {
	Span
	Name *Ident
}

// JarStmt is ADD JAR 'path' or REMOVE JAR 'path'.
type JarStmt struct {
	Span
	Remove bool
	Path   *StringLit
}

// InsertStmt is INSERT INTO|OVERWRITE table [hints] [PARTITION (...)]
// [(cols)] query.
type InsertStmt struct {
	Span
	Overwrite bool
	Table     *QualifiedName
	Hints     []*Hint
	Partition []*PartitionValue
	Columns   []*Ident
	Query     *Query
	// OnConflict is what the sink does with a second row for a primary key
	// the query's upsert key does not match (Flink 2.3): "", NOTHING, ERROR
	// or DEDUPLICATE.
	OnConflict string
}

// PartitionValue is one col [= value] of a PARTITION spec; Value is nil
// for a dynamic partition column.
type PartitionValue struct {
	Span
	Name  *Ident
	Value Expr
}

// SetForm is how a statement set was written.
type SetForm int

// The statement set forms.
const (
	SetFormClient  SetForm = iota // BEGIN STATEMENT SET; ...; END  (SQL client scripts)
	SetFormExecute                // EXECUTE STATEMENT SET BEGIN ...; END
	SetFormBare                   // STATEMENT SET BEGIN ...; END  (after EXPLAIN)
)

// StatementSet is a block of statements (INSERTs) that Flink plans and
// runs as one job.
type StatementSet struct {
	Span
	Form  SetForm
	Stmts []Statement
}

// ExecuteStmt is EXECUTE statement, such as EXECUTE INSERT INTO ...
type ExecuteStmt struct {
	Span
	Stmt Statement
}

// CompilePlan is COMPILE PLAN 'file' [IF NOT EXISTS] FOR statement, or
// COMPILE AND EXECUTE PLAN 'file' FOR statement.
type CompilePlan struct {
	Span
	Execute     bool
	Path        *StringLit
	IfNotExists bool
	Stmt        Statement
}

// ExecutePlan is EXECUTE PLAN 'file'.
type ExecutePlan struct {
	Span
	Path *StringLit
}

// QueryStmt is a query run as a statement.
type QueryStmt struct {
	Span
	Query *Query
}

// CallStmt is CALL procedure(args).
type CallStmt struct {
	Span
	Call *FuncCall
}

// AnalyzeStmt is ANALYZE TABLE t [PARTITION (...)] COMPUTE STATISTICS
// [FOR COLUMNS a, b | FOR ALL COLUMNS].
type AnalyzeStmt struct {
	Span
	Table      *QualifiedName
	Partition  []*PartitionValue
	Columns    []*Ident
	AllColumns bool
}

// TruncateStmt is TRUNCATE TABLE t.
type TruncateStmt struct {
	Span
	Table *QualifiedName
}

// DeleteStmt is DELETE FROM t [[AS] alias] [WHERE cond].
type DeleteStmt struct {
	Span
	Table *QualifiedName
	Alias *Ident
	Where Expr
}

// UpdateStmt is UPDATE t [[AS] alias] SET col = expr, ... [WHERE cond].
type UpdateStmt struct {
	Span
	Table *QualifiedName
	Alias *Ident
	Set   []*Assignment
	Where Expr
}

// Assignment is col = expr in UPDATE.
type Assignment struct {
	Span
	Column *ColumnRef
	Value  Expr
}

// StopJob is STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN].
type StopJob struct {
	Span
	JobID         *StringLit
	WithSavepoint bool
	WithDrain     bool
}

// BadStmt stands for a statement that did not parse, so statement indexes
// still match the source; its Span covers the skipped text.
type BadStmt struct {
	Span
}

func (*SetStmt) stmtNode()        {}
func (*ResetStmt) stmtNode()      {}
func (*CreateTable) stmtNode()    {}
func (*CreateView) stmtNode()     {}
func (*CreateFunction) stmtNode() {}
func (*CreateCatalog) stmtNode()  {}
func (*CreateDatabase) stmtNode() {}
func (*DropStmt) stmtNode()       {}
func (*AlterTable) stmtNode()     {}
func (*AlterView) stmtNode()      {}
func (*AlterFunction) stmtNode()  {}
func (*AlterDatabase) stmtNode()  {}
func (*AlterCatalog) stmtNode()   {}
func (*UseStmt) stmtNode()        {}
func (*UseModules) stmtNode()     {}
func (*ShowStmt) stmtNode()       {}
func (*DescribeStmt) stmtNode()   {}
func (*ExplainStmt) stmtNode()    {}
func (*LoadModule) stmtNode()     {}
func (*UnloadModule) stmtNode()   {}
func (*JarStmt) stmtNode()        {}
func (*InsertStmt) stmtNode()     {}
func (*StatementSet) stmtNode()   {}
func (*ExecuteStmt) stmtNode()    {}
func (*CompilePlan) stmtNode()    {}
func (*ExecutePlan) stmtNode()    {}
func (*QueryStmt) stmtNode()      {}
func (*CallStmt) stmtNode()       {}
func (*AnalyzeStmt) stmtNode()    {}
func (*TruncateStmt) stmtNode()   {}
func (*DeleteStmt) stmtNode()     {}
func (*UpdateStmt) stmtNode()     {}
func (*StopJob) stmtNode()        {}
func (*BadStmt) stmtNode()        {}
