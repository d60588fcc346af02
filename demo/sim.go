package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/yarn/sim"
)

// Cluster is the simulated cluster's name in the demo's config.
const Cluster = "sim"

// Sim is the simulated cluster `palink sim` and `palink demo` start, as
// their flags set it.
type Sim struct {
	// Apps are the Flink applications already on the cluster (mixed
	// states, not managed by palink).
	Apps int
	// Seed makes the cluster reproducible (0: random).
	Seed int64
	// Speed is simulated seconds per real second.
	Speed float64
	// Faults are the faults to inject, in sim.ParseFaults's compact form.
	Faults string
	// RMs are the ResourceManagers (2+ for HA; the first is active).
	RMs int
	// FlinkVersion is the release the cluster reports (empty: the simulator's).
	FlinkVersion string
	// CheckpointInterval is the simulated jobs' checkpoint interval.
	CheckpointInterval time.Duration
}

func (s Sim) options() (sim.Options, error) {
	o := sim.Options{Seed: s.Seed, Speed: s.Speed, Apps: s.Apps, RMs: s.RMs, FlinkVersion: s.FlinkVersion,
		CheckpointInterval: s.CheckpointInterval}
	if s.Faults != "" {
		faults, err := sim.ParseFaults(s.Faults)
		if err != nil {
			return o, err
		}
		o.Faults = faults
	}
	return o, nil
}

// SimConfig is a palink config whose one cluster is the simulator c (its
// addresses left out without one): the demo's, and what `palink sim
// --config-out` writes.
func SimConfig(c *sim.Cluster, storePath string) *config.Config {
	cfg := &config.Config{
		Store: storePath,
		Sync:  config.Sync{Interval: config.Duration(3 * time.Second), Concurrency: 8},
		Restart: config.RestartPolicy{
			MaxAttempts: 3, Window: config.Duration(30 * time.Minute),
			Backoff: config.Duration(5 * time.Second), MaxBackoff: config.Duration(time.Minute), Multiplier: 2,
		},
		// Figures every 2s, so that sparklines move at once; and a rule of
		// every kind, so that the simulator's troubles show as alerts.
		Metrics: config.Metrics{Interval: config.Duration(2 * time.Second)},
		Alerts: config.Alerts{Rules: append(config.DefaultAlertRules(),
			config.AlertRule{Name: "backpressure", Kind: config.RuleBackpressure, Above: 0.8, For: config.Duration(30 * time.Second)},
			config.AlertRule{Name: "consumer-lag", Kind: config.RuleLag, Above: 1_000_000, For: config.Duration(time.Minute)},
			config.AlertRule{Name: "checkpoint-stale", Kind: config.RuleCheckpointAge, Age: config.Duration(2 * time.Minute)},
			config.AlertRule{Name: "checkpoints-failing", Kind: config.RuleFailedCheckpoints, Count: 3},
			config.AlertRule{Name: "restarts", Kind: config.RuleRestarts, Count: 2, Window: config.Duration(10 * time.Minute)},
		)},
		Clusters: []config.Cluster{{
			Name: Cluster,
			User: "ops",
			Deploy: config.Deploy{
				Mode:         "yarn-per-job",
				SavepointDir: "hdfs:///flink/savepoints",
				Queue:        "default",
			},
		}},
	}
	if c != nil {
		cfg.Clusters[0].RM, cfg.Clusters[0].SQLGateway = c.RMURLs(), c.GatewayURL()
	}
	cfg.ApplyDefaults()
	return cfg
}

// Served is a simulated cluster serving on the network, as `palink sim`
// runs it.
type Served struct{ c *sim.Cluster }

// Serve starts the simulated cluster s with its first ResourceManager at
// addr; it serves until ctx is done or Close.
func Serve(ctx context.Context, s Sim, addr string) (*Served, error) {
	o, err := s.options()
	if err != nil {
		return nil, err
	}
	c, err := sim.New(o)
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx, addr); err != nil {
		return nil, err
	}
	return &Served{c: c}, nil
}

// RMs are the ResourceManagers' URLs, the active one first.
func (s *Served) RMs() []string { return s.c.RMURLs() }

// Gateway is the SQL Gateway's URL.
func (s *Served) Gateway() string { return s.c.GatewayURL() }

// Close stops the cluster.
func (s *Served) Close() { s.c.Close() }

// WriteConfig writes a palink config for this cluster to path, with a
// store of its own beside it (palink-sim.db), whose path it returns.
func (s *Served) WriteConfig(path string) (storePath string, err error) {
	storePath = filepath.Join(filepath.Dir(path), "palink-sim.db")
	if err := os.WriteFile(path, []byte(configText(s.c, storePath)), 0o600); err != nil {
		return "", fmt.Errorf("write config: %w", err)
	}
	return storePath, nil
}

// configText is the config `palink sim --config-out` writes: only what
// differs from the defaults, each with why, so that it reads as a start of
// one's own.
func configText(c *sim.Cluster, storePath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# palink config for the simulated cluster `palink sim` started (%s).\n", time.Now().Format(time.DateTime))
	b.WriteString("# Only what differs from the defaults; docs/configuration.md has each part.\n\n")
	fmt.Fprintf(&b, "# A store of its own, so that the simulator's jobs stay out of yours.\nstore: %s\n\n", storePath)
	b.WriteString("clusters:\n  - name: sim\n")
	b.WriteString("    # Every ResourceManager of the HA pair; palink follows the active one.\n    rm:\n")
	for _, u := range c.RMURLs() {
		fmt.Fprintf(&b, "      - %s\n", u)
	}
	fmt.Fprintf(&b, "    sql_gateway: %s\n", c.GatewayURL())
	b.WriteString("    user: ops            # sent as user.name (YARN simple authentication)\n")
	b.WriteString("    deploy:\n      savepoint_dir: hdfs:///flink/savepoints   # where pause writes its savepoints\n\n")
	b.WriteString("# The simulator's jobs move fast: sync and measure them often, and watch\n# them with a rule of every kind, so their troubles show at once.\n")
	b.WriteString("sync:\n  interval: 3s\nmetrics:\n  interval: 2s\n")
	b.WriteString("alerts:\n  rules:\n")
	b.WriteString("    - {name: job-failed, kind: job_failed, severity: critical}\n")
	b.WriteString("    - {name: state-drift, kind: drift}\n")
	b.WriteString("    - {name: backpressure, kind: backpressure, above: 0.8, for: 30s}\n")
	b.WriteString("    - {name: consumer-lag, kind: lag, above: 1000000, for: 1m}\n")
	b.WriteString("    - {name: checkpoint-stale, kind: checkpoint_age, age: 2m}\n")
	b.WriteString("    - {name: checkpoints-failing, kind: failed_checkpoints, count: 3}\n")
	b.WriteString("    - {name: restarts, kind: restarts, count: 2, window: 10m}\n")
	return b.String()
}

// startSim starts an in-process simulator on clock and a throwaway store
// directory; stop removes both.
func startSim(ctx context.Context, s Sim, clock sim.Clock) (c *sim.Cluster, cfg *config.Config, stop func(), err error) {
	o, err := s.options()
	if err != nil {
		return nil, nil, nil, err
	}
	o.Clock = clock
	c, err = sim.New(o)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := c.Start(ctx, "127.0.0.1:0"); err != nil {
		return nil, nil, nil, err
	}
	dir, err := os.MkdirTemp("", "palink-demo-")
	if err != nil {
		c.Close()
		return nil, nil, nil, err
	}
	cfg = SimConfig(c, filepath.Join(dir, "palink.db"))
	if os.Geteuid() == 0 {
		// palink as root builds nothing as root: the demo's throwaway
		// project builds as nobody.
		cfg.Build.User = "nobody"
	}
	return c, cfg, func() { c.Close(); os.RemoveAll(dir) }, nil
}
