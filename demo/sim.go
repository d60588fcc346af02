package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/internal/krbtest"
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
	// AppsRunning makes every one of them a RUNNING job (sim.Options).
	AppsRunning bool
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
	// TLS serves the RMs over HTTPS with a certificate of a CA the
	// simulator makes; the written config trusts that CA.
	TLS bool
	// KerberosDir, when set, runs the cluster in secure mode with a
	// throwaway Kerberos realm kept in that directory (see Serve).
	KerberosDir string
}

func (s Sim) options() (sim.Options, error) {
	o := sim.Options{Seed: s.Seed, Speed: s.Speed, Apps: s.Apps, AppsRunning: s.AppsRunning, RMs: s.RMs, FlinkVersion: s.FlinkVersion,
		CheckpointInterval: s.CheckpointInterval, Queries: queryEngine{}}
	if s.TLS {
		t, err := sim.NewTLS()
		if err != nil {
			return o, err
		}
		o.TLS = t
	}
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
		Sync:  config.Sync{Interval: config.Duration(3 * time.Second), Concurrency: 32},
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
type Served struct {
	c *sim.Cluster
	// realm is the secure mode's KDC, nil without.
	realm *krbtest.Realm
	// opsKeytab is the keytab of ops, the user the config authenticates as.
	opsKeytab string
	// tls is the RMs' HTTPS, nil without.
	tls *sim.TLS
}

// Serve starts the simulated cluster s with its first ResourceManager at
// addr; it serves until ctx is done or Close. With s.KerberosDir it first
// creates a realm there and starts Debian's krb5kdc for it on a free
// loopback port (DIR/krb5.conf names it), with the principals
// HTTP/localhost (the RM and its proxy, which then require SPNEGO), ops
// (who owns the applications) and viewer (who may see but not kill them),
// each with a keytab in DIR.
func Serve(ctx context.Context, s Sim, addr string) (*Served, error) {
	o, err := s.options()
	if err != nil {
		return nil, err
	}
	srv := &Served{tls: o.TLS}
	if s.KerberosDir != "" {
		if err := srv.startRealm(s.KerberosDir, &o); err != nil {
			return nil, err
		}
	}
	c, err := sim.New(o)
	if err != nil {
		srv.Close()
		return nil, err
	}
	if err := c.Start(ctx, addr); err != nil {
		srv.Close()
		return nil, err
	}
	srv.c = c
	return srv, nil
}

func (s *Served) startRealm(dir string, o *sim.Options) error {
	if msg := krbtest.Missing(); msg != "" {
		return fmt.Errorf("palink sim --kerberos needs Debian's Kerberos KDC: %s", msg)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("kerberos: %w", err)
	}
	r, err := krbtest.StartIn(dir, krbtest.Options{})
	if err != nil {
		return fmt.Errorf("kerberos: %w", err)
	}
	s.realm = r
	keytabs := map[string]string{}
	for _, p := range []string{"HTTP/localhost", "ops", "viewer"} {
		kt, err := r.AddPrincipal(p, 0)
		if err != nil {
			r.Stop()
			return fmt.Errorf("kerberos: %w", err)
		}
		keytabs[p] = kt
	}
	s.opsKeytab = keytabs["ops"]
	o.User = "ops"
	o.Kerberos = &sim.Kerberos{Keytab: keytabs["HTTP/localhost"]}
	return nil
}

// Realm describes the secure mode's realm ("" without one): its name,
// KDC and krb5.conf.
func (s *Served) Realm() string {
	if s.realm == nil {
		return ""
	}
	return fmt.Sprintf("%s, KDC %s, %s", s.realm.Name, s.realm.KDC, s.realm.Krb5Conf)
}

// RMs are the ResourceManagers' URLs, the active one first.
func (s *Served) RMs() []string { return s.c.RMURLs() }

// Gateway is the SQL Gateway's URL.
func (s *Served) Gateway() string { return s.c.GatewayURL() }

// Close stops the cluster and its KDC.
func (s *Served) Close() {
	if s.c != nil {
		s.c.Close()
	}
	if s.realm != nil {
		s.realm.Stop()
	}
}

// WriteConfig writes a palink config for this cluster to path, with a
// store of its own beside it (palink-sim.db), whose path it returns.
func (s *Served) WriteConfig(path string) (storePath string, err error) {
	storePath = filepath.Join(filepath.Dir(path), "palink-sim.db")
	text := configText(s.c, storePath)
	if s.realm != nil {
		text = strings.Replace(text, "    user: ops            # sent as user.name (YARN simple authentication)\n",
			"    # The RM and its web proxy require Kerberos (SPNEGO): palink logs in as ops\n"+
				"    # from its keytab, and again before each ticket runs out.\n"+
				"    auth:\n      kerberos:\n"+
				fmt.Sprintf("        principal: %s\n        keytab: %s\n        krb5_conf: %s\n",
					s.realm.Principal("ops"), s.opsKeytab, s.realm.Krb5Conf), 1)
	}
	if s.tls != nil {
		ca := s.tls.CACertPEM()
		caPath := filepath.Join(filepath.Dir(path), "palink-sim-ca.pem")
		if err := os.WriteFile(caPath, ca, 0o644); err != nil {
			return "", fmt.Errorf("write the simulator's CA: %w", err)
		}
		text = strings.Replace(text, "    deploy:\n",
			"    # The RMs serve HTTPS with a certificate of the simulator's own CA.\n"+
				fmt.Sprintf("    tls: {ca_file: %s}\n", caPath)+"    deploy:\n", 1)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
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
	o.Nodes = troubledNodes
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

// troubledNodes give the demo's cluster what an on-call engineer finds on
// a real one: a NodeManager whose disk filled up and one that stopped
// answering, first in `:cluster`'s nodes (n).
var troubledNodes = map[int]sim.NodeHealth{
	3:  {State: sim.NodeUnhealthy, HealthReport: "1/1 local-dirs usable space is below configured utilization percentage/no more usable space [ /data/yarn/local : used space above threshold of 90.0% ]"},
	11: {State: sim.NodeLost},
}
