package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const base = "clusters:\n  - name: prod\n    rm: [http://rm:8088]\n    sql_gateway: http://gw:8083\n"

func TestObservabilityDefaults(t *testing.T) {
	c, warns, err := Parse("c.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	if c.Metrics.Interval.D() != 5*time.Second || c.Metrics.Concurrency != 8 || c.Alerts.Interval.D() != 30*time.Second {
		t.Errorf("metrics %+v, alerts interval %s", c.Metrics, c.Alerts.Interval.D())
	}
	var kinds []string
	for _, r := range c.Alerts.Rules {
		kinds = append(kinds, r.Kind)
	}
	if strings.Join(kinds, ",") != "job_failed,drift" {
		t.Errorf("default rules %v, want the free ones (job_failed, drift)", kinds)
	}
	off, _, err := Parse("c.yaml", []byte(base+"alerts:\n  rules: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(off.Alerts.Rules) != 0 {
		t.Errorf("rules: [] kept %d rules, want alerting off", len(off.Alerts.Rules))
	}
}

func TestAlertRulesAndWebhooksParse(t *testing.T) {
	t.Setenv("PALINK_TEST_HOOK", "https://hooks.slack.com/services/T000/B000/XXXXSECRET")
	y := base + `metrics:
  interval: 2s
alerts:
  rules:
    - name: restarts
      kind: restarts
      count: 3
      window: 10m
    - name: bp
      kind: backpressure
      above: 0.8
      for: 2m
      jobs: ["orders-*"]
      cluster: prod
      severity: critical
  webhooks:
    - name: ops
      format: slack
      url_env: PALINK_TEST_HOOK
      rules: [bp]
`
	c, warns, err := Parse("c.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	bp := c.Alerts.Rules[1]
	if bp.Above != 0.8 || bp.For.D() != 2*time.Minute || bp.Severity != "critical" {
		t.Errorf("bp rule %+v", bp)
	}
	if len(bp.Jobs) != 1 || bp.Jobs[0] != "orders-*" || bp.Cluster != "prod" {
		t.Errorf("bp rule selects jobs %v on %q", bp.Jobs, bp.Cluster)
	}
	w := c.Alerts.Webhooks[0]
	if w.Timeout.D() != 10*time.Second || w.Retries != 3 || len(w.Rules) != 1 || w.Rules[0] != "bp" {
		t.Errorf("webhook %+v", w)
	}
	u, err := w.Endpoint()
	if err != nil || !strings.HasSuffix(u, "XXXXSECRET") {
		t.Errorf("Endpoint() = %q, %v", u, err)
	}
	if r := RedactWebhook(u); strings.Contains(r, "SECRET") || strings.Contains(r, "T000") || r != "https://hooks.slack.com/…" {
		t.Errorf("RedactWebhook = %q", r)
	}
}

func TestObservabilityProblemsAtTheirLine(t *testing.T) {
	cases := []struct {
		name, yaml, want string
	}{
		{"interval", "metrics:\n  interval: 100ms\n", "c.yaml:6: error: metrics.interval 100ms is below 1s"},
		{"unknown kind", "alerts:\n  rules:\n    - name: x\n      kind: cpu\n", "c.yaml:8: error: alert rule \"x\": kind \"cpu\": want one of job_failed"},
		{"restarts without window", "alerts:\n  rules:\n    - name: r\n      kind: restarts\n      count: 2\n", "alert rule \"r\" (restarts) needs window"},
		{"backpressure as percent", "alerts:\n  rules:\n    - name: b\n      kind: backpressure\n      above: 80\n", "c.yaml:9: error: alert rule \"b\" (backpressure) needs above: a ratio between 0 and 1"},
		{"duplicate rule", "alerts:\n  rules:\n    - name: a\n      kind: drift\n    - name: a\n      kind: job_failed\n", "c.yaml:9: error: alert rule name \"a\" is used twice (first at line 7)"},
		{"webhook without url", "alerts:\n  webhooks:\n    - name: w\n", "c.yaml:7: error: webhook \"w\": give url_env, url_file or url"},
		{"webhook unknown rule", "alerts:\n  webhooks:\n    - name: w\n      url: http://receiver:9000/alerts\n      rules: [nope]\n", "c.yaml:9: error: webhook \"w\": no alert rule named \"nope\""},
		{"bad format", "alerts:\n  webhooks:\n    - name: w\n      format: teams\n      url: http://r:1/\n", "c.yaml:8: error: webhook \"w\": format \"teams\""},
		{"bad url hides its token", "alerts:\n  webhooks:\n    - name: w\n      url: \"ftp://h/secret-token\"\n", "webhook \"w\": url ftp://h/…: want http"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse("c.yaml", []byte(base+tc.yaml))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret-token") {
				t.Errorf("error leaks the URL's token: %q", err)
			}
		})
	}
}

func TestWebhookURLInFileWarnsAndResolves(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "hook")
	if err := os.WriteFile(f, []byte("https://oapi.dingtalk.com/robot/send?access_token=abc123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	y := base + "alerts:\n  webhooks:\n    - name: ding\n      format: dingtalk\n      url_file: " + f + "\n    - name: plain\n      url: https://oapi.dingtalk.com/robot/send?access_token=zzz\n"
	c, warns, err := Parse("c.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Error(), "carries a token") || strings.Contains(warns[0].Error(), "zzz") {
		t.Errorf("warnings %v, want one about the token in the file (without the token)", warns)
	}
	u, err := c.Alerts.Webhooks[0].Endpoint()
	if err != nil || u != "https://oapi.dingtalk.com/robot/send?access_token=abc123" {
		t.Errorf("Endpoint() = %q, %v", u, err)
	}
}
