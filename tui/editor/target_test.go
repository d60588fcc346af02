package editor

import (
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// TestEditorChecksForTheJobsCluster: a job's script is checked for the
// release its cluster runs, and the error names the cluster.
func TestEditorChecksForTheJobsCluster(t *testing.T) {
	const createModel = "CREATE MODEL m INPUT (t STRING) OUTPUT (l STRING) WITH ('provider' = 'openai');"
	env := &kit.Env{FlinkVersions: map[string]string{"prod": "1.20.1"}}
	prod := &Screen{env: env, job: api.JobView{Job: model.Job{Name: "enrich", Cluster: "prod"}}}
	res := flinksql.Check(createModel, prod.sqlOptions())
	if res.Errors() != 1 || !strings.Contains(res.Diagnostics[0].Msg, "CREATE MODEL needs Flink 2.0; cluster prod runs 1.20") {
		t.Fatalf("prod: %v", res.Diagnostics)
	}
	other := &Screen{env: env, job: api.JobView{Job: model.Job{Name: "enrich", Cluster: "next"}}}
	if res := flinksql.Check(createModel, other.sqlOptions()); res.Errors() != 0 {
		t.Fatalf("a cluster without a version is checked for the newest: %v", res.Diagnostics)
	}
}
