package cli

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/yarn/sim"
)

// TestDebugCLIParsesTheJobOnce: `palink debug --cluster` of a job that
// gets a catalog table, a variable and a stand-in — the whole walk from
// the command to the runtime — parses the job's text once. A parse is
// counted when the text parsed holds a comment only the job's file has.
// (Before, the job was parsed as written to find the catalog tables it
// uses, and ${min_id} outside a string does not parse: dim was left out
// and the run failed with "Object 'dim' not found".)
func TestDebugCLIParsesTheJobOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	e.mustRun("table", "add", "dim", "--sql", writeTemp(t, "dim.sql",
		"CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3')"))
	e.mustRun("var", "set", "min_id", "1")
	const mark = "-- the job's own text: parse once"
	job := writeTemp(t, "job.sql", mark+"\n"+
		"CREATE TABLE out_t (id BIGINT, name STRING) WITH ('connector' = 'print');\n"+
		"INSERT INTO out_t SELECT id, tag(name) FROM dim WHERE id > ${min_id};\n")

	var parses atomic.Int32
	restore := flinksql.SetParseHook(func(src string) {
		if strings.Contains(src, mark) {
			parses.Add(1)
		}
	})
	defer restore()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, errOut := e.runBoth(ctx, "debug", job, "--cluster", "sim", "--udf-stand-in", "tag(s)=CONCAT('t-', s)")
	restore()
	if !strings.Contains(errOut, "from the table catalog of cluster sim: dim@v1") || !strings.Contains(errOut, "stand-in for this run: tag(s)=CONCAT('t-', s)") ||
		!strings.Contains(out, "2 rows") || !strings.Contains(out, "| t-") {
		t.Fatalf("the run did not do it all:\nstdout\n%s\nstderr\n%s", out, errOut)
	}
	if n := parses.Load(); n != 1 {
		t.Errorf("palink debug parsed the job %d times, want once", n)
	}
}
