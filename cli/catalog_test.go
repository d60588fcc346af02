package cli

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestCatalogInjectedAtCheckDebugAndSubmit: a job with no DDL of its own
// validates, debugs and deploys with its cluster's catalog tables
// injected; the simulated SQL Gateway's session receives them as CREATE
// TEMPORARY TABLE, the command records the versions (job history), and an
// edit of the catalog names the job it changes on its next restart.
func TestCatalogInjectedAtCheckDebugAndSubmit(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	var (
		mu       sync.Mutex
		received []sim.GatewayStatement
	)
	e := newCLIEnv(t, sim.Options{OnStatement: func(st sim.GatewayStatement) {
		mu.Lock()
		received = append(received, st)
		mu.Unlock()
	}}, nil)
	srcFile := writeTemp(t, "src.sql", "CREATE TABLE src (id BIGINT, v STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5')")
	snkFile := writeTemp(t, "snk.sql", "CREATE TABLE snk (id BIGINT, v STRING) WITH ('connector' = 'blackhole')")
	jobFile := writeTemp(t, "job.sql", "INSERT INTO snk\nSELECT id, v FROM src;\n")
	if out := e.mustRun("table", "add", "src", "--sql", srcFile); !strings.Contains(out, "src of cluster sim is now version 1") {
		t.Errorf("table add said %q", out)
	}
	e.mustRun("table", "add", "snk", "--sql", snkFile)
	if out := e.mustRun("table", "list"); !strings.Contains(out, "datagen") || !strings.Contains(out, "blackhole") {
		t.Errorf("table list:\n%s", out)
	}

	// Validate: the catalog's tables are known, a column they lack is not.
	if out := e.mustRun("sql", "check", jobFile, "--cluster", "sim"); !strings.Contains(out, "from the table catalog: snk@v1, src@v1") {
		t.Errorf("sql check --cluster:\n%s", out)
	}
	bad := writeTemp(t, "bad.sql", "INSERT INTO snk\nSELECT id, nope FROM src;\n")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := e.run(ctx, "sql", "check", bad, "--cluster", "sim"); err == nil || !strings.Contains(out, "2:12") {
		t.Errorf("sql check of an unknown column: %v\n%s", err, out)
	}

	// Debug: the run gets the tables too.
	out, errOut := e.runBoth(ctx, "debug", jobFile, "--cluster", "sim")
	if !strings.Contains(errOut, "snk@v1, src@v1") || strings.Count(out, "\n") < 5 {
		t.Errorf("debug --cluster: stdout\n%s\nstderr\n%s", out, errOut)
	}

	// Submit: the gateway's session receives the injected statements.
	e.mustRun("job", "create", "--name", "plain", "--sql", jobFile)
	e.mustRun("job", "submit", "plain", "--wait")
	var got []string
	mu.Lock()
	seen := slices.Clone(received)
	mu.Unlock()
	for _, st := range seen {
		if st.Session == "palink-plain" {
			got = append(got, strings.Join(strings.Fields(st.Statement), " "))
		}
	}
	for _, want := range []string{"CREATE TEMPORARY TABLE snk (", "CREATE TEMPORARY TABLE src (", "INSERT INTO snk"} {
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("the gateway session never received %q; it received:\n%s", want, strings.Join(got, "\n"))
		}
	}
	cs := e.job("plain").Commands
	if len(cs) == 0 || model.CatalogRefs(cs[len(cs)-1].Params.Catalog) != "snk@v1, src@v1" {
		t.Fatalf("the submit recorded catalog %+v", cs)
	}
	if out := e.mustRun("job", "history", "plain"); !strings.Contains(out, "SUBMIT injected from the table catalog: snk@v1, src@v1") {
		t.Errorf("job history:\n%s", out)
	}

	// A catalog change names the jobs it changes on their next restart.
	srcFile2 := writeTemp(t, "src2.sql", "CREATE TABLE src (id BIGINT, v STRING, w INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5')")
	if out := e.mustRun("table", "edit", "src", "--sql", srcFile2, "--note", "w"); !strings.Contains(out, "plain") || !strings.Contains(out, "deployed with v1; gets v2 on its next restart") {
		t.Errorf("table edit:\n%s", out)
	}
	if out := e.mustRun("table", "show", "src"); !strings.Contains(out, "v2") || !strings.Contains(out, "plain") {
		t.Errorf("table show:\n%s", out)
	}
	// A job's own DDL wins, with a warning.
	own := writeTemp(t, "own.sql", "CREATE TABLE src (id BIGINT, v STRING) WITH ('connector' = 'datagen');\nINSERT INTO snk SELECT id, v FROM src;\n")
	if out := e.mustRun("sql", "check", own, "--cluster", "sim"); !strings.Contains(out, "catalog") || !strings.Contains(out, "1 warning") {
		t.Errorf("sql check of a shadowing script:\n%s", out)
	}
	// An invalid definition is refused with the reason, and stores nothing.
	broken := writeTemp(t, "broken.sql", "CREATE TABLE k (id BIGINT) WITH ('connector' = 'kafka')")
	if _, err := e.run(ctx, "table", "add", "k", "--sql", broken); err == nil || !strings.Contains(err.Error(), "topic") {
		t.Errorf("table add of an invalid definition: %v", err)
	}
}
