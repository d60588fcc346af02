package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/yarn/sim"
)

// TestSecretFoundNowhere: a secret variable reaches the SQL Gateway (the
// deploy replaced ${db_pass}) and is found nowhere palink keeps or shows
// things: not in the store file, not in the command logs, not in any
// -o json or text output, nor in the refusals of a secret that cannot be
// read. Plain variables resolve per cluster, and an undefined one is
// reported at its line:col.
func TestSecretFoundNowhere(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	const secret = "s3cr3t-planted-7f2a9c"
	t.Setenv("PALINK_TEST_DB_PASS", secret)
	var (
		mu       sync.Mutex
		received []string
	)
	e := newCLIEnv(t, sim.Options{OnStatement: func(st sim.GatewayStatement) {
		mu.Lock()
		received = append(received, st.Statement)
		mu.Unlock()
	}}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var shown strings.Builder // everything palink printed
	run := func(args ...string) string {
		t.Helper()
		out, errOut := e.runBoth(ctx, args...)
		shown.WriteString(out + errOut)
		return out
	}
	run("var", "set", "db_pass", "--secret-env", "PALINK_TEST_DB_PASS")
	run("var", "set", "rows", "99")
	run("var", "set", "rows", "4", "--cluster", "sim")
	if out := run("var", "list"); !strings.Contains(out, "•••• (env PALINK_TEST_DB_PASS)") || !strings.Contains(out, "99") {
		t.Errorf("var list:\n%s", out)
	}
	if out := run("var", "list", "--cluster", "sim", "-o", "json"); !strings.Contains(out, `"value": "••••"`) || strings.Contains(out, `"value": "99"`) || !strings.Contains(out, `"value": "4"`) {
		t.Errorf("var list --cluster sim -o json (the cluster's rows overrides the global one):\n%s", out)
	}

	job := writeTemp(t, "job.sql", "CREATE TABLE snk (id BIGINT, v STRING) WITH ('connector' = 'print', 'print-identifier' = 'orders-${db_pass}');\n"+
		"CREATE TABLE src (id BIGINT, v STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '${rows}');\n"+
		"INSERT INTO snk SELECT id, v FROM src;\n")
	run("sql", "check", job, "--cluster", "sim")
	typo := writeTemp(t, "typo.sql", "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '${rowz}');\n"+
		"CREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO snk SELECT id FROM src;\n")
	if out, err := e.run(ctx, "sql", "check", typo, "--cluster", "sim"); err == nil || !strings.Contains(out, ":1:81: error: variable ${rowz} is not defined") || !strings.Contains(out, "did you mean ${rows}?") {
		t.Errorf("sql check of an undefined variable: %v\n%s", err, out)
	}

	// Debug resolves them as a deploy would: 4 rows, the cluster's.
	out := run("debug", job, "--cluster", "sim", "-o", "json")
	if n := strings.Count(out, `"id":`); n != 4 {
		t.Errorf("debug --cluster sim gave %d rows, want the cluster's 4:\n%s", n, out)
	}

	run("job", "create", "--name", "orders", "--sql", job)
	run("job", "submit", "orders", "--wait")
	mu.Lock()
	sent := slices.Clone(received)
	mu.Unlock()
	if !slices.ContainsFunc(sent, func(s string) bool { return strings.Contains(s, "orders-"+secret) }) {
		t.Errorf("the gateway never received the secret's value; it received:\n%s", strings.Join(sent, "\n"))
	}
	if slices.ContainsFunc(sent, func(s string) bool { return strings.Contains(s, "${") }) {
		t.Errorf("a ${name} reached the gateway unreplaced:\n%s", strings.Join(sent, "\n"))
	}

	// A secret that cannot be read refuses the submit, without a value.
	run("var", "set", "other_pass", "--secret-env", "PALINK_TEST_UNSET_"+strings.ToUpper(t.Name()))
	other := writeTemp(t, "other.sql", strings.Replace(string(mustRead(t, job)), "${db_pass}", "${other_pass}", 1))
	run("job", "create", "--name", "other", "--sql", other)
	_, err := e.run(ctx, "job", "submit", "other")
	if err == nil || !strings.Contains(err.Error(), "secret variable other_pass: environment variable PALINK_TEST_UNSET_") {
		t.Errorf("submit with an unreadable secret: %v", err)
	}
	undefined := writeTemp(t, "undefined.sql", strings.Replace(string(mustRead(t, job)), "${db_pass}", "${nope}", 1))
	run("job", "create", "--name", "undefined", "--sql", undefined)
	if _, err := e.run(ctx, "job", "submit", "undefined"); err == nil || !strings.Contains(err.Error(), "line 1:98: variable ${nope} is not defined") {
		t.Errorf("submit with an undefined variable: %v", err)
	}

	for _, args := range [][]string{
		{"job", "show", "orders", "-o", "json"}, {"job", "history", "orders", "-o", "json"}, {"job", "history", "orders"},
		{"commands", "-o", "json"}, {"commands", "-o", "wide"}, {"var", "list", "-o", "yaml"}, {"jobs", "-o", "json"},
		{"sql", "check", job, "--cluster", "sim", "--remote", "-o", "json"},
	} {
		run(args...)
	}
	if strings.Contains(shown.String(), secret) {
		t.Errorf("palink showed the secret:\n%s", shown.String())
	}
	store, err := os.ReadFile(filepath.Join(filepath.Dir(e.config), "palink.db"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(store), secret) || !strings.Contains(string(store), "PALINK_TEST_DB_PASS") {
		t.Error("the store file holds the secret, or not where it comes from")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
