package flinksql

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
