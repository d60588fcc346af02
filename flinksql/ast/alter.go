package ast

// AlterTable is ALTER TABLE [IF EXISTS] name action.
type AlterTable struct {
	Span
	IfExists bool
	Name     *QualifiedName
	Action   AlterTableAction
}

// AlterTableAction is what an ALTER TABLE does: *RenameTable,
// *RenameColumn, *SetOptions, *ResetOptions, *AlterSchema, *DropSchema.
type AlterTableAction interface {
	Node
	alterAction()
}

// RenameTable is RENAME TO new_name.
type RenameTable struct {
	Span
	To *QualifiedName
}

// RenameColumn is RENAME old TO new.
type RenameColumn struct {
	Span
	From *QualifiedName
	To   *Ident
	// ToQualifier is the path before To of a nested column.
	ToQualifier []*Ident
}

// SetOptions is SET ('k' = 'v', ...).
type SetOptions struct {
	Span
	Props Properties
}

// ResetOptions is RESET ('k', ...).
type ResetOptions struct {
	Span
	Keys []*StringLit
}

// AlterSchema is ADD or MODIFY of columns, a watermark, a primary key or a
// distribution, single or in parentheses. Items hold *ColumnDef,
// *Watermark, *TableConstraint and *Distribution in written order.
type AlterSchema struct {
	Span
	Modify bool
	Parens bool
	Items  []Node
}

// AddPartitions is ADD [IF NOT EXISTS] PARTITION (...) [WITH (...)] ...
type AddPartitions struct {
	Span
	IfNotExists bool
	Partitions  []*PartitionSpec
}

// DropPartitions is DROP [IF EXISTS] PARTITION (...), ...
type DropPartitions struct {
	Span
	IfExists   bool
	Partitions []*PartitionSpec
}

// PartitionSpec is PARTITION (k = v, ...) [WITH (...)].
type PartitionSpec struct {
	Span
	Values []*PartitionValue
	With   Properties
}

// DropSchema is DROP col | DROP (cols) | DROP PRIMARY KEY | DROP
// CONSTRAINT name | DROP WATERMARK | DROP DISTRIBUTION.
type DropSchema struct {
	Span
	Columns      []*QualifiedName
	Parens       bool
	PrimaryKey   bool
	Constraint   *Ident
	Watermark    bool
	Distribution bool
}

// AlterView is ALTER VIEW name RENAME TO new | AS query.
type AlterView struct {
	Span
	Name     *QualifiedName
	RenameTo *QualifiedName
	As       *Query
}

// AlterFunction is ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] name
// AS 'class' [LANGUAGE ...].
type AlterFunction struct {
	Span
	Temporary bool
	System    bool
	IfExists  bool
	Name      *QualifiedName
	Class     *StringLit
	Language  string
}

// AlterDatabase is ALTER DATABASE name SET (...).
type AlterDatabase struct {
	Span
	Name  *QualifiedName
	Props Properties
}

// AlterCatalog is ALTER CATALOG name SET (...) | RESET (...) | COMMENT 'c'.
type AlterCatalog struct {
	Span
	Name    *Ident
	Set     Properties
	Reset   []*StringLit
	Comment *StringLit
}

func (*RenameTable) alterAction()    {}
func (*RenameColumn) alterAction()   {}
func (*SetOptions) alterAction()     {}
func (*ResetOptions) alterAction()   {}
func (*AlterSchema) alterAction()    {}
func (*DropSchema) alterAction()     {}
func (*AddPartitions) alterAction()  {}
func (*DropPartitions) alterAction() {}
