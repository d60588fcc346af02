package config

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"strings"
	"time"
)

// Metrics configures live metrics collection.
type Metrics struct {
	// Interval is how often the jobs some screen shows are measured;
	// default 5s. Only those jobs are: the cost follows the screen.
	Interval Duration `yaml:"interval"`
	// Concurrency bounds the jobs measured at once; default 8.
	Concurrency int `yaml:"concurrency"`
}

// Alerts configures alert rules and where alerts are sent.
type Alerts struct {
	// Interval is how often jobs that only alert rules watch (no screen
	// shows them) are measured for the metric rules (restarts,
	// failed_checkpoints, backpressure, lag); default 30s.
	Interval Duration `yaml:"interval"`
	// Rules are evaluated for every job they select. Left out, the default
	// rules apply (job_failed and drift, which cost no request); an empty
	// list turns alerting off.
	Rules    []AlertRule `yaml:"rules"`
	Webhooks []Webhook   `yaml:"webhooks"`
}

// Alert rule kinds.
const (
	RuleJobFailed         = "job_failed"         // the job is FAILED
	RuleRestarts          = "restarts"           // more than Count Flink restarts within Window
	RuleFailedCheckpoints = "failed_checkpoints" // Count failed checkpoints in a row
	RuleCheckpointAge     = "checkpoint_age"     // the latest completed checkpoint is older than Age
	RuleBackpressure      = "backpressure"       // the worst vertex's ratio above Above for For
	RuleLag               = "lag"                // the sources' consumer lag above Above records for For
	RuleDrift             = "drift"              // the platform expects RUNNING, the cluster disagrees
)

// RuleKinds lists the alert rule kinds.
func RuleKinds() []string {
	return []string{RuleJobFailed, RuleRestarts, RuleFailedCheckpoints, RuleCheckpointAge, RuleBackpressure, RuleLag, RuleDrift}
}

// AlertRule is one alert rule.
type AlertRule struct {
	Name string `yaml:"name"`
	Kind string `yaml:"kind"`
	// Jobs are glob patterns (path.Match) of the job names the rule
	// watches; empty watches every job. Cluster narrows to one cluster.
	Jobs    []string `yaml:"jobs"`
	Cluster string   `yaml:"cluster"`
	// Count is the N of restarts (more than N) and failed_checkpoints (N in a row).
	Count int `yaml:"count"`
	// Above is the threshold of backpressure (a ratio, 0.5 is 50%) and lag (records).
	Above float64 `yaml:"above"`
	// Age is checkpoint_age's limit.
	Age Duration `yaml:"age"`
	// Window is the time restarts are counted over.
	Window Duration `yaml:"window"`
	// For is how long the condition must hold before the alert fires.
	For Duration `yaml:"for"`
	// Severity is a label for people and receivers: critical, warning
	// (default) or info.
	Severity string `yaml:"severity"`
}

// Webhook formats.
const (
	FormatJSON     = "json"
	FormatSlack    = "slack"
	FormatDingTalk = "dingtalk"
	FormatFeishu   = "feishu"
)

// Webhook is one receiver of alert messages. Its URL usually carries a
// token, so it comes from an environment variable or a file; a URL written
// here is accepted for receivers without a secret.
type Webhook struct {
	Name    string `yaml:"name"`
	Format  string `yaml:"format"` // json (default), slack, dingtalk, feishu
	URL     string `yaml:"url"`
	URLEnv  string `yaml:"url_env"`
	URLFile string `yaml:"url_file"`
	// SecretEnv or SecretFile hold the signing secret of a DingTalk or
	// Feishu bot with signature checks on.
	SecretEnv  string `yaml:"secret_env"`
	SecretFile string `yaml:"secret_file"`
	// Rules limits the webhook to these rule names; empty means all.
	Rules   []string `yaml:"rules"`
	Timeout Duration `yaml:"timeout"` // per attempt; default 10s
	Retries int      `yaml:"retries"` // after the first attempt; default 3
}

// DefaultAlertRules are the rules used when the config has no alerts.rules:
// the ones that cost no request.
func DefaultAlertRules() []AlertRule {
	return []AlertRule{
		{Name: "job-failed", Kind: RuleJobFailed, Severity: "critical"},
		{Name: "state-drift", Kind: RuleDrift, Severity: "warning"},
	}
}

// applyObservability fills the metrics and alerts defaults.
func (c *Config) applyObservability() {
	if c.Metrics.Interval == 0 {
		c.Metrics.Interval = Duration(5 * time.Second)
	}
	if c.Metrics.Concurrency == 0 {
		c.Metrics.Concurrency = 8
	}
	if c.Alerts.Interval == 0 {
		c.Alerts.Interval = Duration(30 * time.Second)
	}
	if c.Alerts.Rules == nil {
		c.Alerts.Rules = DefaultAlertRules()
	}
	for i := range c.Alerts.Rules {
		if c.Alerts.Rules[i].Severity == "" {
			c.Alerts.Rules[i].Severity = "warning"
		}
	}
	for i := range c.Alerts.Webhooks {
		w := &c.Alerts.Webhooks[i]
		if w.Format == "" {
			w.Format = FormatJSON
		}
		if w.Timeout == 0 {
			w.Timeout = Duration(10 * time.Second)
		}
		if w.Retries == 0 {
			w.Retries = 3
		}
		w.URLFile = expandHome(w.URLFile)
		w.SecretFile = expandHome(w.SecretFile)
	}
}

// checkObservability validates the metrics and alerts sections.
func (c *Config) checkObservability(add func(path string, warn bool, format string, args ...any)) {
	if c.Metrics.Interval.D() < time.Second {
		add("metrics.interval", false, "metrics.interval %s is below 1s", c.Metrics.Interval.D())
	}
	if c.Metrics.Concurrency < 1 {
		add("metrics.concurrency", false, "metrics.concurrency must be at least 1")
	}
	if c.Alerts.Interval.D() < c.Metrics.Interval.D() {
		add("alerts.interval", false, "alerts.interval %s is below metrics.interval %s", c.Alerts.Interval.D(), c.Metrics.Interval.D())
	}
	rules := map[string]int{}
	for i, r := range c.Alerts.Rules {
		p := fmt.Sprintf("alerts.rules[%d]", i)
		switch {
		case r.Name == "":
			add(p, false, "alert rule %d has no name", i+1)
		case !nameRE.MatchString(r.Name):
			add(p+".name", false, "alert rule name %q: use letters, digits, '.', '_' and '-'", r.Name)
		case rules[r.Name] > 0:
			add(p+".name", false, "alert rule name %q is used twice (first at line %d)", r.Name, rules[r.Name])
		default:
			rules[r.Name] = max(c.Line(p+".name"), 1)
		}
		checkRule(r, p, add)
		for j, g := range r.Jobs {
			if _, err := path.Match(g, ""); err != nil {
				add(fmt.Sprintf("%s.jobs[%d]", p, j), false, "alert rule %q: job pattern %q: %v", r.Name, g, err)
			}
		}
		if r.Cluster != "" {
			if _, ok := c.Cluster(r.Cluster); !ok {
				add(p+".cluster", false, "alert rule %q: unknown cluster %q", r.Name, r.Cluster)
			}
		}
		switch r.Severity {
		case "critical", "warning", "info":
		default:
			add(p+".severity", false, "alert rule %q: severity %q: want critical, warning or info", r.Name, r.Severity)
		}
	}
	hooks := map[string]bool{}
	for i, w := range c.Alerts.Webhooks {
		p := fmt.Sprintf("alerts.webhooks[%d]", i)
		switch {
		case w.Name == "":
			add(p, false, "webhook %d has no name", i+1)
		case !nameRE.MatchString(w.Name):
			add(p+".name", false, "webhook name %q: use letters, digits, '.', '_' and '-'", w.Name)
		case hooks[w.Name]:
			add(p+".name", false, "webhook name %q is used twice", w.Name)
		}
		hooks[w.Name] = true
		switch w.Format {
		case FormatJSON, FormatSlack, FormatDingTalk, FormatFeishu:
		default:
			add(p+".format", false, "webhook %q: format %q: want json, slack, dingtalk or feishu", w.Name, w.Format)
		}
		n := 0
		for _, s := range []string{w.URL, w.URLEnv, w.URLFile} {
			if s != "" {
				n++
			}
		}
		switch {
		case n == 0:
			add(p, false, "webhook %q: give url_env, url_file or url", w.Name)
		case n > 1:
			add(p, false, "webhook %q: give only one of url, url_env and url_file", w.Name)
		}
		if w.URL != "" {
			if err := checkWebhookURL(w.URL); err != nil {
				add(p+".url", false, "webhook %q: url %s: %v", w.Name, RedactWebhook(w.URL), err)
			} else if carriesToken(w.URL) {
				add(p+".url", true, "webhook %q: its URL carries a token; keep it out of this file with url_env or url_file", w.Name)
			}
		}
		if w.URLEnv != "" && os.Getenv(w.URLEnv) == "" {
			add(p+".url_env", true, "webhook %q: environment variable %s is empty", w.Name, w.URLEnv)
		}
		if w.URLFile != "" {
			if _, err := os.Stat(w.URLFile); err != nil {
				add(p+".url_file", false, "webhook %q: url_file: %v", w.Name, err)
			}
		}
		if w.SecretEnv != "" && os.Getenv(w.SecretEnv) == "" {
			add(p+".secret_env", true, "webhook %q: environment variable %s is empty", w.Name, w.SecretEnv)
		}
		if w.SecretFile != "" {
			if _, err := os.Stat(w.SecretFile); err != nil {
				add(p+".secret_file", false, "webhook %q: secret_file: %v", w.Name, err)
			}
		}
		if (w.SecretEnv != "" || w.SecretFile != "") && w.Format != FormatDingTalk && w.Format != FormatFeishu {
			add(p, true, "webhook %q: a signing secret is used by dingtalk and feishu only", w.Name)
		}
		for j, name := range w.Rules {
			if _, ok := rules[name]; !ok {
				add(fmt.Sprintf("%s.rules[%d]", p, j), false, "webhook %q: no alert rule named %q", w.Name, name)
			}
		}
		if w.Timeout.D() <= 0 {
			add(p+".timeout", false, "webhook %q: timeout must be positive", w.Name)
		}
		if w.Retries < 0 {
			add(p+".retries", false, "webhook %q: retries must not be negative", w.Name)
		}
	}
}

// checkRule checks the parameters each rule kind needs.
func checkRule(r AlertRule, p string, add func(path string, warn bool, format string, args ...any)) {
	need := func(field string, ok bool, what string) {
		if !ok {
			add(p+"."+field, false, "alert rule %q (%s) needs %s", r.Name, r.Kind, what)
		}
	}
	switch r.Kind {
	case RuleJobFailed, RuleDrift:
	case RuleRestarts:
		need("count", r.Count >= 0, "count: 0 or more (it fires above it)")
		need("window", r.Window.D() > 0, "window: the time restarts are counted over, like 10m")
	case RuleFailedCheckpoints:
		need("count", r.Count >= 1, "count: how many failed checkpoints in a row, at least 1")
	case RuleCheckpointAge:
		need("age", r.Age.D() > 0, "age: the oldest acceptable checkpoint, like 10m")
	case RuleBackpressure:
		need("above", r.Above > 0 && r.Above <= 1, "above: a ratio between 0 and 1 (0.5 is 50%)")
	case RuleLag:
		need("above", r.Above > 0, "above: a number of records")
	case "":
		add(p, false, "alert rule %q has no kind (one of %s)", r.Name, strings.Join(RuleKinds(), ", "))
		return
	default:
		add(p+".kind", false, "alert rule %q: kind %q: want one of %s", r.Name, r.Kind, strings.Join(RuleKinds(), ", "))
		return
	}
	if r.For.D() < 0 {
		add(p+".for", false, "alert rule %q: for must not be negative", r.Name)
	}
}

func checkWebhookURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("want http:// or https://")
	}
	if u.Host == "" {
		return fmt.Errorf("no host")
	}
	return nil
}

// carriesToken reports whether a webhook URL holds a secret: a query
// (DingTalk's access_token), user info, or the path of a hosted bot
// (Slack's and Feishu's tokens are path elements).
func carriesToken(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return true
	}
	if u.RawQuery != "" || u.User != nil {
		return true
	}
	host := strings.ToLower(u.Hostname())
	for _, h := range []string{"hooks.slack.com", "oapi.dingtalk.com", "open.feishu.cn", "open.larksuite.com"} {
		if host == h {
			return true
		}
	}
	return false
}

// RedactWebhook shows a webhook URL without its secrets: scheme and host
// only, since Slack and Feishu put the token in the path and DingTalk in
// the query.
func RedactWebhook(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "(webhook URL)"
	}
	out := u.Scheme + "://" + u.Host
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		out += "/…"
	}
	return out
}

// Endpoint resolves the webhook's URL. The value must never be logged or
// put in an error (RedactWebhook shows it safely).
func (w Webhook) Endpoint() (string, error) {
	switch {
	case w.URL != "":
		return w.URL, nil
	case w.URLEnv != "":
		v := strings.TrimSpace(os.Getenv(w.URLEnv))
		if v == "" {
			return "", fmt.Errorf("webhook %s: environment variable %s is empty", w.Name, w.URLEnv)
		}
		if err := checkWebhookURL(v); err != nil {
			return "", fmt.Errorf("webhook %s: the URL in %s: %v", w.Name, w.URLEnv, err)
		}
		return v, nil
	case w.URLFile != "":
		b, err := os.ReadFile(w.URLFile)
		if err != nil {
			return "", fmt.Errorf("webhook %s: url file: %w", w.Name, err)
		}
		v := strings.TrimSpace(string(b))
		if err := checkWebhookURL(v); err != nil {
			return "", fmt.Errorf("webhook %s: the URL in %s: %v", w.Name, w.URLFile, err)
		}
		return v, nil
	}
	return "", fmt.Errorf("webhook %s: no URL configured", w.Name)
}

// Secret resolves the webhook's signing secret ("" when none is set). The
// value must never be logged or put in an error.
func (w Webhook) Secret() (string, error) {
	switch {
	case w.SecretEnv != "":
		v := os.Getenv(w.SecretEnv)
		if v == "" {
			return "", fmt.Errorf("webhook %s: environment variable %s is empty", w.Name, w.SecretEnv)
		}
		return v, nil
	case w.SecretFile != "":
		b, err := os.ReadFile(w.SecretFile)
		if err != nil {
			return "", fmt.Errorf("webhook %s: secret file: %w", w.Name, err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	return "", nil
}
