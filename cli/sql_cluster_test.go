package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/yarn/sim"
)

// TestCheckAndDebugWithoutClusterTakeTheImpliedCatalog: sql check and
// debug without --cluster take the table catalog and variables of the
// only configured cluster, or of default_cluster among several; with
// several and no default the script is checked as it is.
func TestCheckAndDebugWithoutClusterTakeTheImpliedCatalog(t *testing.T) {
	var dflt string
	e := newCLIEnv(t, sim.Options{}, nil)
	src := writeTemp(t, "src.sql", "CREATE TABLE src (id BIGINT, v STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3', 'fields.v.length' = '${vlen}')")
	e.mustRun("table", "add", "src", "--sql", src)
	e.mustRun("var", "set", "vlen", "4")
	job := writeTemp(t, "job.sql", "CREATE TABLE snk (id BIGINT, v STRING) WITH ('connector' = 'blackhole');\nINSERT INTO snk SELECT id, v FROM src;\n")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// One cluster: its catalog.
	if out := e.mustRun("sql", "check", job); !strings.Contains(out, "from the table catalog: src@v1") {
		t.Errorf("sql check with one cluster:\n%s", out)
	}
	out, errOut := e.runBoth(ctx, "debug", job)
	if !strings.Contains(errOut, "from the table catalog of cluster sim: src@v1") || strings.Count(out, "\n") < 3 {
		t.Errorf("debug with one cluster: stdout\n%s\nstderr\n%s", out, errOut)
	}

	// Several, no default: the script alone, which lacks src.
	rewrite := func() {
		cfg, _, err := config.Load(e.config)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Clusters = cfg.Clusters[:1]
		other := cfg.Clusters[0]
		other.Name = "other"
		cfg.Clusters = append(cfg.Clusters, other)
		cfg.DefaultCluster = dflt
		if err := cfg.Write(e.config); err != nil {
			t.Fatal(err)
		}
	}
	rewrite()
	if out, err := e.run(ctx, "sql", "check", job); err == nil || strings.Contains(out, "src@v1") || !strings.Contains(out, "src") {
		t.Errorf("sql check with two clusters and no default: %v\n%s", err, out)
	}
	// default_cluster names the one to take.
	dflt = "sim"
	rewrite()
	if out := e.mustRun("sql", "check", job); !strings.Contains(out, "from the table catalog: src@v1") {
		t.Errorf("sql check with default_cluster sim:\n%s", out)
	}
	if out, err := e.run(ctx, "sql", "check", job, "--cluster", "other"); err == nil || strings.Contains(out, "src@v1") {
		t.Errorf("--cluster other still wins over the default: %v\n%s", err, out)
	}
}

// TestCheckAndDebugKnowTheClusterRelease: a script using what the cluster's
// Flink lacks is refused by a check and by a debug run, with or without
// --cluster, at the construct's line:col — rows the cluster could never
// produce would mislead.
func TestCheckAndDebugKnowTheClusterRelease(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	setRelease := func(v string) {
		cfg, _, err := config.Load(e.config)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Clusters[0].FlinkVersion = v
		if err := cfg.Write(e.config); err != nil {
			t.Fatal(err)
		}
	}
	job := writeTemp(t, "job.sql", `CREATE TABLE clicks (usr STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'c', 'format' = 'json');
CREATE TABLE snk (usr STRING, n BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO snk
SELECT usr, COUNT(*) FROM TABLE(SESSION(TABLE clicks PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '5' MINUTES))
GROUP BY usr, window_start, window_end;
`)
	data := writeTemp(t, "clicks.jsonl", `{"usr":"a","ts":"2026-12-01 10:00:00"}`+"\n"+`{"usr":"a","ts":"2026-12-01 10:20:00"}`+"\n")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	setRelease("1.18")
	want := job + ":4:33: error: the SESSION window TVF needs Flink 1.19; cluster sim runs 1.18"
	for _, args := range [][]string{
		{"sql", "check", job},
		{"debug", job, "--data", "clicks=" + data},
		{"debug", job, "--data", "clicks=" + data, "--cluster", "sim"},
	} {
		out, err := e.run(ctx, args...)
		if err == nil || !strings.Contains(out+err.Error(), want) {
			t.Errorf("palink %s on Flink 1.18: %v\n%s\nwant %q", strings.Join(args, " "), err, out, want)
		}
	}

	setRelease("1.19")
	if out, err := e.run(ctx, "debug", job, "--data", "clicks="+data); err != nil || !strings.Contains(out, "snk: 2 rows") {
		t.Errorf("debug on Flink 1.19: %v\n%s", err, out)
	}
}
