package observe

import (
	"path"
	"slices"
	"time"
)

// Settings are what to measure and judge, and whom to tell (the cli builds
// them from the config file's metrics: and alerts:).
type Settings struct {
	// Interval is how often the jobs some screen shows are measured;
	// default 5s. Concurrency bounds the jobs measured at once; default 1.
	Interval    time.Duration
	Concurrency int
	// AlertInterval is how often jobs that only metric rules watch are
	// measured; never more often than Interval.
	AlertInterval time.Duration
	Rules         []Rule
	Webhooks      []Webhook
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

// MetricRule reports whether rules of kind need measured metrics (a
// request per job and round) rather than the job's record alone.
func MetricRule(kind string) bool {
	switch kind {
	case RuleRestarts, RuleFailedCheckpoints, RuleBackpressure, RuleLag:
		return true
	}
	return false
}

// Rule is one alert rule.
type Rule struct {
	Name string
	Kind string
	// Jobs are glob patterns (path.Match) of the job names the rule
	// watches; empty watches every job. Cluster narrows to one cluster.
	Jobs    []string
	Cluster string
	// Count is the N of restarts (more than N) and failed_checkpoints (N in a row).
	Count int
	// Above is the threshold of backpressure (a ratio) and lag (records).
	Above float64
	// Age is checkpoint_age's limit; Window the time restarts are counted
	// over; For how long the condition must hold before the alert fires.
	Age, Window, For time.Duration
	// Severity is a label for people and receivers.
	Severity string
}

// Selects reports whether the rule watches the job.
func (r Rule) Selects(jobName, cluster string) bool {
	if r.Cluster != "" && r.Cluster != cluster {
		return false
	}
	if len(r.Jobs) == 0 {
		return true
	}
	for _, g := range r.Jobs {
		if ok, _ := path.Match(g, jobName); ok {
			return true
		}
	}
	return false
}

// Webhook formats.
const (
	FormatJSON     = "json"
	FormatSlack    = "slack"
	FormatDingTalk = "dingtalk"
	FormatFeishu   = "feishu"
)

// Webhook is where alerts go. Its URL and signing secret carry tokens:
// they are read when the webhook is built and appear in no log or error.
type Webhook struct {
	Name   string
	Format string // json (default), slack, dingtalk, feishu
	// Endpoint and Secret read the URL and the signing secret (of DingTalk
	// and Feishu bots; "" for none) from where the config says.
	Endpoint func() (string, error)
	Secret   func() (string, error)
	// Rules limits the webhook to these rule names; empty means all.
	Rules   []string
	Timeout time.Duration // per attempt
	Retries int           // after the first attempt
}

// Wants reports whether the webhook takes alerts of the named rule.
func (w Webhook) Wants(rule string) bool { return len(w.Rules) == 0 || slices.Contains(w.Rules, rule) }
