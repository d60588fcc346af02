package value

import (
	"math"
	"math/big"
	"testing"
	"time"
)

func rat(s string) *big.Rat { r, _ := new(big.Rat).SetString(s); return r }

func mustType(t *testing.T, s string) Type {
	t.Helper()
	ty, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// Every type's values as CAST(v AS STRING) writes them in Flink 1.15+
// (DateTimeUtils.formatTimestamp, Double.toString, BigDecimal's plain
// string, the ROW, ARRAY and MAP cast rules).
func TestStringMatchesFlinkForEveryType(t *testing.T) {
	at := func(s string) time.Time {
		ts, err := ParseTimestamp(s)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skip("no time zone data")
	}
	tod := func(h, m, s, ns int) TimeOfDay {
		return TimeOfDay(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second + time.Duration(ns))
	}
	for _, tc := range []struct {
		typ  string
		v    any
		want string
	}{
		{"BOOLEAN", true, "TRUE"},
		{"BOOLEAN", false, "FALSE"},
		{"TINYINT", int64(-128), "-128"},
		{"SMALLINT", int64(300), "300"},
		{"INT", int64(-7), "-7"},
		{"BIGINT", int64(math.MaxInt64), "9223372036854775807"},
		{"FLOAT", float64(float32(1.1)), "1.1"},
		{"FLOAT", 1e10, "1.0E10"},
		{"DOUBLE", 7.0, "7.0"},
		{"DOUBLE", 100.0, "100.0"},
		{"DOUBLE", 3.14, "3.14"},
		{"DOUBLE", 0.001, "0.001"},
		{"DOUBLE", 0.0001, "1.0E-4"},
		{"DOUBLE", 1e7, "1.0E7"},
		{"DOUBLE", 12345678.9, "1.23456789E7"},
		{"DOUBLE", 9999999.0, "9999999.0"},
		{"DOUBLE", -2.5e-5, "-2.5E-5"},
		{"DOUBLE", math.NaN(), "NaN"},
		{"DOUBLE", math.Inf(-1), "-Infinity"},
		{"DOUBLE", math.Copysign(0, -1), "-0.0"},
		{"DECIMAL(2, 1)", rat("7"), "7.0"},
		{"DECIMAL(10, 2)", rat("12.5"), "12.50"},
		{"DECIMAL", rat("3"), "3"},
		{"DECIMAL(5, 3)", rat("-0.5"), "-0.500"},
		{"DECIMAL(38, 18)", rat("1/3"), "0.333333333333333333"},
		{"CHAR(5)", "ab   ", "ab   "},
		{"STRING", "héllo", "héllo"},
		{"VARCHAR(10)", "", ""},
		{"BYTES", []byte("hi"), "hi"},
		{"DATE", at("2024-02-29"), "2024-02-29"},
		{"DATE", at("0005-01-01"), "0005-01-01"},
		{"TIME", tod(10, 15, 30, 0), "10:15:30"},
		{"TIME(3)", tod(10, 15, 30, 123e6), "10:15:30.123"},
		{"TIME(3)", tod(10, 15, 30, 100e6), "10:15:30.1"},
		{"TIME(3)", tod(10, 15, 30, 0), "10:15:30.0"},
		{"TIMESTAMP(3)", at("2020-04-15 08:05:00"), "2020-04-15 08:05:00.000"},
		{"TIMESTAMP(3)", at("2024-01-01 00:00:00"), "2024-01-01 00:00:00.000"},
		{"TIMESTAMP(3)", at("2024-01-01 10:15:30.123"), "2024-01-01 10:15:30.123"},
		{"TIMESTAMP(0)", at("2024-01-01 10:15:30"), "2024-01-01 10:15:30"},
		{"TIMESTAMP", at("2024-01-01 10:15:30.0015"), "2024-01-01 10:15:30.001500"},
		{"TIMESTAMP(9)", at("2024-01-01 10:15:30.123456789"), "2024-01-01 10:15:30.123456789"},
		{"TIMESTAMP_LTZ(3)", at("2020-04-15 00:05:00"), "2020-04-15 08:05:00.000"},
		{"INTERVAL YEAR TO MONTH", Months(14), "+1-02"},
		{"INTERVAL YEAR TO MONTH", Months(-3), "-0-03"},
		{"INTERVAL DAY TO SECOND", 26*time.Hour + 3*time.Minute + 4500*time.Millisecond, "+1 02:03:04.500"},
		{"ARRAY<INT>", Array{int64(1), nil, int64(3)}, "[1, NULL, 3]"},
		{"ARRAY<DECIMAL(3, 1)>", Array{rat("1")}, "[1.0]"},
		{"MAP<STRING, INT>", &Map{Keys: []any{"a", "b"}, Vals: []any{int64(1), nil}}, "{a=1, b=NULL}"},
		{"MULTISET<STRING>", &Map{Keys: []any{"a"}, Vals: []any{int64(2)}}, "{a=2}"},
		{"ROW<a INT, b STRING, c TIMESTAMP(3)>", Row{int64(1), "x", at("2024-01-01 00:00:00")}, "(1, x, 2024-01-01 00:00:00.000)"},
		{"ROW<a INT, b STRING>", Row{nil, "x"}, "(NULL, x)"},
		{"INT", nil, "NULL"},
	} {
		got := String(tc.v, mustType(t, tc.typ), shanghai)
		if got != tc.want {
			t.Errorf("CAST(%v AS STRING) of %s: got %q, want %q", tc.v, tc.typ, got, tc.want)
		}
	}
	if got := Print([]byte("hi"), TBytes, nil); got != "x'6869'" {
		t.Errorf("the SQL client prints BYTES as %q", got)
	}
}

// CAST between types as Flink does it, values and failures.
func TestCastFollowsFlinkRules(t *testing.T) {
	for _, tc := range []struct {
		v        any
		from, to string
		want     string // as String of the target; "!" when the cast fails
	}{
		{"abc", "STRING", "CHAR(5)", "abc  "},
		{"abcdef", "STRING", "VARCHAR(3)", "abc"},
		{" 42 ", "STRING", "INT", "42"},
		{"4x", "STRING", "INT", "!"},
		{"3000000000", "STRING", "INT", "!"},
		{int64(300), "INT", "TINYINT", "44"},
		{2.9, "DOUBLE", "INT", "2"},
		{-2.9, "DOUBLE", "BIGINT", "-2"},
		{rat("2.5"), "DECIMAL(3, 1)", "DECIMAL(3, 0)", "3"},
		{rat("-2.5"), "DECIMAL(3, 1)", "DECIMAL(3, 0)", "-3"},
		{rat("123.45"), "DECIMAL(5, 2)", "DECIMAL(4, 2)", "NULL"},
		{1.0 / 3, "DOUBLE", "DECIMAL(5, 4)", "0.3333"},
		{"yes", "STRING", "BOOLEAN", "TRUE"},
		{"maybe", "STRING", "BOOLEAN", "!"},
		{int64(0), "INT", "BOOLEAN", "FALSE"},
		{"2024-1-5", "STRING", "DATE", "2024-01-05"},
		{"2024-02-30", "STRING", "DATE", "!"},
		{"2024-01-05 7:08:09.5", "STRING", "TIMESTAMP(3)", "2024-01-05 07:08:09.500"},
		{"2024-01-05T07:08:09", "STRING", "TIMESTAMP(3)", "!"},
		{"10:15", "STRING", "TIME", "10:15:00"},
		{rat("7.0"), "DECIMAL(2, 1)", "STRING", "7.0"},
		{int64(7), "INT", "DOUBLE", "7.0"},
	} {
		from, to := mustType(t, tc.from), mustType(t, tc.to)
		got, err := Cast(tc.v, from, to, nil)
		switch {
		case tc.want == "!" && err == nil:
			t.Errorf("CAST(%v AS %s): got %v, want a failure", tc.v, tc.to, got)
		case tc.want != "!" && err != nil:
			t.Errorf("CAST(%v AS %s): %v", tc.v, tc.to, err)
		case tc.want != "!" && String(got, to, nil) != tc.want:
			t.Errorf("CAST(%v AS %s): got %q, want %q", tc.v, tc.to, String(got, to, nil), tc.want)
		}
	}
}

// DATE_FORMAT and TO_TIMESTAMP patterns read M, d, H, MMM as Java does.
func TestDatePatterns(t *testing.T) {
	ts := time.Date(2024, 3, 5, 7, 8, 9, 120e6, time.UTC)
	for pattern, want := range map[string]string{
		"yyyy-MM-dd HH:mm:ss":    "2024-03-05 07:08:09",
		"M/d/yy":                 "3/5/24",
		"MMM d, yyyy h:mm a":     "Mar 5, 2024 7:08 AM",
		"MMMM EEEE":              "March Tuesday",
		"EEE HH'h'mm":            "Tue 07h08",
		"yyyyMMddHHmmssSSS":      "20240305070809120",
		"D 'day' ''":             "65 day '",
		"yyyy-MM-dd'T'HH:mm:ssX": "2024-03-05T07:08:09Z",
	} {
		got, err := FormatPattern(ts, pattern)
		if err != nil || got != want {
			t.Errorf("%q: got %q (%v), want %q", pattern, got, err, want)
		}
	}
	for _, tc := range []struct{ s, pattern, want string }{
		{"2024-03-05 07:08:09", "yyyy-MM-dd HH:mm:ss", "2024-03-05 07:08:09"},
		{"20240305070809120", "yyyyMMddHHmmssSSS", "2024-03-05 07:08:09.12"},
		{"Mar 5, 2024 7:08 PM", "MMM d, yyyy h:mm a", "2024-03-05 19:08:00"},
		{"05/03/2024", "dd/MM/yyyy", "2024-03-05 00:00:00"},
	} {
		got, err := ParsePattern(tc.s, tc.pattern)
		if err != nil {
			t.Errorf("%q by %q: %v", tc.s, tc.pattern, err)
			continue
		}
		if s := formatTimestamp(got, 0); s != tc.want {
			t.Errorf("%q by %q: got %s, want %s", tc.s, tc.pattern, s, tc.want)
		}
	}
	if _, err := ParsePattern("2024-13-01", "yyyy-MM-dd"); err == nil {
		t.Error("month 13 parsed")
	}
}

// Decimal arithmetic has Flink's result types.
func TestArithTypes(t *testing.T) {
	for _, tc := range []struct {
		op   byte
		a, b string
		want string
	}{
		{'+', "INT", "INT", "INT"},
		{'+', "INT", "BIGINT", "BIGINT"},
		{'/', "INT", "INT", "INT"},
		{'+', "DECIMAL(10, 2)", "DECIMAL(10, 2)", "DECIMAL(11, 2)"},
		{'*', "DECIMAL(10, 2)", "DECIMAL(10, 2)", "DECIMAL(21, 4)"},
		{'/', "DECIMAL(10, 2)", "DECIMAL(10, 2)", "DECIMAL(23, 13)"},
		{'*', "DECIMAL(10, 2)", "INT", "DECIMAL(21, 2)"},
		{'+', "DECIMAL(38, 10)", "DECIMAL(38, 10)", "DECIMAL(38, 9)"},
		{'+', "INT", "DOUBLE", "DOUBLE"},
		{'+', "TIMESTAMP(3)", "INTERVAL DAY TO SECOND", "TIMESTAMP(3)"},
	} {
		got, err := ArithType(tc.op, mustType(t, tc.a), mustType(t, tc.b))
		if err != nil || got.String() != tc.want {
			t.Errorf("%s %c %s: got %v (%v), want %s", tc.a, tc.op, tc.b, got, err, tc.want)
		}
	}
	v, err := Arith('/', rat("1"), rat("3"), Dec(10, 2), Dec(10, 2), Dec(23, 13))
	if err != nil || String(v, Dec(23, 13), nil) != "0.3333333333333" {
		t.Errorf("1.00 / 3.00 = %v (%v)", v, err)
	}
}
