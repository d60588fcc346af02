package join

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/join/internal/dbtest"
)

func usersTable(name string) Table {
	return Table{Name: name, Columns: userColumns, Keys: []string{"id"}}
}

func TestSourceLookup(t *testing.T) {
	for _, db := range dbtest.All {
		t.Run(db.Name, func(t *testing.T) {
			d := db.Open(t)
			table := d.CreateUsers(t)
			s := openSource(t, d, d.Options(table), usersTable(table), 4)
			ctx := context.Background()
			for id, want := range wantUsers {
				got, err := s.Lookup(ctx, []any{id})
				if err != nil {
					t.Fatal(err)
				}
				sortRows(got)
				if !rowsEqual(got, want) {
					t.Errorf("id %d: got %v, want %v", id, got, want)
				}
			}
			// The key is read as its column's type: an int or a string "1" finds id 1.
			for _, key := range []any{1, "1", int32(1)} {
				got, err := s.Lookup(ctx, []any{key})
				if err != nil || !rowsEqual(got, wantUsers[1]) {
					t.Errorf("key %T %v: %v, %v", key, key, got, err)
				}
			}
			for _, key := range []any{int64(3), nil} {
				if got, err := s.Lookup(ctx, []any{key}); err != nil || len(got) != 0 {
					t.Errorf("key %v: %v, %v, want no row", key, got, err)
				}
			}
			st := s.Stats()
			if st.Lookups != 9 || st.Queries != 8 { // the NULL key asks nothing
				t.Errorf("stats %+v, want 9 lookups and 8 queries", st)
			}
		})
	}
}

func TestSourceCache(t *testing.T) {
	for _, db := range dbtest.All {
		t.Run(db.Name, func(t *testing.T) {
			d := db.Open(t)
			table := d.CreateUsers(t)
			s := openSource(t, d, d.Options(table, "lookup.cache", "PARTIAL", "lookup.partial-cache.max-rows", "2",
				"lookup.partial-cache.expire-after-write", "1h"), usersTable(table), 2)
			ctx := context.Background()
			for _, id := range []int64{1, 1, 3, 3, 1, 2, 5, 1} {
				if _, err := s.Lookup(ctx, []any{id}); err != nil {
					t.Fatal(err)
				}
			}
			// 1 miss, 1 hit, 3 miss (missing keys cached by default), 3 hit, 1 hit,
			// 2 miss (evicts 3), 5 miss (evicts 1), 1 miss.
			st := s.Stats()
			if st.Queries != 5 || st.Cache.Hits != 3 || st.Cache.Misses != 5 || st.Cache.Evicted != 3 || st.Cache.Size != 2 {
				t.Fatalf("stats %+v", st)
			}
			// A row changed in the database is not seen while cached.
			d.Exec(t, fmt.Sprintf("UPDATE %s SET %s = 'renamed' WHERE %s = 1", d.Quote(table), d.Quote("name"), d.Quote("id")))
			got, _ := s.Lookup(ctx, []any{int64(1)})
			if got[0][1] != "ann" {
				t.Fatalf("cached row %v, want the name before the update", got[0])
			}
		})
	}
}

// The custom-query connector: the user's SQL, `?` per key.
func TestSourceCustomQuery(t *testing.T) {
	for _, db := range dbtest.All {
		t.Run(db.Name, func(t *testing.T) {
			d := db.Open(t)
			table := d.CreateUsers(t)
			q := d.Quote
			query := fmt.Sprintf("SELECT %s AS tier, %s AS id, 'literal ? not a key' AS note, %s -- ? nor this\n FROM %s WHERE %s = ? AND %s = ?",
				q("tier"), q("id"), q("active"), q(table), q("tier"), q("active"))
			with := d.Options(table, "connector", "palink-query", "query", query)
			delete(with, "table-name")
			s := openSource(t, d, with, Table{Name: "gold_users", Columns: []Column{{"id", "BIGINT"}, {"tier", "STRING"}, {"active", "BOOLEAN"}}, Keys: []string{"tier", "active"}}, 2)
			got, err := s.Lookup(context.Background(), []any{"gold", true})
			if err != nil {
				t.Fatal(err)
			}
			sortRows(got)
			if want := []Row{{int64(1), "gold", true}, {int64(5), "gold", true}}; !rowsEqual(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}

// The join through the operator gives the same rows on every database.
func TestLookupJoinSameRowsOnAllDatabases(t *testing.T) {
	// Orders: (order_id, user_id, amount).
	orders := []Row{
		{int64(100), int64(1), 9.5}, {int64(101), int64(2), 1.0}, {int64(102), int64(3), 2.0},
		{int64(103), nil, 3.0}, {int64(104), int64(4), 4.0}, {int64(105), int64(5), 5.0}, {int64(106), int64(1), 6.0},
	}
	user := func(id int64, i int) Row { return wantUsers[id][i] }
	join := func(o Row, u Row) Row { return append(slices.Clone(o), u...) }
	nulls := make(Row, len(userColumns))
	want := map[JoinKind][]Row{
		InnerJoin: {
			join(orders[0], user(1, 0)), join(orders[1], user(2, 0)), join(orders[1], user(2, 1)),
			join(orders[4], user(4, 0)), join(orders[5], user(5, 0)), join(orders[6], user(1, 0)),
		},
		LeftJoin: {
			join(orders[0], user(1, 0)), join(orders[1], user(2, 0)), join(orders[1], user(2, 1)),
			join(orders[2], nulls), join(orders[3], nulls),
			join(orders[4], user(4, 0)), join(orders[5], user(5, 0)), join(orders[6], user(1, 0)),
		},
	}
	for _, db := range dbtest.All {
		t.Run(db.Name, func(t *testing.T) {
			d := db.Open(t)
			table := d.CreateUsers(t)
			for _, kind := range []JoinKind{InnerJoin, LeftJoin} {
				for _, mode := range modes {
					s := openSource(t, d, d.Options(table, "lookup.cache", "PARTIAL", "lookup.partial-cache.max-rows", "100"), usersTable(table), 3)
					j := &LookupJoin{Source: s, Kind: kind, Keys: []int{1}}
					got, err := runRows(New(j.Func(), Options{Mode: mode, Capacity: 3, Timeout: 30 * time.Second}), orders)
					if err != nil {
						t.Fatal(err)
					}
					if mode == Unordered {
						sortRows(got)
						sortRows(want[kind])
					}
					if mode == Ordered {
						// Several rows of one key come in the database's order: compare per input.
						sortWithinInputs(got)
					}
					if !rowsEqual(got, want[kind]) {
						t.Errorf("%v %v:\n got %v\nwant %v", kind, mode, got, want[kind])
					}
				}
			}
		})
	}
}

// sortWithinInputs sorts the outputs of each input (same order_id, adjacent).
func sortWithinInputs(rows []Row) {
	for i := 0; i < len(rows); {
		j := i
		for j < len(rows) && rows[j][0] == rows[i][0] {
			j++
		}
		sortRows(rows[i:j])
		i = j
	}
}

func runRows(op *Operator[Row, Row], rows []Row) ([]Row, error) {
	in := make(chan Element[Row])
	out := make(chan Element[Row])
	errc := make(chan error, 1)
	go func() { errc <- op.Run(context.Background(), in, out) }()
	go func() {
		defer close(in)
		for i, r := range rows {
			in <- Element[Row]{Value: r, Timestamp: int64(i)}
		}
	}()
	var got []Row
	for e := range out {
		got = append(got, e.Value)
	}
	return got, <-errc
}

// Identical keys in flight are looked up once.
func TestSourceIdenticalKeysInFlightQueriedOnce(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	s := openSource(t, d, d.Options(table), usersTable(table), 8)
	var wg sync.WaitGroup
	// Hold the leader inside its query until every follower waits on it.
	gate := make(chan struct{})
	s.flightHook = func() { <-gate }
	for range 8 {
		wg.Go(func() {
			got, err := s.Lookup(context.Background(), []any{int64(2)})
			if err != nil || len(got) != 2 {
				t.Errorf("got %v, %v", got, err)
			}
		})
	}
	deadline := time.Now().Add(wait)
	for s.flight.waiting() < 7 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(gate)
	wg.Wait()
	if st := s.Stats(); st.Queries != 1 || st.Shared != 7 {
		t.Fatalf("stats %+v, want 1 query shared by 7", st)
	}
}

// The pool is as large as the operator's capacity.
func TestSourcePoolSizedToCapacity(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	s := openSource(t, d, d.Options(table), usersTable(table), 5)
	if got := s.db.Stats().MaxOpenConnections; got != 5 {
		t.Fatalf("max open connections %d, want 5", got)
	}
}

func TestSourceRetriesFailedQueries(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	s := openSource(t, d, d.Options(table, "lookup.max-retries", "2"), usersTable(table), 1)
	s.backoff = func(int) time.Duration { return time.Millisecond }
	d.Exec(t, "DROP TABLE "+d.Quote(table)) // every query fails from now on
	_, err := s.Lookup(context.Background(), []any{int64(1)})
	if err == nil || !strings.Contains(err.Error(), "lookup in "+table) {
		t.Fatalf("error %v, want one naming the table", err)
	}
	if st := s.Stats(); st.Queries != 3 || st.Retries != 2 {
		t.Fatalf("stats %+v, want 3 queries, 2 of them retries", st)
	}
}

func TestSourceOpenErrors(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	for name, tc := range map[string]struct {
		with  map[string]string
		table Table
		want  string
	}{
		"no table":       {d.Options("nope"), usersTable("nope"), "no such table"},
		"unknown column": {d.Options(table), Table{Name: table, Columns: []Column{{"id", "BIGINT"}, {"ghost", "INT"}}, Keys: []string{"id"}}, "ghost"},
		"key not column": {d.Options(table), Table{Name: table, Columns: userColumns, Keys: []string{"uid"}}, "key uid is not a column"},
		"no keys":        {d.Options(table), Table{Name: table, Columns: userColumns}, "no key columns"},
		"placeholders": {map[string]string{"connector": "palink-query", "url": d.JDBCURL, "query": "SELECT 1 AS id WHERE 1 = ?"},
			Table{Name: "q", Columns: []Column{{"id", "INT"}}, Keys: []string{"id", "id"}}, "1 `?` placeholders for 2 join keys"},
	} {
		t.Run(name, func(t *testing.T) {
			opts, err := ParseSourceOptions(tc.with)
			if err != nil {
				t.Fatal(err)
			}
			_, err = OpenSource(context.Background(), opts, tc.table, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}

// The password never shows in an error, even one a driver wrote with it.
func TestPasswordNotInErrors(t *testing.T) {
	opts := SourceOptions{Connector: "jdbc", URL: "jdbc:postgresql://127.0.0.1:1/db?password=hunter2", TableName: "t", Username: "u", Password: "hunter2"}
	_, err := OpenSource(context.Background(), opts, usersTable("t"), 1)
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("error %v", err)
	}
	s := &JDBCSource{secret: "hunter2"}
	cause := errors.New("auth failed for password hunter2")
	if got := s.redact(cause); strings.Contains(got.Error(), "hunter2") || !errors.Is(got, cause) {
		t.Fatalf("redact: %v", got)
	}
}

// A lookup miss retried per the LOOKUP hint finds a row that appears later.
func TestLookupJoinMissRetry(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	s := openSource(t, d, d.Options(table), usersTable(table), 1)
	attempts := 0
	j := &LookupJoin{Source: countingSource{s, &attempts, func(n int) {
		if n == 2 {
			d.Exec(t, fmt.Sprintf("INSERT INTO %s (%s, %s) VALUES (3, 'cat')", d.Quote(table), d.Quote("id"), d.Quote("name")))
		}
	}}, Kind: InnerJoin, Keys: []int{0}, MissRetry: &Retry{MaxAttempts: 3, Backoff: FixedDelay(time.Millisecond), IfEmpty: true}}
	got, err := j.Func()(context.Background(), Row{int64(3)})
	if err != nil || len(got) != 1 || got[0][2] != "cat" || attempts != 3 {
		t.Fatalf("got %v, %v after %d attempts", got, err, attempts)
	}
}

type countingSource struct {
	*JDBCSource
	n     *int
	after func(int)
}

func (c countingSource) Lookup(ctx context.Context, key []any) ([]Row, error) {
	*c.n++
	rows, err := c.JDBCSource.Lookup(ctx, key)
	c.after(*c.n)
	return rows, err
}

// The rest of the ON clause filters matches; a LEFT JOIN pads when none pass.
func TestLookupJoinCondition(t *testing.T) {
	d := dbtest.SQLite(t)
	table := d.CreateUsers(t)
	s := openSource(t, d, d.Options(table), usersTable(table), 1)
	onlyActive := func(_, dim Row) (bool, error) { return dim[6] == true, nil }
	for kind, want := range map[JoinKind]int{InnerJoin: 1, LeftJoin: 1} {
		j := &LookupJoin{Source: s, Kind: kind, Keys: []int{0}, Condition: onlyActive}
		got, err := j.Func()(context.Background(), Row{int64(2)})
		if err != nil || len(got) != want || got[0][2] != "bob2" {
			t.Fatalf("%v: %v, %v", kind, got, err)
		}
		got, _ = j.Func()(context.Background(), Row{int64(4)}) // dan: active NULL
		if kind == InnerJoin && len(got) != 0 || kind == LeftJoin && (len(got) != 1 || got[0][1] != nil) {
			t.Fatalf("%v: %v for an input no row passes", kind, got)
		}
	}
}
