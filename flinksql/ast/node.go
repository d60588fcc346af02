package ast

import "strings"

// Span is the source range of a node: Pos is its first rune, End is just
// past its last one. Every node embeds a Span, so n.Pos.Line and
// src[n.Pos.Offset:n.End.Offset] work on any of them.
type Span struct {
	Pos Pos
	End Pos
}

// Range returns the span; it makes every node a Node.
func (s Span) Range() Span { return s }

// Node is any syntax tree node.
type Node interface {
	Range() Span
}

// Ident is one name. Flink names are case-sensitive, so Name keeps the
// case as written; Quoted records back-quotes (`name`), which the
// formatter keeps.
type Ident struct {
	Span
	Name   string
	Quoted bool
}

// String renders the identifier as SQL, quoting it if it was quoted.
func (id *Ident) String() string {
	if id == nil {
		return ""
	}
	if id.Quoted {
		return QuoteIdent(id.Name)
	}
	return id.Name
}

// QualifiedName is a dotted name such as catalog.db.table.
type QualifiedName struct {
	Span
	Parts []*Ident
}

// String renders the name as SQL.
func (q *QualifiedName) String() string {
	if q == nil {
		return ""
	}
	parts := make([]string, len(q.Parts))
	for i, p := range q.Parts {
		parts[i] = p.String()
	}
	return strings.Join(parts, ".")
}

// Last is the final part: the object's own name.
func (q *QualifiedName) Last() string {
	if q == nil || len(q.Parts) == 0 {
		return ""
	}
	return q.Parts[len(q.Parts)-1].Name
}

// Key is the name with its parts joined by dots, unquoted: the key the
// validator's tables use.
func (q *QualifiedName) Key() string {
	if q == nil {
		return ""
	}
	parts := make([]string, len(q.Parts))
	for i, p := range q.Parts {
		parts[i] = p.Name
	}
	return strings.Join(parts, ".")
}

// StringLit is a string literal; Value has the escapes decoded.
type StringLit struct {
	Span
	Value string
}

// Property is one 'key' = 'value' pair of a WITH clause, a SET, a hint or
// a partition spec.
type Property struct {
	Span
	Key   *StringLit
	Value *StringLit
}

// Hint is one hint of a /*+ ... */ block: a name with either a list of
// options (identifiers or strings) or key=value pairs.
//
//	/*+ LOOKUP('table'='dim', 'async'='true') */  -> Name LOOKUP, KVs
//	/*+ BROADCAST(dim, t2) */                     -> Name BROADCAST, Args
//	/*+ OPTIONS('scan.startup.mode'='latest') */  -> Name OPTIONS, KVs
type Hint struct {
	Span
	Name *Ident
	Args []Expr
	KVs  []*HintKV
	// Parens records whether a parameter list was written, even an empty one.
	Parens bool
}

// HintKV is one key = value option of a hint. Keys may be identifiers or
// strings; values are strings.
type HintKV struct {
	Span
	Key   Expr // *ColumnRef or *StringLit
	Value Expr // *StringLit usually
}

// Option returns the value of a key=value option of the hint, and whether
// it is there.
func (h *Hint) Option(key string) (string, bool) {
	for _, kv := range h.KVs {
		if hintKeyName(kv.Key) == key {
			switch v := kv.Value.(type) {
			case *StringLit:
				return v.Value, true
			case *ColumnRef:
				return v.Key(), true
			case *NumberLit:
				return v.Text, true
			}
		}
	}
	return "", false
}

func hintKeyName(e Expr) string {
	switch k := e.(type) {
	case *StringLit:
		return k.Value
	case *ColumnRef:
		return k.Key()
	}
	return ""
}

// Properties is a list of WITH options.
type Properties []*Property

// Get returns the value of the option with the given key (exact match, as
// Flink reads them) and whether it is set.
func (ps Properties) Get(key string) (string, bool) {
	for _, p := range ps {
		if p.Key != nil && p.Key.Value == key {
			if p.Value == nil {
				return "", true
			}
			return p.Value.Value, true
		}
	}
	return "", false
}

// Find returns the property with the given key, or nil.
func (ps Properties) Find(key string) *Property {
	for _, p := range ps {
		if p.Key != nil && p.Key.Value == key {
			return p
		}
	}
	return nil
}

// QuoteIdent writes name back-quoted, doubling any back-quote in it.
func QuoteIdent(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// QuoteString writes s as a SQL string literal, doubling any quote in it.
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
