package ast

import "strings"

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// ColumnRef is a possibly qualified name in an expression: a column (a),
// a qualified column (o.a, db.t.a) or a nested field (o.payload.id).
// Which part is the table is for the validator to resolve.
type ColumnRef struct {
	Span
	Parts []*Ident
}

// Name is the last part of the reference.
func (c *ColumnRef) Name() string { return c.Parts[len(c.Parts)-1].Name }

// Key is the parts joined by dots, unquoted.
func (c *ColumnRef) Key() string {
	parts := make([]string, len(c.Parts))
	for i, p := range c.Parts {
		parts[i] = p.Name
	}
	return strings.Join(parts, ".")
}

// Star is * or t.* in a select list, or the * of COUNT(*).
type Star struct {
	Span
	Qualifier []*Ident // t in t.*; empty for a bare *
}

// NumberKind tells integers, exact decimals and approximate numbers apart.
type NumberKind int

// The number kinds.
const (
	NumInteger NumberKind = iota // 42
	NumDecimal                   // 4.2
	NumApprox                    // 4.2E1
)

// NumberLit is a numeric literal; Text is as written (no sign: a minus
// sign is a UnaryExpr).
type NumberLit struct {
	Span
	Text string
	Kind NumberKind
}

// BinaryLit is X'0AFF'; Hex holds the digits.
type BinaryLit struct {
	Span
	Hex string
}

// BoolLit is TRUE or FALSE.
type BoolLit struct {
	Span
	Value bool
}

// NullLit is NULL.
type NullLit struct{ Span }

// TypedLit is a literal introduced by its type: DATE '2020-01-01',
// TIME '12:00:00', TIMESTAMP '2020-01-01 12:00:00', TIMESTAMP_LTZ '…'.
type TypedLit struct {
	Span
	Type  string // DATE, TIME, TIMESTAMP or TIMESTAMP_LTZ, upper-case
	Value *StringLit
}

// IntervalLit is INTERVAL '5' SECOND, INTERVAL '1:30' HOUR TO MINUTE,
// INTERVAL '10' MINUTES. Value is a string literal, or a number in the
// lenient INTERVAL 5 SECOND form.
type IntervalLit struct {
	Span
	Negative  bool // INTERVAL -'5' SECOND
	Value     Expr
	Qualifier *IntervalQualifier
}

// IntervalQualifier is the unit part of an interval: DAY, DAY(2) TO
// SECOND(3), HOUR TO MINUTE. Units are upper-case as written, so the
// plural forms Flink accepts (SECONDS, MINUTES, ...) survive a format.
type IntervalQualifier struct {
	Span
	From       string
	FromParams []int
	To         string
	ToParams   []int
}

// Param is a ? placeholder.
type Param struct{ Span }

// UnaryExpr is -x, +x or NOT x, or the FINAL and RUNNING prefixes of
// MATCH_RECOGNIZE measures. Op is "-", "+", "NOT", "FINAL" or "RUNNING".
type UnaryExpr struct {
	Span
	Op string
	X  Expr
}

// BinaryExpr is a binary operator application. Op is one of OR, AND,
// =, <>, !=, <, <=, >, >=, OVERLAPS, ||, +, -, *, /, %.
type BinaryExpr struct {
	Span
	Op   string
	L, R Expr
}

// IsExpr is x IS [NOT] NULL | TRUE | FALSE | UNKNOWN | JSON [kind].
type IsExpr struct {
	Span
	X    Expr
	Not  bool
	What string // NULL, TRUE, FALSE, UNKNOWN, JSON, JSON VALUE, JSON SCALAR, JSON ARRAY or JSON OBJECT
}

// IsDistinctExpr is l IS [NOT] DISTINCT FROM r.
type IsDistinctExpr struct {
	Span
	L, R Expr
	Not  bool
}

// InExpr is x [NOT] IN (list) or x [NOT] IN (subquery).
type InExpr struct {
	Span
	X     Expr
	Not   bool
	List  []Expr
	Query *Query // set instead of List for a subquery
}

// BetweenExpr is x [NOT] BETWEEN [SYMMETRIC|ASYMMETRIC] lo AND hi.
type BetweenExpr struct {
	Span
	X      Expr
	Not    bool
	Mode   string // "", SYMMETRIC or ASYMMETRIC
	Lo, Hi Expr
}

// LikeExpr is x [NOT] LIKE p [ESCAPE e] or x [NOT] SIMILAR TO p [ESCAPE e].
type LikeExpr struct {
	Span
	X       Expr
	Not     bool
	Op      string // LIKE or SIMILAR TO
	Pattern Expr
	Escape  Expr
}

// QuantifiedExpr is l op ANY|SOME|ALL (subquery or list).
type QuantifiedExpr struct {
	Span
	L          Expr
	Op         string
	Quantifier string // ANY, SOME or ALL
	Query      *Query
	List       []Expr
}

// ExistsExpr is EXISTS (subquery).
type ExistsExpr struct {
	Span
	Query *Query
}

// SubqueryExpr is a scalar subquery: (SELECT ...).
type SubqueryExpr struct {
	Span
	Query *Query
}

// CaseExpr is CASE [operand] WHEN ... THEN ... [ELSE ...] END. A nil
// Operand is the searched form.
type CaseExpr struct {
	Span
	Operand Expr
	Whens   []*WhenClause
	Else    Expr
}

// WhenClause is one WHEN cond THEN result.
type WhenClause struct {
	Span
	Cond   Expr
	Result Expr
}

// CastExpr is CAST(x AS type) or TRY_CAST(x AS type).
type CastExpr struct {
	Span
	Try  bool
	X    Expr
	Type *DataType
}

// FuncCall is a function call, aggregate or window function.
//
//	COUNT(*)                       Args [*Star]
//	COUNT(DISTINCT x)              Distinct
//	SUM(x) FILTER (WHERE y > 0)    Filter
//	ROW_NUMBER() OVER (...)        Over; OVER w sets OverRef
//	CURRENT_TIMESTAMP              NoParens
//	TIMESTAMPADD(DAY, 1, ts)       Args[0] is a *TimeUnitExpr
type FuncCall struct {
	Span
	Name          *QualifiedName
	Distinct      bool
	All           bool
	Args          []Expr
	NoParens      bool
	NullTreatment string       // "", IGNORE NULLS or RESPECT NULLS
	WithinGroup   []*OrderItem // LISTAGG(x) WITHIN GROUP (ORDER BY ...)
	Filter        Expr
	Over          *WindowSpec
	OverRef       *Ident
}

// FuncName is the function's name, upper-cased, without qualifiers: what
// a switch over built-in functions wants.
func (f *FuncCall) FuncName() string { return strings.ToUpper(f.Name.Last()) }

// NamedArg is name => value in a call, as window TVFs and process table
// functions allow: TUMBLE(DATA => TABLE t, TIMECOL => DESCRIPTOR(ts), ...).
type NamedArg struct {
	Span
	Name  *Ident
	Value Expr
}

// TableArg is TABLE t [PARTITION BY ...] [ORDER BY ...] passed to a table
// function.
type TableArg struct {
	Span
	Name        *QualifiedName
	PartitionBy []Expr
	OrderBy     []*OrderItem
}

// DescriptorExpr is DESCRIPTOR(col, ...), naming the time column of a
// window TVF.
type DescriptorExpr struct {
	Span
	Columns []*Ident
}

// TimeUnitExpr is a bare time unit passed as an argument, as in
// TIMESTAMPADD(DAY, 1, ts) and TIMESTAMPDIFF(HOUR, a, b).
type TimeUnitExpr struct {
	Span
	Unit string
}

// ExtractExpr is EXTRACT(unit FROM x).
type ExtractExpr struct {
	Span
	Unit string
	X    Expr
}

// TrimExpr is TRIM([BOTH|LEADING|TRAILING] [chars] FROM x) or TRIM(x).
type TrimExpr struct {
	Span
	Side  string // "", BOTH, LEADING or TRAILING
	Chars Expr
	X     Expr
	From  bool // the FROM form was used
}

// PositionExpr is POSITION(sub IN x [FROM start]).
type PositionExpr struct {
	Span
	Sub   Expr
	X     Expr
	Start Expr
}

// SubstringExpr is SUBSTRING(x FROM start [FOR length]); the comma form is
// a plain FuncCall.
type SubstringExpr struct {
	Span
	X      Expr
	From   Expr
	Length Expr
}

// OverlayExpr is OVERLAY(x PLACING y FROM start [FOR length]).
type OverlayExpr struct {
	Span
	X       Expr
	Placing Expr
	From    Expr
	Length  Expr
}

// FloorCeilExpr is FLOOR(x TO unit) or CEIL(x TO unit); the one-argument
// forms are plain FuncCalls.
type FloorCeilExpr struct {
	Span
	Name string // FLOOR, CEIL or CEILING
	X    Expr
	Unit string
}

// JSONCallExpr is one of the JSON functions whose arguments use keywords
// rather than commas alone, kept as clauses in order so the formatter can
// print them back:
//
//	JSON_VALUE(v, '$.a' RETURNING INT DEFAULT 0 ON EMPTY)
//	JSON_OBJECT(KEY 'a' VALUE x, 'b' VALUE y NULL ON NULL)
type JSONCallExpr struct {
	Span
	Name    string // JSON_VALUE, JSON_QUERY, JSON_EXISTS, JSON_OBJECT, JSON_ARRAY, JSON_OBJECTAGG, JSON_ARRAYAGG, JSON
	Args    []Expr // positional arguments before the clauses
	Entries []*JSONEntry
	// Returning is the RETURNING type, if any.
	Returning *DataType
	// Clauses are the trailing keyword clauses in order, such as
	// NULL ON NULL, WITH CONDITIONAL ARRAY WRAPPER, DEFAULT 0 ON EMPTY.
	Clauses []*JSONClause
}

// JSONClause is one keyword clause of a JSON function. Text is its words,
// upper-case, with the DEFAULT value left out ("DEFAULT ON EMPTY");
// Default holds that value.
type JSONClause struct {
	Span
	Text    string
	Default Expr
}

// JSONEntry is one KEY k VALUE v (or k VALUE v, or k : v) of JSON_OBJECT.
type JSONEntry struct {
	Span
	KeyWord bool // the KEY keyword was written
	Colon   bool // k : v form
	Key     Expr
	Value   Expr
}

// RowExpr is ROW(a, b) or a parenthesized list (a, b).
type RowExpr struct {
	Span
	Explicit bool // the ROW keyword was written
	Items    []Expr
}

// ArrayExpr is ARRAY[a, b] or ARRAY(subquery).
type ArrayExpr struct {
	Span
	Items []Expr
	Query *Query
}

// MapExpr is MAP[k1, v1, k2, v2] or MAP(subquery).
type MapExpr struct {
	Span
	Items []Expr // keys and values alternating
	Query *Query
}

// ParenExpr is (x); kept so the formatter prints what was written.
type ParenExpr struct {
	Span
	X Expr
}

// IndexExpr is x[i]: array element or map value access.
type IndexExpr struct {
	Span
	X     Expr
	Index Expr
}

// FieldExpr is x.field where x is not a plain name, such as f(y).a or
// (r).b. Dotted names are a ColumnRef.
type FieldExpr struct {
	Span
	X     Expr
	Field *Ident
}

func (*ColumnRef) exprNode()      {}
func (*Star) exprNode()           {}
func (*NumberLit) exprNode()      {}
func (*StringLit) exprNode()      {}
func (*BinaryLit) exprNode()      {}
func (*BoolLit) exprNode()        {}
func (*NullLit) exprNode()        {}
func (*TypedLit) exprNode()       {}
func (*IntervalLit) exprNode()    {}
func (*Param) exprNode()          {}
func (*UnaryExpr) exprNode()      {}
func (*BinaryExpr) exprNode()     {}
func (*IsExpr) exprNode()         {}
func (*IsDistinctExpr) exprNode() {}
func (*InExpr) exprNode()         {}
func (*BetweenExpr) exprNode()    {}
func (*LikeExpr) exprNode()       {}
func (*QuantifiedExpr) exprNode() {}
func (*ExistsExpr) exprNode()     {}
func (*SubqueryExpr) exprNode()   {}
func (*CaseExpr) exprNode()       {}
func (*CastExpr) exprNode()       {}
func (*FuncCall) exprNode()       {}
func (*NamedArg) exprNode()       {}
func (*TableArg) exprNode()       {}
func (*DescriptorExpr) exprNode() {}
func (*TimeUnitExpr) exprNode()   {}
func (*ExtractExpr) exprNode()    {}
func (*TrimExpr) exprNode()       {}
func (*PositionExpr) exprNode()   {}
func (*SubstringExpr) exprNode()  {}
func (*OverlayExpr) exprNode()    {}
func (*FloorCeilExpr) exprNode()  {}
func (*JSONCallExpr) exprNode()   {}
func (*RowExpr) exprNode()        {}
func (*ArrayExpr) exprNode()      {}
func (*MapExpr) exprNode()        {}
func (*ParenExpr) exprNode()      {}
func (*IndexExpr) exprNode()      {}
func (*FieldExpr) exprNode()      {}
func (*BadExpr) exprNode()        {}

// BadExpr stands in for an expression that failed to parse, so the
// parser never hands back a nil expression; a statement holding one is
// discarded.
type BadExpr struct{ Span }

// Operator precedence, lowest first: the parser binds operators by it and
// the formatter puts parentheses where it needs them.
const (
	PrecOr = iota + 1
	PrecAnd
	PrecNot
	PrecCmp
	PrecConcat
	PrecAdd
	PrecMul
	PrecUnary
)
