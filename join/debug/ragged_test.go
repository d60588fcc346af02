package debug

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestRaggedCharLiteralsAreVarchar: Flink's type factory makes the common
// type of CHAR literals of different lengths a VARCHAR
// (shouldConvertRaggedUnionTypesToVarying), so CASE, IF, COALESCE, NULLIF
// and set operations over them give the values unpadded; literals of one
// length stay CHAR.
func TestRaggedCharLiteralsAreVarchar(t *testing.T) {
	job := `
CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3');
SELECT id,
  CASE WHEN id % 3 = 0 THEN 'fizz' ELSE 'other' END AS c,
  IF(id > 1, 'large', 'small ') AS i,
  COALESCE(CAST(NULL AS CHAR(1)), 'ab', 'abc') AS co,
  NULLIF('xy', 'xyz') AS n,
  CASE WHEN id = 1 THEN 'one' ELSE 'two' END AS same
FROM gen;
SELECT 'a' AS v UNION ALL SELECT 'bcd';`
	res, err := runSQL(context.Background(), job, Options{})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "CASE, IF, COALESCE, NULLIF", final(res.Sinks[0]), []string{
		"+I[1, other, small , ab, xy, one]",
		"+I[2, other, large, ab, xy, two]",
		"+I[3, fizz, large, ab, xy, two]",
	})
	// NULLIF(a, b) is CASE WHEN a = b THEN NULL ELSE a END: a's type.
	// (COALESCE's nullability is not what this is about.)
	for i, want := range []string{"VARCHAR(5) NOT NULL", "VARCHAR(6) NOT NULL", "VARCHAR(3)", "CHAR(2)", "CHAR(3) NOT NULL"} {
		if c := res.Sinks[0].Columns[i+1]; strings.TrimSuffix(c.Type, " NOT NULL") != strings.TrimSuffix(want, " NOT NULL") ||
			strings.HasSuffix(want, "NOT NULL") && c.Type != want {
			t.Errorf("column %s is %s, want %s", c.Name, c.Type, want)
		}
	}
	expect(t, "UNION ALL", final(res.Sinks[1]), []string{"+I[a]", "+I[bcd]"})
}

// TestUnixTimestampOfABadString: UNIX_TIMESTAMP of a string its pattern
// does not parse is Long.MIN_VALUE, as Flink's DateTimeUtils returns it.
func TestUnixTimestampOfABadString(t *testing.T) {
	res, err := runSQL(context.Background(), `SELECT UNIX_TIMESTAMP('not a date') AS a, UNIX_TIMESTAMP('2024-01-31', 'yyyy-MM-dd') > 0 AS b;`,
		Options{Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "UNIX_TIMESTAMP", final(res.Sinks[0]), []string{"+I[-9223372036854775808, TRUE]"})
}
