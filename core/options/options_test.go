package options

import (
	"slices"
	"testing"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core/observe"
)

// TestConfigAndCoreNameTheSameRules: the config file validates the rule
// kinds and webhook formats core judges and sends; the two lists must not
// drift apart.
func TestConfigAndCoreNameTheSameRules(t *testing.T) {
	if got, want := config.RuleKinds(), observe.RuleKinds(); !slices.Equal(got, want) {
		t.Errorf("config knows rule kinds %v, core judges %v", got, want)
	}
	for _, f := range []string{observe.FormatJSON, observe.FormatSlack, observe.FormatDingTalk, observe.FormatFeishu} {
		if _, _, err := config.Parse("c.yaml", []byte("clusters:\n  - name: a\n    rm: [http://x:1]\nalerts:\n  webhooks:\n    - name: w\n      url: http://h:1\n      format: "+f+"\n")); err != nil {
			t.Errorf("config refuses core's webhook format %s: %v", f, err)
		}
	}
}

// TestCoreOptionsFromTheConfig: what the config file says reaches core.
func TestCoreOptionsFromTheConfig(t *testing.T) {
	t.Setenv("PALINK_TEST_PW", "s3cret")
	cfg, _, err := config.Parse("c.yaml", []byte(`clusters:
  - name: prod
    rm: [http://rm1:8088, http://rm2:8088]
    sql_gateway: http://gw:8083
    protected: true
    auth: {user: ops, password_env: PALINK_TEST_PW}
    deploy: {mode: yarn-session, session_app: application_1_0001, savepoint_dir: hdfs:///sp, queue: streaming, python_command: "flink run -t {target} {python}"}
restart_policy: {max_attempts: 4, backoff: 20s}
savepoints: {interval: 6h, max_count: 5, max_age: 168h, max_restore_age: 72h}
projects: {cache_dir: /var/cache/palink/projects}
sync: {interval: 15s}
alerts:
  rules:
    - {name: bp, kind: backpressure, above: 0.8, for: 2m, jobs: ["orders-*"]}
  webhooks:
    - {name: ops, url: "http://hook:1/x", rules: [bp]}
`))
	if err != nil {
		t.Fatal(err)
	}
	o := FromConfig(cfg)
	if len(o.Clusters) != 1 {
		t.Fatalf("clusters: %+v", o.Clusters)
	}
	c := o.Clusters[0]
	pw, err := c.Password()
	if c.Name != "prod" || len(c.RM) != 2 || !c.Protected || c.BasicUser != "ops" || err != nil || pw != "s3cret" ||
		c.Deploy.Mode != "yarn-session" || c.Deploy.SessionApp != "application_1_0001" || c.Deploy.JarDeployer != "rest" || c.Deploy.Queue != "streaming" ||
		c.Deploy.PythonCommand != "flink run -t {target} {python}" {
		t.Errorf("cluster: %+v (password %q, %v)", c, pw, err)
	}
	if o.Restart.MaxAttempts != 4 || o.Restart.Backoff.Seconds() != 20 || !o.Restart.Enabled || o.SyncInterval.Seconds() != 15 {
		t.Errorf("restart %+v, sync every %s", o.Restart, o.SyncInterval)
	}
	if sp := o.Savepoints; sp.Interval.Hours() != 6 || sp.Jitter.Minutes() != 36 || sp.MaxCount != 5 || sp.MaxAge.Hours() != 168 ||
		sp.MaxRestoreAge.Hours() != 72 || o.ProjectCache != "/var/cache/palink/projects" {
		t.Errorf("savepoints %+v, project cache %q", sp, o.ProjectCache)
	}
	if len(o.Observe.Rules) != 1 || o.Observe.Rules[0].Above != 0.8 || o.Observe.Rules[0].For.Minutes() != 2 || !o.Observe.Rules[0].Selects("orders-enrich", "prod") {
		t.Errorf("rules: %+v", o.Observe.Rules)
	}
	if len(o.Observe.Webhooks) != 1 || !o.Observe.Webhooks[0].Wants("bp") || o.Observe.Webhooks[0].Wants("other") {
		t.Errorf("webhooks: %+v", o.Observe.Webhooks)
	}
	if u, err := o.Observe.Webhooks[0].Endpoint(); err != nil || u != "http://hook:1/x" {
		t.Errorf("webhook endpoint %q, %v", u, err)
	}
}
