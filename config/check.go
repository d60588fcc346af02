package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Check validates the config and returns every problem found, each at its line.
func (c *Config) Check() Problems {
	var ps Problems
	add := func(path string, warn bool, format string, args ...any) {
		ps = append(ps, Problem{File: c.path, Line: c.Line(path), Message: fmt.Sprintf(format, args...), Warning: warn})
	}
	if len(c.Clusters) == 0 {
		add("clusters", false, "no clusters: add at least one under clusters:")
	}
	if c.Sync.Interval.D() < time.Second {
		add("sync.interval", false, "sync.interval %s is below 1s", c.Sync.Interval.D())
	}
	if c.Sync.Concurrency < 1 {
		add("sync.concurrency", false, "sync.concurrency must be at least 1")
	}
	if c.Scheduler.Lease.D() < time.Second {
		add("scheduler.lease", false, "scheduler.lease %s is below 1s", c.Scheduler.Lease.D())
	}
	c.Savepoints.check(add)
	if c.Restart.MaxAttempts < 0 {
		add("restart_policy.max_attempts", false, "restart_policy.max_attempts must not be negative")
	}
	if c.Restart.Multiplier < 1 {
		add("restart_policy.multiplier", false, "restart_policy.multiplier must be at least 1")
	}
	for _, d := range []struct {
		key string
		v   Duration
	}{{"window", c.Restart.Window}, {"backoff", c.Restart.Backoff}, {"max_backoff", c.Restart.MaxBackoff}} {
		if d.v < 0 {
			add("restart_policy."+d.key, false, "restart_policy.%s %s is negative: give a duration such as 10s", d.key, d.v.D())
		}
	}
	if c.Restart.Backoff > 0 && c.Restart.MaxBackoff > 0 && c.Restart.Backoff > c.Restart.MaxBackoff {
		add("restart_policy.backoff", false, "restart_policy.backoff %s is above max_backoff %s", c.Restart.Backoff.D(), c.Restart.MaxBackoff.D())
	}
	c.checkEtcd(add)
	if c.Socket != "" && !filepath.IsAbs(c.Socket) {
		add("socket", false, "socket %q: use an absolute path (palink runs from any directory)", c.Socket)
	}
	if c.Agent.Group != "" {
		if !groupRE.MatchString(c.Agent.Group) {
			add("agent.group", false, "agent.group %q is not a group name", c.Agent.Group)
		}
		if c.Socket == "" {
			add("agent.group", true, "agent.group %q without socket: the default socket lies in the agent user's private directory, where the group cannot reach it; set socket: too", c.Agent.Group)
		}
	}
	c.checkObservability(add)
	c.checkDebug(add)
	c.checkBuild(add)
	if c.DefaultCluster != "" {
		if _, ok := c.Cluster(c.DefaultCluster); !ok {
			add("default_cluster", false, "default_cluster %q is not one of the clusters below", c.DefaultCluster)
		}
	}
	seen := map[string]int{}
	for i, cl := range c.Clusters {
		p := fmt.Sprintf("clusters[%d]", i)
		switch {
		case cl.Name == "":
			add(p, false, "cluster %d has no name", i+1)
		case !nameRE.MatchString(cl.Name):
			add(p+".name", false, "cluster name %q: use letters, digits, '.', '_' and '-'", cl.Name)
		case seen[cl.Name] > 0:
			add(p+".name", false, "cluster name %q is used twice (first at line %d)", cl.Name, seen[cl.Name])
		default:
			seen[cl.Name] = c.Line(p + ".name")
		}
		if len(cl.RM) == 0 {
			add(p, false, "cluster %q: rm: needs at least one ResourceManager address", cl.Name)
		}
		for j, a := range cl.RM {
			if err := checkURL(a); err != nil {
				add(fmt.Sprintf("%s.rm[%d]", p, j), false, "cluster %q: rm %q: %v", cl.Name, Redact(a), err)
			}
		}
		if cl.SQLGateway != "" {
			if err := checkURL(cl.SQLGateway); err != nil {
				add(p+".sql_gateway", false, "cluster %q: sql_gateway %q: %v", cl.Name, Redact(cl.SQLGateway), err)
			}
		}
		if cl.FlinkVersion != "" && !flinkVersionRE.MatchString(cl.FlinkVersion) {
			add(p+".flink_version", false, "cluster %q: flink_version %q: want major.minor, like 1.20 or 2.0.1", cl.Name, cl.FlinkVersion)
		}
		if cl.CheckpointsRetained < 0 {
			add(p+".checkpoints_retained", false, "cluster %q: checkpoints_retained %d: want 1 or more (Flink's num-retained)", cl.Name, cl.CheckpointsRetained)
		}
		switch cl.FlinkAccess {
		case "proxy", "direct":
		default:
			add(p+".flink_access", false, "cluster %q: flink_access %q: want proxy or direct", cl.Name, cl.FlinkAccess)
		}
		switch cl.Deploy.Mode {
		case "yarn-per-job", "yarn-application":
		case "yarn-session":
			if cl.Deploy.SessionApp == "" {
				add(p+".deploy.mode", false, "cluster %q: deploy.mode yarn-session needs deploy.session_app (the session's application id)", cl.Name)
			}
		default:
			add(p+".deploy.mode", false, "cluster %q: deploy.mode %q: want yarn-per-job, yarn-application or yarn-session", cl.Name, cl.Deploy.Mode)
		}
		switch cl.Deploy.JarDeployer {
		case "rest":
			if cl.Deploy.Mode != "yarn-session" {
				add(p+".deploy.jar_deployer", false, "cluster %q: jar_deployer rest runs jars on a session cluster; set deploy.mode yarn-session or use exec", cl.Name)
			}
		case "exec":
		default:
			add(p+".deploy.jar_deployer", false, "cluster %q: jar_deployer %q: want rest or exec", cl.Name, cl.Deploy.JarDeployer)
		}
		if cl.Auth.User != "" && cl.Auth.PasswordEnv == "" && cl.Auth.PasswordFile == "" {
			add(p+".auth", false, "cluster %q: auth.user needs password_env or password_file", cl.Name)
		}
		if cl.Auth.PasswordEnv != "" && os.Getenv(cl.Auth.PasswordEnv) == "" {
			// Not a warning: every request to the cluster would fail.
			add(p+".auth.password_env", false, "cluster %q: environment variable %s (auth.password_env) is empty or unset: set it before palink starts", cl.Name, cl.Auth.PasswordEnv)
		}
		if cl.Auth.PasswordFile != "" {
			if _, err := os.Stat(cl.Auth.PasswordFile); err != nil {
				add(p+".auth.password_file", false, "cluster %q: password_file: %v", cl.Name, err)
			}
		}
		checkTeams(cl, p, add)
		if k := cl.Auth.Kerberos; k != nil {
			k.check(cl.Name, p, add)
			if cl.Auth.User != "" {
				add(p+".auth", false, "cluster %q: auth: give user (basic auth) or kerberos, not both", cl.Name)
			}
		}
		for key, f := range map[string]string{"ca_file": cl.TLS.CAFile, "cert_file": cl.TLS.CertFile, "key_file": cl.TLS.KeyFile} {
			if f == "" {
				continue
			}
			if _, err := os.Stat(f); err != nil {
				add(p+".tls."+key, false, "cluster %q: tls.%s: %v", cl.Name, key, err)
			}
		}
		if (cl.TLS.CertFile == "") != (cl.TLS.KeyFile == "") {
			add(p+".tls", false, "cluster %q: tls.cert_file and tls.key_file go together", cl.Name)
		}
		if cl.TLS.InsecureSkipVerify {
			add(p+".tls.insecure_skip_verify", true, "cluster %q: TLS certificates are not verified", cl.Name)
		}
		if cl.SQLGateway == "" {
			add(p, true, "cluster %q: no sql_gateway: SQL jobs cannot be deployed here", cl.Name)
		}
	}
	return ps
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("want http:// or https://")
	}
	if u.Host == "" {
		return errors.New("no host")
	}
	if u.User != nil {
		return errors.New("credentials in the URL: use auth.user and auth.password_env instead")
	}
	return nil
}

// checkEtcd checks the store's etcd URL and the etcd: options. The URL's
// rules are the store's (store.ParseEtcdURL), written again here since
// config imports nothing of palink's.
func (c *Config) checkEtcd(add func(string, bool, string, ...any)) {
	e := c.Etcd
	if !c.IsEtcd() {
		if e != (Etcd{}) {
			add("etcd", true, "etcd: is set, but the store is the file %s: it applies to a store: etcd://… only", c.Store)
		}
		return
	}
	hosts, prefix, _ := strings.Cut(strings.TrimPrefix(c.Store, "etcd://"), "/")
	switch {
	case strings.Trim(prefix, "/") == "":
		add("store", false, "store %q: no key prefix: want etcd://host:2379,host2:2379/palink", c.Store)
	case strings.ContainsAny(hosts, "@?#") || strings.ContainsAny(prefix, "?#"):
		add("store", false, "store %q: no user, query or fragment in the URL: TLS and credentials go under etcd:", Redact(c.Store))
	case slices.Contains(strings.Split(hosts, ","), ""):
		add("store", false, "store %q: an empty host", c.Store)
	}
	for key, f := range map[string]string{"ca_file": e.TLS.CAFile, "cert_file": e.TLS.CertFile, "key_file": e.TLS.KeyFile} {
		if f == "" {
			continue
		}
		if _, err := os.Stat(f); err != nil {
			add("etcd.tls."+key, false, "etcd.tls.%s: %v", key, err)
		}
	}
	if (e.TLS.CertFile == "") != (e.TLS.KeyFile == "") {
		add("etcd.tls", false, "etcd.tls: give both cert_file and key_file, or neither")
	}
	if e.Auth.User != "" && e.Auth.PasswordEnv == "" && e.Auth.PasswordFile == "" {
		add("etcd.auth", false, "etcd.auth.user needs password_env or password_file")
	}
	if e.Auth.PasswordEnv != "" && os.Getenv(e.Auth.PasswordEnv) == "" {
		add("etcd.auth.password_env", false, "environment variable %s (etcd.auth.password_env) is empty or unset: set it before palink starts", e.Auth.PasswordEnv)
	}
	if e.Auth.PasswordFile != "" {
		if _, err := os.Stat(e.Auth.PasswordFile); err != nil {
			add("etcd.auth.password_file", false, "etcd.auth.password_file: %v", err)
		}
	}
	if t := e.ElectionTTL.D(); t != 0 && (t < 2*time.Second || t%time.Second != 0) {
		add("etcd.election_ttl", false, "etcd: election_ttl %s: give whole seconds, at least 2s (etcd grants no shorter lease)", t)
	}
	if e.DialTimeout < 0 || e.MaxTxnOps < 0 || e.MaxRequestBytes < 0 {
		add("etcd", false, "etcd: dial_timeout, max_txn_ops and max_request_bytes must not be negative")
	}
}
