package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core/api"
)

// onJob is a statement set: an updating sink (a count per user) and an
// append-only one that calls the registered UDF risk.
const onJob = `CREATE TABLE orders (order_id BIGINT, user_id BIGINT, amount DOUBLE, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka', 'topic' = 'orders', 'format' = 'json');
CREATE TABLE totals (user_id BIGINT, total DOUBLE, n BIGINT, PRIMARY KEY (user_id) NOT ENFORCED) WITH ('connector' = 'blackhole');
CREATE TABLE scored (order_id BIGINT, score DOUBLE) WITH ('connector' = 'blackhole');
EXECUTE STATEMENT SET BEGIN
INSERT INTO totals SELECT user_id, SUM(amount), COUNT(*) FROM orders GROUP BY user_id;
INSERT INTO scored SELECT order_id, risk(amount) FROM orders;
END;
`

const onOrders = `{"order_id": 1, "user_id": 7, "amount": 12.5, "ts": "2024-01-01 10:00:00"}
{"order_id": 2, "user_id": 8, "amount": 3.25, "ts": "2024-01-01 10:00:01"}
{"order_id": 3, "user_id": 7, "amount": 40.0, "ts": "2024-01-01 10:00:02"}
`

// TestDebugOnTheSimulator: `palink debug --on sim` against `palink sim`:
// the job, calling a registered UDF, runs on the cluster's SQL Gateway
// (the simulator's runs it on palink's runtime, the UDF through its
// stand-in), the sample read by a filesystem table; each sink's rows come
// back through the gateway's results with their changes, under the sink's
// column names; and --compare finds the run here the same.
func TestDebugOnTheSimulator(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "sim.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"sim", "--addr", "127.0.0.1:0", "--jobs", "0", "--seed", "5", "--config-out", cfgPath})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	for deadline := time.Now().Add(20 * time.Second); ; {
		if _, _, err := config.Load(cfgPath); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("no config written: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	e := &cliEnv{t: t, config: cfgPath}
	jar := filepath.Join(dir, "risk.jar")
	if err := writeJar(jar, "com/acme/Risk.class"); err != nil {
		t.Fatal(err)
	}
	e.mustRun("udf", "add", "risk", "--class", "com.acme.Risk", "--language", "java", "--jar", jar, "--signature", "(DOUBLE) -> DOUBLE")
	job, orders := writeTemp(t, "job.sql", onJob), writeTemp(t, "orders.jsonl", onOrders)
	args := []string{"debug", job, "--on", "sim", "--data", "orders=" + orders, "--udf-stand-in", "risk(a)=a / 100"}

	out, errOut := e.runBoth(context.Background(), append(args, "-o", "json")...)
	var doc struct {
		Cluster string
		Sinks   []struct {
			Name      string
			Columns   []struct{ Name string }
			Rows      []map[string]any
			Changelog []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("-o json: %v\n%s", err, out)
	}
	for _, want := range []string{"note: function risk created from " + jar, "note: table orders reads file://" + orders} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if doc.Cluster != "sim" || len(doc.Sinks) != 2 {
		t.Fatalf("document %+v", doc)
	}
	totals, scored := doc.Sinks[0], doc.Sinks[1]
	var kinds []string
	for _, c := range totals.Changelog {
		kinds = append(kinds, c["op"].(string))
	}
	if totals.Name != "totals" || strings.Join(kinds, " ") != "+I +I -U +U" || len(totals.Rows) != 2 || totals.Columns[1].Name != "total" {
		t.Errorf("totals: changes %v, %d rows, columns %v", kinds, len(totals.Rows), totals.Columns)
	}
	for _, r := range totals.Rows {
		if r["user_id"] == 7.0 && (r["total"] != 52.5 || r["n"] != 2.0) {
			t.Errorf("user 7's total: %v", r)
		}
	}
	if scored.Name != "scored" || len(scored.Rows) != 3 || scored.Rows[2]["score"] != 0.4 {
		t.Errorf("scored: %+v", scored)
	}

	// With the cluster's debug.data_dir, the samples are copied there
	// (by this process, as its user) and the cluster reads the copies.
	shared := t.TempDir()
	text, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	withDir := &cliEnv{t: t, config: writeTemp(t, "shared.yaml", strings.Replace(string(text), "  - name: sim\n", "  - name: sim\n    debug: {data_dir: "+shared+"}\n", 1))}
	_, errOut = withDir.runBoth(context.Background(), args...)
	copies, _ := filepath.Glob(filepath.Join(shared, "palink-debug-*", "orders.jsonl"))
	if len(copies) != 1 || !strings.Contains(errOut, "note: table orders reads file://"+copies[0]) {
		t.Errorf("data_dir: copies %v; stderr:\n%s", copies, errOut)
	}

	out = e.mustRun(append(args, "--compare")...)
	for _, want := range []string{"totals: the same final table here and on sim (2 rows)", "scored: the same final table here and on sim (3 rows)"} {
		if !strings.Contains(out, want) {
			t.Errorf("--compare lacks %q:\n%s", want, out)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("palink sim: %v", err)
	}
}

// fakeOutput is a run here whose JSON document is doc.
type fakeOutput struct{ api.DebugOutput }

var fakeDoc string

func (fakeOutput) WriteJSON(w io.Writer) error { _, err := io.WriteString(w, fakeDoc); return err }

// TestCompareRunsSaysWhereTheyDiffer: a row only here, one only on the
// cluster and a sink only one side ran are each named, and the command
// fails.
func TestCompareRunsSaysWhereTheyDiffer(t *testing.T) {
	fakeDoc = `{"sinks": [{"name": "scored", "columns": [{"Name": "order_id"}, {"Name": "score"}],
	  "rows": [{"order_id": 1, "score": 0.125}, {"order_id": 2, "score": 0.0325}]},
	  {"name": "here_only", "columns": [{"Name": "x"}], "rows": []}]}`
	remote := api.RemoteDebugResult{Cluster: "prod", Sinks: []api.RemoteSink{
		{Name: "`scored`", Final: [][]json.RawMessage{{json.RawMessage("1"), json.RawMessage("0.125")}, {json.RawMessage("2"), json.RawMessage("0.5")}}},
		{Name: "there_only"},
	}}
	cmd := newRootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	err := compareRuns(cmd, api.DebugEvent{Output: fakeOutput{}}, remote)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), "3 sinks differ between here and prod") {
		t.Errorf("err = %v", err)
	}
	for _, want := range []string{
		"scored: the final tables differ: 1 row only here, 1 row only on prod",
		"  here only:  [2,0.0325]", "  prod only: [2,0.5]",
		"here_only: ran here only (0 rows); prod gave no such sink", "there_only: ran on prod only (0 rows)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
