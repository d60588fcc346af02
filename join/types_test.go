package join

import (
	"strings"
	"testing"
)

// TestParseType: the type strings of flinksql's, join's and the debug
// runtime's tests, read as Row values carry them. The type is flinksql's
// parse; a type that is not Flink's built-in is KindAny.
func TestParseType(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		want Type
	}{
		{"BOOLEAN", Type{Kind: KindBool}},
		{"boolean null", Type{Kind: KindBool}},
		{"bool", Type{Kind: KindBool}},
		{"TINYINT NOT NULL", Type{Kind: KindInt}},
		{"smallint", Type{Kind: KindInt}},
		{"INT", Type{Kind: KindInt}},
		{"integer", Type{Kind: KindInt}},
		{"INT NULL", Type{Kind: KindInt}},
		{"BIGINT NOT NULL", Type{Kind: KindInt}},
		{"FLOAT", Type{Kind: KindFloat}},
		{"REAL", Type{Kind: KindFloat}},
		{"DOUBLE", Type{Kind: KindFloat}},
		{"double precision", Type{Kind: KindFloat}},
		{"DECIMAL", Type{Kind: KindDecimal}},
		{"DECIMAL(10)", Type{Kind: KindDecimal}},
		{"DECIMAL(10, 2)", Type{Kind: KindDecimal, Scale: 2}},
		{"NUMERIC(10,2)", Type{Kind: KindDecimal, Scale: 2}},
		{"DEC(5, 1)", Type{Kind: KindDecimal, Scale: 1}},
		{"DECIMAL(38, 18)", Type{Kind: KindDecimal, Scale: 18}},
		{"CHAR", Type{Kind: KindString}},
		{"char(3)", Type{Kind: KindString}},
		{"CHARACTER(2)", Type{Kind: KindString}},
		{"VARCHAR(3)", Type{Kind: KindString}},
		{"varchar(10) not null", Type{Kind: KindString}},
		{"character varying(5)", Type{Kind: KindString}},
		{"CHAR VARYING(2)", Type{Kind: KindString}},
		{"STRING", Type{Kind: KindString}},
		{"binary(4)", Type{Kind: KindBytes}},
		{"varbinary(8)", Type{Kind: KindBytes}},
		{"BINARY VARYING(2)", Type{Kind: KindBytes}},
		{"BYTES", Type{Kind: KindBytes}},
		{"DATE", Type{Kind: KindDate}},
		{"TIME", Type{Kind: KindTime}},
		{"time(0)", Type{Kind: KindTime}},
		{"TIME WITHOUT TIME ZONE", Type{Kind: KindTime}},
		{"TIMESTAMP(3)", Type{Kind: KindTimestamp}},
		{"TIMESTAMP(6)", Type{Kind: KindTimestamp}},
		{"timestamp(3) without time zone", Type{Kind: KindTimestamp}},
		{"TIMESTAMP(3) WITH LOCAL TIME ZONE", Type{Kind: KindTimestamp}},
		{"TIMESTAMP_LTZ(3)", Type{Kind: KindTimestamp}},
		{"TIME(3) WITH LOCAL TIME ZONE", Type{Kind: KindAny}},
		{"NULL", Type{Kind: KindAny}},
		{"interval day(2) to second(3)", Type{Kind: KindAny}},
		{"interval year to month", Type{Kind: KindAny}},
		{"ARRAY<DECIMAL(38, 18)>", Type{Kind: KindAny}},
		{"array<int not null>", Type{Kind: KindAny}},
		{"int array", Type{Kind: KindAny}},
		{"int not null multiset not null", Type{Kind: KindAny}},
		{"MAP<STRING, INT>", Type{Kind: KindAny}},
		{"map<string, array<map<int, bigint>>>", Type{Kind: KindAny}},
		{"ARRAY<ROW<a INT>>", Type{Kind: KindAny}},
		{"row<a int, `b c` string 'desc'>", Type{Kind: KindAny}},
		{"row(a int, b row<c int>)", Type{Kind: KindAny}},
		{"row<>", Type{Kind: KindAny}},
		{"raw('java.lang.Object', 'AbCd')", Type{Kind: KindAny}},
		{"GEOMETRY", Type{Kind: KindAny}},
		{"my_cat.my_db.MyType", Type{Kind: KindAny}},
	} {
		got, err := ParseType(tc.typ)
		if err != nil || got != tc.want {
			t.Errorf("ParseType(%q) = %+v, %v; want %+v", tc.typ, got, err, tc.want)
		}
	}
}

// A type that does not parse says where and why, as a DDL error would.
func TestParseTypeErrors(t *testing.T) {
	for typ, want := range map[string]string{
		"DECIMAL(10, x)":        `type "DECIMAL(10, x)": 1:13: expected a scale, found 'x'`,
		"DECIMAL(10, -1)":       `type "DECIMAL(10, -1)": 1:13: expected a scale, found '-'`,
		"VARCHAR(3":             `type "VARCHAR(3": 1:10: expected ')', found end of input`,
		"INT NOT NULL NOT NULL": `type "INT NOT NULL NOT NULL": 1:14: expected end of type, found 'NOT'`,
		"DATETIME(3)":           `type "DATETIME(3)": 1:9: expected end of type, found '('`,
		"":                      `type "": 1:1: expected a data type, found end of input`,
	} {
		if _, err := ParseType(typ); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ParseType(%q): %v; want %s", typ, err, want)
		}
	}
}
