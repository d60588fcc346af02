package value

import (
	"fmt"
	"strings"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
)

// Kind is the root of a SQL type.
type Kind uint8

// The type roots Flink SQL has, in the order of its type families.
const (
	Null Kind = iota // the type of an untyped NULL
	Boolean
	TinyInt
	SmallInt
	Int
	BigInt
	Float
	Double
	Decimal
	Char
	Varchar
	Binary
	Varbinary
	Date
	Time
	Timestamp
	TimestampLTZ
	IntervalYM
	IntervalDT
	ArrayKind
	MapKind
	MultisetKind
	RowKind
	Raw
)

// MaxLength is the length of STRING (VARCHAR) and BYTES (VARBINARY).
const MaxLength = 2147483647

// Type is a SQL type with its parameters.
type Type struct {
	Kind Kind
	// Precision is the length of CHAR, VARCHAR, BINARY and VARBINARY, the
	// precision of DECIMAL, and the fraction digits of TIME and TIMESTAMP.
	Precision int
	Scale     int // DECIMAL's
	NotNull   bool
	Elem      *Type   // ARRAY's and MULTISET's element, MAP's key
	Val       *Type   // MAP's value
	Fields    []Field // ROW's
}

// Field is a field of a ROW type.
type Field struct {
	Name string
	Type Type
}

// Types that come up often.
var (
	TBool   = Type{Kind: Boolean}
	TInt    = Type{Kind: Int}
	TBigInt = Type{Kind: BigInt}
	TDouble = Type{Kind: Double}
	TString = Type{Kind: Varchar, Precision: MaxLength}
	TBytes  = Type{Kind: Varbinary, Precision: MaxLength}
	TDate   = Type{Kind: Date}
	TNull   = Type{Kind: Null}
)

// TS is TIMESTAMP(p).
func TS(p int) Type { return Type{Kind: Timestamp, Precision: p} }

// LTZ is TIMESTAMP_LTZ(p).
func LTZ(p int) Type { return Type{Kind: TimestampLTZ, Precision: p} }

// Dec is DECIMAL(p, s).
func Dec(p, s int) Type { return Type{Kind: Decimal, Precision: p, Scale: s} }

// ArrayOf is ARRAY<t>.
func ArrayOf(t Type) Type { return Type{Kind: ArrayKind, Elem: &t} }

// MultisetOf is MULTISET<t>.
func MultisetOf(t Type) Type { return Type{Kind: MultisetKind, Elem: &t} }

// MapOf is MAP<k, v>.
func MapOf(k, v Type) Type { return Type{Kind: MapKind, Elem: &k, Val: &v} }

// IsInteger says whether t is TINYINT, SMALLINT, INT or BIGINT.
func (t Type) IsInteger() bool { return t.Kind >= TinyInt && t.Kind <= BigInt }

// IsNumeric says whether t is an exact or approximate number.
func (t Type) IsNumeric() bool { return t.Kind >= TinyInt && t.Kind <= Decimal }

// IsString says whether t is CHAR or VARCHAR.
func (t Type) IsString() bool { return t.Kind == Char || t.Kind == Varchar }

// IsTimestamp says whether t is TIMESTAMP or TIMESTAMP_LTZ.
func (t Type) IsTimestamp() bool { return t.Kind == Timestamp || t.Kind == TimestampLTZ }

// Nullable is t without NOT NULL.
func (t Type) Nullable() Type { t.NotNull = false; return t }

// String writes the type as Flink prints it: INT, DECIMAL(10, 2), STRING,
// TIMESTAMP(3), ARRAY<INT>, ROW<`a` INT, `b` STRING>.
func (t Type) String() string {
	s := t.base()
	if t.NotNull {
		s += " NOT NULL"
	}
	return s
}

func (t Type) base() string {
	switch t.Kind {
	case Null:
		return "NULL"
	case Boolean:
		return "BOOLEAN"
	case TinyInt:
		return "TINYINT"
	case SmallInt:
		return "SMALLINT"
	case Int:
		return "INT"
	case BigInt:
		return "BIGINT"
	case Float:
		return "FLOAT"
	case Double:
		return "DOUBLE"
	case Decimal:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case Char:
		return fmt.Sprintf("CHAR(%d)", t.Precision)
	case Varchar:
		if t.Precision == MaxLength {
			return "STRING"
		}
		return fmt.Sprintf("VARCHAR(%d)", t.Precision)
	case Binary:
		return fmt.Sprintf("BINARY(%d)", t.Precision)
	case Varbinary:
		if t.Precision == MaxLength {
			return "BYTES"
		}
		return fmt.Sprintf("VARBINARY(%d)", t.Precision)
	case Date:
		return "DATE"
	case Time:
		return fmt.Sprintf("TIME(%d)", t.Precision)
	case Timestamp:
		return fmt.Sprintf("TIMESTAMP(%d)", t.Precision)
	case TimestampLTZ:
		return fmt.Sprintf("TIMESTAMP_LTZ(%d)", t.Precision)
	case IntervalYM:
		return "INTERVAL YEAR TO MONTH"
	case IntervalDT:
		return "INTERVAL DAY TO SECOND(3)"
	case ArrayKind:
		return "ARRAY<" + t.Elem.String() + ">"
	case MultisetKind:
		return "MULTISET<" + t.Elem.String() + ">"
	case MapKind:
		return "MAP<" + t.Elem.String() + ", " + t.Val.String() + ">"
	case RowKind:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = "`" + f.Name + "` " + f.Type.String()
		}
		return "ROW<" + strings.Join(parts, ", ") + ">"
	}
	return "RAW"
}

// Equal says whether two types are the same, nullability aside.
func (t Type) Equal(u Type) bool { return t.Nullable().String() == u.Nullable().String() }

// Parse reads a type as written in DDL or CAST ("DECIMAL(10, 2)",
// "TIMESTAMP(3) WITH LOCAL TIME ZONE", "ARRAY<ROW<a INT>>").
func Parse(s string) (Type, error) {
	dt, errs := flinksql.ParseDataType(s)
	if len(errs) > 0 {
		return Type{}, fmt.Errorf("type %q: %v", s, errs[0])
	}
	return FromAST(dt)
}

// FromAST is the type a ast.DataType denotes, with Flink's defaults
// for parameters left out: VARCHAR is VARCHAR(1), DECIMAL is DECIMAL(10,
// 0), TIMESTAMP is TIMESTAMP(6), TIME is TIME(0).
func FromAST(dt *ast.DataType) (Type, error) {
	if dt == nil {
		return Type{}, fmt.Errorf("no type")
	}
	param := func(i, def int) int {
		if i < len(dt.Params) {
			return dt.Params[i]
		}
		return def
	}
	t := Type{NotNull: dt.NotNull}
	switch dt.Root() {
	case "NULL":
		t.Kind = Null
	case "BOOLEAN":
		t.Kind = Boolean
	case "TINYINT":
		t.Kind = TinyInt
	case "SMALLINT":
		t.Kind = SmallInt
	case "INT":
		t.Kind = Int
	case "BIGINT":
		t.Kind = BigInt
	case "FLOAT", "REAL":
		t.Kind = Float
		if dt.Root() == "FLOAT" && param(0, 0) > 24 {
			t.Kind = Double
		}
	case "DOUBLE":
		t.Kind = Double
	case "DECIMAL":
		t.Kind, t.Precision, t.Scale = Decimal, param(0, 10), param(1, 0)
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return t, fmt.Errorf("DECIMAL(%d, %d): precision must be 1 to 38 and scale 0 to the precision", t.Precision, t.Scale)
		}
	case "CHAR":
		t.Kind, t.Precision = Char, param(0, 1)
	case "VARCHAR":
		t.Kind, t.Precision = Varchar, param(0, 1)
	case "STRING":
		t.Kind, t.Precision = Varchar, MaxLength
	case "BINARY":
		t.Kind, t.Precision = Binary, param(0, 1)
	case "VARBINARY":
		t.Kind, t.Precision = Varbinary, param(0, 1)
	case "BYTES":
		t.Kind, t.Precision = Varbinary, MaxLength
	case "DATE":
		t.Kind = Date
	case "TIME", "TIME_LTZ":
		t.Kind, t.Precision = Time, param(0, 0)
	case "TIMESTAMP":
		t.Kind, t.Precision = Timestamp, param(0, 6)
		if dt.Zone == "WITH TIME ZONE" {
			return t, fmt.Errorf("TIMESTAMP WITH TIME ZONE is not supported by Flink: use TIMESTAMP_LTZ")
		}
	case "TIMESTAMP_LTZ":
		t.Kind, t.Precision = TimestampLTZ, param(0, 6)
	case "INTERVAL":
		t.Kind = IntervalDT
		if q := dt.Interval; q != nil && (q.From == "YEAR" || q.From == "MONTH" || q.From == "YEARS" || q.From == "MONTHS") {
			t.Kind = IntervalYM
		}
	case "ARRAY", "MULTISET":
		e, err := FromAST(dt.Elem)
		if err != nil {
			return t, err
		}
		t.Kind, t.Elem = ArrayKind, &e
		if dt.Root() == "MULTISET" {
			t.Kind = MultisetKind
		}
	case "MAP":
		k, err := FromAST(dt.Key)
		if err != nil {
			return t, err
		}
		v, err := FromAST(dt.Value)
		if err != nil {
			return t, err
		}
		t.Kind, t.Elem, t.Val = MapKind, &k, &v
	case "ROW":
		t.Kind = RowKind
		for _, f := range dt.Fields {
			ft, err := FromAST(f.Type)
			if err != nil {
				return t, err
			}
			t.Fields = append(t.Fields, Field{Name: f.Name.Name, Type: ft})
		}
	default:
		t.Kind = Raw
	}
	if t.Precision < 0 || (t.Kind == Timestamp || t.Kind == TimestampLTZ || t.Kind == Time) && t.Precision > 9 {
		return t, fmt.Errorf("%s: precision must be 0 to 9", dt.Root())
	}
	return t, nil
}

// IntervalType is the type of an INTERVAL literal's qualifier: YEAR TO
// MONTH kinds or DAY TO SECOND kinds.
func IntervalType(unit string) Type {
	switch strings.TrimSuffix(strings.ToUpper(unit), "S") {
	case "YEAR", "MONTH", "QUARTER":
		return Type{Kind: IntervalYM}
	}
	return Type{Kind: IntervalDT, Precision: 3}
}
