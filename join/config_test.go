package join

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/join/internal/dbtest"
)

func TestParseFlinkDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"10 s": 10 * time.Second, "10s": 10 * time.Second, "500ms": 500 * time.Millisecond, "500": 500 * time.Millisecond,
		"3min": 3 * time.Minute, "3 m": 3 * time.Minute, "1 h": time.Hour, "2 days": 48 * time.Hour, "7 SECONDS": 7 * time.Second,
		"15µs": 15 * time.Microsecond, "9 ns": 9,
	} {
		if got, err := ParseFlinkDuration(in); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "s", "10 fortnights", "-1s", "1.5s", "99999999999999 d"} {
		if _, err := ParseFlinkDuration(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestParseLookupConfig(t *testing.T) {
	c, err := ParseLookupConfig(nil, nil)
	if err != nil || !c.Async || c.Options.Capacity != 100 || c.Options.Timeout != 3*time.Minute || c.Options.Mode != Ordered || c.MissRetry != nil {
		t.Fatalf("defaults %+v, %v", c, err)
	}
	set := map[string]string{SetAsyncLookupCapacity: "20", SetAsyncLookupTimeout: "10 s", SetAsyncLookupOutputMode: "ALLOW_UNORDERED", "parallelism.default": "4"}
	c, err = ParseLookupConfig(set, nil)
	if err != nil || c.Options.Capacity != 20 || c.Options.Timeout != 10*time.Second || c.Options.Mode != Unordered {
		t.Fatalf("SET: %+v, %v", c, err)
	}
	hint := map[string]string{"table": "dim", "output-mode": "ordered", "capacity": "7", "timeout": "300ms",
		"retry-predicate": "lookup_miss", "retry-strategy": "fixed_delay", "fixed-delay": "10ms", "max-attempts": "3"}
	c, err = ParseLookupConfig(set, hint)
	if err != nil || c.Options.Capacity != 7 || c.Options.Timeout != 300*time.Millisecond || c.Options.Mode != Ordered {
		t.Fatalf("hint over SET: %+v, %v", c, err)
	}
	if r := c.MissRetry; r == nil || r.MaxAttempts != 4 || !r.IfEmpty || r.Backoff(1) != 10*time.Millisecond {
		t.Fatalf("retry %+v: Flink's max-attempts 3 is 4 attempts in all", r)
	}
	c, err = ParseLookupConfig(set, map[string]string{"async": "false"})
	if err != nil || c.Async || c.Options.Capacity != 1 || c.Options.Mode != Ordered {
		t.Fatalf("sync: %+v, %v", c, err)
	}
	for name, tc := range map[string]struct{ set, hint map[string]string }{
		"zero capacity": {map[string]string{SetAsyncLookupCapacity: "0"}, nil},
		"bad mode":      {map[string]string{SetAsyncLookupOutputMode: "SOMETIMES"}, nil},
		"bad timeout":   {nil, map[string]string{"timeout": "soon"}},
		"unknown hint":  {nil, map[string]string{"cache": "true"}},
		"half a retry":  {nil, map[string]string{"retry-predicate": "lookup_miss", "max-attempts": "2"}},
		"bad predicate": {nil, map[string]string{"retry-predicate": "always", "retry-strategy": "fixed_delay", "fixed-delay": "1s", "max-attempts": "2"}},
	} {
		if _, err := ParseLookupConfig(tc.set, tc.hint); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestParseSourceOptions(t *testing.T) {
	o, err := ParseSourceOptions(map[string]string{"connector": "jdbc", "url": "jdbc:mysql://db:3306/shop", "table-name": "users",
		"username": "u", "password": "p", "lookup.cache": "PARTIAL", "lookup.partial-cache.max-rows": "500",
		"lookup.partial-cache.expire-after-write": "10 min", "lookup.partial-cache.expire-after-access": "1 min",
		"lookup.partial-cache.cache-missing-key": "false", "lookup.max-retries": "1", "driver": "com.mysql.cj.jdbc.Driver"})
	if err != nil {
		t.Fatal(err)
	}
	want := CacheOptions{MaxRows: 500, ExpireAfterWrite: 10 * time.Minute, ExpireAfterAccess: time.Minute}
	if o.Cache == nil || *o.Cache != want || o.MaxRetries != 1 || o.TableName != "users" || o.Password != "p" {
		t.Fatalf("%+v %+v", o, o.Cache)
	}
	o, err = ParseSourceOptions(map[string]string{"connector": "jdbc", "url": "jdbc:sqlite:x.db", "table-name": "t",
		"lookup.cache.max-rows": "10", "lookup.cache.ttl": "1s"})
	if err != nil || o.Cache == nil || o.Cache.MaxRows != 10 || o.Cache.ExpireAfterWrite != time.Second || !o.Cache.CacheMissingKey || o.MaxRetries != 3 {
		t.Fatalf("legacy cache options: %+v, %v", o, err)
	}
	for name, with := range map[string]map[string]string{
		"no connector":      {"url": "jdbc:sqlite:x", "table-name": "t"},
		"kafka":             {"connector": "kafka", "topic": "t"},
		"no table":          {"connector": "jdbc", "url": "jdbc:sqlite:x"},
		"no query":          {"connector": "palink-query", "url": "jdbc:sqlite:x"},
		"no url":            {"connector": "jdbc", "table-name": "t"},
		"typo":              {"connector": "jdbc", "url": "jdbc:sqlite:x", "table-name": "t", "lookup.cach": "PARTIAL"},
		"unbounded cache":   {"connector": "jdbc", "url": "jdbc:sqlite:x", "table-name": "t", "lookup.cache": "PARTIAL"},
		"full cache":        {"connector": "jdbc", "url": "jdbc:sqlite:x", "table-name": "t", "lookup.cache": "FULL"},
		"negative retries":  {"connector": "jdbc", "url": "jdbc:sqlite:x", "table-name": "t", "lookup.max-retries": "-1"},
		"bad cache max-row": {"connector": "jdbc", "url": "jdbc:sqlite:x", "table-name": "t", "lookup.cache": "PARTIAL", "lookup.partial-cache.max-rows": "lots"},
	} {
		if _, err := ParseSourceOptions(with); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestConnect(t *testing.T) {
	dim := filepath.Join(t.TempDir(), "dim?1.db")
	if err := os.WriteFile(dim, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ url, user, pass, driver, dsn string }{
		{"jdbc:postgresql://db.example:5433/crm?sslmode=disable&currentSchema=dim&loggerLevel=OFF", "reader", "s3cr:t", "pgx",
			"postgres://reader:s3cr%3At@db.example:5433/crm?search_path=dim&sslmode=disable"},
		{"jdbc:postgresql://db/crm?user=u&password=p", "", "", "pgx", "postgres://u:p@db/crm"},
		{"jdbc:mysql://db/shop?useSSL=false", "u", "p", "mysql", "u:p@tcp(db:3306)/shop?parseTime=true"},
		{"jdbc:mariadb://db:3307/shop", "u", "p", "mysql", "u:p@tcp(db:3307)/shop?parseTime=true"},
		{"jdbc:sqlite:" + dim, "", "", "sqlite", "file:" + strings.Replace(dim, "?", "%3f", 1) + "?mode=ro"}, // read-only
	} {
		d, dsn, err := connect(tc.url, tc.user, tc.pass)
		if err != nil || d.driver != tc.driver || dsn != tc.dsn {
			t.Errorf("%s: %s %q, %v; want %s %q", tc.url, d.driver, dsn, err, tc.driver, tc.dsn)
		}
	}
	for _, bad := range []string{"postgresql://db/x", "jdbc:oracle:thin:@db:1521/x", "jdbc:sqlite:", "jdbc:sqlite:/no/such/dim.db", "jdbc:mysql:///x",
		"jdbc:mysql://db/x?connectionTimeZone=Europe/Paris"} {
		if _, _, err := connect(bad, "", ""); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"jdbc:postgresql://db:5432/x?user=u&password=p&sslmode=disable": "jdbc:postgresql://db:5432/x?sslmode=disable",
		"jdbc:mysql://u:p@db/x":        "jdbc:mysql://db/x",
		"jdbc:sqlite:/d.db":            "jdbc:sqlite:/d.db",
		"jdbc:mysql://db/x?password=p": "jdbc:mysql://db/x",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

func TestPlaceholders(t *testing.T) {
	q := "SELECT '?', \"a?\" FROM t -- what?\nWHERE a = ? AND b = ?"
	got, err := placeholders(q, postgres, 2)
	if want := "SELECT '?', \"a?\" FROM t -- what?\nWHERE a = $1 AND b = $2"; err != nil || got != want {
		t.Fatalf("%q, %v", got, err)
	}
	if got, err := placeholders(q, mysqlDB, 2); err != nil || got != q {
		t.Fatalf("%q, %v", got, err)
	}
	if _, err := placeholders("SELECT 'x", sqlite, 0); err == nil {
		t.Fatal("unterminated quote accepted")
	}
}

func TestSelectByKeys(t *testing.T) {
	tbl := Table{Columns: []Column{{"id", "INT"}, {"na\"me", "STRING"}}, Keys: []string{"id", "na\"me"}}
	if got, want := selectByKeys(postgres, "crm.users", tbl), `SELECT "id", "na""me" FROM "crm"."users" WHERE "id" = $1 AND "na""me" = $2`; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
	if got, want := selectByKeys(mysqlDB, "users", tbl), "SELECT `id`, `na\"me` FROM `users` WHERE `id` = ? AND `na\"me` = ?"; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
}

func TestCanonical(t *testing.T) {
	dec2, _ := ParseType("DECIMAL(10, 2)")
	for _, tc := range []struct {
		typ  string
		in   any
		want any
	}{
		{"INT", []byte("42"), int64(42)},
		{"BIGINT NOT NULL", int32(7), int64(7)},
		{"INT", 3.0, int64(3)},
		{"BOOLEAN", int64(1), true},
		{"BOOLEAN", []byte("0"), false},
		{"DOUBLE", float32(0.5), 0.5},
		{"DOUBLE", []byte("2.25"), 2.25},
		{"STRING", []byte("abc"), "abc"},
		{"VARCHAR(3)", int64(5), "5"},
		{"BYTES", []byte{1, 2}, []byte{1, 2}},
		{"DATE", "2024-01-02", date(2024, 1, 2)},
		{"DATE", time.Date(2024, 1, 2, 0, 0, 0, 0, time.FixedZone("x", 3600)), date(2024, 1, 2)},
		{"TIME", "10:11:12.5", "10:11:12"},
		{"TIMESTAMP(3)", "2024-01-02 10:00:00.123", ts("2024-01-02 10:00:00.123")},
		{"TIMESTAMP(3)", "2024-01-02T10:00:00.123Z", ts("2024-01-02 10:00:00.123")},
		{"TIMESTAMP_LTZ(3)", int64(1704189600123), ts("2024-01-02 10:00:00.123")},
		{"GEOMETRY", []byte("x"), "x"},
		{"INT", nil, nil},
	} {
		ct, err := ParseType(tc.typ)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Canonical(tc.in, ct)
		if err != nil || !dbtest.ValueEqual(got, tc.want) {
			t.Errorf("%s %T %v: %T %v, %v; want %v", tc.typ, tc.in, tc.in, got, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in   any
		want string
	}{{"12.5", "12.50"}, {int64(7), "7.00"}, {0.1, "0.10"}, {[]byte("-3.255"), "-3.26"}, {"1e2", "100.00"}} {
		if got, err := Canonical(tc.in, dec2); err != nil || got != tc.want {
			t.Errorf("DECIMAL(10, 2) %v: %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	ct, _ := ParseType("INT")
	for _, bad := range []any{"x", 1.5, time.Now()} {
		if _, err := Canonical(bad, ct); err == nil {
			t.Errorf("INT accepted %v", bad)
		}
	}
	if _, err := ParseType("DECIMAL(10, x)"); err == nil {
		t.Error("bad scale accepted")
	}
}

func TestCache(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	newCache := func(o CacheOptions) *Cache {
		c, err := NewCache(o)
		if err != nil {
			t.Fatal(err)
		}
		c.now = func() time.Time { return now }
		return c
	}
	rows := []Row{{int64(1)}}

	c := newCache(CacheOptions{MaxRows: 2})
	c.Put("a", rows)
	c.Put("b", rows)
	c.Get("a") // a is now the most recently used
	c.Put("c", rows)
	if _, ok := c.Get("b"); ok {
		t.Fatal("b, the least recently used, was kept")
	}
	if _, ok := c.Get("a"); !ok {
		t.Fatal("a was dropped")
	}
	c.Put("miss", nil)
	if _, ok := c.Get("miss"); ok {
		t.Fatal("a missing key was cached without CacheMissingKey")
	}

	c = newCache(CacheOptions{ExpireAfterWrite: time.Minute, CacheMissingKey: true})
	c.Put("a", rows)
	c.Put("miss", nil)
	if got, ok := c.Get("miss"); !ok || got == nil || len(got) != 0 {
		t.Fatalf("missing key: %v, %v; want a cached empty result", got, ok)
	}
	now = now.Add(59 * time.Second)
	if _, ok := c.Get("a"); !ok {
		t.Fatal("expired before a minute")
	}
	now = now.Add(time.Second)
	if _, ok := c.Get("a"); ok {
		t.Fatal("kept after a minute from its write, though read since")
	}

	c = newCache(CacheOptions{ExpireAfterAccess: time.Minute})
	c.Put("a", rows)
	for range 3 {
		now = now.Add(50 * time.Second)
		if _, ok := c.Get("a"); !ok {
			t.Fatal("expired though read within a minute")
		}
	}
	now = now.Add(time.Minute)
	if _, ok := c.Get("a"); ok {
		t.Fatal("kept a minute after its last read")
	}
	if st := c.Stats(); st.Hits != 3 || st.Misses != 1 || st.Size != 0 || st.HitRatio() != 0.75 {
		t.Fatalf("stats %+v", st)
	}
	if _, err := NewCache(CacheOptions{}); err == nil {
		t.Fatal("unbounded cache accepted")
	}
}

func TestCacheConcurrent(t *testing.T) {
	c, _ := NewCache(CacheOptions{MaxRows: 10})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				k := string(rune('a' + (i+g)%26))
				if _, ok := c.Get(k); !ok {
					c.Put(k, []Row{{i}})
				}
			}
		})
	}
	wg.Wait()
	if st := c.Stats(); st.Size != 10 || st.Hits+st.Misses != 4000 {
		t.Fatalf("stats %+v", st)
	}
}

// A waiter whose leader gave up because of its own context queries again.
func TestFlightLeaderCancelled(t *testing.T) {
	var f flight
	leaderIn := make(chan struct{})
	release := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	leaderErr := make(chan error, 1)
	go func() {
		_, _, err := f.do(ctx, "k", func() ([]Row, error) {
			close(leaderIn)
			<-release
			return nil, ctx.Err()
		})
		leaderErr <- err
	}()
	<-leaderIn
	got := make(chan []Row, 1)
	go func() {
		rows, _, err := f.do(context.Background(), "k", func() ([]Row, error) { return []Row{{"fresh"}}, nil })
		if err != nil {
			t.Error(err)
		}
		got <- rows
	}()
	for f.waiting() != 1 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	close(release)
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader: %v", err)
	}
	if rows := <-got; len(rows) != 1 || rows[0][0] != "fresh" {
		t.Fatalf("waiter got %v, want its own query's rows", rows)
	}
	// A waiter whose own context ends leaves at once.
	block := make(chan struct{})
	go f.do(context.Background(), "x", func() ([]Row, error) { <-block; return nil, nil })
	for {
		f.mu.Lock()
		_, ok := f.calls["x"]
		f.mu.Unlock()
		if ok {
			break
		}
		time.Sleep(time.Millisecond)
	}
	short, cancelShort := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancelShort()
	if _, _, err := f.do(short, "x", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiter: %v", err)
	}
	close(block)
}

func TestJoinKindString(t *testing.T) {
	if InnerJoin.String() != "JOIN" || LeftJoin.String() != "LEFT JOIN" {
		t.Fatal(InnerJoin.String(), LeftJoin.String())
	}
	if !strings.Contains((&InputError[int]{Attempts: 3, Err: errTransient}).Error(), "3 attempts") {
		t.Fatal("attempts not named")
	}
}
