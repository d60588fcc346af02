package clusters

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/yarn"
)

// Cluster is palink's connection to one configured cluster: its RM (with
// HA), the SQL Gateway, and a factory of JobManager clients. It also keeps
// the cluster's connectivity for the header.
type Cluster struct {
	Name    string
	Cfg     Spec
	RM      *yarn.ResourceManager
	Gateway *yarn.SQLGateway // nil when the cluster has no sql_gateway
	opts    yarn.Options
	// flink is the root JobManager client: every application's client
	// derives from it and shares its connection pool.
	flink *yarn.Flink
	// logs is the root container log client (NodeManagers, the log
	// server), made when first needed.
	logs *yarn.ContainerLogs

	// Reads are the JobManager answers of lately, shared by state sync,
	// the metrics rounds and the alert rules (and the team views).
	Reads *Reads

	// Team is the team this view of the cluster acts for ("" for the
	// cluster's own identity); parent the cluster it is a view of, which
	// keeps the connectivity. teams are the views, by team.
	Team   string
	parent *Cluster
	teams  map[string]*Cluster

	mu     sync.Mutex
	status api.ClusterStatus
	// logServer is the RM's yarn.log.server.web-service.url as last read,
	// and until when it is trusted.
	logServer      string
	logServerErr   error
	logServerUntil time.Time
}

// Retained is how many checkpoints per job Flink keeps on the cluster
// (Spec.CheckpointsRetained, 1 when unset).
func (c *Cluster) Retained() int { return max(c.Cfg.CheckpointsRetained, 1) }

// Spec is one cluster as palink reaches it (the cli builds it from the
// config file's clusters:).
type Spec struct {
	Name string
	// Protected clusters ask the user to type the job name before a kill.
	Protected bool
	// RM lists the ResourceManager addresses (HA: all of them).
	RM []string
	// FlinkAccess is "proxy" (reads through the RM web proxy) or "direct"
	// (everything straight to the JobManager's amRPCAddress).
	FlinkAccess string
	// SQLGateway is the Flink SQL Gateway's address ("" for none).
	SQLGateway string
	// ApplicationType is YARN's type of Flink applications.
	ApplicationType string
	// User is sent as user.name for YARN simple authentication.
	User    string
	Timeout time.Duration // per HTTP call
	// Poll is the first pause of the clients' waits for SQL results,
	// savepoints and kills (yarn.Options.PollInterval).
	Poll time.Duration
	// CAFile, CertFile/KeyFile (a client certificate) and
	// InsecureSkipVerify configure HTTPS.
	CAFile             string
	CertFile, KeyFile  string
	InsecureSkipVerify bool
	// FlinkHTTPS: the JobManagers serve their REST API over HTTPS
	// (security.ssl.rest.enabled).
	FlinkHTTPS bool
	// Kerberos, when set, authenticates with SPNEGO in a login context of
	// this cluster's own.
	Kerberos *Kerberos
	// TeamKerberos are the identities teams act as on this cluster, by
	// team (docs/kerberos.md, "A principal per team"): the actions on a
	// job a team owns (its kills, savepoints, submissions) are made as the
	// team's principal, in a login context of its own; reads (state sync)
	// stay the cluster's. Krb5Conf and Service default to Kerberos's.
	TeamKerberos map[string]*Kerberos
	// DoAs makes the RM act as the palink user who issued an action
	// (Hadoop proxy users), rather than as palink's own principal.
	DoAs bool
	// BasicUser authenticates with HTTP basic auth; Password reads the
	// password (from where the config says) when the clients are built.
	BasicUser string
	Password  func() (string, error)
	Deploy    Deploy
	// DebugSession and DebugDataDir are where `palink debug --on` runs:
	// a session cluster's application id, and a directory the cluster
	// reads the samples from (config.ClusterDebug).
	DebugSession, DebugDataDir string
	// CheckpointsRetained is the clusters' Flink num-retained
	// (execution.checkpointing.num-retained, before 1.20
	// state.checkpoints.num-retained): how many of a job's newest
	// checkpoints Flink keeps while it runs, subsuming and deleting the
	// older ones. palink keeps as many checkpoint records per job. 0 is
	// Flink's default, 1.
	CheckpointsRetained int
}

// Kerberos is a cluster's Kerberos identity: principal, keytab or
// credential cache, krb5.conf and the servers' service name.
type Kerberos = yarn.KerberosConfig

// Deploy says how palink starts jobs on a cluster.
type Deploy struct {
	// Mode is Flink's execution.target: yarn-per-job, yarn-application or
	// yarn-session.
	Mode string
	// SessionApp is the session cluster's application id (yarn-session).
	SessionApp string
	// JarDeployer is "rest" (jars/run on the session cluster) or "exec"
	// (the Command template).
	JarDeployer string
	// Command is the `flink run` template of the exec deployer.
	Command string
	// PythonCommand is the `flink run` template of PyFlink jobs.
	PythonCommand string
	// SavepointDir is the target directory of savepoints.
	SavepointDir string
	// Queue is the YARN queue of new applications.
	Queue string
	// Properties are extra Flink settings for every job of the cluster.
	Properties map[string]string
	// Forced are Flink settings no job's config overrides: the Kerberos
	// identity a submission logs in with, where teams have their own (so
	// that no job names another team's keytab).
	Forced map[string]string
	// Env is what the exec deployer's client gets besides the standard
	// variables (scheduler.ClientEnv).
	Env map[string]string
}

// New builds the clients of every cluster, by name. It does no I/O.
func New(specs []Spec) (map[string]*Cluster, error) {
	out := map[string]*Cluster{}
	for _, cc := range specs {
		c, err := NewCluster(cc)
		if err != nil {
			return nil, err
		}
		out[cc.Name] = c
	}
	return out, nil
}

// withDefaults fills what a Spec leaves out, as the config file's defaults do.
func (cc Spec) withDefaults() Spec {
	if cc.FlinkAccess == "" {
		cc.FlinkAccess = "proxy"
	}
	if cc.ApplicationType == "" {
		cc.ApplicationType = "Apache Flink"
	}
	if cc.Timeout == 0 {
		cc.Timeout = 10 * time.Second
	}
	if cc.Deploy.Mode == "" {
		cc.Deploy.Mode = "yarn-per-job"
	}
	if cc.Deploy.JarDeployer == "" {
		cc.Deploy.JarDeployer = "exec"
		if cc.Deploy.Mode == "yarn-session" {
			cc.Deploy.JarDeployer = "rest"
		}
	}
	return cc
}

// NewCluster builds one cluster's clients.
func NewCluster(cc Spec) (*Cluster, error) {
	cc = cc.withDefaults()
	o := yarn.Options{
		Timeout:            cc.Timeout,
		PollInterval:       cc.Poll,
		CAFile:             cc.CAFile,
		CertFile:           cc.CertFile,
		KeyFile:            cc.KeyFile,
		InsecureSkipVerify: cc.InsecureSkipVerify,
		SimpleAuthUser:     cc.User,
		UserAgent:          "palink",
	}
	if cc.BasicUser != "" {
		var pw string
		if cc.Password != nil {
			var err error
			if pw, err = cc.Password(); err != nil {
				return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
			}
		}
		o.Username, o.Password = cc.BasicUser, pw
	}
	if cc.Kerberos != nil {
		// One login context per cluster: two clusters (or, later, two
		// teams) never share tickets or a process-wide login.
		krb, err := yarn.NewKerberos(*cc.Kerberos)
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
		}
		o.Kerberos = krb
		o.SimpleAuthUser = ""
	}
	rm, err := yarn.NewResourceManager(cc.RM, o)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
	}
	root, err := yarn.NewFlink(rm.ProxyURL(""), "", o)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
	}
	c := &Cluster{Name: cc.Name, Cfg: cc, RM: rm, opts: o, flink: root, status: api.ClusterStatus{Name: cc.Name}, Reads: &Reads{}}
	if cc.SQLGateway != "" {
		gw, err := yarn.NewSQLGateway(cc.SQLGateway, o)
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
		}
		c.Gateway = gw
	}
	if err := c.teamViews(); err != nil {
		return nil, err
	}
	return c, nil
}

// RMFor returns the RM client to act with on behalf of issuer: one that
// passes issuer as doAs when the cluster is set up for proxy users (and
// issuer is a person, not the restart policy), else the cluster's own.
func (c *Cluster) RMFor(issuer string) *yarn.ResourceManager {
	if u := c.ProxyUser(issuer); u != "" {
		return c.RM.As(u)
	}
	return c.RM
}

// ProxyUser is whom palink acts for on issuer's behalf (Hadoop's doAs,
// a `flink run` client's HADOOP_PROXY_USER): issuer where the cluster is
// set up for proxy users and issuer is a person, not the restart policy;
// else "".
func (c *Cluster) ProxyUser(issuer string) string {
	if !c.Cfg.DoAs || issuer == "" || issuer == "policy" {
		return ""
	}
	return issuer
}

// Flink returns a JobManager client for a running application. Reads go
// through the RM web proxy (the application's current tracking URL) unless
// the cluster is configured for direct access; actions always go straight
// to the JobManager at amRPCAddress, since the proxy forwards only GET and PUT.
func (c *Cluster) Flink(app yarn.Application) (*yarn.Flink, error) {
	if c.Cfg.FlinkAccess == "direct" {
		if app.AMRPCAddress == "" {
			return nil, fmt.Errorf("JobManager of %s: %w: no amRPCAddress", app.ID, yarn.ErrUnavailable)
		}
		scheme := "http://"
		if c.Cfg.FlinkHTTPS {
			scheme = "https://"
		}
		direct := scheme + app.AMRPCAddress
		return c.flink.WithBases(direct, direct)
	}
	return c.flink.ForApplication(app, c.Cfg.FlinkHTTPS)
}

// ContainerLogs returns a client of the container logs at base (a
// NodeManager's or the log server's web services), sharing one connection
// pool per cluster.
func (c *Cluster) ContainerLogs(base string) (*yarn.ContainerLogs, error) {
	c.mu.Lock()
	root := c.logs
	c.mu.Unlock()
	if root != nil {
		return root.WithBase(base)
	}
	n, err := yarn.NewContainerLogs(base, c.opts)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.logs == nil {
		c.logs = n
	}
	c.mu.Unlock()
	return n, nil
}

// logServerTTL is how long the RM's answer about the log server is kept.
const logServerTTL = 10 * time.Minute

// LogServer returns where the cluster serves the aggregated logs of
// applications that ended: the RM's yarn.log.server.web-service.url (the
// timeline server's /ws/v1/applicationhistory, or the JobHistory server's
// /ws/v1/history), read from its /conf and kept for a while. An RM that
// does not say (the key is not set, or /conf is closed to palink) fails
// with an error that says so.
func (c *Cluster) LogServer(ctx context.Context, now time.Time) (string, error) {
	c.mu.Lock()
	if now.Before(c.logServerUntil) {
		defer c.mu.Unlock()
		return c.logServer, c.logServerErr
	}
	c.mu.Unlock()
	v, err := c.RM.ConfValue(ctx, yarn.ConfLogServerWebService)
	switch {
	case errors.Is(err, yarn.ErrNotFound):
		err = fmt.Errorf("the RM's configuration does not set %s: no log server serves the logs of applications that ended", yarn.ConfLogServerWebService)
	case errors.Is(err, yarn.ErrUnauthorized):
		err = fmt.Errorf("the RM refuses to show its configuration (/conf), so palink cannot read %s: %w", yarn.ConfLogServerWebService, err)
	case err == nil && strings.TrimSpace(v) == "":
		err = fmt.Errorf("the RM's %s is empty: no log server serves the logs of applications that ended", yarn.ConfLogServerWebService)
	}
	if ctx.Err() != nil {
		return "", err // not the RM's answer: do not keep it
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.logServer, c.logServerErr, c.logServerUntil = strings.TrimSpace(v), err, now.Add(logServerTTL)
	return c.logServer, c.logServerErr
}

// Observe records the outcome of a call for the cluster's connectivity.
func (c *Cluster) Observe(err error, now time.Time) {
	if c.parent != nil {
		c.parent.Observe(err, now)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil {
		c.status.Connected, c.status.LastOK, c.status.LastError = true, now, ""
		c.status.ActiveRM = c.RM.Active()
		return
	}
	if errors.Is(err, yarn.ErrNotFound) {
		return // the cluster answered
	}
	c.status.Connected, c.status.LastError = false, err.Error()
}

// Status is the cluster's connectivity as last observed.
func (c *Cluster) Status() api.ClusterStatus {
	if c.parent != nil {
		return c.parent.Status()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// Tags palink puts on every application it submits, so that a crashed
// submission can be found and adopted instead of repeated. Every tag is
// global: the store id is minted at random when a store is created, job
// ids are random, and a command id carries a random part besides its
// sequence number, so no tag of one store (or of an earlier copy of the
// same store, restored from a backup) names another's submission. The
// exception is what a palink from before store ids submitted: no store
// tag, and a command id without a random part, which every copy of that
// older store shares (ClaimOf).
//
// TagPalink marks every application palink submitted.
const TagPalink = "palink"

// StoreTag, JobTag and CmdTag name a store, a job and a command on YARN.
func StoreTag(storeID string) string { return "palink-store-" + strings.ToLower(storeID) }
func JobTag(jobID string) string     { return "palink-job-" + strings.ToLower(jobID) }
func CmdTag(cmdID string) string     { return "palink-cmd-" + strings.ToLower(cmdID) }

// SubmissionTags are the YARN application tags of a deploy (YARN lower-cases tags).
func SubmissionTags(storeID, jobID, cmdID string) []string {
	return []string{TagPalink, StoreTag(storeID), JobTag(jobID), CmdTag(cmdID)}
}

// Claim says whether an application is the submission of one command of
// this store, and by what: the log of whoever acts on the application
// names it (Matched), so that a person sees why palink took it or left it.
type Claim int

// Claims, from none to the strongest.
const (
	// NotSubmitted: the application lacks the job's or the command's tag,
	// or carries another store's tag (or no store tag for a command of
	// today's form, which always tags its store).
	NotSubmitted Claim = iota
	// UnrecordedLegacy: the application carries the job's and the command's
	// tags and no store tag (a palink from before store ids submitted it),
	// and this store did not record its id. Every copy of that older store
	// holds the same job and command, so the tags cannot say which copy
	// submitted it: it is never taken without a person's word.
	UnrecordedLegacy
	// ByRecordedID: as UnrecordedLegacy, but this store recorded the
	// application's id (on the command or the job) before it lost track:
	// its own history names it.
	ByRecordedID
	// ByStoreTag: the application carries this store's, the job's and the
	// command's tags.
	ByStoreTag
)

// Ours reports whether the claim makes the application the command's.
func (c Claim) Ours() bool { return c == ByStoreTag || c == ByRecordedID }

// Matched says, after an application's id, what matched and what did not,
// e.g. "carries this store's (palink-store-…), this job's and this
// command's tags".
func (c Claim) Matched(storeID string) string {
	const legacy = "this job's and this command's tags but no store tag (submitted by a palink before store ids)"
	switch c {
	case ByStoreTag:
		return fmt.Sprintf("carries this store's (%s), this job's and this command's tags", StoreTag(storeID))
	case ByRecordedID:
		return "is the application id this store recorded for this command or its job, and carries " + legacy
	case UnrecordedLegacy:
		return "carries " + legacy + "; this store did not record its id, so it may be another copy's"
	}
	return fmt.Sprintf("does not carry this store's (%s), this job's and this command's tags", StoreTag(storeID))
}

// ClaimOf says how application a relates to command cmdID of job jobID in
// the store storeID. recorded are the application ids that store recorded
// for the command and its job: the only proof that an application without
// a store tag is this copy's of an older store, and not another copy's.
func ClaimOf(a yarn.Application, storeID, jobID, cmdID string, recorded ...string) Claim {
	tags := a.Tags()
	if !HasTag(tags, JobTag(jobID)) || !HasTag(tags, CmdTag(cmdID)) {
		return NotSubmitted
	}
	if HasTag(tags, StoreTag(storeID)) {
		return ByStoreTag
	}
	if !LegacyCommandID(cmdID) || hasStoreTag(tags) {
		return NotSubmitted
	}
	for _, id := range recorded {
		if id != "" && id == a.ID {
			return ByRecordedID
		}
	}
	return UnrecordedLegacy
}

// hasStoreTag reports whether any store's tag is among tags.
func hasStoreTag(tags []string) bool {
	for _, t := range tags {
		if strings.HasPrefix(t, "palink-store-") {
			return true
		}
	}
	return false
}

// LegacyFor reports whether application a is one a palink from before
// store ids submitted for job jobID: it carries the job's tag and no
// store's. Such an application is this store's only where this store
// says so (a recorded id, or a person's adopt).
func LegacyFor(a yarn.Application, jobID string) bool {
	tags := a.Tags()
	return HasTag(tags, TagPalink) && HasTag(tags, JobTag(jobID)) && !hasStoreTag(tags)
}

// OtherStore reports whether application a carries the tag of a store
// other than storeID.
func OtherStore(a yarn.Application, storeID string) bool {
	tags := a.Tags()
	return hasStoreTag(tags) && !HasTag(tags, StoreTag(storeID))
}

// LegacyCommandID reports whether a command id is of the form palink gave
// before store identities: "c" and the sequence number alone.
func LegacyCommandID(id string) bool { return !strings.Contains(id, "-") }

// HasTag reports whether t is among tags.
func HasTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

// LiveStates are the YARN states of an application that may still run.
var LiveStates = []string{yarn.AppNew, yarn.AppNewSaving, yarn.AppSubmitted, yarn.AppAccepted, yarn.AppRunning}

// FlinkTerminal reports whether a Flink job status is globally terminal.
func FlinkTerminal(s string) bool {
	return s == yarn.JobFailed || s == yarn.JobCanceled || s == yarn.JobFinished
}

// UseFlinkTransport sends every JobManager request of this cluster through
// t (over the cluster's own options): the benchmarks and tests that count
// requests per job measure with it.
func (c *Cluster) UseFlinkTransport(t http.RoundTripper) error {
	o := c.opts
	o.Transport = t
	root, err := yarn.NewFlink(c.RM.ProxyURL(""), "", o)
	if err != nil {
		return err
	}
	c.flink = root
	return nil
}
