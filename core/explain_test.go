package core_test

import (
	"strings"
	"testing"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

func TestExplainThroughTheGateway(t *testing.T) {
	e := coretest.New(t, sim.Options{}, nil)
	plan, err := e.Svc.Explain(e.Ctx, "sim", "SET 'pipeline.name' = 'x';\n"+coretest.SQL)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "== Optimized Execution Plan ==") || !strings.Contains(plan, "snk") || !strings.Contains(plan, "src") {
		t.Errorf("plan does not explain snk from src:\n%s", plan)
	}
	// The gateway judges the DDL it was given: a sink the script does not
	// create is its error, with the line of the job statement.
	_, err = e.Svc.Explain(e.Ctx, "sim", "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\n\nINSERT INTO nowhere SELECT id FROM src;")
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("explain of an unknown sink: %v", err)
	}
	for sql, want := range map[string]string{
		"CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');": "no INSERT",
		coretest.SQL + "\nINSERT INTO snk SELECT id FROM src;":         "a second job statement",
	} {
		if _, err := e.Svc.Explain(e.Ctx, "sim", sql); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("explain %q: %v, want %q", sql, err, want)
		}
	}
	if _, err := e.Svc.Explain(e.Ctx, "nope", coretest.SQL); err == nil || !strings.Contains(err.Error(), "no such cluster") {
		t.Errorf("explain on an unknown cluster: %v", err)
	}
}

func TestExplainNeedsAGateway(t *testing.T) {
	e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) { c.SQLGateway = "" })
	if _, err := e.Svc.Explain(e.Ctx, "sim", coretest.SQL); err == nil || !strings.Contains(err.Error(), "no sql_gateway") {
		t.Errorf("explain without a gateway: %v", err)
	}
}

// TestExplainMasksSecrets: a script's secret variables are read for the
// gateway (it plans with their values), and the plan, which quotes a
// scan's dynamic options, and the gateway's errors show them masked.
func TestExplainMasksSecrets(t *testing.T) {
	const secret = "pl4nted_explain_8b3"
	t.Setenv("PALINK_TEST_EXPLAIN_SECRET", secret)
	e := coretest.New(t, sim.Options{}, nil)
	if _, err := e.Svc.SetVar(e.Ctx, model.Variable{Name: "pw", SecretEnv: "PALINK_TEST_EXPLAIN_SECRET"}); err != nil {
		t.Fatal(err)
	}
	sql := "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\n" +
		"CREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole');\n" +
		"INSERT INTO snk SELECT id FROM src /*+ OPTIONS('properties.ssl.key.password' = '${pw}') */;"
	plan, err := e.Svc.Explain(e.Ctx, "sim", sql)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plan, secret) || !strings.Contains(plan, "options:{properties.ssl.key.password="+model.Masked+"}") {
		t.Errorf("the plan shows the secret, or not its option masked:\n%s", plan)
	}
	// The gateway's error quotes what it was sent.
	_, err = e.Svc.Explain(e.Ctx, "sim", "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\n"+
		"INSERT INTO nowhere_${pw} SELECT id FROM src;")
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "nowhere_"+model.Masked) {
		t.Errorf("explain of a sink named after a secret: %v", err)
	}
}
