package core_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestJobConfigShowsASecretsReferenceNotItsValue: a job's Flink config
// and its script's SET statements may set a key from a secret variable (a
// deploy warns of the SET);
// the cluster then reports the value (Flink hides only the keys it deems
// sensitive, and env.java.opts is none), and the job's configuration view
// shows the key as palink set it, ${name} and all, never the value.
func TestJobConfigShowsASecretsReferenceNotItsValue(t *testing.T) {
	const secret = "pl4nted-config-2c7"
	t.Setenv("PALINK_TEST_CONFIG_SECRET", secret)
	e := coretest.New(t, sim.Options{}, nil)
	for _, v := range []model.Variable{{Name: "tok", SecretEnv: "PALINK_TEST_CONFIG_SECRET"}, {Name: "plain", Value: "seen-as-is"}} {
		if _, err := e.Svc.SetVar(e.Ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "orders", Cluster: "sim", Kind: model.KindSQL,
		Spec: model.Spec{SQL: "SET 'sql-client.display.max-column-width' = '${tok}';\n" + coretest.SQL},
		Config: map[string]string{"env.java.opts": "-Dtoken=${tok} -Dp=${plain}", "pipeline.global-job-parameters.api-key": "k-${tok}",
			"pipeline.global-job-parameters.region": "${plain}"}}); err != nil {
		t.Fatal(err)
	}
	c := e.Act("orders", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s", c.State, c.Error)
	}
	// The deploy goes ahead, and says where a secret stands outside a
	// connector option (Flink shows it in its plan and web UI).
	if logged := strings.Join(coretest.LogTexts(c), "\n"); !strings.Contains(logged,
		"warning: line 1:46: secret variable ${tok} stands outside a connector option") {
		t.Errorf("the deploy did not warn of the secret in a SET:\n%s", logged)
	}
	e.SyncUntil("orders", "RUNNING", coretest.Running)
	conf, err := e.Svc.FlinkConfig(e.Ctx, "orders")
	if err != nil {
		t.Fatal(err)
	}
	shown := fmt.Sprintf("%+v", conf)
	if strings.Contains(shown, secret) {
		t.Errorf("the configuration shows the secret:\n%s", shown)
	}
	jm := map[string]string{}
	for _, e := range conf.JobManager {
		jm[e.Key] = e.Value
	}
	for k, want := range map[string]string{
		"env.java.opts": "-Dtoken=${tok} -Dp=${plain}", "sql-client.display.max-column-width": "${tok}",
		"pipeline.global-job-parameters.api-key": "k-${tok}", "pipeline.global-job-parameters.region": "seen-as-is",
	} {
		if jm[k] != want {
			t.Errorf("JobManager %s = %q, want %q", k, jm[k], want)
		}
	}
	if u := conf.Job.UserConfig; u["api-key"] != "k-${tok}" || u["region"] != "seen-as-is" {
		t.Errorf("user config: %v", u)
	}
}
