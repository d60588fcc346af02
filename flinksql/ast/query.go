package ast

// Query is a full query expression:
//
//	[WITH ...] body [ORDER BY ...] [LIMIT n] [OFFSET n ROWS] [FETCH FIRST n ROWS ONLY]
type Query struct {
	Span
	With    *With
	Body    QueryBody
	OrderBy []*OrderItem
	Limit   Expr
	Offset  Expr
	Fetch   Expr
}

// With is WITH [RECURSIVE] name AS (query), ...
type With struct {
	Span
	Recursive bool
	CTEs      []*CTE
}

// CTE is one common table expression: name [(cols)] AS (query).
type CTE struct {
	Span
	Name    *Ident
	Columns []*Ident
	Query   *Query
}

// QueryBody is what a query computes rows with: *Select, *SetOp, *Values
// or *ParenQuery.
type QueryBody interface {
	Node
	queryBody()
}

// Select is one SELECT block.
type Select struct {
	Span
	Hints    []*Hint // query hints: SELECT /*+ ... */
	Distinct bool
	All      bool
	Items    []*SelectItem
	From     TableExpr // nil without FROM
	Where    Expr
	GroupBy  []Expr // may hold *GroupingSets, *Rollup, *Cube and empty *RowExpr ()
	Having   Expr
	Windows  []*NamedWindow
}

// SelectItem is expr [AS alias], or a *Star.
type SelectItem struct {
	Span
	Expr  Expr
	Alias *Ident
}

// SetOp is l UNION|INTERSECT|EXCEPT|MINUS [ALL|DISTINCT] r.
type SetOp struct {
	Span
	Op       string
	All      bool
	Distinct bool
	L, R     QueryBody
}

// Values is VALUES row, row, ...; each row is usually a *RowExpr.
type Values struct {
	Span
	Rows []Expr
}

// ParenQuery is a parenthesized query used as a query body, such as an
// operand of UNION that has its own ORDER BY.
type ParenQuery struct {
	Span
	Query *Query
}

// GroupingSets is GROUPING SETS (...) in GROUP BY.
type GroupingSets struct {
	Span
	Sets []Expr
}

// Rollup is ROLLUP (...) in GROUP BY.
type Rollup struct {
	Span
	Items []Expr
}

// Cube is CUBE (...) in GROUP BY.
type Cube struct {
	Span
	Items []Expr
}

// OrderItem is expr [ASC|DESC] [NULLS FIRST|LAST].
type OrderItem struct {
	Span
	Expr  Expr
	Dir   string // "", ASC or DESC
	Nulls string // "", FIRST or LAST
}

// Desc reports whether the order is descending.
func (o *OrderItem) Desc() bool { return o.Dir == "DESC" }

// NamedWindow is one entry of a WINDOW clause: name AS (spec).
type NamedWindow struct {
	Span
	Name *Ident
	Spec *WindowSpec
}

// WindowSpec is the window of an OVER clause or a WINDOW entry.
type WindowSpec struct {
	Span
	Ref         *Ident // an existing window this one refines
	PartitionBy []Expr
	OrderBy     []*OrderItem
	Frame       *WindowFrame
}

// WindowFrame is ROWS|RANGE [BETWEEN] start [AND end].
type WindowFrame struct {
	Span
	Unit  string // ROWS or RANGE
	Start *FrameBound
	End   *FrameBound // nil without BETWEEN
}

// FrameBound is UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING
// or UNBOUNDED FOLLOWING.
type FrameBound struct {
	Span
	Kind   string // UNBOUNDED PRECEDING, PRECEDING, CURRENT ROW, FOLLOWING, UNBOUNDED FOLLOWING
	Offset Expr   // for PRECEDING and FOLLOWING
}

// TableExpr is an item of a FROM clause: *TableRef, *DerivedTable,
// *TableFunc, *Unnest, *Join, *ParenTable or *MatchRecognize.
type TableExpr interface {
	Node
	tableExpr()
}

// Alias is AS name [(col, ...)] after a table expression.
type Alias struct {
	Span
	Name    *Ident
	Columns []*Ident
}

// TableRef is a named table, with its hints, its FOR SYSTEM_TIME AS OF
// (which makes a join with it a lookup or temporal join) and its alias.
type TableRef struct {
	Span
	Name       *QualifiedName
	Hints      []*Hint
	SystemTime Expr
	Alias      *Alias
}

// DerivedTable is [LATERAL] (subquery) [AS alias].
type DerivedTable struct {
	Span
	Lateral bool
	Query   *Query
	Alias   *Alias
}

// TableFunc is a table function in FROM: [LATERAL] TABLE(f(...)) [AS
// alias], which includes the window TVFs TABLE(TUMBLE(...)).
type TableFunc struct {
	Span
	Lateral bool
	Wrapped bool // written TABLE(...); false for a bare f(...)
	Call    Expr // usually *FuncCall
	Alias   *Alias
}

// Unnest is UNNEST(expr, ...) [WITH ORDINALITY] [AS t(a, b)].
type Unnest struct {
	Span
	Args           []Expr
	WithOrdinality bool
	Alias          *Alias
}

// JoinKind is the kind of a join.
type JoinKind int

// The join kinds. JoinComma is the implicit cross join of FROM a, b.
const (
	JoinInner JoinKind = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinCross
	JoinComma
)

// String is the SQL spelling of the kind.
func (k JoinKind) String() string {
	switch k {
	case JoinInner:
		return "JOIN"
	case JoinLeft:
		return "LEFT JOIN"
	case JoinRight:
		return "RIGHT JOIN"
	case JoinFull:
		return "FULL JOIN"
	case JoinCross:
		return "CROSS JOIN"
	case JoinComma:
		return ","
	}
	return "JoinKind(?)"
}

// Join is l [NATURAL] kind JOIN r [ON cond | USING (cols)].
type Join struct {
	Span
	Kind    JoinKind
	Natural bool
	L, R    TableExpr
	On      Expr
	Using   []*Ident
}

// ParenTable is a parenthesized join: (a JOIN b ON ...).
type ParenTable struct {
	Span
	Table TableExpr
}

// MatchRecognize is input MATCH_RECOGNIZE (...) [AS alias].
type MatchRecognize struct {
	Span
	Input        TableExpr
	PartitionBy  []Expr
	OrderBy      []*OrderItem
	Measures     []*SelectItem
	RowsPerMatch string // "", ONE ROW PER MATCH or ALL ROWS PER MATCH
	AfterMatch   *AfterMatch
	StrictStart  bool // ^ before the pattern
	StrictEnd    bool // $ after the pattern
	Pattern      PatternTerm
	Within       Expr
	Subsets      []*Subset
	Define       []*SelectItem // condition AS variable, stored as Expr and Alias
	Alias        *Alias
}

// AfterMatch is AFTER MATCH SKIP ...
type AfterMatch struct {
	Span
	Kind string // PAST LAST ROW, TO NEXT ROW, TO FIRST, TO LAST, TO
	Var  *Ident
}

// Subset is SUBSET name = (a, b).
type Subset struct {
	Span
	Name *Ident
	Vars []*Ident
}

// PatternTerm is a node of a MATCH_RECOGNIZE pattern.
type PatternTerm interface {
	Node
	patternTerm()
}

// PatternVar is a pattern variable with an optional quantifier.
type PatternVar struct {
	Span
	Name  *Ident
	Quant string // "", *, +, ?, {n}, {n,}, {,m}, {n,m}, each optionally followed by ?
}

// PatternSeq is terms one after another.
type PatternSeq struct {
	Span
	Items []PatternTerm
}

// PatternAlt is alternatives a | b.
type PatternAlt struct {
	Span
	Alts []PatternTerm
}

// PatternGroup is (terms) with an optional quantifier.
type PatternGroup struct {
	Span
	Inner PatternTerm
	Quant string
}

// PatternPermute is PERMUTE(a, b).
type PatternPermute struct {
	Span
	Items []PatternTerm
}

// PatternExclude is {- terms -}.
type PatternExclude struct {
	Span
	Inner PatternTerm
}

func (*Select) queryBody()     {}
func (*SetOp) queryBody()      {}
func (*Values) queryBody()     {}
func (*ParenQuery) queryBody() {}

func (*TableRef) tableExpr()       {}
func (*DerivedTable) tableExpr()   {}
func (*TableFunc) tableExpr()      {}
func (*Unnest) tableExpr()         {}
func (*Join) tableExpr()           {}
func (*ParenTable) tableExpr()     {}
func (*MatchRecognize) tableExpr() {}

func (*GroupingSets) exprNode() {}
func (*Rollup) exprNode()       {}
func (*Cube) exprNode()         {}

func (*PatternVar) patternTerm()     {}
func (*PatternSeq) patternTerm()     {}
func (*PatternAlt) patternTerm()     {}
func (*PatternGroup) patternTerm()   {}
func (*PatternPermute) patternTerm() {}
func (*PatternExclude) patternTerm() {}
