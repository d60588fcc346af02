package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/palink/palink/yarn/sim"
)

// kafkaTopics starts an in-process Kafka (kfake) with the topics' records.
func kafkaTopics(t *testing.T, topics map[string][]string) string {
	t.Helper()
	names := make([]string, 0, len(topics))
	for n := range topics {
		names = append(names, n)
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, names...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	addr := c.ListenAddrs()[0]
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for topic, values := range topics {
		for _, v := range values {
			if err := cl.ProduceSync(ctx, &kgo.Record{Topic: topic, Value: []byte(v)}).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return addr
}

// runWithInput runs one invocation with stdin, returning stdout, stderr
// and its error.
func (e *cliEnv) runWithInput(ctx context.Context, stdin string, args ...string) (string, string, error) {
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(append([]string{"--config", e.config}, args...))
	err := root.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

// TestTableImportKafka: palink table import --kafka proposes the DDL of a
// json and a csv topic from their records (the undecodable ones counted),
// asks before adding it, and the added table checks a job that writes
// only its INSERT.
func TestTableImportKafka(t *testing.T) {
	addr := kafkaTopics(t, map[string][]string{
		"clicks": {`{"url": "/a", "ms": 12, "at": "2026-12-02 10:00:00.000"}`, `{"url": "/b", "ms": 3.5, "at": "2026-12-02 10:00:01.000"}`, `{oops`},
		"prices": {"apple,1.5", "pear,2", "plum"},
	})
	e := newCLIEnv(t, sim.Options{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// The proposal is shown and nothing is added unless confirmed.
	out, errOut, err := e.runWithInput(ctx, "no\n", "table", "import", "clicks", "--kafka", addr, "--topic", "clicks")
	if err == nil || !strings.Contains(err.Error(), "cancelled: nothing added") ||
		!strings.Contains(errOut, "proposed from 2 records (1 did not decode)") || !strings.Contains(errOut, "`ms` DOUBLE NOT NULL") ||
		!strings.Contains(errOut, "Add clicks to the catalog? Type yes:") {
		t.Fatalf("declined import: %v\nstdout\n%s\nstderr\n%s", err, out, errOut)
	}
	if got := e.mustRun("table", "list"); strings.Contains(got, "clicks") {
		t.Fatalf("a declined import added the table:\n%s", got)
	}
	out, errOut, err = e.runWithInput(ctx, "yes\n", "table", "import", "clicks", "--kafka", addr, "--topic", "clicks", "--records", "10")
	want := "CREATE TABLE `clicks` (\n  `url` STRING NOT NULL,\n  `ms` DOUBLE NOT NULL,\n  `at` TIMESTAMP(3) NOT NULL\n) WITH (\n" +
		"  'connector' = 'kafka',\n  'topic' = 'clicks',\n  'properties.bootstrap.servers' = '" + addr + "',\n  'format' = 'json',\n" +
		"  'scan.startup.mode' = 'latest-offset'\n)"
	if err != nil || !strings.HasPrefix(out, want+"\n") || !strings.Contains(out, "added clicks to the catalog of cluster sim (version 1)") ||
		!strings.Contains(errOut, "warning: 1 of 3 records did not decode as json") {
		t.Fatalf("confirmed import: %v\nstdout\n%s\nstderr\n%s\nwant\n%s", err, out, errOut, want)
	}
	job := writeTemp(t, "job.sql", "CREATE TABLE out_t (url STRING, ms DOUBLE) WITH ('connector' = 'blackhole');\nINSERT INTO out_t SELECT url, ms FROM clicks;\n")
	if out := e.mustRun("sql", "check", job, "--cluster", "sim"); !strings.Contains(out, "from the table catalog: clicks@v1") {
		t.Errorf("sql check with the imported table:\n%s", out)
	}

	// csv with --yes and -o json: positional columns, the short record counted.
	out = e.mustRun("table", "import", "prices", "--kafka", addr, "--topic", "prices", "--format", "csv", "--brokers-var", "kafka", "--yes", "-o", "json")
	var doc struct {
		SQL         string
		Records     int
		Undecodable int
		Warnings    []string
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(doc.SQL, "`f0` STRING NOT NULL,\n  `f1` DOUBLE NOT NULL\n") || !strings.Contains(doc.SQL, "'format' = 'csv'") ||
		!strings.Contains(doc.SQL, "'properties.bootstrap.servers' = '${kafka}'") ||
		doc.Records != 2 || doc.Undecodable != 1 {
		t.Errorf("csv import: %+v", doc)
	}
}

// TestTableImportKafkaUnreachable: brokers that do not answer are a clear
// error within the timeout.
func TestTableImportKafkaUnreachable(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	began := time.Now()
	_, err := e.run(ctx, "table", "import", "clicks", "--kafka", "127.0.0.1:1", "--topic", "clicks", "--yes")
	if err == nil || !strings.Contains(err.Error(), "import table clicks from topic clicks at 127.0.0.1:1: no broker answered within") ||
		time.Since(began) > 30*time.Second {
		t.Errorf("unreachable brokers: %v (after %s)", err, time.Since(began))
	}
}
