package options

import (
	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/localrun"
	"github.com/palink/palink/core/observe"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// FromConfig is core's options as the config file sets them.
func FromConfig(cfg *config.Config) core.Options {
	o := core.Options{
		SyncInterval:    cfg.Sync.Interval.D(),
		SyncConcurrency: cfg.Sync.Concurrency,
		Lease:           cfg.Scheduler.Lease.D(),
		Workers:         cfg.Scheduler.Workers,
		Restart: decide.RestartPolicy{
			Enabled: cfg.Restart.Enabled == nil || *cfg.Restart.Enabled, MaxAttempts: cfg.Restart.MaxAttempts,
			Window: cfg.Restart.Window.D(), Backoff: cfg.Restart.Backoff.D(), MaxBackoff: cfg.Restart.MaxBackoff.D(),
			Multiplier: cfg.Restart.Multiplier,
		},
		Savepoints: decide.SavepointPolicy{
			Interval: cfg.Savepoints.Interval.D(), Jitter: cfg.Savepoints.Jitter.D(), MaxCount: cfg.Savepoints.MaxCount,
			MaxAge: cfg.Savepoints.MaxAge.D(), MaxRestoreAge: cfg.Savepoints.MaxRestoreAge.D(),
		},
		Observe: observe.Settings{
			Interval: cfg.Metrics.Interval.D(), Concurrency: cfg.Metrics.Concurrency, AlertInterval: cfg.Alerts.Interval.D(),
		},
	}
	o.ProjectCache = cfg.Projects.CacheDir
	e := cfg.Etcd
	o.Etcd.CAFile, o.Etcd.CertFile, o.Etcd.KeyFile = e.TLS.CAFile, e.TLS.CertFile, e.TLS.KeyFile
	o.Etcd.DialTimeout, o.Etcd.MaxTxnOps, o.Etcd.MaxRequestBytes = e.DialTimeout.D(), e.MaxTxnOps, e.MaxRequestBytes
	o.ElectionTTL = e.ElectionTTL.D()
	if e.Auth.User != "" {
		o.Etcd.Username, o.Etcd.Password = e.Auth.User, e.Auth.Password
	}
	o.Build = BuildPolicy(cfg)
	if o.Savepoints.Jitter == 0 {
		o.Savepoints.Jitter = o.Savepoints.Interval / 10
	}
	for _, c := range cfg.Clusters {
		o.Clusters = append(o.Clusters, clusterSpec(c))
	}
	for _, r := range cfg.Alerts.Rules {
		o.Observe.Rules = append(o.Observe.Rules, observe.Rule{
			Name: r.Name, Kind: r.Kind, Jobs: r.Jobs, Cluster: r.Cluster, Count: r.Count, Above: r.Above,
			Age: r.Age.D(), Window: r.Window.D(), For: r.For.D(), Severity: r.Severity,
		})
	}
	for _, w := range cfg.Alerts.Webhooks {
		o.Observe.Webhooks = append(o.Observe.Webhooks, observe.Webhook{
			Name: w.Name, Format: w.Format, Endpoint: w.Endpoint, Secret: w.Secret, Rules: w.Rules,
			Timeout: w.Timeout.D(), Retries: w.Retries,
		})
	}
	return o
}

// clusterSpec is one cluster of the config as core reaches it.
func clusterSpec(c config.Cluster) clusters.Spec {
	return clusters.Spec{
		Name: c.Name, Protected: c.Protected, RM: c.RM, FlinkAccess: c.FlinkAccess, SQLGateway: c.SQLGateway,
		ApplicationType: c.ApplicationType, User: c.User, Timeout: c.Timeout.D(), CheckpointsRetained: c.CheckpointsRetained,
		DebugSession: c.Debug.Session, DebugDataDir: expandDataDir(c.Debug.DataDir),
		CAFile: c.TLS.CAFile, CertFile: c.TLS.CertFile, KeyFile: c.TLS.KeyFile, InsecureSkipVerify: c.TLS.InsecureSkipVerify,
		FlinkHTTPS: c.TLS.FlinkREST,
		BasicUser:  c.Auth.User, Password: c.Auth.Password, Kerberos: kerberos(c.Auth.Kerberos), TeamKerberos: teamKerberos(c.Auth.Teams), DoAs: c.Auth.DoAs,
		Deploy: clusters.Deploy{
			Mode: c.Deploy.Mode, SessionApp: c.Deploy.SessionApp, JarDeployer: c.Deploy.JarDeployer,
			Command: c.Deploy.Command, PythonCommand: c.Deploy.PythonCommand, SavepointDir: c.Deploy.SavepointDir, Queue: c.Deploy.Queue,
			Properties: c.Deploy.Properties, Env: c.Deploy.Env,
		},
	}
}

// kerberos is a cluster's Kerberos identity as the clients take it.
func kerberos(k *config.Kerberos) *clusters.Kerberos {
	if k == nil {
		return nil
	}
	return &clusters.Kerberos{Principal: k.Principal, Keytab: k.Keytab, CCache: k.CCache, Krb5Conf: k.Krb5Conf, Service: k.Service}
}

// teamKerberos is the teams' identities on a cluster as the clients take them.
func teamKerberos(teams map[string]*config.Kerberos) map[string]*clusters.Kerberos {
	if len(teams) == 0 {
		return nil
	}
	out := make(map[string]*clusters.Kerberos, len(teams))
	for team, k := range teams {
		out[team] = kerberos(k)
	}
	return out
}

// BuildPolicy is how builds and secret commands run (config build:).
func BuildPolicy(cfg *config.Config) core.BuildPolicy {
	return core.BuildPolicy{User: cfg.Build.User, Sandbox: cfg.Build.Sandbox, Path: cfg.Build.Path, Offline: cfg.Build.Offline}
}

// Debugger is where debug runs happen, in this process, with the config's
// sample directories, database redirects and build policy (for a secret
// variable's command); cfg nil: none of them.
func Debugger(cfg *config.Config, log *slog.Logger) api.DebugBench {
	if cfg == nil {
		return &localrun.Debugger{Log: log}
	}
	return &localrun.Debugger{Samples: cfg.DebugSamples(), Databases: cfg.Debug.Databases, Build: BuildPolicy(cfg), Log: log}
}

// expandDataDir is a data_dir with ~/ expanded.
func expandDataDir(dir string) string {
	if rest, ok := strings.CutPrefix(dir, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return dir
}
