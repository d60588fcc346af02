// Package dbtest is the lookup databases of the integration tests of join
// and join/debug: PostgreSQL and MariaDB when their environment variables
// name them (.ci/databases.sh prints them), SQLite always, and the users
// table every test looks rows up in. It is for tests only, and imports
// nothing of palink's, so that join's own tests can use it.
package dbtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	_ "modernc.org/sqlite"             // registers "sqlite"
)

// Environment variables naming the databases of the integration tests;
// .ci/databases.sh prints them.
const (
	EnvPostgres = "PALINK_TEST_POSTGRES_DSN" // postgres://user:password@host:port/db?sslmode=disable
	EnvMySQL    = "PALINK_TEST_MYSQL_DSN"    // user:password@tcp(host:port)/db (go-sql-driver/mysql)
	// EnvRequire set to 1 (CI sets it) turns a missing database from a skip
	// into a failure, so that CI cannot pass without having run these tests.
	EnvRequire = "PALINK_REQUIRE_DATABASES"
)

// skipWithout skips the test when the database's variable is unset, or
// fails it when EnvRequire says the databases must be there.
func skipWithout(t testing.TB, env, what string) string {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn != "" {
		return dsn
	}
	msg := fmt.Sprintf("%s is not set: run eval \"$(.ci/databases.sh)\" for a %s to test against", env, what)
	if os.Getenv(EnvRequire) == "1" {
		t.Fatalf("%s (%s=1)", msg, EnvRequire)
	}
	t.Skip(msg)
	return ""
}

// DB is a database a test writes its dimension tables into.
type DB struct {
	Name    string
	SQL     *sql.DB
	JDBCURL string // as a Flink DDL's 'url' names it
	User    string
	Pass    string
	Quote   func(string) string // an identifier, as this database quotes it
	ddl     map[string]string   // column types by Flink type, in this database
}

// All are the three lookup databases; PostgreSQL and MariaDB are skipped
// when their environment variable is unset.
var All = []struct {
	Name string
	Open func(testing.TB) *DB
}{
	{"SQLite", SQLite},
	{"PostgreSQL", Postgres},
	{"MariaDB", MySQL},
}

// QuoteDouble quotes an identifier as PostgreSQL and SQLite do.
func QuoteDouble(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }

// QuoteBacktick quotes an identifier as MySQL does.
func QuoteBacktick(id string) string { return "`" + strings.ReplaceAll(id, "`", "``") + "`" }

// Postgres opens the database EnvPostgres names, or skips.
func Postgres(t testing.TB) *DB {
	t.Helper()
	dsn := skipWithout(t, EnvPostgres, "PostgreSQL")
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	pass, _ := u.User.Password()
	d := &DB{Name: "PostgreSQL", User: u.User.Username(), Pass: pass, Quote: QuoteDouble,
		JDBCURL: "jdbc:postgresql://" + u.Host + u.Path + "?" + u.RawQuery,
		ddl:     map[string]string{"BIGINT": "BIGINT", "STRING": "VARCHAR(50)", "DECIMAL": "NUMERIC(10,2)", "DATE": "DATE", "TIMESTAMP": "TIMESTAMP(3)", "BOOLEAN": "BOOLEAN", "DOUBLE": "DOUBLE PRECISION"}}
	d.SQL, err = sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.SQL.Close() })
	return d
}

// MySQL opens the database EnvMySQL names (MariaDB in CI), or skips.
func MySQL(t testing.TB) *DB {
	t.Helper()
	dsn := skipWithout(t, EnvMySQL, "MariaDB")
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		t.Fatalf("%s: %v", EnvMySQL, err)
	}
	d := &DB{Name: "MariaDB", User: cfg.User, Pass: cfg.Passwd, Quote: QuoteBacktick,
		JDBCURL: "jdbc:mysql://" + cfg.Addr + "/" + cfg.DBName,
		ddl:     map[string]string{"BIGINT": "BIGINT", "STRING": "VARCHAR(50)", "DECIMAL": "DECIMAL(10,2)", "DATE": "DATE", "TIMESTAMP": "DATETIME(3)", "BOOLEAN": "BOOLEAN", "DOUBLE": "DOUBLE"}}
	d.SQL, err = sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.SQL.Close() })
	return d
}

// SQLite opens a fresh SQLite file in the test's temporary directory.
func SQLite(t testing.TB) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dim.db")
	d := &DB{Name: "SQLite", JDBCURL: "jdbc:sqlite:" + path, Quote: QuoteDouble,
		ddl: map[string]string{"BIGINT": "BIGINT", "STRING": "VARCHAR(50)", "DECIMAL": "DECIMAL(10,2)", "DATE": "DATE", "TIMESTAMP": "TIMESTAMP", "BOOLEAN": "BOOLEAN", "DOUBLE": "DOUBLE"}}
	var err error
	d.SQL, err = sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.SQL.Close() })
	return d
}

// Column is a column of a Flink DDL: its name and type.
type Column struct {
	Name string
	Type string
}

// UserColumns are the columns of the users table, as its Flink DDL says.
var UserColumns = []Column{
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

// CreateUsers creates the users table under a fresh name, dropped when the
// test ends, and returns the name.
func (d *DB) CreateUsers(t testing.TB) string {
	t.Helper()
	name := freshName("dim_users")
	types := []string{"BIGINT", "STRING", "STRING", "DECIMAL", "DATE", "TIMESTAMP", "BOOLEAN"}
	var cols []string
	for i, c := range UserColumns {
		cols = append(cols, d.Quote(c.Name)+" "+d.ddl[types[i]])
	}
	d.Exec(t, fmt.Sprintf("CREATE TABLE %s (%s)", d.Quote(name), strings.Join(cols, ", ")))
	t.Cleanup(func() { d.SQL.Exec("DROP TABLE " + d.Quote(name)) })
	for _, r := range userRows {
		d.Exec(t, fmt.Sprintf("INSERT INTO %s VALUES (%s)", d.Quote(name), r))
	}
	return name
}

// Exec runs a statement, failing the test if it fails.
func (d *DB) Exec(t testing.TB, query string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := d.SQL.ExecContext(ctx, query, args...); err != nil {
		t.Fatalf("%s: %s: %v", d.Name, query, err)
	}
}

// Options are the WITH options of a Flink DDL for table on d; extra are
// more, as key, value, key, value.
func (d *DB) Options(table string, extra ...string) map[string]string {
	o := map[string]string{"connector": "jdbc", "url": d.JDBCURL, "table-name": table}
	if d.User != "" {
		o["username"], o["password"] = d.User, d.Pass
	}
	for i := 0; i+1 < len(extra); i += 2 {
		o[extra[i]] = extra[i+1]
	}
	return o
}

func freshName(prefix string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

// Date is midnight UTC of a day, as a DATE value is.
func Date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// TS reads a timestamp written "2006-01-02 15:04:05.999", in UTC.
func TS(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04:05.999", s)
	if err != nil {
		panic(err)
	}
	return t
}

// ValueEqual compares row values: times by instant, bytes by content.
func ValueEqual(a, b any) bool {
	switch x := a.(type) {
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	return a == b
}

// RowsEqual compares rows value by value.
func RowsEqual[R ~[]any](a, b []R) bool {
	return slices.EqualFunc(a, b, func(x, y R) bool { return slices.EqualFunc(x, y, ValueEqual) })
}

// SortRows orders rows by their text, for comparing unordered output.
func SortRows[R ~[]any](rows []R) {
	slices.SortFunc(rows, func(a, b R) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
}
