package cli

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"

	"github.com/palink/palink/config"
	"github.com/palink/palink/yarn/sim"
)

// TestTableImportFromPostgres imports a dimension table's DDL from the
// PostgreSQL of join's tests (.ci/databases.sh) into the catalog, writes
// only the INSERT, and checks it with the table injected. The type
// mapping itself is tested against PostgreSQL and MariaDB in join.
func TestTableImportFromPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dsn := os.Getenv("PALINK_TEST_POSTGRES_DSN")
	if dsn == "" {
		if os.Getenv("PALINK_REQUIRE_DATABASES") == "1" {
			t.Fatal("PALINK_TEST_POSTGRES_DSN is not set (PALINK_REQUIRE_DATABASES=1)")
		}
		t.Skip(`PALINK_TEST_POSTGRES_DSN is not set: run eval "$(.ci/databases.sh)"`)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pass, _ := u.User.Password()
	jdbc := "jdbc:postgresql://" + u.Host + u.Path + "?" + u.RawQuery + "&user=" + u.User.Username() + "&password=" + url.QueryEscape(pass)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b := make([]byte, 4)
	rand.Read(b)
	src := "users_" + hex.EncodeToString(b)
	if _, err := db.Exec("CREATE TABLE " + src + " (id BIGINT PRIMARY KEY, name VARCHAR(40), doc JSONB)"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Exec("DROP TABLE " + src) })

	e := newCLIEnv(t, sim.Options{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, errOut := e.runBoth(ctx, "table", "import", "users", "--jdbc", jdbc, "--source-table", src)
	want := "CREATE TABLE `users` (\n  `id` BIGINT NOT NULL,\n  `name` STRING,\n  `doc` STRING,\n  PRIMARY KEY (`id`) NOT ENFORCED\n) WITH (\n" +
		"  'connector' = 'jdbc',\n  'url' = 'jdbc:postgresql://" + u.Host + u.Path + "?" + u.RawQuery + "',\n  'table-name' = '" + src + "',\n" +
		"  'username' = '" + u.User.Username() + "',\n  'password' = '${users_password}'\n)"
	if !strings.HasPrefix(out, want+"\n") || !strings.Contains(out, "added users to the catalog of cluster sim (version 1)") ||
		!strings.Contains(out, "palink var set users_password") {
		t.Errorf("table import:\n%s\nwant it to start with\n%s", out, want)
	}
	if !strings.Contains(errOut, "warning: column doc: jsonb is not a type Flink's JDBC connector maps; read as STRING") {
		t.Errorf("table import warnings:\n%s", errOut)
	}
	if strings.Contains(out+errOut, "'password' = '"+pass+"'") || strings.Contains(out+errOut, "password="+pass) {
		t.Error("the import showed the password")
	}
	// Write only the INSERT: it checks with the imported table once the
	// password variable exists.
	job := writeTemp(t, "job.sql", "CREATE TABLE out_t (id BIGINT, name STRING) WITH ('connector' = 'blackhole');\nINSERT INTO out_t SELECT id, name FROM users;\n")
	if out, err := e.run(ctx, "sql", "check", job, "--cluster", "sim"); err == nil || !strings.Contains(out, "${users_password}") {
		t.Errorf("sql check before the password variable exists: %v\n%s", err, out)
	}
	e.mustRun("var", "set", "users_password", "--secret-env", "PALINK_TEST_USERS_PASSWORD")
	if out := e.mustRun("sql", "check", job, "--cluster", "sim"); !strings.Contains(out, "from the table catalog: users@v1") {
		t.Errorf("sql check:\n%s", out)
	}
}

// TestTableImportUnreachable: a database that does not answer is a clear
// error, soon.
func TestTableImportUnreachable(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	began := time.Now()
	_, err := e.run(ctx, "table", "import", "users", "--jdbc", "jdbc:postgresql://127.0.0.1:1/app?user=a&password=hunter2", "--source-table", "users")
	if err == nil || !strings.Contains(err.Error(), "import table users from users") || strings.Contains(err.Error(), "hunter2") || time.Since(began) > 30*time.Second {
		t.Errorf("import from a closed port: %v (after %s)", err, time.Since(began))
	}
}

// listener accepts connections on loopback, counts them and closes each at
// once: a database or broker that a refused import must never reach.
func listener(t *testing.T) (addr string, conns func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return ln.Addr().String(), func() int { return int(n.Load()) }
}

// TestTableImportRefusedBeforeConnecting: an import that may not add to
// the catalog (--read-only, or a viewer on the agent) is refused before
// palink connects to the database or the brokers; the same import by
// someone who may add does connect (the listener sees it).
func TestTableImportRefusedBeforeConnecting(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	imports := func(addr string) map[string][]string {
		return map[string][]string{
			"jdbc":  {"table", "import", "users", "--jdbc", "jdbc:postgresql://" + addr + "/app?user=a&password=hunter2", "--source-table", "users"},
			"kafka": {"table", "import", "clicks", "--kafka", addr, "--topic", "clicks", "--yes"},
		}
	}
	refused := func(t *testing.T, e *cliEnv, who string, pre ...string) {
		t.Helper()
		for kind, args := range imports("") {
			addr, conns := listener(t)
			args = imports(addr)[kind]
			out, err := e.run(ctx, append(pre, args...)...)
			if err == nil || !strings.Contains(err.Error(), "palink is read-only") {
				t.Errorf("%s's %s import: %v\n%s", who, kind, err, out)
			}
			if n := conns(); n != 0 {
				t.Errorf("%s's refused %s import connected %d times to %s", who, kind, n, addr)
			}
		}
	}

	local := newCLIEnv(t, sim.Options{}, nil)
	local.mustRun("jobs") // the store exists: --read-only opens none
	refused(t, local, "--read-only", "--read-only")
	for kind := range imports("") {
		addr, conns := listener(t)
		if _, err := local.run(ctx, imports(addr)[kind]...); err == nil {
			t.Errorf("a %s import from a listener that hangs up succeeded", kind)
		}
		if conns() == 0 {
			t.Errorf("the writer's %s import never reached %s: the listener sees nothing", kind, addr)
		}
	}

	// Through an agent, as another user (nobody): a viewer, and an operator
	// (the catalog is an admin's), are refused before anything connects.
	for _, c := range []struct{ who, why string }{{"viewer", "is a viewer on this agent"}, {"operator", "is an operator on this agent; it needs an admin"}} {
		t.Run(c.who, func(t *testing.T) {
			_, _, _, as := teamAgent(t, func(cf *config.Config) {
				cf.Operators = []string{"root"}
				if c.who == "operator" {
					cf.Operators = append(cf.Operators, "nobody")
				}
			})
			for kind := range imports("") {
				addr, conns := listener(t)
				out, err := as(imports(addr)[kind]...)
				if err == nil || !strings.Contains(out, "user nobody "+c.why) {
					t.Errorf("%s's %s import: %v\n%s", c.who, kind, err, out)
				}
				if n := conns(); n != 0 {
					t.Errorf("%s's refused %s import connected %d times to %s", c.who, kind, n, addr)
				}
			}
		})
	}
}
