// Package api declares core.Service, the one interface the TUI and the CLI
// use, with the types that cross it. It holds no behaviour and imports only
// model, so that a package built on it (the TUI) provably never reaches
// HTTP, bbolt or the cluster clients.
package api

import (
	"context"
	"io"
	"time"

	"github.com/palink/palink/model"
)

// Service is the API the TUI and the CLI use, composed of role interfaces
// by what their callers need: a screen or a command takes the ones it
// uses. The in-process implementation (core.Local) embeds the store and the
// cluster clients; the agent's socket client implements it too. Every
// method takes a ctx and returns plain values; changes are pushed through
// Watch so that no caller polls. Each method is declared once, with the
// role that may call it, in methods.go. A local debug run is not part of
// it: it runs in the caller's process (Debugger), given to the TUI
// explicitly.
type Service interface {
	JobService
	ActionService
	FleetService
	MetricsService
	LogService
	DiagnoseService
	SQLPlanner
	CatalogService
	UDFService
	ProjectService
	TeamService
	AuditService
}

// JobService reads jobs and keeps their definitions.
type JobService interface {
	// ListJobs returns the jobs matching f, with their live figures.
	//palink:api role=viewer on=list
	ListJobs(ctx context.Context, f JobFilter) ([]JobView, error)
	// ListJobsPage is ListJobs a page at a time, in id order, for a list
	// too long to hold whole: `palink jobs` writes each page as it comes.
	//palink:api role=viewer on=list
	ListJobsPage(ctx context.Context, f JobFilter, p Page) (JobPage, error)
	// Job returns one job in depth. ref is a job id or a unique job name.
	//palink:api role=viewer on=job(ref)
	Job(ctx context.Context, ref string) (JobDetail, error)
	// SyncJob syncs one job with its cluster at once and returns the result.
	// It writes the cluster's answer into the job, as state sync does:
	// asking for the truth is a viewer's right.
	//palink:api role=viewer on=job(ref)
	SyncJob(ctx context.Context, ref string) (model.Job, error)
	// CreateJob adds a job (state CREATED) with its first spec version.
	//palink:api role=operator writes what="create job" caller=Issuer on=queue(r.Cluster,r.Queue())
	CreateJob(ctx context.Context, r CreateJobRequest) (model.Job, error)
	// SaveSpec stores a new spec version of a job and makes it the job's current one.
	//palink:api role=operator writes what="save spec" caller=Author on=job(ref)
	SaveSpec(ctx context.Context, ref string, s model.Spec) (model.Spec, error)
	// Specs lists every saved version of a job's spec, oldest first.
	//palink:api role=viewer on=job(ref)
	Specs(ctx context.Context, ref string) ([]model.Spec, error)
}

// ActionService plans and takes actions on jobs, and follows the commands
// they become.
type ActionService interface {
	// Plan says exactly what an action would do, without doing it: the text
	// of confirmation dialogs and of bulk dry runs. A refused action has
	// Allowed false and the reason.
	//palink:api role=viewer custom on=job(r.JobRef)
	Plan(ctx context.Context, r ActionRequest) (ActionPlan, error)
	// Act records the action as a command (UNDO) for the scheduler and
	// returns it at once. A refused action returns an error and records nothing
	// but an audit entry.
	//palink:api role=operator writes what="act on a job" caller=Issuer on=job(r.JobRef)
	Act(ctx context.Context, r ActionRequest) (model.Command, error)
	// WaitCommand blocks until the command ends or ctx is done.
	//palink:api role=viewer timeout=1h custom on=command(id)
	WaitCommand(ctx context.Context, id string) (model.Command, error)
	//palink:api role=viewer on=command(id)
	Command(ctx context.Context, id string) (model.Command, error)
	//palink:api role=viewer on=list
	Commands(ctx context.Context, f CommandFilter) ([]model.Command, error)
	// CommandsPage is Commands a page at a time, oldest first, for a
	// history too long to hold whole: `palink commands` writes each page
	// as it comes.
	//palink:api role=viewer on=list
	CommandsPage(ctx context.Context, f CommandFilter, p Page) (CommandPage, error)
	// Adopt makes an unmanaged Flink application on YARN a palink job.
	//palink:api role=operator writes what="adopt" caller=Issuer on=cluster(r.Cluster)
	Adopt(ctx context.Context, r AdoptRequest) (model.Job, error)
	// AdoptAll adopts every unmanaged Flink application the request
	// selects (AdoptAllRequest), many in one transaction, names made
	// unique in the applications' id order; DryRun says what it would do.
	// It crosses teams, so it is the fleet's operators' (on=global).
	//palink:api role=operator writes what="adopt" caller=Issuer timeout=10m on=global
	AdoptAll(ctx context.Context, r AdoptAllRequest) (AdoptAllResult, error)
	// DisposeSavepoint disposes of a savepoint palink recorded through
	// Flink's savepoint-disposal and returns its record with the outcome
	// (disposed, or failed with the reason). A checkpoint, a record already
	// disposed of, and, unless forced, a savepoint its job still needs are
	// refused.
	//palink:api role=operator writes what="dispose savepoint" caller=Issuer timeout=5m on=job(r.JobRef)
	DisposeSavepoint(ctx context.Context, r DisposeRequest) (model.RestorePoint, error)
}

// FleetService is the palink as a whole: its clusters, the change stream,
// whether it may act, and its store.
type FleetService interface {
	// Clusters reports each configured cluster's connectivity and data age.
	//palink:api role=viewer on=list
	Clusters(ctx context.Context) ([]ClusterStatus, error)
	// ClusterOverview returns YARN metrics, queues and the Flink applications
	// that palink does not manage yet.
	//palink:api role=viewer on=cluster(cluster)
	ClusterOverview(ctx context.Context, cluster string) (ClusterOverview, error)
	// ClusterNodes lists the cluster's YARN NodeManagers with what runs on
	// them: the ones out of service (unhealthy, lost, decommissioned, …)
	// first, with their health report; then the running ones.
	//palink:api role=viewer on=cluster(cluster)
	ClusterNodes(ctx context.Context, cluster string) ([]ClusterNode, error)
	// Watch streams changes until ctx is done. The channel is closed then.
	// A slow reader loses intermediate changes, never the latest one per
	// entity (changes are coalesced), and gets a Resync when it must reload.
	//palink:api role=viewer timeout=1h custom on=list
	Watch(ctx context.Context) (<-chan Change, error)
	// Leadership says which palink leads the store (runs the scheduler,
	// state sync and the alert rules) and which stand ready to; a store on
	// etcd is read at once, so a palink cut off from etcd says so in
	// Unreachable.
	//palink:api role=viewer
	Leadership(ctx context.Context) (Leadership, error)
	// ReadOnly reports whether actions are refused (--read-only, or a viewer role).
	//palink:api role=viewer local
	ReadOnly() bool
	// Backup writes a consistent copy of the whole store to w while it stays
	// in use: every spec of every job and the audit log, so an agent gives it
	// to operators only.
	//palink:api role=operator what="back up the store" timeout=10m custom on=global
	Backup(ctx context.Context, w io.Writer) (int64, error)
}

// ProjectService keeps the git repositories palink builds JAR jobs from,
// and their builds.
type ProjectService interface {
	// AddProject creates or replaces a project (a git repository palink
	// builds JAR jobs from); Projects lists them. A project names a
	// repository and a build command the agent runs: defining one is
	// defining what runs, an admin's power.
	//palink:api role=admin writes what="add project" caller=CreatedBy
	AddProject(ctx context.Context, p model.Project) (model.Project, error)
	//palink:api role=viewer
	Projects(ctx context.Context) ([]model.Project, error)
	// BuildProject builds a project and records its artifact; it waits
	// for the build. Artifacts lists a project's builds, oldest first.
	//palink:api role=operator writes what="build project" caller=Issuer timeout=6h custom on=any
	BuildProject(ctx context.Context, r BuildRequest) (model.Artifact, error)
	//palink:api role=viewer
	Artifacts(ctx context.Context, project string) ([]model.Artifact, error)
	// BuildStatus is the build of a project running now, if any: its
	// phase, commit and log so far, for a build view whose build runs in
	// an agent (whose log does not cross the socket as it comes).
	//palink:api role=viewer
	BuildStatus(ctx context.Context, project string) (BuildStatus, error)
}

// JobFilter narrows ListJobs. Zero fields select everything.
type JobFilter struct {
	Cluster string
	States  []model.JobState
	Name    string // substring
}

// CommandFilter narrows Commands.
type CommandFilter struct {
	JobRef string
	States []model.CommandState
	Limit  int
}

// JobView is a job as the jobs table shows it.
type JobView struct {
	model.Job
	// Pending is the job's command in UNDO or DOING (else one UNKNOWN), if any, for a badge.
	Pending *model.Command
	// Live figures from the last sync or metrics collection; zero when unknown.
	Figures Figures
	// Actions is core's answer, for every action a user may ask, whether
	// it may be asked of the job as it is here (its state and Pending): what
	// decide.CanAct says, so that a client offers and refuses keys as core
	// would without deciding itself. Plan has the last word (it weighs the
	// restore point, the catalog, the cluster too). Empty when the sender
	// did not say.
	Actions []ActionCheck
}

// ActionCheck is core's answer for one action on one job: Refused says why
// it may not be asked now, "" when it may.
type ActionCheck struct {
	Kind    model.CommandKind
	Refused string
}

// Refusal is why core refuses action k on the job as the view has it ("" when
// it may be asked); known is false when the view does not say, and then only
// Plan can tell.
func (v JobView) Refusal(k model.CommandKind) (why string, known bool) {
	for _, c := range v.Actions {
		if c.Kind == k {
			return c.Refused, true
		}
	}
	return "", false
}

// Figures are a job's headline metrics.
type Figures struct {
	At              time.Time
	RecordsInPerSec float64
	RecordsOutPerS  float64
	Backpressure    float64 // the worst vertex's ratio, 0..1
	CheckpointAge   time.Duration
	WatermarkDelay  time.Duration
	// Lag is the sources' consumer lag in records (MetricPoint.Lag);
	// Unknown (negative) when no source reports one.
	Lag float64
	// InSpark is the recent records in per second, oldest first, for the
	// jobs table's sparkline (empty until metrics are collected).
	InSpark []float64
}

// JobDetail is a job in depth for the detail view and `palink job show`.
type JobDetail struct {
	Job           model.Job
	Spec          model.Spec // the current version
	Events        []model.Event
	Commands      []model.Command
	RestorePoints []model.RestorePoint
	// Live facts, fetched from the cluster when the detail was asked for;
	// Error says why they are missing.
	Live      *LiveJob
	LiveError string
}

// LiveJob is what the cluster says about a job right now.
type LiveJob struct {
	FetchedAt   time.Time
	YARNState   string
	FinalStatus string
	FlinkState  string
	Vertices    []Vertex
	Checkpoints []CheckpointInfo // newest first
	Exceptions  []ExceptionInfo  // root cause first, then history
	RawJSON     string           // the Flink job details as served, for `y`
}

// Vertex is one operator chain of a Flink job.
type Vertex struct {
	ID          string
	Name        string
	Parallelism int
	Status      string
}

// CheckpointInfo is one checkpoint or savepoint as Flink reports it.
type CheckpointInfo struct {
	ID          int64
	Status      string // COMPLETED, FAILED, IN_PROGRESS
	Savepoint   bool
	TriggeredAt time.Time
	Duration    time.Duration
	Size        int64
	Path        string
	Failure     string
	// Kind is CHECKPOINT, UNALIGNED_CHECKPOINT, SAVEPOINT or SYNC_SAVEPOINT.
	Kind string
	// Acknowledged of Subtasks subtasks had their part done.
	Acknowledged, Subtasks int
	StateSize              int64
	// ProcessedData and PersistedData are the in-flight bytes of an
	// unaligned checkpoint.
	ProcessedData, PersistedData int64
}

// ExceptionInfo is one entry of a Flink job's exception history.
type ExceptionInfo struct {
	Time       time.Time
	Name       string
	Stacktrace string
	Task       string
	Location   string
}

// CreateJobRequest creates a job.
type CreateJobRequest struct {
	Name        string
	Cluster     string
	Kind        model.JobKind
	Spec        model.Spec
	Parallelism int
	Config      map[string]string
	Issuer      string // filled by the service when empty
}

// Queue is the YARN queue the request names for the job in its Flink
// config ("" when it names none).
func (r CreateJobRequest) Queue() string { return r.Config[model.QueueProperty] }

// ActionRequest asks for one action on one job.
type ActionRequest struct {
	JobRef      string
	Kind        model.CommandKind
	Restore     model.RestoreChoice // for RESTART (default latest) and RESUBMIT (required)
	RestorePath string              // for RestorePath
	Issuer      string              // filled by the service when empty
	// ClaimMode is how Flink treats the restore point (CLAIM, NO_CLAIM,
	// LEGACY); default: the cluster's.
	ClaimMode model.ClaimMode
	// AllowNonRestoredState lets the job start when state of the restore
	// point maps to no operator (-n).
	AllowNonRestoredState bool
	// Force restores from a point older than savepoints.max_restore_age.
	Force bool
}

// DisposeRequest asks palink to dispose of a savepoint it recorded,
// through Flink's savepoint-disposal.
type DisposeRequest struct {
	Path   string
	JobRef string // the job whose record it is; "" looks in every job
	// Force disposes of a savepoint the job still needs (its latest, or
	// the one a live job restored from).
	Force  bool
	Issuer string // filled by the service when empty
}

// BuildRequest asks for a build of a project.
type BuildRequest struct {
	Project string
	Ref     string // "" for the project's own
	Issuer  string // filled by the service when empty
	// Log, in process only, receives the build's output as it comes.
	Log io.Writer `json:"-"`
	// Progress, in process only, is told each phase as it begins, with
	// the commit once it is known.
	Progress func(phase model.BuildPhase, commit string) `json:"-"`
}

// BuildStatus is a running build of a project as it stands.
type BuildStatus struct {
	Project string
	Running bool // false: no build of the project runs in this palink
	Phase   model.BuildPhase
	Commit  string
	Started time.Time
	Log     string // the last model.MaxBuildLog bytes of its output
}

// ActionPlan describes what an action would do.
type ActionPlan struct {
	JobID   string
	JobName string
	Kind    model.CommandKind
	Allowed bool
	Reason  string // why not, when !Allowed
	// Steps say exactly what will happen, in order, e.g.
	// "YARN will kill application_1732_0042 (per-job cluster)".
	Steps []string
	// Warnings say what will be lost, e.g. "state is NOT saved; latest checkpoint 12 s ago".
	Warnings []string
	// Restore is the restore point a deploy would use ("" for none).
	Restore string
	// CrashLoop is the job's crash loop when the deploy restores the very
	// point its failing runs restored from (a warning says so); nil
	// otherwise.
	CrashLoop *model.CrashLoop `json:",omitempty"`
	// Artifact is what a JAR job's deploy changes in its jar (a resubmit
	// with a newer artifact), with the commits between; nil when nothing.
	Artifact *model.ArtifactChange `json:",omitempty"`
	// Confirm is how sure a person must be before the action runs: the
	// TUI and the CLI ask as it says (Confirm's doc), never by rules of
	// their own.
	Confirm Confirm
}

// Confirm is how sure a person must be before an action runs.
type Confirm int

// Confirmation levels, from the mildest.
const (
	// ConfirmNone: nothing is lost or stopped (a savepoint): no question.
	ConfirmNone Confirm = iota
	// ConfirmAsk: the job stops or starts, its state kept (pause, restart,
	// submit). A single key in the TUI could be a slip, so it asks; a
	// command line names the action already, so the CLI does not.
	ConfirmAsk
	// ConfirmDestructive: state is lost (kill, a start from empty state
	// after the job had some): both ask; a script passes --yes.
	ConfirmDestructive
	// ConfirmName: the cluster is protected: the person types the job's
	// name, whatever the action.
	ConfirmName
)

// ClusterStatus is one configured cluster's health as the header shows it.
type ClusterStatus struct {
	Name      string
	Connected bool
	ActiveRM  string
	LastOK    time.Time // data age is now − LastOK
	LastError string
}

// ClusterOverview is the cluster view's content.
type ClusterOverview struct {
	Name      string
	FetchedAt time.Time
	Metrics   ClusterMetrics
	Queues    []Queue
	// Unmanaged are the Flink applications on YARN that no palink job owns.
	Unmanaged []Application
	// Sessions are the shared Flink session clusters palink runs jobs in,
	// with their TaskManagers and slots (one JobManager request each).
	Sessions []SessionCluster
}

// ClusterNode is one YARN NodeManager, as the RM reports it. A node out
// of service runs nothing and offers nothing: its used and total are what
// it has, not what the cluster may use.
type ClusterNode struct {
	ID    string // host:port, the NodeManager's id
	Host  string
	Rack  string
	State string // YARN's: RUNNING, UNHEALTHY, LOST, DECOMMISSIONED, …
	// HealthReport is why the node is unhealthy, in the NodeManager's words.
	HealthReport     string
	LastHealthUpdate time.Time
	Containers       int
	MemoryUsedMB     int64
	MemoryTotalMB    int64
	VCoresUsed       int64
	VCoresTotal      int64
	Version          string // Hadoop's
}

// InService reports whether the scheduler places containers on the node.
func (n ClusterNode) InService() bool { return n.State == "RUNNING" || n.State == "DECOMMISSIONING" }

// SessionCluster is a Flink session cluster on YARN and its capacity.
type SessionCluster struct {
	AppID, Name  string
	TaskManagers int
	SlotsTotal   int
	SlotsFree    int
	Jobs         int // running Flink jobs
	Error        string
}

// ClusterMetrics are YARN's cluster metrics.
type ClusterMetrics struct {
	AppsRunning, AppsPending, AppsFailed, AppsKilled, AppsCompleted int
	MemoryUsedMB, MemoryTotalMB                                     int64
	VCoresUsed, VCoresTotal                                         int64
	ActiveNodes, UnhealthyNodes                                     int
}

// Queue is one scheduler queue.
type Queue struct {
	Name         string
	Depth        int     // 0 for root's children
	Capacity     float64 // percent of parent
	UsedCapacity float64 // percent of its own capacity
	MaxCapacity  float64
	Apps         int
}

// Application is a YARN application.
type Application struct {
	ID        string
	Name      string
	Type      string
	User      string
	Queue     string
	State     string
	Tags      []string
	StartedAt time.Time
}

// AdoptRequest adopts an unmanaged application.
type AdoptRequest struct {
	Cluster string
	AppID   string
	Name    string // defaults to the application's name
	Issuer  string // filled by the service when empty
}

// AdoptAllRequest selects the unmanaged applications to adopt: the live
// Flink applications of Cluster ("" every configured one) no job owns and
// no palink tagged, of Queue and User when given, and of AppIDs when given.
type AdoptAllRequest struct {
	Cluster string
	Queue   string
	User    string
	// AppIDs, when given, narrows the selection to these applications
	// (the rows marked in the cluster view); one a job owns, or that is
	// not a live unmanaged application of the cluster, is skipped all the
	// same.
	AppIDs []string `json:",omitempty"`
	// NameFrom is where a job's name comes from: "app" (the YARN
	// application's name, the default) or "tag" (its first YARN tag, else
	// its name). A name taken, by a job or an earlier application of the
	// same call, gets -2, -3, … in the order of the applications' ids.
	NameFrom string
	DryRun   bool
	Issuer   string // filled by the service when empty
}

// AdoptedApp is one application AdoptAll adopted (or, in a dry run, would).
type AdoptedApp struct {
	Cluster string
	AppID   string
	Name    string
	JobID   string `json:",omitempty"` // "" in a dry run
}

// AdoptAllResult says what AdoptAll did.
type AdoptAllResult struct {
	Adopted []AdoptedApp
	// Transactions is how many write transactions it took.
	Transactions int
	DryRun       bool
}

// ChangeKind says what a Change carries.
type ChangeKind int

// Change kinds.
const (
	JobChanged ChangeKind = iota + 1
	CommandChanged
	ClusterChanged
	// Resync tells a watcher it missed changes and must reload.
	Resync
)

// Change is one pushed change.
type Change struct {
	Kind    ChangeKind
	Job     *JobView
	Command *model.Command
	Cluster *ClusterStatus
	// Event is the job's new history entry, when the change made one.
	Event *model.Event
}
