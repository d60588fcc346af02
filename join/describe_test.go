package join

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/join/internal/dbtest"
)

func importName(prefix string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

// describeCase is a table made in a database, and the Flink DDL palink
// table import must write for it, by hand.
type describeCase struct {
	create   string // %s is the table's name
	want     string // %[1]s the table's name, %[2]s the url
	warnings []string
}

func runDescribe(t *testing.T, db *dbtest.DB, c describeCase) {
	t.Helper()
	name := importName("import_src")
	db.Exec(t, fmt.Sprintf(c.create, db.Quote(name)))
	t.Cleanup(func() { db.SQL.Exec("DROP TABLE " + db.Quote(name)) })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := Describe(ctx, db.JDBCURL, db.User, db.Pass, name)
	if err != nil {
		t.Fatal(err)
	}
	ddl, warnings := d.DDL("dim", db.JDBCURL, db.User, "dim_password")
	if want := fmt.Sprintf(c.want, name, db.JDBCURL); ddl != want {
		t.Errorf("%s: DDL\n%s\nwant\n%s", db.Name, ddl, want)
	}
	if got := strings.Join(warnings, "\n"); got != strings.Join(c.warnings, "\n") {
		t.Errorf("%s: warnings\n%s\nwant\n%s", db.Name, got, strings.Join(c.warnings, "\n"))
	}
	if _, err := Describe(ctx, db.JDBCURL, db.User, db.Pass, name+"_missing"); err == nil || !strings.Contains(err.Error(), "no such table") {
		t.Errorf("%s: describe of a missing table: %v", db.Name, err)
	}
}

func TestDescribePostgres(t *testing.T) {
	runDescribe(t, dbtest.Postgres(t), describeCase{
		create: `CREATE TABLE %s (
			id BIGSERIAL PRIMARY KEY, small SMALLINT, n INTEGER NOT NULL, f REAL, d DOUBLE PRECISION,
			price NUMERIC(10,2), wide NUMERIC, ok BOOLEAN, day DATE, at TIME(3), ts TIMESTAMP(3), tz TIMESTAMPTZ,
			code CHAR(4), name VARCHAR(64), note TEXT, raw BYTEA, tags TEXT[], doc JSONB, uid UUID)`,
		want: "CREATE TABLE `dim` (\n" +
			"  `id` BIGINT NOT NULL,\n  `small` SMALLINT,\n  `n` INT NOT NULL,\n  `f` FLOAT,\n  `d` DOUBLE,\n" +
			"  `price` DECIMAL(10, 2),\n  `wide` DECIMAL(38, 18),\n  `ok` BOOLEAN,\n  `day` DATE,\n  `at` TIME(3),\n  `ts` TIMESTAMP(3),\n  `tz` STRING,\n" +
			"  `code` STRING,\n  `name` STRING,\n  `note` STRING,\n  `raw` BYTES,\n  `tags` ARRAY<STRING>,\n  `doc` STRING,\n  `uid` STRING,\n" +
			"  PRIMARY KEY (`id`) NOT ENFORCED\n" +
			") WITH (\n  'connector' = 'jdbc',\n  'url' = '%[2]s',\n  'table-name' = '%[1]s',\n  'username' = 'palink',\n  'password' = '${dim_password}'\n)",
		warnings: []string{
			"column wide: numeric without a precision: read as DECIMAL(38, 18), the widest Flink has",
			"column tz: timestamp with time zone is not a type Flink's JDBC connector maps; read as STRING",
			"column doc: jsonb is not a type Flink's JDBC connector maps; read as STRING",
			"column uid: uuid is not a type Flink's JDBC connector maps; read as STRING",
		},
	})
}

func TestDescribeMariaDB(t *testing.T) {
	runDescribe(t, dbtest.MySQL(t), describeCase{
		create: "CREATE TABLE %s (" +
			"region VARCHAR(8) NOT NULL, id BIGINT UNSIGNED NOT NULL, flag TINYINT(1), t TINYINT, tu TINYINT UNSIGNED, s SMALLINT, su SMALLINT UNSIGNED," +
			" m MEDIUMINT, i INT, iu INT UNSIGNED, b BIGINT, f FLOAT, d DOUBLE, price DECIMAL(12,3), day DATE, at TIME(2), dt DATETIME(3), ts TIMESTAMP(6) NULL," +
			" code CHAR(2), note TEXT, raw VARBINARY(16), blb BLOB, doc JSON, kind ENUM('a','b'), yr YEAR, PRIMARY KEY (region, id))",
		want: "CREATE TABLE `dim` (\n" +
			"  `region` STRING NOT NULL,\n  `id` DECIMAL(20, 0) NOT NULL,\n  `flag` BOOLEAN,\n  `t` TINYINT,\n  `tu` SMALLINT,\n  `s` SMALLINT,\n  `su` INT,\n" +
			"  `m` INT,\n  `i` INT,\n  `iu` BIGINT,\n  `b` BIGINT,\n  `f` FLOAT,\n  `d` DOUBLE,\n  `price` DECIMAL(12, 3),\n  `day` DATE,\n  `at` TIME(2),\n  `dt` TIMESTAMP(3),\n  `ts` TIMESTAMP(6),\n" +
			"  `code` STRING,\n  `note` STRING,\n  `raw` BYTES,\n  `blb` BYTES,\n  `doc` STRING,\n  `kind` STRING,\n  `yr` STRING,\n" +
			"  PRIMARY KEY (`region`, `id`) NOT ENFORCED\n" +
			") WITH (\n  'connector' = 'jdbc',\n  'url' = '%[2]s',\n  'table-name' = '%[1]s',\n  'username' = 'palink',\n  'password' = '${dim_password}'\n)",
		// MariaDB's JSON is LONGTEXT with a check: a STRING like any text.
		warnings: []string{
			"column kind: enum('a','b') is not a type Flink's JDBC connector maps; read as STRING",
			"column yr: year(4) is not a type Flink's JDBC connector maps; read as STRING",
		},
	})
}

func TestSplitCredentials(t *testing.T) {
	clean, user, pass := SplitCredentials("jdbc:postgresql://db:5432/app?user=ana&password=p%40ss&sslmode=require")
	if clean != "jdbc:postgresql://db:5432/app?sslmode=require" || user != "ana" || pass != "p@ss" {
		t.Errorf("SplitCredentials = %q %q %q", clean, user, pass)
	}
}
