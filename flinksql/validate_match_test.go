package flinksql

import (
	"strings"
	"testing"
)

// The MATCH_RECOGNIZE patterns Flink's planner refuses are errors at the
// offending part, in Flink's words.
func TestValidateMatchRecognizePatterns(t *testing.T) {
	ddl := "CREATE TABLE T (k STRING, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen');\n"
	q := func(pattern string) string {
		return ddl + "SELECT * FROM T MATCH_RECOGNIZE (ORDER BY ts MEASURES A.v AS a PATTERN (" + pattern + ") DEFINE A AS A.v > 0)"
	}
	for _, tc := range []struct {
		pattern string
		col     int
		want    string
	}{
		{"A B+", 75, "Greedy quantifiers are not allowed as the last element of a Pattern yet."},
		{"A | B", 73, "Currently, CEP doesn't support branching patterns."},
		{"A (B C)+ D", 75, "Group patterns are not supported yet."},
		{"A? B*", 73, "Patterns that can produce empty matches are not supported."},
		{"A B?? C", 75, "Reluctant optional variables are not supported yet."},
		{"A B A", 77, "Pattern variables must be unique."},
		{"A B+? C{2,}? D{3}", 0, ""},
	} {
		r := Check(q(tc.pattern), Options{})
		var got []Diagnostic
		for _, d := range r.Diagnostics {
			if d.Code == CodeUnsupported {
				got = append(got, d)
			}
		}
		if tc.want == "" {
			if len(got) > 0 {
				t.Errorf("%s: %v", tc.pattern, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Pos.Line != 2 || got[0].Pos.Col != tc.col || !strings.Contains(got[0].Msg, tc.want) {
			t.Errorf("%s: got %+v, want 2:%d %s", tc.pattern, got, tc.col, tc.want)
		}
	}
}
