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
