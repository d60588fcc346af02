// Package config reads and checks palink's configuration file
// (~/.config/palink/config.yaml by XDG rules): the clusters, state sync, the
// restart policy and the store. Secrets come from environment variables or
// files, are resolved only when a client is built, and are never printed.
//
// It imports nothing of palink's own.
package config

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is the whole configuration file.
type Config struct {
	// Store is the bbolt file, default $XDG_DATA_HOME/palink/palink.db;
	// or, for a team of palinks on several hosts, an etcd cluster and the
	// prefix of palink's keys in it: etcd://host1:2379,host2:2379/palink
	// (the port defaults to 2379; TLS and credentials go under etcd:).
	Store string `yaml:"store"`
	// Etcd is how palink reaches a store on etcd.
	Etcd      Etcd          `yaml:"etcd"`
	Sync      Sync          `yaml:"sync"`
	Scheduler Scheduler     `yaml:"scheduler"`
	Restart   RestartPolicy `yaml:"restart_policy"`
	// Savepoints are restore points over time: periodic savepoints,
	// their retention, and how old a restore point may be.
	Savepoints Savepoints `yaml:"savepoints"`
	Projects   Projects   `yaml:"projects"` // JAR jobs built from git
	Build      Build      `yaml:"build"`    // how builds and secret commands run
	Metrics    Metrics    `yaml:"metrics"`
	Alerts     Alerts     `yaml:"alerts"`
	Clusters   []Cluster  `yaml:"clusters"`
	// DefaultCluster is the cluster a command means when it names none
	// (--cluster) and several are configured: sql check and debug take
	// its table catalog and variables, job create puts jobs on it.
	DefaultCluster string `yaml:"default_cluster"`
	Debug          Debug  `yaml:"debug"`
	// Socket is the unix socket of the agent of Store, for a team: it must
	// lie in a directory only the agent's user (or root) may write to, or in
	// a root-owned sticky one such as /tmp. Default: a socket named after
	// the store in the user's private $XDG_RUNTIME_DIR/palink (else
	// /tmp/palink-UID), which no other user can reach. A store other than
	// Store (--db) always gets its default socket.
	Socket string `yaml:"socket"`
	// Agent configures the agent's socket.
	Agent Agent `yaml:"agent"`
	// Operators may act on jobs through the agent, trigger builds, back up
	// its store and explain SQL on a cluster; everyone else only views.
	// Empty: every user who can reach the socket may.
	Operators []string `yaml:"operators"`
	// Admins define what runs, through the agent: projects (repositories
	// and build commands), variables and their secret commands, the table
	// catalog and UDFs; they are operators too. The agent's own user is
	// always one. Empty: only the agent's own user.
	Admins []string `yaml:"admins"`

	// path is the file this was read from, for messages.
	path string
	// lines maps a field path ("clusters[0].rm") to its line in the file.
	lines map[string]int
}

// Agent configures `palink agent`'s socket.
type Agent struct {
	// Group, when set, owns the socket, which is then 0660, so that the
	// group's members may connect; default: only the agent's user (0600).
	// It needs Socket: nobody else can reach the default private one.
	Group string `yaml:"group"`
	// Tokens is a file of automation's static tokens, lines `TOKEN USER`:
	// a client that presents one (palink --token-file) is that user on the
	// agent. It must be readable by the agent's user only (0600).
	Tokens string `yaml:"tokens"`
}

// Sync configures state sync.
type Sync struct {
	Interval    Duration `yaml:"interval"`    // default 10s
	Concurrency int      `yaml:"concurrency"` // JobManager requests in flight per cycle; default 32
}

// Scheduler configures command execution.
type Scheduler struct {
	// Lease is how long a command stays owned by a process that stopped
	// renewing it (it died) before another run reclaims it; default 30s.
	Lease   Duration `yaml:"lease"`
	Workers int      `yaml:"workers"` // commands executed at once; default 8
}

// flinkVersionRE is the shape of a Flink version as a cluster reports it;
// flinksql/builtin.ParseVersion reads it (config imports nothing of palink's).
var flinkVersionRE = regexp.MustCompile(`^v?[1-9][0-9]*\.[0-9]+(\.[0-9]+)?([-_].*)?$`)

// Cluster is one YARN cluster with its Flink access.
type Cluster struct {
	Name string `yaml:"name"`
	// Protected clusters ask the user to type the job name before a kill.
	Protected bool `yaml:"protected"`
	// RM lists the ResourceManager addresses (HA: all of them).
	RM []string `yaml:"rm"`
	// FlinkAccess is "proxy" (reads through the RM web proxy, the default)
	// or "direct" (everything straight to the JobManager's amRPCAddress).
	FlinkAccess string `yaml:"flink_access"`
	// SQLGateway is the Flink SQL Gateway's address, for SQL jobs.
	SQLGateway string `yaml:"sql_gateway"`
	// FlinkVersion is the Flink release the cluster runs ("1.20", "2.0.1"):
	// SQL checked for the cluster is checked against it, so a statement the
	// release lacks is an error before a deploy fails on it. Empty: the
	// release the SQL Gateway reports, else the newest palink knows.
	FlinkVersion string `yaml:"flink_version"`
	// ApplicationType is YARN's type of Flink applications; default "Apache Flink".
	ApplicationType string `yaml:"application_type"`
	// CheckpointsRetained is the cluster's Flink num-retained
	// (execution.checkpointing.num-retained; state.checkpoints.num-retained
	// before Flink 1.20): Flink keeps a job's newest that many checkpoints
	// and deletes older ones, and palink keeps as many records of them.
	// Default 1, Flink's.
	CheckpointsRetained int `yaml:"checkpoints_retained"`
	// Debug is where `palink debug --on` runs on this cluster.
	Debug ClusterDebug `yaml:"debug"`
	// User is sent as user.name for YARN simple authentication.
	User    string      `yaml:"user"`
	Timeout Duration    `yaml:"timeout"` // per HTTP call; default 10s
	TLS     TLS         `yaml:"tls"`
	Auth    ClusterAuth `yaml:"auth"`
	Deploy  Deploy      `yaml:"deploy"`
}

// TLS configures HTTPS to the cluster: its RMs, their web proxy, the
// JobManagers and the SQL Gateway.
type TLS struct {
	// CAFile is a PEM bundle of the CAs that signed the cluster's
	// certificates; it replaces the system's pool for this cluster.
	CAFile string `yaml:"ca_file"`
	// CertFile and KeyFile are palink's client certificate, for servers
	// that ask for one (Flink's security.ssl.rest.authentication-enabled).
	CertFile           string `yaml:"cert_file"`
	KeyFile            string `yaml:"key_file"`
	InsecureSkipVerify bool   `yaml:"insecure_skip_verify"`
	// FlinkREST: the JobManagers' REST API is HTTPS (Flink's
	// security.ssl.rest.enabled), so palink reaches amRPCAddress with
	// https:// (and shows cert_file where Flink asks for it).
	FlinkREST bool `yaml:"flink_rest"`
}

// ClusterDebug is how `palink debug --on` runs a job on the cluster.
type ClusterDebug struct {
	// Session is the application id of a Flink session cluster the
	// debug runs go to (execution.target yarn-session); empty: the SQL
	// Gateway's own target.
	Session string `yaml:"session"`
	// DataDir is a directory both this host writes and the cluster's
	// Flink reads (a shared mount, or file:// paths of a one-host
	// cluster): the run's samples are copied there. Empty: the cluster
	// reads them at their paths here.
	DataDir string `yaml:"data_dir"`
}

// ClusterAuth is how palink authenticates to a cluster: HTTP basic auth
// (user and password), or Kerberos (SPNEGO); with neither, YARN's simple
// authentication with the cluster's user.
type ClusterAuth struct {
	Auth `yaml:",inline"`
	// Kerberos authenticates every request to the RM (REST and web proxy),
	// and to any other endpoint of the cluster that asks for it, with SPNEGO.
	Kerberos *Kerberos `yaml:"kerberos"`
	// Teams gives teams identities of their own on the cluster, by team:
	// the actions on a job a team owns (kills, savepoints, submissions)
	// are made as the team's principal, so that YARN's ACLs and audit see
	// the team; reads stay kerberos's. krb5_conf and service default to
	// kerberos's; keytab or ccache is required.
	Teams map[string]*Kerberos `yaml:"teams"`
	// DoAs sends the palink user who issued an action as the RM's doAs
	// query parameter, so that YARN audits it as that user; the cluster
	// must allow palink's principal to proxy (hadoop.proxyuser.*).
	DoAs bool `yaml:"do_as"`
}

// Kerberos is one Kerberos identity: its principal, and where its keys
// or tickets are (a keytab, or the user's credential cache from kinit).
type Kerberos struct {
	// Principal is the client, "user@REALM" or "service/host@REALM".
	Principal string `yaml:"principal"`
	// Keytab holds the principal's keys: palink logs in and renews its
	// tickets itself. It must not be readable by group or others.
	Keytab string `yaml:"keytab"`
	// CCache is a credential cache the user fills with kinit (default:
	// $KRB5CCNAME, else /tmp/krb5cc_UID) when there is no keytab.
	CCache string `yaml:"ccache"`
	// Krb5Conf is the Kerberos configuration (realms, KDCs); default
	// $KRB5_CONFIG, else /etc/krb5.conf.
	Krb5Conf string `yaml:"krb5_conf"`
	// Service is the service part of the HTTP servers' principals
	// (SERVICE/host@REALM); default HTTP.
	Service string `yaml:"service"`
}

// Auth is HTTP basic authentication. The password comes from an
// environment variable or a file, never from this file in clear.
type Auth struct {
	User         string `yaml:"user"`
	PasswordEnv  string `yaml:"password_env"`
	PasswordFile string `yaml:"password_file"`
}

// Etcd is how palink reaches a store on etcd (store: etcd://…).
type Etcd struct {
	// TLS turns on TLS to the members: the CA that signed their
	// certificates, and palink's own certificate and key where etcd asks
	// clients for one (etcd's --client-cert-auth).
	TLS EtcdTLS `yaml:"tls"`
	// Auth logs in with etcd's authentication: the user, and its password
	// from password_env or password_file (never from this file).
	Auth Auth `yaml:"auth"`
	// DialTimeout is how long palink waits at start for an endpoint to
	// answer; default 5s.
	DialTimeout Duration `yaml:"dial_timeout"`
	// ElectionTTL is how long the leader among the agents sharing the
	// store keeps the lead once it stops answering (it died, froze or was
	// cut off): another takes over within it. Whole seconds, at least 2s;
	// default 10s.
	ElectionTTL Duration `yaml:"election_ttl"`
	// MaxTxnOps and MaxRequestBytes are the cluster's --max-txn-ops and
	// --max-request-bytes, where they were raised from etcd's defaults
	// (128 and 1572864): a transaction beyond them is refused before it
	// is sent.
	MaxTxnOps       int `yaml:"max_txn_ops"`
	MaxRequestBytes int `yaml:"max_request_bytes"`
}

// EtcdTLS are the files of TLS to etcd.
type EtcdTLS struct {
	CAFile   string `yaml:"ca_file"`
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
}

// IsEtcd reports whether the store is kept in etcd (an etcd:// URL)
// rather than in a file.
func (c *Config) IsEtcd() bool { return strings.HasPrefix(c.Store, "etcd://") }

// Deploy says how palink starts jobs on the cluster.
type Deploy struct {
	// Mode is Flink's execution.target: yarn-per-job (default),
	// yarn-application or yarn-session.
	Mode string `yaml:"mode"`
	// SessionApp is the YARN application id of the session cluster for
	// yarn-session mode (SQL jobs and JAR jobs via jars/run run in it).
	SessionApp string `yaml:"session_app"`
	// JarDeployer is "rest" (jars upload/run on the session cluster, default
	// for yarn-session) or "exec" (run Command, default otherwise).
	JarDeployer string `yaml:"jar_deployer"`
	// Command is the `flink run` template of the exec deployer, with
	// placeholders {jar} {class} {args} {name} {tags} {parallelism}
	// {savepoint} {queue}; see docs/configuration.md.
	Command string `yaml:"command"`
	// PythonCommand is the `flink run` template of PyFlink jobs, with
	// {python} for the -py/-pym/-pyfs/-pyreq/-pyarch/-pyexec options and
	// the placeholders of Command but {jar} and {class}; see docs/configuration.md.
	PythonCommand string `yaml:"python_command"`
	// SavepointDir is the target directory of savepoints.
	SavepointDir string `yaml:"savepoint_dir"`
	// Queue is the YARN queue of new applications.
	Queue string `yaml:"queue"`
	// Properties are extra Flink settings for every job of this cluster.
	Properties map[string]string `yaml:"properties"`
	// Env is the environment the exec deployer's `flink run` client gets
	// beyond the standard variables of Hadoop, Flink, Java and Kerberos,
	// which pass from palink's own (HADOOP_CONF_DIR, FLINK_CONF_DIR,
	// JAVA_HOME, KRB5CCNAME, …): the client runs a JAR job's main() on this
	// host, so it never gets the rest of palink's environment (cluster
	// passwords, tokens).
	Env map[string]string `yaml:"env"`
}

// Duration is a time.Duration written as "10s", "5m".
type Duration time.Duration

// UnmarshalYAML implements yaml.Unmarshaler.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration (like 10s, 5m)", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML implements yaml.Marshaler.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// D returns the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// DefaultPath is $XDG_CONFIG_HOME/palink/config.yaml.
func DefaultPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "palink", "config.yaml")
}

// DefaultStore is $XDG_DATA_HOME/palink/palink.db.
func DefaultStore() string {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "palink", "palink.db")
}

// Problem is one finding of Check, at a line of the file.
type Problem struct {
	File    string
	Line    int
	Message string
	Warning bool
}

func (p Problem) Error() string {
	level := "error"
	if p.Warning {
		level = "warning"
	}
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, level, p.Message)
	}
	return fmt.Sprintf("%s: %s: %s", p.File, level, p.Message)
}

// Problems is a list of findings; as an error it lists them all.
type Problems []Problem

func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// Errors returns the problems that are not warnings.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// Load reads, defaults and checks the file. It fails on the first syntax
// error, or with every error Check finds; warnings are returned separately.
func Load(path string) (*Config, Problems, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, b)
}

// Parse is Load of bytes already read; path names them in messages.
func Parse(path string, b []byte) (*Config, Problems, error) {
	c := &Config{path: path, lines: map[string]int{}}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, nil, Problems{{File: path, Line: yamlErrLine(err), Message: yamlErrText(err)}}
	}
	if len(bytes.TrimSpace(b)) > 0 {
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(c); err != nil {
			return nil, nil, Problems{{File: path, Line: yamlErrLine(err), Message: yamlErrText(err)}}
		}
	}
	indexLines(&root, "", c.lines)
	c.ApplyDefaults()
	ps := c.Check()
	if errs := ps.Errors(); len(errs) > 0 {
		return nil, ps, errs
	}
	return c, ps, nil
}

var lineRE = regexp.MustCompile(`line (\d+)`)

func yamlErrLine(err error) int {
	m := lineRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

func yamlErrText(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "yaml: ")
	s = strings.TrimPrefix(s, "unmarshal errors:\n  ")
	s = lineRE.ReplaceAllString(s, "")
	s = strings.TrimLeft(s, ": ")
	s = strings.ReplaceAll(s, "in type config.", "in ")
	return s
}

// indexLines records the line of every mapping key and sequence item.
func indexLines(n *yaml.Node, path string, lines map[string]int) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			indexLines(c, path, lines)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := k.Value
			if path != "" {
				p = path + "." + k.Value
			}
			lines[p] = k.Line
			indexLines(v, p, lines)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			lines[p] = c.Line
			indexLines(c, p, lines)
		}
	}
}

// Line returns the line of a field path such as "clusters[1].rm", or of its
// nearest ancestor that is in the file.
func (c *Config) Line(path string) int {
	for path != "" {
		if l, ok := c.lines[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}

// Path is the file the config came from.
func (c *Config) Path() string { return c.path }

// ApplyDefaults fills every setting left empty with its default; Load does it.
func (c *Config) ApplyDefaults() {
	if c.Store == "" {
		c.Store = DefaultStore()
	}
	c.Store = expandHome(c.Store)
	c.Etcd.TLS.CAFile = expandHome(c.Etcd.TLS.CAFile)
	c.Etcd.TLS.CertFile = expandHome(c.Etcd.TLS.CertFile)
	c.Etcd.TLS.KeyFile = expandHome(c.Etcd.TLS.KeyFile)
	c.Etcd.Auth.PasswordFile = expandHome(c.Etcd.Auth.PasswordFile)
	c.Socket = expandHome(c.Socket)
	c.Projects.CacheDir = expandHome(c.Projects.CacheDir)
	if c.Sync.Interval == 0 {
		c.Sync.Interval = Duration(10 * time.Second)
	}
	if c.Sync.Concurrency == 0 {
		// A request to a JobManager through the RM's proxy takes
		// milliseconds; at 8 in flight, 10,000 jobs did not fit in a 10 s
		// cycle (the JobManagers of a fleet answer in parallel).
		c.Sync.Concurrency = 32
	}
	if c.Scheduler.Lease == 0 {
		c.Scheduler.Lease = Duration(30 * time.Second)
	}
	if c.Scheduler.Workers == 0 {
		c.Scheduler.Workers = 8
	}
	r := &c.Restart
	if r.Enabled == nil {
		t := true
		r.Enabled = &t
	}
	if r.MaxAttempts == 0 {
		r.MaxAttempts = 3
	}
	if r.Window == 0 {
		r.Window = Duration(30 * time.Minute)
	}
	if r.Backoff == 0 {
		r.Backoff = Duration(10 * time.Second)
	}
	if r.MaxBackoff == 0 {
		r.MaxBackoff = Duration(5 * time.Minute)
	}
	if r.Multiplier == 0 {
		r.Multiplier = 2
	}
	c.applyObservability()
	for i := range c.Clusters {
		cl := &c.Clusters[i]
		if cl.FlinkAccess == "" {
			cl.FlinkAccess = "proxy"
		}
		if cl.ApplicationType == "" {
			cl.ApplicationType = "Apache Flink"
		}
		if cl.Timeout == 0 {
			cl.Timeout = Duration(10 * time.Second)
		}
		if cl.Deploy.Mode == "" {
			cl.Deploy.Mode = "yarn-per-job"
		}
		if cl.Deploy.JarDeployer == "" {
			cl.Deploy.JarDeployer = "exec"
			if cl.Deploy.Mode == "yarn-session" {
				cl.Deploy.JarDeployer = "rest"
			}
		}
		cl.TLS.CAFile = expandHome(cl.TLS.CAFile)
		cl.TLS.CertFile = expandHome(cl.TLS.CertFile)
		cl.TLS.KeyFile = expandHome(cl.TLS.KeyFile)
		cl.Auth.PasswordFile = expandHome(cl.Auth.PasswordFile)
		if k := cl.Auth.Kerberos; k != nil {
			k.applyDefaults()
			for _, t := range cl.Auth.Teams {
				if t != nil {
					t.inherit(*k)
				}
			}
		}
	}
}

func expandHome(p string) string {
	if strings.HasPrefix(p, "~/") {
		home, _ := os.UserHomeDir()
		return filepath.Join(home, p[2:])
	}
	return p
}

var nameRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)

// groupRE is what a unix group name may look like (shadow-utils', with the
// dots and @ that directory services use).
var groupRE = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_.@-]*\$?$`)

// Redact hides the credentials of a URL for messages.
func Redact(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	u.User = url.User("xxxxx")
	return u.String()
}

// Cluster returns the cluster of that name.
func (c *Config) Cluster(name string) (Cluster, bool) {
	for _, cl := range c.Clusters {
		if cl.Name == name {
			return cl, true
		}
	}
	return Cluster{}, false
}

// Password resolves the basic-auth password from its environment variable
// or file. The value must never be logged or put in an error.
func (a Auth) Password() (string, error) {
	switch {
	case a.PasswordEnv != "":
		v := os.Getenv(a.PasswordEnv)
		if v == "" {
			return "", fmt.Errorf("password: environment variable %s is empty", a.PasswordEnv)
		}
		return v, nil
	case a.PasswordFile != "":
		b, err := os.ReadFile(a.PasswordFile)
		if err != nil {
			return "", fmt.Errorf("password file: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	return "", nil
}

// Write writes c as YAML to path (0600), for `palink sim --config-out`.
func (c *Config) Write(path string) error {
	b, err := yaml.Marshal(c)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
