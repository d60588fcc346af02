package localrun_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
)

// parseMark is a comment only the job's own text holds: every form the job
// takes on its way to the runtime (with the catalog's tables before it, its
// variables replaced, its stand-ins applied) still holds it, and no other
// text parsed on the way does (a catalog table's DDL, a stand-in's body).
const parseMark = "-- parse once: the job's own text"

// TestDebugParsesTheJobOnce: a debug run that uses everything the way from
// the request to the runtime has — the release check, the secrets check, a
// catalog table injected, a plain and a secret variable, a stand-in, a Kafka
// sample, a table fed from the samples directory — parses the job's script
// once, and the run does all of it. A parse is counted when the text parsed
// holds the job's own text (parseMark).
func TestDebugParsesTheJobOnce(t *testing.T) {
	t.Setenv("PALINK_TEST_PARSE_ONCE_PW", "hunter2-parse-once")
	addr := kafkaWith(t, map[string][]string{"orders_json": {`{"id": 1, "item": "ab"}`, `{"id": 2, "item": "cd"}`}})
	samples := t.TempDir()
	if err := os.WriteFile(filepath.Join(samples, "clicks.jsonl"), []byte(`{"id": 7}`+"\n"+`{"id": 8}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	job := parseMark + "\n" +
		"CREATE TABLE orders (id BIGINT, item STRING) WITH ('connector' = 'kafka', 'topic' = 'orders_json',\n" +
		"  'properties.bootstrap.servers' = '${brokers}', 'format' = 'json', 'properties.ssl.key.password' = '${pw}');\n" +
		"CREATE TABLE clicks (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 'clicks', 'format' = 'json');\n" +
		"CREATE TABLE out_t (id BIGINT, item STRING) WITH ('connector' = 'print');\n" +
		"CREATE TABLE out_dim (id BIGINT, name STRING) WITH ('connector' = 'print');\n" +
		"CREATE TABLE out_clicks (id BIGINT) WITH ('connector' = 'print');\n" +
		"INSERT INTO out_t SELECT id, mask(item) FROM orders;\n" +
		"INSERT INTO out_dim SELECT id, name FROM dim;\n" +
		"INSERT INTO out_clicks SELECT id FROM clicks;\n"

	var parses atomic.Int32
	restore := flinksql.SetParseHook(func(src string) {
		if strings.Contains(src, parseMark) {
			parses.Add(1)
		}
	})
	defer restore()
	evs := drain(t, mustDebug(t, &localrun.Debugger{Samples: []string{samples}}, api.DebugRequest{
		SQL: job, File: "orders.sql", FlinkVersion: "1.20", Target: "cluster test",
		Catalog:  []model.CatalogTable{{Name: "dim", Version: 3, SQL: dimSQL}},
		Vars:     []model.Variable{{Name: "brokers", Value: addr}, {Name: "pw", SecretEnv: "PALINK_TEST_PARSE_ONCE_PW"}},
		StandIns: []string{"mask(s)=UPPER(s)"},
		Samples:  map[string]int{"orders": 5},
	}))
	restore()
	started, fin := evs[0], evs[len(evs)-1]
	var items []string
	for _, ev := range evs {
		if ev.Row != nil && ev.Row.Sink == "out_t" {
			items = append(items, ev.Row.Values[1])
		}
	}
	if fin.Err != nil {
		t.Fatalf("the run failed: %v", fin.Err)
	}
	rows := map[string]int{}
	for _, s := range fin.Sinks {
		rows[s.Name] = s.Rows
	}
	// The sample takes what the topic gives within its wait: on a loaded
	// machine that may be the first record only; the rows follow it.
	sampled := 0
	if len(started.Sampled) == 1 {
		sampled = started.Sampled[0].Records
	}
	if sampled < 1 || rows["out_t"] != sampled || rows["out_dim"] != 3 || rows["out_clicks"] != 2 ||
		strings.Join(items, ",") != strings.Join([]string{"AB", "CD"}[:min(sampled, 2)], ",") || sampled > 2 ||
		strings.Join(started.Injected, ",") != "dim@v3" || len(started.StoodIn) != 1 || len(started.Sampled) != 1 {
		t.Fatalf("the run did not do it all: rows %v (out_t: %v), injected %v, stood in %v, sampled %+v",
			rows, items, started.Injected, started.StoodIn, started.Sampled)
	}
	if n := parses.Load(); n != 1 {
		t.Errorf("the job's script was parsed %d times, want once", n)
	}
}

// TestDebugErrorsPointAtTheScriptAsWritten: the run's refusals — the
// runtime's and a syntax error alike — point at the line and column of the
// script as its author wrote it, whatever the catalog put before it, the
// variables' values and the stand-ins' expressions (until issue 24's parse once,
// they pointed into the text made from all three).
func TestDebugErrorsPointAtTheScriptAsWritten(t *testing.T) {
	head := "CREATE TABLE out_t (id BIGINT, name STRING) WITH ('connector' = 'print');\n"
	for _, c := range []struct{ name, line, want string }{
		{"a column the runtime does not find", "INSERT INTO out_t SELECT id, tag(name) FROM dim WHERE name <> '${who}' AND nope > 1;",
			"debug run: line 2:76: Column 'nope' not found in any table"},
		{"a syntax error", "INSERT INTO out_t SELECT id, tag(name) FROM dim WHERE name <> '${who}' AND AND;",
			"debug run: the job does not parse:\n2:76: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			evs := drain(t, mustDebug(t, &localrun.Debugger{}, api.DebugRequest{
				SQL: head + c.line + "\n", File: "orders.sql",
				Catalog:  []model.CatalogTable{{Name: "dim", Version: 3, SQL: dimSQL}},
				Vars:     []model.Variable{{Name: "who", Value: "somebody with a much longer name"}},
				StandIns: []string{"tag(s)=CONCAT(s, '-tagged')"},
			}))
			fin := evs[len(evs)-1]
			if fin.Err == nil || !strings.HasPrefix(fin.Err.Error(), c.want) {
				t.Errorf("got %v, want %q…", fin.Err, c.want)
			}
		})
	}
}
