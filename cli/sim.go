package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/config"
	"github.com/palink/palink/yarn/sim"
)

// simFlags configure a simulated cluster.
type simFlags struct {
	addr      string
	apps      int
	seed      int64
	speed     float64
	faults    string
	rms       int
	configOut string
	version   string
	// checkpoint is the simulated jobs' checkpoint interval.
	checkpoint time.Duration
}

func (f *simFlags) register(cmd *cobra.Command, defaultApps int) {
	fl := cmd.Flags()
	fl.IntVar(&f.apps, "jobs", defaultApps, "Flink applications already on the cluster (mixed states, not managed by palink)")
	fl.Int64Var(&f.seed, "seed", 0, "seed for a reproducible cluster (0: random)")
	fl.Float64Var(&f.speed, "speed", 1, "simulated seconds per real second")
	fl.StringVar(&f.faults, "faults", "", "faults to inject, e.g. 'latency=200ms,5xx=0.05;jm:reset=0.1;job-fail=5m' (see yarn/sim ParseFaults)")
	fl.IntVar(&f.rms, "rms", 1, "ResourceManagers (2+ for HA; the first is active)")
	fl.StringVar(&f.version, "flink-version", "", "Flink version the cluster reports (default 2.1.0)")
	fl.DurationVar(&f.checkpoint, "checkpoint-interval", 10*time.Second, "checkpoint interval of the simulated jobs")
}

func (f *simFlags) options() (sim.Options, error) {
	o := sim.Options{Seed: f.seed, Speed: f.speed, Apps: f.apps, RMs: f.rms, FlinkVersion: f.version,
		CheckpointInterval: f.checkpoint}
	if f.faults != "" {
		faults, err := sim.ParseFaults(f.faults)
		if err != nil {
			return o, err
		}
		o.Faults = faults
	}
	return o, nil
}

// simConfig is a palink config whose one cluster is the simulator (its
// addresses left out without one).
func simConfig(c *sim.Cluster, storePath string) *config.Config {
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
			Name: "sim",
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

func newSimCmd(g *globals) *cobra.Command {
	var f simFlags
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Run a simulated YARN + Flink + SQL Gateway cluster",
		Long: "Runs a simulated cluster that speaks the YARN ResourceManager, Flink REST and SQL Gateway APIs,\n" +
			"with fault injection. With --config-out it writes a palink config that points at it, so\n" +
			"`palink --config FILE …` works against it at once.",
		Example: "  palink sim --addr 127.0.0.1:8088 --jobs 40 --config-out /tmp/sim.yaml\n  palink --config /tmp/sim.yaml jobs",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			o, err := f.options()
			if err != nil {
				return err
			}
			c, err := sim.New(o)
			if err != nil {
				return err
			}
			if err := c.Start(ctx, f.addr); err != nil {
				return err
			}
			defer c.Close()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "ResourceManager  %s\n", c.RMURLs()[0])
			for i, u := range c.RMURLs()[1:] {
				fmt.Fprintf(out, "ResourceManager  %s (standby %d)\n", u, i+1)
			}
			fmt.Fprintf(out, "SQL Gateway      %s\n", c.GatewayURL())
			fmt.Fprintf(out, "RM web proxy     %s/proxy/<appId>/\n", c.RMURLs()[0])
			if f.configOut != "" {
				storePath := filepath.Join(filepath.Dir(f.configOut), "palink-sim.db")
				if err := os.WriteFile(f.configOut, []byte(simConfigText(c, storePath)), 0o600); err != nil {
					return fmt.Errorf("write config: %w", err)
				}
				fmt.Fprintf(out, "config           %s (store %s)\n", f.configOut, storePath)
			}
			fmt.Fprintln(out, "ctrl-c stops the simulator")
			<-ctx.Done()
			return nil
		},
	}
	f.register(cmd, 40)
	cmd.Flags().StringVar(&f.addr, "addr", "127.0.0.1:8088", "address of the (first) ResourceManager")
	cmd.Flags().StringVar(&f.configOut, "config-out", "", "write a palink config for this simulator to FILE")
	return cmd
}

// simConfigText is the config `palink sim --config-out` writes: only what
// differs from the defaults, each with why, so that it reads as a start of
// one's own.
func simConfigText(c *sim.Cluster, storePath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# palink config for the simulated cluster `palink sim` started (%s).\n", time.Now().Format(time.DateTime))
	b.WriteString("# Only what differs from the defaults; README \"Configuration\" has every key.\n\n")
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

// startSim starts an in-process simulator and a throwaway store directory;
// stop removes both.
func startSim(ctx context.Context, f simFlags, clock sim.Clock) (c *sim.Cluster, cfg *config.Config, stop func(), err error) {
	o, err := f.options()
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
	cfg = simConfig(c, filepath.Join(dir, "palink.db"))
	if os.Geteuid() == 0 {
		// palink as root builds nothing as root: the demo's throwaway
		// project builds as nobody.
		cfg.Build.User = "nobody"
	}
	return c, cfg, func() { c.Close(); os.RemoveAll(dir) }, nil
}
