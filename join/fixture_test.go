package join

import (
	"context"
	"testing"

	"github.com/palink/palink/join/internal/dbtest"
)

// The fixtures of the integration tests are dbtest's, shared with join/debug.
var (
	date, ts  = dbtest.Date, dbtest.TS
	rowsEqual = dbtest.RowsEqual[Row]
	sortRows  = dbtest.SortRows[Row]
)

// userColumns is the dimension table of the tests, as its Flink DDL says.
var userColumns = func() []Column {
	out := make([]Column, len(dbtest.UserColumns))
	for i, c := range dbtest.UserColumns {
		out[i] = Column(c)
	}
	return out
}()

// openSource opens a source on d, closed when the test ends.
func openSource(t testing.TB, d *dbtest.DB, with map[string]string, table Table, capacity int) *JDBCSource {
	t.Helper()
	opts, err := ParseSourceOptions(with)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenSource(context.Background(), opts, table, capacity)
	if err != nil {
		t.Fatalf("%s: %v", d.Name, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// wantUsers are dbtest's users as a Source returns them.
var wantUsers = map[int64][]Row{
	1: {{int64(1), "ann", "gold", "12.50", date(2024, 1, 2), ts("2024-01-02 10:00:00.123"), true}},
	2: {
		{int64(2), "bob", "silver", "7.00", date(2023, 12, 31), ts("2024-02-29 23:59:59"), false},
		{int64(2), "bob2", "bronze", "0.01", date(2023, 6, 1), ts("2024-03-01 00:00:00"), true},
	},
	4: {{int64(4), "dan", nil, nil, nil, nil, nil}},
	5: {{int64(5), "eve", "gold", "-3.25", date(2020, 2, 29), ts("1999-12-31 23:59:59.999"), true}},
}
