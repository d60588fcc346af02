package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/palink/palink/yarn/sim"
)

// runCLI runs one palink invocation that needs no config.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err = root.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func exitCode(err error) int {
	var ec exitCoder
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

const brokenSQL = `CREATE TABLE users (
  id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://db:3306/app', 'table-nam' = 'users');
CREATE TABLE orders (id BIGINT, user_id BIGINT) WITH ('connector' = 'datagen');
CREATE TABLE sink (id BIGINT, name STRING) WITH ('connector' = 'print');
INSERT INTO sink SELECT o.id, o.user_id FROM orders AS o;
INSERT INTO sink SELEC 1;
`

func TestSQLCheckReportsErrorsWhereTheyAre(t *testing.T) {
	path := writeTemp(t, "job.sql", brokenSQL)
	out, _, err := runCLI(t, "sql", "check", path)
	if exitCode(err) != 1 {
		t.Fatalf("exit %d (%v), want 1", exitCode(err), err)
	}
	for _, want := range []string{
		path + ":3:67: error: unknown option 'table-nam'; did you mean 'table-name'?",
		"  3 | ) WITH ('connector' = 'jdbc'",
		"    |                                                                   ^^^^^^^^^^^ unknown option",
		path + ":7:18: error: expected SELECT or VALUES",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Errors come before warnings, and the summary counts both.
	if !strings.Contains(out, path+": 3 errors, ") {
		t.Errorf("no summary of 3 errors:\n%s", out)
	}

	out, _, err = runCLI(t, "sql", "check", path, "-o", "json")
	if exitCode(err) != 1 {
		t.Fatalf("json: exit %d, want 1", exitCode(err))
	}
	var rep sqlReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("-o json is not JSON: %v\n%s", err, out)
	}
	if len(rep.Errors) != 3 || rep.Errors[1].Line != 3 || rep.Errors[1].Col != 67 || rep.Errors[1].Code != "unknown-option" ||
		rep.Errors[1].Hint != "did you mean 'table-name'?" || !strings.Contains(rep.Errors[1].Snippet, "^^^") {
		t.Errorf("json errors %+v", rep.Errors)
	}
	for _, w := range rep.Warnings {
		if w.Line == 0 || w.Message == "" {
			t.Errorf("warning without a place or message: %+v", w)
		}
	}
}

func TestSQLCheckParseOnlyAcceptsFragments(t *testing.T) {
	frag := writeTemp(t, "frag.sql", "INSERT INTO enriched\nSELECT o.id, u.name FROM orders AS o\nLEFT JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.uid = u.id;\n")
	// A script that defines no table reads them from a catalog: the full
	// check says it does not check names, and does not fail on them.
	out, _, err := runCLI(t, "sql", "check", frag)
	if err != nil || !strings.Contains(out, "warning: this script defines no table") || strings.Contains(out, "unknown table") {
		t.Fatalf("full check of a fragment: exit %d\n%s", exitCode(err), out)
	}
	// With one table defined, the others are unknown.
	partial := writeTemp(t, "partial.sql", "CREATE TABLE users (id BIGINT, name STRING) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://db/app', 'table-name' = 'users');\n"+
		"INSERT INTO enriched SELECT o.id, u.name FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.uid = u.id;\n")
	out, _, err = runCLI(t, "sql", "check", partial)
	if exitCode(err) != 1 || !strings.Contains(out, "unknown table 'orders'") {
		t.Fatalf("full check with some tables defined: exit %d\n%s", exitCode(err), out)
	}
	out, _, err = runCLI(t, "sql", "check", frag, "--parse-only")
	if err != nil || !strings.Contains(out, "frag.sql: ok (1 statement)") {
		t.Fatalf("--parse-only: %v\n%s", err, out)
	}
	bad := writeTemp(t, "bad.sql", "SELECT a,, b FROM t;")
	out, _, err = runCLI(t, "sql", "check", bad, "--parse-only")
	if exitCode(err) != 1 || !strings.Contains(out, "bad.sql:1:10: error:") {
		t.Fatalf("--parse-only of a syntax error: exit %d\n%s", exitCode(err), out)
	}
}

func TestSQLFmt(t *testing.T) {
	path := writeTemp(t, "job.sql", "create table t (a int) with ('connector'='datagen'); -- gen\ninsert into s select a from t where a>1;\n")
	out, _, err := runCLI(t, "sql", "fmt", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "CREATE TABLE t (\n  a INT\n)") || !strings.Contains(out, "WHERE a > 1;") || !strings.Contains(out, "-- gen") {
		t.Errorf("formatted:\n%s", out)
	}
	if _, _, err := runCLI(t, "sql", "fmt", "-w", path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if string(b) != out {
		t.Errorf("-w wrote\n%s\nwant what fmt printed\n%s", b, out)
	}
	again, _, err := runCLI(t, "sql", "fmt", path)
	if err != nil || again != out {
		t.Errorf("fmt is not stable on its own output:\n%s", again)
	}

	bad := writeTemp(t, "bad.sql", "INSERT INTO s SELEC 1;\n")
	_, stderr, err := runCLI(t, "sql", "fmt", "-w", bad)
	if exitCode(err) != 1 || !strings.Contains(stderr, "bad.sql:1:15:") || !strings.Contains(err.Error(), "not formatted") {
		t.Fatalf("fmt of broken SQL: exit %d, %v\n%s", exitCode(err), err, stderr)
	}
	if b, _ := os.ReadFile(bad); string(b) != "INSERT INTO s SELEC 1;\n" {
		t.Errorf("fmt -w changed a file it could not parse: %q", b)
	}
}

func TestSQLCheckRemoteExplainsOnTheGateway(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulator")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	path := writeTemp(t, "job.sql", e2eSQL)
	out := e.mustRun("sql", "check", path, "--remote")
	if !strings.Contains(out, "job.sql: ok (3 statements)") || !strings.Contains(out, "== Optimized Execution Plan ==") || !strings.Contains(out, "snk") {
		t.Fatalf("check --remote:\n%s", out)
	}
	// A script with errors is not sent to the gateway.
	bad := writeTemp(t, "bad.sql", brokenSQL)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := e.run(ctx, "sql", "check", bad, "--remote", "-o", "json")
	var rep sqlReport
	if exitCode(errors.Unwrap(err)) != 1 && exitCode(err) != 1 || json.Unmarshal([]byte(out), &rep) != nil || rep.Explain != "" || !strings.Contains(rep.ExplainError, "has errors") {
		t.Fatalf("check --remote of broken SQL: %v\n%s", err, out)
	}

	// With an agent running, the CLI asks it over its socket.
	actx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := e.run(actx, "agent"); done <- err }()
	defer func() { stop(); <-done }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(filepath.Dir(e.config), "agent.sock")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent did not open its socket")
		}
		time.Sleep(50 * time.Millisecond)
	}
	out = e.mustRun("sql", "check", path, "--remote", "-o", "json")
	if json.Unmarshal([]byte(out), &rep) != nil || !strings.Contains(rep.Explain, "Optimized Execution Plan") {
		t.Fatalf("check --remote through the agent:\n%s", out)
	}
}

// debugFixture is a job with a lookup join against an SQLite database and
// its orders file.
func debugFixture(t *testing.T) (job, orders string) {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "dim.db")
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE TABLE users (id BIGINT, name VARCHAR(50))", "INSERT INTO users VALUES (1, 'Alice'), (2, 'Bob')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	orders = filepath.Join(dir, "orders.csv")
	if err := os.WriteFile(orders, []byte("order_id,user_id,amount\n1,1,50\n2,2,5\n3,9,10\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	job = writeTemp(t, "job.sql", `CREATE TABLE orders (order_id BIGINT, user_id BIGINT, amount DOUBLE, pt AS PROCTIME())
  WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
CREATE TABLE users (id BIGINT, name STRING) WITH ('connector' = 'jdbc', 'url' = 'jdbc:sqlite:`+dbPath+`', 'table-name' = 'users');
CREATE TABLE enriched (order_id BIGINT, name STRING, doubled DOUBLE) WITH ('connector' = 'print');
CREATE TABLE big (order_id BIGINT) WITH ('connector' = 'blackhole');
EXECUTE STATEMENT SET BEGIN
INSERT INTO enriched SELECT o.order_id, u.name, o.amount * 2 FROM orders AS o
  LEFT JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.user_id = u.id;
INSERT INTO big SELECT order_id FROM orders WHERE amount > 20;
END;
`)
	return job, orders
}

func TestDebugCLI(t *testing.T) {
	job, orders := debugFixture(t)
	out, _, err := runCLI(t, "debug", job, "--data", "orders="+orders)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"enriched: 3 rows", "1        | Alice | 100", "3        | NULL  | 20", "big: 1 row\n", "lookup users: 3 lookups"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	out, _, err = runCLI(t, "debug", job, "--data", "orders="+orders, "-o", "json", "--limit", "1")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sinks []struct {
			Name string
			Rows []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Sinks) != 2 || len(doc.Sinks[0].Rows) != 1 {
		t.Fatalf("-o json --limit 1: %v\n%s", err, out)
	}

	res := filepath.Join(t.TempDir(), "results.jsonl")
	out, _, err = runCLI(t, "debug", job, "--data", "orders="+orders, "--out", res)
	if err != nil {
		t.Fatal(err)
	}
	enriched := strings.TrimSuffix(res, ".jsonl") + ".enriched.jsonl"
	b, err := os.ReadFile(enriched)
	if err != nil || strings.Count(string(b), "\n") != 3 || !strings.Contains(string(b), `{"order_id":1,"name":"Alice","doubled":100.0}`) {
		t.Fatalf("%s: %v\n%s", enriched, err, b)
	}
	if !strings.Contains(out, "enriched: 3 rows → "+enriched) || strings.Contains(out, "Alice") {
		t.Errorf("with --out, stdout says where the rows went, not the rows:\n%s", out)
	}
}

func TestDebugCLIErrors(t *testing.T) {
	job, orders := debugFixture(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"debug", job}, "give its rows with --data orders=FILE"},
		{[]string{"debug", job, "--data", "orders"}, `--data "orders": want TABLE=FILE`},
		{[]string{"debug", job, "--data", "orders=" + orders, "-o", "xml"}, `unknown output format "xml"`},
	} {
		_, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("palink %s: %v, want %q", strings.Join(tc.args[1:], " "), err, tc.want)
		}
	}
	// Without a lookup join: with one, debug.Run may report the cancelled
	// open of the lookup table instead of the row (reported to the lead).
	plain := writeTemp(t, "plain.sql", `CREATE TABLE orders (order_id BIGINT, user_id BIGINT, amount DOUBLE) WITH ('connector' = 'kafka');
CREATE TABLE sink (order_id BIGINT) WITH ('connector' = 'print');
INSERT INTO sink SELECT order_id FROM orders;`)
	bad := writeTemp(t, "bad.csv", "order_id,user_id,amount\n1,1,5\nx,2,3\n")
	_, _, err := runCLI(t, "debug", plain, "--data", "orders="+bad)
	if err == nil || !strings.Contains(err.Error(), "bad.csv row 2, column order_id") {
		t.Errorf("a bad row: %v, want the row named", err)
	}
	_, _, err = runCLI(t, "debug", plain, "--data", "orders="+filepath.Join(t.TempDir(), "missing.csv"))
	if err == nil || !strings.Contains(err.Error(), "data for table orders") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestSQLCheckForARelease checks a script for the release the flag names,
// or the --cluster's flink_version in the config: a statement the release
// lacks is one clear error that names the target.
func TestSQLCheckForARelease(t *testing.T) {
	file := writeTemp(t, "model.sql", "CREATE MODEL sentiment INPUT (text STRING) OUTPUT (label STRING) WITH ('provider' = 'openai');\n")
	if _, _, err := runCLI(t, "sql", "check", file); exitCode(err) != 0 {
		t.Fatalf("latest: exit %d (%v)", exitCode(err), err)
	}
	out, _, err := runCLI(t, "sql", "check", "--flink-version", "1.18", file)
	if exitCode(err) != 1 || !strings.Contains(out, "CREATE MODEL needs Flink 2.0; checking for Flink 1.18") {
		t.Fatalf("1.18: exit %d, output:\n%s", exitCode(err), out)
	}
	if _, _, err := runCLI(t, "sql", "check", "--flink-version", "1.2x", file); err == nil || !strings.Contains(err.Error(), "--flink-version") {
		t.Fatalf("bad version: %v", err)
	}
	cfg := writeTemp(t, "config.yaml", "clusters:\n  - name: prod\n    rm: [http://rm:8088]\n    flink_version: 1.20.1\n  - name: next\n    rm: [http://rm2:8088]\n")
	out, _, err = runCLI(t, "--config", cfg, "--cluster", "prod", "sql", "check", file)
	if exitCode(err) != 1 || !strings.Contains(out, "CREATE MODEL needs Flink 2.0; cluster prod runs 1.20") {
		t.Fatalf("cluster prod: exit %d, output:\n%s", exitCode(err), out)
	}
	if _, _, err := runCLI(t, "--config", cfg, "--cluster", "next", "sql", "check", file); exitCode(err) != 0 {
		t.Fatalf("cluster without flink_version: exit %d (%v)", exitCode(err), err)
	}
}

// TestSQLComplete lists what the editor's popup would offer at a place of
// a script, as a table and as JSON.
func TestSQLComplete(t *testing.T) {
	file := writeTemp(t, "draft.sql", "CREATE TABLE orders (id BIGINT, amount DOUBLE) WITH ('connector' = 'datagen');\n"+
		"SELECT o.am FROM orders AS o;\n")
	out, _, err := runCLI(t, "sql", "complete", file, "--line", "2", "--col", "12")
	if err != nil || !strings.Contains(out, "TEXT") || !strings.Contains(out, "amount  column  DOUBLE") {
		t.Fatalf("text: %v\n%s", err, out)
	}
	out, _, err = runCLI(t, "sql", "complete", file, "--line", "2", "--col", "10", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var c sqlCompletion
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if c.Prefix != "" || c.StartLine != 2 || c.StartCol != 10 || len(c.Suggestions) != 2 || c.Suggestions[0].Text != "id" || c.Suggestions[0].Kind != "column" {
		t.Fatalf("%+v", c)
	}
	// ARRAY_SORT came with Flink 1.20.
	draft := writeTemp(t, "fn.sql", "SELECT ARRAY_SO")
	if out, _, _ := runCLI(t, "sql", "complete", draft, "--line", "1", "--col", "16", "--flink-version", "1.19"); strings.Contains(out, "ARRAY_SORT") {
		t.Fatalf("1.19 offers ARRAY_SORT:\n%s", out)
	}
	if out, _, _ := runCLI(t, "sql", "complete", draft, "--line", "1", "--col", "16"); !strings.Contains(out, "ARRAY_SORT") {
		t.Fatalf("the newest does not offer ARRAY_SORT:\n%s", out)
	}
	if _, _, err := runCLI(t, "sql", "complete", file); err == nil {
		t.Fatal("no --line and --col: no error")
	}
}

// TestSQLCheckAsksTheGateway: a cluster whose config names no release is
// checked for the one its SQL Gateway says it runs.
func TestSQLCheckAsksTheGateway(t *testing.T) {
	e := newCLIEnv(t, sim.Options{FlinkVersion: "1.19.2"}, nil)
	file := writeTemp(t, "model.sql", "CREATE MODEL m INPUT (t STRING) OUTPUT (l STRING) WITH ('provider' = 'openai');\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := e.run(ctx, "--cluster", "sim", "sql", "check", file)
	if exitCode(err) != 1 || !strings.Contains(out, "CREATE MODEL needs Flink 2.0; cluster sim runs 1.19") {
		t.Fatalf("exit %d (%v), output:\n%s", exitCode(err), err, out)
	}
}
