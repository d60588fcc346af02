// Package model holds the domain records that core decides about, store
// persists and tui renders: jobs, spec versions, commands, events, restore
// points and audit entries, with their typed enums.
//
// It owns no behaviour beyond naming and parsing its enums: the state machines
// live in core (core/doc.go has the diagrams). It must import nothing of
// palink's own, so that every other package may import it.
package model

import (
	"fmt"
	"strings"
	"time"
)

// JobKind says how a job's spec is deployed.
type JobKind int

// Job kinds.
const (
	KindSQL    JobKind = iota + 1 // Flink SQL script, deployed through the SQL Gateway
	KindJAR                       // a jar with an entry class, deployed by jars/run or `flink run`
	KindPython                    // a PyFlink program, deployed by `flink run -py`/`-pym`
)

var jobKindNames = map[JobKind]string{KindSQL: "SQL", KindJAR: "JAR", KindPython: "PYTHON"}

func (k JobKind) String() string { return enumString(jobKindNames, k) }

// ParseJobKind is the inverse of String.
func ParseJobKind(s string) (JobKind, error) { return parseEnum(jobKindNames, "job kind", s) }

// JobState is the platform's view of a job (DESIGN.md, "Job states").
type JobState int

// Job states. The legal transitions are core's transition table.
const (
	StateNone JobState = iota // a created job that was never submitted
	StateDeploying
	StateDeploySucceeded
	StateDeployFailed
	StateRunning
	StateFinished
	StateKilled
	StateFailed
)

var jobStateNames = map[JobState]string{
	StateNone:            "CREATED",
	StateDeploying:       "DEPLOYING",
	StateDeploySucceeded: "DEPLOY_SUCCEEDED",
	StateDeployFailed:    "DEPLOY_FAILED",
	StateRunning:         "RUNNING",
	StateFinished:        "FINISHED",
	StateKilled:          "KILLED",
	StateFailed:          "FAILED",
}

func (s JobState) String() string { return enumString(jobStateNames, s) }

// ParseJobState is the inverse of String.
func ParseJobState(s string) (JobState, error) { return parseEnum(jobStateNames, "job state", s) }

// JobStates lists every job state in display order.
func JobStates() []JobState {
	return []JobState{StateNone, StateDeploying, StateDeploySucceeded, StateDeployFailed,
		StateRunning, StateFinished, StateKilled, StateFailed}
}

// Final reports whether the job has no live application: nothing to sync.
func (s JobState) Final() bool {
	switch s {
	case StateNone, StateDeployFailed, StateFinished, StateKilled, StateFailed:
		return true
	}
	return false
}

// Live reports whether an application may be running for the job.
func (s JobState) Live() bool {
	return s == StateDeploying || s == StateDeploySucceeded || s == StateRunning
}

// Job is one Flink job managed by palink.
type Job struct {
	ID          string
	Name        string
	Kind        JobKind
	Cluster     string // name of a cluster in the config
	SpecVersion int    // the version that is (or will be) deployed
	// Parallelism and Config are the Flink settings palink passes at deploy time.
	Parallelism int
	Config      map[string]string

	State JobState
	// Expect is what the platform expects the cluster to report; when sync
	// sees otherwise, Drift says so with both sides instead of hiding it.
	Drift *Drift

	AppID       string // YARN application id
	FlinkJobID  string
	TrackingURL string // the RM's (proxied) tracking URL, as of the last sync
	JMAddress   string // JobManager REST host:port (the app's amRPCAddress)
	// Session is set when the job runs in a shared session cluster: kill then
	// means a Flink cancel of this job, never a YARN kill of the shared app.
	Session bool
	// FlinkState is Flink's own job status as last seen (RUNNING, RESTARTING, …).
	FlinkState string
	// Diagnostics is the last failure reason seen (YARN diagnostics or Flink's root exception).
	Diagnostics string

	LatestCheckpoint *RestorePoint
	LatestSavepoint  *RestorePoint
	// RestoredFrom is the path the running Flink job restored from, if any.
	RestoredFrom string
	// Retention is the checkpoint retention the current (or last) Flink job
	// runs with, as its JobManager reported it; unknown until sync asked.
	Retention CheckpointRetention `json:",omitempty"`

	PlatformRestarts int       // restarts done by the platform policy
	RestartWindow    time.Time // start of the policy's current counting window
	NextRestart      time.Time // when the policy may restart a FAILED job next (zero: not scheduled)
	FlinkRestarts    int       // Flink's own restarts of the current Flink job
	// CrashLoop is set while the job's recent runs restored from one
	// point and failed the same way (core/decide.CrashLoop).
	CrashLoop *CrashLoop `json:",omitempty"`
	// Charts are the Flink metrics people added to the job's Metrics tab,
	// in the order added (at most MaxMetricCharts).
	Charts []MetricChart `json:",omitempty"`

	StartedAt time.Time // when the current application started running
	CreatedAt time.Time
	UpdatedAt time.Time
	SyncedAt  time.Time // last successful sync of this job
}

// Drift records a disagreement between the platform and the cluster.
type Drift struct {
	Expected string // e.g. "RUNNING"
	Observed string // e.g. "YARN application_… not found"
	Since    time.Time
}

// Spec is one saved version of a job's code. Every edit is a new version.
type Spec struct {
	JobID   string
	Version int
	SQL     string // for SQL jobs
	JarPath string // for JAR jobs: local path of the jar to upload
	// Project and ArtifactVersion pin a JAR job's jar to a project's build
	// (JarPath is then that artifact's file); ArtifactCommit is its commit.
	Project         string
	ArtifactVersion int
	ArtifactCommit  string
	EntryClass      string // for JAR jobs
	// EntryClassFrom names the jar manifest's attribute EntryClass was
	// read from when none was given ("program-class" or "Main-Class", as
	// Flink reads them); empty when it was given.
	EntryClassFrom string
	Args           []string // program arguments for JAR and PYTHON jobs
	// Python is the text of a PyFlink job's entry script, versioned like
	// SQL: a deploy writes this text, not whatever the file holds now.
	Python string
	PyFile string // the entry script's file name (-py), as it was given
	// PyModule is the entry module (-pym) when the job starts from a module
	// of its PyFiles instead of a script.
	PyModule       string
	PyFiles        []string // extra python files, directories or archives (-pyfs)
	PyRequirements string   // requirements file (-pyreq), optionally "FILE#CACHE_DIR"
	PyArchives     []string // archives unpacked in the workers' working directory (-pyarch)
	PyExecutable   string   // the cluster's python interpreter or env (-pyexec)
	// PyClientExecutable is the python that compiles the job where the
	// client runs (-pyclientexec): the ops host in per-job mode, the
	// JobManager in application mode. It needs apache-flink installed.
	PyClientExecutable string
	Note               string
	Author             string
	CreatedAt          time.Time
}

// RestorePointKind tells a savepoint from a checkpoint.
type RestorePointKind int

// Restore point kinds.
const (
	Checkpoint RestorePointKind = iota + 1
	Savepoint
)

var restorePointKindNames = map[RestorePointKind]string{Checkpoint: "checkpoint", Savepoint: "savepoint"}

func (k RestorePointKind) String() string { return enumString(restorePointKindNames, k) }

// ParseRestorePointKind is the inverse of String.
func ParseRestorePointKind(s string) (RestorePointKind, error) {
	return parseEnum(restorePointKindNames, "restore point kind", s)
}

// RestorePoint is a savepoint or checkpoint seen for a job.
type RestorePoint struct {
	JobID string
	Kind  RestorePointKind
	Path  string    // external path, e.g. hdfs:///flink/sp/…/savepoint-7f3a21
	Time  time.Time // when the cluster completed it (the cluster's clock)
	// SeenAt is when palink first recorded it (palink's clock): restore
	// points are ordered by it, never by comparing two clocks.
	SeenAt     time.Time
	FlinkJobID string
	CheckID    int64  // Flink's checkpoint id, when known
	Origin     string // "sync", or the command that made it ("PAUSE #40")
	// Size is the bytes of its state as the JobManager reported them (the
	// full state, also of an incremental checkpoint); 0 when unknown.
	Size int64 `json:",omitempty"`
	// Status is what became of it: completed until palink disposes of it
	// (Flink's savepoint-disposal), then disposed, or failed with Error.
	Status     SavepointStatus
	DisposedAt time.Time // when the disposal ended (palink's clock)
	Error      string    // why the disposal failed, or why the cluster could not find it
	// RunEnd and Retention are how the Flink job that took a checkpoint
	// ended and the retention it ran with, recorded on the newest
	// checkpoint palink knew of that job when it saw the job end: whether
	// Flink kept the checkpoint follows from them (core/decide).
	RunEnd    RunEnd              `json:",omitempty"`
	Retention CheckpointRetention `json:",omitempty"`
}

// CheckpointRetention is Flink's externalized checkpoint retention
// (execution.checkpointing.externalized-checkpoint-retention, one key in
// Flink 1.x and 2.x): what Flink does with a job's retained checkpoints
// when the job ends. The zero value is not known.
type CheckpointRetention int

// Checkpoint retentions, named as Flink's configuration names them.
const (
	RetentionUnknown CheckpointRetention = iota
	// RetainNever is NO_EXTERNALIZED_CHECKPOINTS, Flink's default
	// (NEVER_RETAIN_AFTER_TERMINATION inside Flink).
	RetainNever
	// RetainOnFailure is DELETE_ON_CANCELLATION (RETAIN_ON_FAILURE inside Flink).
	RetainOnFailure
	// RetainOnCancellation is RETAIN_ON_CANCELLATION.
	RetainOnCancellation
)

var retentionNames = map[CheckpointRetention]string{RetentionUnknown: "unknown", RetainNever: "NO_EXTERNALIZED_CHECKPOINTS",
	RetainOnFailure: "DELETE_ON_CANCELLATION", RetainOnCancellation: "RETAIN_ON_CANCELLATION"}

func (r CheckpointRetention) String() string { return enumString(retentionNames, r) }

// ParseCheckpointRetention is the inverse of String; like Flink it takes
// any case.
func ParseCheckpointRetention(s string) (CheckpointRetention, error) {
	return parseEnum(retentionNames, "checkpoint retention", strings.TrimSpace(s))
}

// RunEnd is how a Flink job ended, as far as palink saw: what decides,
// with its retention, whether Flink kept its checkpoints. The zero value
// is not known (it runs, or palink did not see it end).
type RunEnd int

// Run ends.
const (
	EndUnknown   RunEnd = iota
	EndFinished         // FINISHED: stopped with a savepoint (a pause), or its input ended
	EndCanceled         // CANCELED: a Flink cancel
	EndFailed           // FAILED: Flink's restart strategy gave up
	EndSuspended        // SUSPENDED: its JobManager shut down without ending it
	// EndKilled is a YARN kill of the application, or an AM that died:
	// Flink ran no cleanup, so its files stay.
	EndKilled
)

var runEndNames = map[RunEnd]string{EndUnknown: "unknown", EndFinished: "FINISHED", EndCanceled: "CANCELED",
	EndFailed: "FAILED", EndSuspended: "SUSPENDED", EndKilled: "KILLED_BY_YARN"}

func (e RunEnd) String() string { return enumString(runEndNames, e) }

// ParseRunEnd is the inverse of String.
func ParseRunEnd(s string) (RunEnd, error) { return parseEnum(runEndNames, "run end", s) }

// SavepointStatus is the life of a restore point palink recorded. The zero
// value is completed: every record written before disposals existed is one.
type SavepointStatus int

// Savepoint statuses.
const (
	SavepointCompleted SavepointStatus = iota
	SavepointDisposing                 // a disposal was triggered and not yet seen to end
	SavepointDisposed
	SavepointFailed // the disposal failed; Error says why, the files may remain
	// SavepointMissing: a job that restored from it failed because the
	// cluster could not find it (Error has the cluster's words). It is
	// never offered again.
	SavepointMissing
)

var savepointStatusNames = map[SavepointStatus]string{SavepointCompleted: "completed",
	SavepointDisposing: "disposing", SavepointDisposed: "disposed", SavepointFailed: "failed", SavepointMissing: "missing"}

func (s SavepointStatus) String() string { return enumString(savepointStatusNames, s) }

// ParseSavepointStatus is the inverse of String.
func ParseSavepointStatus(s string) (SavepointStatus, error) {
	return parseEnum(savepointStatusNames, "savepoint status", s)
}

// SavepointStatuses lists every status in display order.
func SavepointStatuses() []SavepointStatus {
	return []SavepointStatus{SavepointCompleted, SavepointDisposing, SavepointDisposed, SavepointFailed, SavepointMissing}
}

// Usable reports whether a job may restore from it.
func (rp RestorePoint) Usable() bool {
	return rp.Status == SavepointCompleted || rp.Status == SavepointFailed
}

// ClaimMode is who owns the files of the restore point a job starts from
// (Flink's RecoveryClaimMode; execution.state-recovery.claim-mode, before
// 1.20 execution.savepoint-restore-mode). LEGACY is gone in Flink 2.0.
type ClaimMode int

// Claim modes; the zero value leaves it to the cluster (NO_CLAIM by default).
const (
	ClaimDefault ClaimMode = iota
	ClaimClaim
	ClaimNoClaim
	ClaimLegacy
)

var claimModeNames = map[ClaimMode]string{ClaimDefault: "DEFAULT", ClaimClaim: "CLAIM", ClaimNoClaim: "NO_CLAIM", ClaimLegacy: "LEGACY"}

func (m ClaimMode) String() string { return enumString(claimModeNames, m) }

// ParseClaimMode is the inverse of String; it takes any case and "" for DEFAULT.
func ParseClaimMode(s string) (ClaimMode, error) {
	if s == "" {
		return ClaimDefault, nil
	}
	return parseEnum(claimModeNames, "claim mode", strings.ToUpper(strings.ReplaceAll(s, "-", "_")))
}

// CommandKind is what a command does.
type CommandKind int

// Command kinds.
const (
	CmdSubmit CommandKind = iota + 1
	CmdRestart
	CmdResubmit
	CmdPause
	CmdKill
	CmdSavepoint
)

var commandKindNames = map[CommandKind]string{
	CmdSubmit: "SUBMIT", CmdRestart: "RESTART", CmdResubmit: "RESUBMIT",
	CmdPause: "PAUSE", CmdKill: "KILL", CmdSavepoint: "SAVEPOINT",
}

func (k CommandKind) String() string { return enumString(commandKindNames, k) }

// CommandKinds lists every command kind, in order.
func CommandKinds() []CommandKind {
	return []CommandKind{CmdSubmit, CmdRestart, CmdResubmit, CmdPause, CmdKill, CmdSavepoint}
}

// ParseCommandKind is the inverse of String.
func ParseCommandKind(s string) (CommandKind, error) {
	return parseEnum(commandKindNames, "command kind", s)
}

// Deploys reports whether the command starts a new application.
func (k CommandKind) Deploys() bool {
	return k == CmdSubmit || k == CmdRestart || k == CmdResubmit
}

// CommandState is a command's lifecycle: UNDO → DOING → SUCCEEDED | FAILED,
// or DOING → UNKNOWN → SUCCEEDED | FAILED when its effect could not be
// told after its tries and is reconciled from the cluster.
type CommandState int

// Command states.
const (
	CmdUndo CommandState = iota + 1
	CmdDoing
	CmdSucceeded
	CmdFailed
	// CmdUnknown: the command's request may have taken effect, but after
	// its tries the cluster's answers did not say; palink reconciles it
	// from YARN and Flink into SUCCEEDED or FAILED.
	CmdUnknown
)

var commandStateNames = map[CommandState]string{
	CmdUndo: "UNDO", CmdDoing: "DOING", CmdSucceeded: "SUCCEEDED", CmdFailed: "FAILED", CmdUnknown: "UNKNOWN",
}

func (s CommandState) String() string { return enumString(commandStateNames, s) }

// ParseCommandState is the inverse of String.
func ParseCommandState(s string) (CommandState, error) {
	return parseEnum(commandStateNames, "command state", s)
}

// Final reports whether the command has ended.
func (s CommandState) Final() bool { return s == CmdSucceeded || s == CmdFailed }

// CommandStates lists every command state in lifecycle order.
func CommandStates() []CommandState {
	return []CommandState{CmdUndo, CmdDoing, CmdUnknown, CmdSucceeded, CmdFailed}
}

// RestoreChoice says where a (re)started job restores from.
type RestoreChoice int

// Restore choices.
const (
	RestoreLatest     RestoreChoice = iota + 1 // newest of latest savepoint and latest checkpoint
	RestoreSavepoint                           // latest savepoint
	RestoreCheckpoint                          // latest checkpoint
	RestoreNone                                // empty state
	RestorePath                                // an explicit path (from history or typed)
)

var restoreChoiceNames = map[RestoreChoice]string{
	RestoreLatest: "latest", RestoreSavepoint: "savepoint", RestoreCheckpoint: "checkpoint",
	RestoreNone: "none", RestorePath: "path",
}

func (r RestoreChoice) String() string { return enumString(restoreChoiceNames, r) }

// ParseRestoreChoice is the inverse of String.
func ParseRestoreChoice(s string) (RestoreChoice, error) {
	return parseEnum(restoreChoiceNames, "restore choice", s)
}

// CommandParams are a command's inputs, and the progress it must not lose.
type CommandParams struct {
	Restore     RestoreChoice
	RestorePath string // the path for RestorePath; after resolution, the path actually used
	SpecVersion int    // the spec version a deploy uses (0: the job's current one)
	// TriggerID is the Flink trigger id of a stop-with-savepoint or savepoint,
	// persisted before polling so that a restart of palink resumes the poll.
	TriggerID string
	// AppID and FlinkJobID are the ids a deploy created or adopted, or the ids
	// an action targets, persisted as soon as they are known.
	AppID      string
	FlinkJobID string
	// Auto marks commands issued by the platform: its restart policy, or
	// periodic savepoints.
	Auto bool
	// ClaimMode and AllowNonRestoredState are how a deploy restores.
	ClaimMode             ClaimMode
	AllowNonRestoredState bool
	// Supersedes is the id of the pending command a KILL ended; while that
	// command's worker was alive (its lease ran until SupersededLease), the
	// kill looks again for what it may still have started.
	Supersedes      string
	SupersededLease time.Time
	// Catalog are the catalog tables (and their versions) a SQL deploy
	// injected, recorded when it ran.
	Catalog []CatalogRef `json:",omitempty"`
	// UDFs are the registered functions a SQL deploy injected, with the
	// artifact each came from, recorded when it ran.
	UDFs []UDFRef `json:",omitempty"`
	// Artifact is what a JAR job's deploy changes in its jar, with the
	// commits between the artifacts, when it changes.
	Artifact *ArtifactChange `json:",omitempty"`
}

// LogLine is one line of a command's log.
type LogLine struct {
	Time time.Time
	Text string
}

// Command is one requested action on a job. Commands are history: kept, never overwritten.
type Command struct {
	ID         string // sortable, e.g. "c000042"
	Seq        int64  // store-assigned sequence number, the number users see (#42)
	JobID      string
	Kind       CommandKind
	Params     CommandParams
	State      CommandState
	Attempts   int
	LeaseOwner string
	LeaseUntil time.Time
	Log        []LogLine
	Error      string // the failure, for FAILED commands
	// SupersededBy is the KILL that ended this command before it finished.
	SupersededBy string
	Issuer       string // OS user, or "policy" for the restart policy
	CreatedAt    time.Time
	StartedAt    time.Time
	EndedAt      time.Time
}

// Logf appends a line to the command's log.
func (c *Command) Logf(now time.Time, format string, args ...any) {
	c.Log = append(c.Log, LogLine{Time: now, Text: fmt.Sprintf(format, args...)})
}

// Event is one entry of a job's append-only history.
type Event struct {
	JobID     string
	Seq       int64 // per-job sequence, assigned by the store
	Time      time.Time
	From, To  JobState
	Reason    string // "sync: YARN RUNNING, Flink RUNNING", "PAUSE #40 by ops: savepoint …"
	CommandID string
}

// AuditEntry records who did what, when, and how it ended.
type AuditEntry struct {
	Seq  int64
	Time time.Time
	User string
	// Host is the host of the palink that wrote the entry: on a store
	// that palinks on several hosts share, where the action was taken.
	// Empty in entries written before palink recorded it.
	Host      string
	Action    string // "create", "submit", "kill", "edit", "adopt", …
	JobID     string
	CommandID string
	Outcome   string // "accepted", "refused: …", "succeeded", "failed: …"
}

func enumString[E ~int](names map[E]string, v E) string {
	if s, ok := names[v]; ok {
		return s
	}
	return fmt.Sprintf("%T(%d)", v, int(v))
}

func parseEnum[E comparable](names map[E]string, what, s string) (E, error) {
	for v, name := range names {
		if strings.EqualFold(name, s) {
			return v, nil
		}
	}
	var zero E
	return zero, fmt.Errorf("unknown %s %q", what, s)
}
