package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/palink/palink/yarn/sim"
)

// TestDebugSampleFlags: palink debug --sample T=kafka:N --save-sample DIR
// against an in-process Kafka (kfake).
func TestDebugSampleFlags(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "clicks"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	addr := c.ListenAddrs()[0]
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, v := range []string{`{"url": "/a"}`, `{"url": "/b"}`, `oops`, `{"url": "/c"}`} {
		if err := cl.ProduceSync(ctx, &kgo.Record{Topic: "clicks", Value: []byte(v)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	cl.Close()
	job := writeTemp(t, "clicks.sql", "CREATE TABLE clicks (url STRING) WITH ('connector' = 'kafka', 'topic' = 'clicks', "+
		"'properties.bootstrap.servers' = '"+addr+"', 'format' = 'json');\n"+
		"CREATE TABLE out_t (url STRING) WITH ('connector' = 'print');\nINSERT INTO out_t SELECT url FROM clicks;\n")
	dir := t.TempDir()
	e := newCLIEnv(t, sim.Options{}, nil)
	out, errOut := e.runBoth(ctx, "debug", job, "--sample", "clicks=kafka:3", "--save-sample", dir)
	if !strings.Contains(errOut, "sampled clicks: 2 records of topic clicks (json), 1 undecodable") ||
		!strings.Contains(errOut, "--data clicks="+filepath.Join(dir, "clicks.jsonl")) || !strings.Contains(out, "/c") || strings.Contains(out, "/a") {
		t.Errorf("debug --sample: stdout\n%s\nstderr\n%s", out, errOut)
	}
	if _, err := e.run(ctx, "debug", job, "--sample", "clicks=file"); err == nil || !strings.Contains(err.Error(), "want TABLE=kafka") {
		t.Errorf("a bad --sample: %v", err)
	}
}
