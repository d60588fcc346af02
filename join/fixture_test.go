package join

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// Environment variables naming the databases of the integration tests;
// .ci/databases.sh prints them.
const (
	envPostgres = "PALINK_TEST_POSTGRES_DSN" // postgres://user:password@host:port/db?sslmode=disable
	envMySQL    = "PALINK_TEST_MYSQL_DSN"    // user:password@tcp(host:port)/db (go-sql-driver/mysql)
	// envRequire set to 1 (CI sets it) turns a missing database from a skip
	// into a failure, so that CI cannot pass without having run these tests.
	envRequire = "PALINK_REQUIRE_DATABASES"
)

// skipWithout skips the test when the database's variable is unset, or
// fails it when envRequire says the databases must be there.
func skipWithout(t testing.TB, env, what string) string {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn != "" {
		return dsn
	}
	msg := fmt.Sprintf("%s is not set: run eval \"$(.ci/databases.sh)\" for a %s to test against", env, what)
	if os.Getenv(envRequire) == "1" {
		t.Fatalf("%s (%s=1)", msg, envRequire)
	}
	t.Skip(msg)
	return ""
}

// testDB is a database a test writes its dimension tables into.
type testDB struct {
	name    string
	db      *sql.DB
	jdbcURL string
	user    string
	pass    string
	ddl     map[string]string // column types by Flink type, in this database
	quote   func(string) string
}

func openPostgres(t testing.TB) *testDB {
	t.Helper()
	dsn := skipWithout(t, envPostgres, "PostgreSQL")
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("%s: %v", envPostgres, err)
	}
	pass, _ := u.User.Password()
	d := &testDB{name: "PostgreSQL", user: u.User.Username(), pass: pass, quote: quoteDouble,
		jdbcURL: "jdbc:postgresql://" + u.Host + u.Path + "?" + u.RawQuery,
		ddl:     map[string]string{"BIGINT": "BIGINT", "STRING": "VARCHAR(50)", "DECIMAL": "NUMERIC(10,2)", "DATE": "DATE", "TIMESTAMP": "TIMESTAMP(3)", "BOOLEAN": "BOOLEAN", "DOUBLE": "DOUBLE PRECISION"}}
	d.db, err = sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.db.Close() })
	return d
}

func openMySQL(t testing.TB) *testDB {
	t.Helper()
	dsn := skipWithout(t, envMySQL, "MariaDB")
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatalf("%s: %v", envMySQL, err)
	}
	d := &testDB{name: "MariaDB", user: cfg.User, pass: cfg.Passwd, quote: quoteBacktick,
		jdbcURL: "jdbc:mysql://" + cfg.Addr + "/" + cfg.DBName,
		ddl:     map[string]string{"BIGINT": "BIGINT", "STRING": "VARCHAR(50)", "DECIMAL": "DECIMAL(10,2)", "DATE": "DATE", "TIMESTAMP": "DATETIME(3)", "BOOLEAN": "BOOLEAN", "DOUBLE": "DOUBLE"}}
	d.db, err = sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.db.Close() })
	return d
}

func openSQLite(t testing.TB) *testDB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dim.db")
	d := &testDB{name: "SQLite", jdbcURL: "jdbc:sqlite:" + path, quote: quoteDouble,
		ddl: map[string]string{"BIGINT": "BIGINT", "STRING": "VARCHAR(50)", "DECIMAL": "DECIMAL(10,2)", "DATE": "DATE", "TIMESTAMP": "TIMESTAMP", "BOOLEAN": "BOOLEAN", "DOUBLE": "DOUBLE"}}
	var err error
	d.db, err = sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.db.Close() })
	return d
}

// userColumns is the dimension table of the tests, as its Flink DDL says.
var userColumns = []Column{
	{"id", "BIGINT"}, {"name", "STRING"}, {"tier", "STRING"}, {"score", "DECIMAL(10, 2)"},
	{"since", "DATE"}, {"updated", "TIMESTAMP(3)"}, {"active", "BOOLEAN"},
}

// userRows are its rows, as SQL literals every database reads alike. id 2
// has two rows; id 4 has NULLs; id 3 has none.
var userRows = []string{
	"1, 'ann', 'gold', 12.5, '2024-01-02', '2024-01-02 10:00:00.123', TRUE",
	"2, 'bob', 'silver', 7, '2023-12-31', '2024-02-29 23:59:59', FALSE",
	"2, 'bob2', 'bronze', 0.01, '2023-06-01', '2024-03-01 00:00:00', TRUE",
	"4, 'dan', NULL, NULL, NULL, NULL, NULL",
	"5, 'eve', 'gold', -3.25, '2020-02-29', '1999-12-31 23:59:59.999', TRUE",
}

// createUsers creates a table of userRows under a fresh name and returns it.
func (d *testDB) createUsers(t testing.TB) string {
	t.Helper()
	name := freshName("dim_users")
	types := []string{"BIGINT", "STRING", "STRING", "DECIMAL", "DATE", "TIMESTAMP", "BOOLEAN"}
	var cols []string
	for i, c := range userColumns {
		cols = append(cols, d.quote(c.Name)+" "+d.ddl[types[i]])
	}
	d.exec(t, fmt.Sprintf("CREATE TABLE %s (%s)", d.quote(name), strings.Join(cols, ", ")))
	t.Cleanup(func() { d.db.Exec("DROP TABLE " + d.quote(name)) })
	for _, r := range userRows {
		d.exec(t, fmt.Sprintf("INSERT INTO %s VALUES (%s)", d.quote(name), r))
	}
	return name
}

func (d *testDB) exec(t testing.TB, query string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := d.db.ExecContext(ctx, query, args...); err != nil {
		t.Fatalf("%s: %s: %v", d.name, query, err)
	}
}

// options are the WITH options of a Flink DDL for table on d.
func (d *testDB) options(table string, extra ...string) map[string]string {
	o := map[string]string{"connector": "jdbc", "url": d.jdbcURL, "table-name": table}
	if d.user != "" {
		o["username"], o["password"] = d.user, d.pass
	}
	for i := 0; i+1 < len(extra); i += 2 {
		o[extra[i]] = extra[i+1]
	}
	return o
}

func (d *testDB) openSource(t testing.TB, with map[string]string, table Table, capacity int) *JDBCSource {
	t.Helper()
	opts, err := ParseSourceOptions(with)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenSource(context.Background(), opts, table, capacity)
	if err != nil {
		t.Fatalf("%s: %v", d.name, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func freshName(prefix string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
func ts(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04:05.999", s)
	if err != nil {
		panic(err)
	}
	return t
}

// wantUsers are userRows as a Source returns them.
var wantUsers = map[int64][]Row{
	1: {{int64(1), "ann", "gold", "12.50", date(2024, 1, 2), ts("2024-01-02 10:00:00.123"), true}},
	2: {
		{int64(2), "bob", "silver", "7.00", date(2023, 12, 31), ts("2024-02-29 23:59:59"), false},
		{int64(2), "bob2", "bronze", "0.01", date(2023, 6, 1), ts("2024-03-01 00:00:00"), true},
	},
	4: {{int64(4), "dan", nil, nil, nil, nil, nil}},
	5: {{int64(5), "eve", "gold", "-3.25", date(2020, 2, 29), ts("1999-12-31 23:59:59.999"), true}},
}
