package ast

import (
	"strconv"
	"strings"
)

// DataType is a Flink data type as written in DDL or CAST.
//
//	VARCHAR(10) NOT NULL        Name VARCHAR, Params [10], NotNull
//	DECIMAL(10, 2)              Name DECIMAL, Params [10 2]
//	TIMESTAMP(3) WITH LOCAL TIME ZONE
//	                            Name TIMESTAMP, Params [3], Zone WITH LOCAL TIME ZONE
//	ARRAY<INT>, INT ARRAY       Name ARRAY, Elem INT (Postfix for the second)
//	MAP<STRING, INT>            Name MAP, Key, Value
//	ROW<a INT, b STRING 'c'>    Name ROW, Fields (Parens for ROW(a INT))
//	RAW('class', 'snapshot')    Name RAW, RawClass, RawSnapshot
//	INTERVAL DAY(2) TO SECOND   Name INTERVAL, Interval
//	my_catalog.my_db.MyType     Name "", UserType
type DataType struct {
	Span
	// Name is the type's keyword(s), upper-case as written: INT, INTEGER,
	// DOUBLE PRECISION, CHARACTER VARYING, TIMESTAMP_LTZ, ...
	Name     string
	Params   []int
	Zone     string // "", WITH TIME ZONE, WITHOUT TIME ZONE, WITH LOCAL TIME ZONE
	Elem     *DataType
	Key      *DataType
	Value    *DataType
	Fields   []*RowField
	Postfix  bool // INT ARRAY, INT MULTISET
	Parens   bool // ROW(...) rather than ROW<...>
	Interval *IntervalQualifier
	// RawClass and RawSnapshot are the arguments of RAW.
	RawClass    *StringLit
	RawSnapshot *StringLit
	// StructClass is the class name of STRUCTURED<'class', fields> (Flink
	// 2.1), whose fields are Fields.
	StructClass *StringLit
	UserType    *QualifiedName
	NotNull     bool
	Null        bool // NULL written explicitly
}

// RowField is one field of a ROW type.
type RowField struct {
	Span
	Name    *Ident
	Type    *DataType
	Comment *StringLit
}

// Root is the canonical family name of the type, folding synonyms:
// INTEGER is INT, DEC and NUMERIC are DECIMAL, CHARACTER VARYING is
// VARCHAR, DOUBLE PRECISION is DOUBLE, TIMESTAMP WITH LOCAL TIME ZONE is
// TIMESTAMP_LTZ. A user-defined type has its name.
func (t *DataType) Root() string {
	if t == nil {
		return ""
	}
	if t.UserType != nil {
		return t.UserType.Key()
	}
	switch t.Name {
	case "INTEGER":
		return "INT"
	case "DEC", "NUMERIC":
		return "DECIMAL"
	case "CHARACTER VARYING", "CHAR VARYING":
		return "VARCHAR"
	case "CHARACTER":
		return "CHAR"
	case "DOUBLE PRECISION":
		return "DOUBLE"
	case "BINARY VARYING":
		return "VARBINARY"
	case "TIMESTAMP":
		if t.Zone == "WITH LOCAL TIME ZONE" {
			return "TIMESTAMP_LTZ"
		}
	case "TIME":
		if t.Zone == "WITH LOCAL TIME ZONE" {
			return "TIME_LTZ"
		}
	}
	return t.Name
}

// String renders the qualifier as Flink writes it, e.g. "DAY(2) TO SECOND(3)".
func (q *IntervalQualifier) String() string {
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

// String renders the type as Flink writes it, e.g. "ROW<a INT, b STRING> NOT
// NULL"; a nil type is the empty string.
func (t *DataType) String() string {
	if t == nil {
		return ""
	}
	var s string
	switch {
	case t.UserType != nil:
		s = t.UserType.String()
	case t.Postfix:
		s = t.Elem.String() + " " + t.Name
	case t.Name == "ARRAY" || t.Name == "MULTISET":
		s = t.Name + "<" + t.Elem.String() + ">"
	case t.Name == "MAP":
		s = "MAP<" + t.Key.String() + ", " + t.Value.String() + ">"
	case t.Name == "ROW":
		fields := make([]string, len(t.Fields))
		for i, fd := range t.Fields {
			fields[i] = fd.Name.String() + " " + fd.Type.String()
			if fd.Comment != nil {
				fields[i] += " " + QuoteString(fd.Comment.Value)
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
	case t.Name == "STRUCTURED":
		fields := []string{QuoteString(t.StructClass.Value)}
		for _, fd := range t.Fields {
			field := fd.Name.String() + " " + fd.Type.String()
			if fd.Comment != nil {
				field += " " + QuoteString(fd.Comment.Value)
			}
			fields = append(fields, field)
		}
		s = "STRUCTURED<" + strings.Join(fields, ", ") + ">"
	case t.Name == "RAW":
		s = "RAW(" + QuoteString(t.RawClass.Value)
		if t.RawSnapshot != nil {
			s += ", " + QuoteString(t.RawSnapshot.Value)
		}
		s += ")"
	case t.Name == "INTERVAL":
		s = "INTERVAL " + t.Interval.String()
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
