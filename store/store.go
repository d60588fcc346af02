package store

import (
	"context"
	"errors"
	"io"

	"github.com/palink/palink/model"
)

// Errors every backend returns, wrapped with %w and the entity they concern.
var (
	ErrNotFound = model.ErrNotFound
	ErrExists   = model.ErrExists
	ErrReadOnly = errors.New("store is open read-only")
	// ErrLocked: another process holds the store file. Its message names the
	// file and the holder and says how to proceed: wait for it or stop it,
	// share the store through `palink agent`, or, when the holder is itself
	// read-only, open it --read-only too.
	ErrLocked = errors.New("store is in use by another process")
	// ErrInvalid: a record cannot be stored as given (a missing id, an enum
	// out of range, a field that must not change). It reports a bug in the
	// caller, not a condition to retry.
	ErrInvalid = errors.New("invalid record")
	// ErrCorrupt: the store file is damaged: empty, truncated, pages
	// overwritten, or records and indexes that disagree. Its message names
	// the file, what is wrong, and the command that restores a backup
	// (RestoreAdvice). Once a Bolt store has met damage it refuses every
	// Update, so that nothing is written on top of it.
	ErrCorrupt = model.ErrCorrupt
	// ErrSchema: the store's schema is not one this palink can use (newer
	// than it knows, or older and the store is open read-only).
	ErrSchema = errors.New("unsupported store schema")
	// ErrUnavailable: the store's servers did not answer (etcd: no member
	// within the request timeout). An error that is ErrUnavailable is
	// model.ErrUnavailable too, a moment's trouble: what failed on it may
	// be tried again. (It is a value of its own, so that a caller tells
	// the store's trouble from a cluster's.)
	ErrUnavailable = errors.New("store unavailable")
)

// Store is palink's persistence. Every method of Tx inside one Update is one
// atomic transaction: a job's state change and its event commit together or
// not at all. Backends: Bolt (a bbolt file, one writer at a time) and Etcd
// (an etcd cluster shared by palinks on several hosts).
//
// fn may run more than once: Etcd runs it again, on a new snapshot, when
// another writer committed first (and Bolt may, one day, too). So fn acts
// only through its transaction and what it assigns, and assigns afresh
// on each run what its caller reads afterwards: a list it appends to, or
// a result set only on some paths, starts empty in every run.
type Store interface {
	// View runs fn in a read-only transaction.
	View(ctx context.Context, fn func(ReadTx) error) error
	// Update runs fn in a read-write transaction; fn's error rolls it back.
	Update(ctx context.Context, fn func(Tx) error) error
	// Backup writes a consistent copy of the whole store to w while it stays in use.
	Backup(ctx context.Context, w io.Writer) (int64, error)
	// Path names the store for messages (the file, or the endpoint).
	Path() string
	// ID is the store's identity: 12 lowercase hex characters, minted once
	// when the store is made and kept by backups and restores. Two stores
	// never share one, so YARN tags that carry it tell their applications
	// apart. It is never empty for an open store.
	ID() string
	// Close releases the store; transactions still running finish first.
	Close() error
}

// CommandFilter selects commands. Zero fields select everything.
type CommandFilter struct {
	JobID  string
	States []model.CommandState
	Kinds  []model.CommandKind
	Limit  int // the newest Limit commands; 0 means all
}

// The record families. Each family is a reader and a writer that embeds
// it; ReadTx and Tx compose every family, and a part of core that touches
// only some names just those (journal.RecordFlinkPoint takes a job and its
// restore points), so that what each part may change is read in its
// signature and a backend implements the same families (soft-serve's
// pkg/store composes its stores the same way).

// JobsReader reads jobs with their spec versions, history and Flink
// exceptions. Lists under one job (Specs, Events) fail with ErrNotFound
// when the job does not exist.
type JobsReader interface {
	Job(id string) (model.Job, error) // ErrNotFound
	JobByName(name string) (model.Job, error)
	Jobs() ([]model.Job, error) // ordered by id
	// JobsFrom is Jobs a page at a time: the first n jobs whose id is ≥
	// from, and the id of the job after them ("" after the last).
	JobsFrom(from string, n int) (jobs []model.Job, next string, err error)
	Spec(jobID string, version int) (model.Spec, error)
	Specs(jobID string) ([]model.Spec, error) // oldest first
	// Events returns the job's events with Seq > afterSeq, oldest first, at most limit (0: all).
	Events(jobID string, afterSeq int64, limit int) ([]model.Event, error)
	// Exceptions returns the job's kept Flink exceptions, newest first.
	Exceptions(jobID string) ([]model.JobException, error)
}

// JobsTx writes jobs, their specs, history and exceptions.
type JobsTx interface {
	JobsReader
	// CreateJob adds a job; ErrExists if its id or name is taken.
	CreateJob(j model.Job) error
	// PutJob replaces an existing job; ErrNotFound if it does not exist,
	// ErrExists if a rename collides with another job's name.
	PutJob(j model.Job) error
	// AddSpec stores the next version of the job's spec and returns it with
	// Version assigned (1 for the first); ErrNotFound if the job does not
	// exist. It does not change the job's SpecVersion: that is core's call.
	AddSpec(s model.Spec) (model.Spec, error)
	// AppendEvent appends to the job's history with the next per-job Seq
	// (1 for the first); ErrNotFound if the job does not exist.
	AppendEvent(e model.Event) (model.Event, error)
	// AddExceptions keeps a job's Flink exceptions that it does not keep
	// yet (one per time and name), each cut to model.MaxStoredTrace, and
	// then only the newest model.MaxStoredExceptions. It returns how many
	// were new; ErrNotFound if the job does not exist, ErrInvalid for an
	// exception without a time.
	AddExceptions(jobID string, es []model.JobException) (int, error)
}

// CommandsReader reads commands; a filter that matches nothing returns an
// empty list.
type CommandsReader interface {
	// Command returns the command with the given id, exactly as stored.
	Command(id string) (model.Command, error)
	// CommandBySeq returns the command with the given Seq, which is how
	// users name commands ("42", "#42", "c000000042": ParseCommandID),
	// whatever the form of its id.
	CommandBySeq(seq int64) (model.Command, error)
	Commands(f CommandFilter) ([]model.Command, error) // oldest first
	// CommandsFrom is Commands a page at a time: the commands matching f
	// whose id is ≥ from, oldest first, at most n, and the id of the next
	// one ("" after the last). With f.Limit, a from of "" starts at the
	// oldest of the newest f.Limit.
	CommandsFrom(f CommandFilter, from string, n int) (cs []model.Command, next string, err error)
}

// CommandsTx writes commands.
type CommandsTx interface {
	CommandsReader
	// PutCommand stores a command. A command with an empty ID is new: it gets
	// the next Seq and an ID made of it and a random part (CommandID(Seq),
	// "-", 12 lowercase hex characters), unique across stores; its job must
	// exist. Otherwise it replaces the stored one (ErrNotFound if there is
	// none); its Seq, JobID and Kind cannot change (ErrInvalid).
	PutCommand(c model.Command) (model.Command, error)
}

// RestorePointsReader reads a job's restore points.
type RestorePointsReader interface {
	RestorePoints(jobID string) ([]model.RestorePoint, error) // oldest first; ErrNotFound without the job
}

// RestorePointsTx records restore points.
type RestorePointsTx interface {
	RestorePointsReader
	// AddRestorePoint records a restore point; a path already recorded for
	// the job is not added twice (returns false). ErrNotFound if the job
	// does not exist.
	AddRestorePoint(rp model.RestorePoint) (bool, error)
	// PutRestorePoint replaces the record of (rp.JobID, rp.Path), in its
	// place in the job's order: how a disposal records its status.
	// ErrNotFound if no restore point of that path is recorded for the job.
	PutRestorePoint(rp model.RestorePoint) error
	// PruneCheckpoints forgets the job's checkpoints older than its newest
	// keep (in the order recorded), but those at the pinned paths; its
	// savepoints stay. It returns how many it forgot; ErrNotFound if the
	// job does not exist. keep below 1 counts as 1.
	PruneCheckpoints(jobID string, keep int, pinned ...string) (int, error)
}

// AuditReader reads the audit log.
type AuditReader interface {
	// Audit returns entries with Seq > afterSeq, oldest first, at most limit (0: all).
	Audit(afterSeq int64, limit int) ([]model.AuditEntry, error)
}

// AuditTx appends to the audit log.
type AuditTx interface {
	AuditReader
	// AppendAudit appends to the audit log with the next Seq. Its JobID need
	// not exist: refusals of unknown jobs are audited too.
	AppendAudit(a model.AuditEntry) (model.AuditEntry, error)
}

// AlertsReader reads the alerts.
type AlertsReader interface {
	// Alerts returns every alert, ordered by rule and job id.
	Alerts() ([]model.Alert, error)
}

// AlertsTx writes alerts.
type AlertsTx interface {
	AlertsReader
	// PutAlert stores the alert of (a.Rule, a.JobID), replacing the one
	// before; ErrInvalid without a rule or a job id. The job need not
	// exist: an alert outlives its job's record.
	PutAlert(a model.Alert) error
	// DeleteAlert removes the alert of (rule, jobID); a missing one is no error.
	DeleteAlert(rule, jobID string) error
}

// ProjectsReader reads projects and their builds.
type ProjectsReader interface {
	// Project returns a project by name (ErrNotFound); Projects all of
	// them, by name; Artifacts a project's builds, oldest first.
	Project(name string) (model.Project, error)
	Projects() ([]model.Project, error)
	Artifacts(project string) ([]model.Artifact, error)
}

// ProjectsTx writes projects and their builds.
type ProjectsTx interface {
	ProjectsReader
	// PutProject creates or replaces a project (ErrInvalid without a name,
	// repository, build command or artifact pattern).
	PutProject(p model.Project) error
	// AddArtifact records a project's next build and returns it with its
	// Version (1 for the first); ErrNotFound if the project does not exist.
	AddArtifact(a model.Artifact) (model.Artifact, error)
}

// CatalogReader reads the shared definitions every job of a cluster
// gets: catalog tables and variables.
type CatalogReader interface {
	// CatalogTables returns the newest version of each catalog table of
	// the cluster, ordered by name (none: an empty list).
	CatalogTables(cluster string) ([]model.CatalogTable, error)
	// CatalogTable returns one version of a catalog table, 0 the newest;
	// ErrNotFound if there is no such table or version.
	CatalogTable(cluster, name string, version int) (model.CatalogTable, error)
	// CatalogVersions returns every version of a catalog table, oldest
	// first; ErrNotFound if there is no such table.
	CatalogVersions(cluster, name string) ([]model.CatalogTable, error)
	// Vars returns every variable: those of every cluster first, then by
	// cluster and name. A secret holds only where its value comes from.
	Vars() ([]model.Variable, error)
}

// CatalogTx writes catalog tables and variables.
type CatalogTx interface {
	CatalogReader
	// PutCatalogTable stores the next version of a catalog table and
	// returns it with Version assigned (1 for the first); ErrInvalid
	// without a cluster or SQL, or with a name that is no identifier.
	PutCatalogTable(t model.CatalogTable) (model.CatalogTable, error)
	// DeleteCatalogTable removes a catalog table with every version;
	// ErrNotFound if there is none.
	DeleteCatalogTable(cluster, name string) error
	// PutVar stores a variable, replacing the one of its cluster and name;
	// ErrInvalid for a name that is no identifier or a secret that
	// carries a value (the store never keeps one).
	PutVar(v model.Variable) error
	// DeleteVar removes the variable of (cluster, name), "" the one of
	// every cluster; ErrNotFound if there is none.
	DeleteVar(cluster, name string) error
}

// UDFsReader reads the UDF registry.
type UDFsReader interface {
	// UDF returns a registered function by name (ErrNotFound); UDFs all
	// of them, by name (none: an empty list).
	UDF(name string) (model.UDF, error)
	UDFs() ([]model.UDF, error)
}

// UDFsTx writes the UDF registry.
type UDFsTx interface {
	UDFsReader
	// PutUDF creates or replaces a registered function; ErrInvalid for a
	// name that is no identifier, no class, an unknown language, or not
	// exactly one place it lives in.
	PutUDF(u model.UDF) error
	// DeleteUDF removes a registered function; ErrNotFound if there is none.
	DeleteUDF(name string) error
}

// TeamsReader reads the tenants.
type TeamsReader interface {
	// Team returns a team by name (ErrNotFound); Teams all of them, by
	// name (none: an empty list).
	Team(name string) (model.Team, error)
	Teams() ([]model.Team, error)
}

// TeamsTx writes the tenants.
type TeamsTx interface {
	TeamsReader
	// PutTeam creates or replaces a team; ErrInvalid for a name that is
	// no team name, a holding without a cluster, a member without a user
	// name or a role, or a user listed twice.
	PutTeam(t model.Team) error
}

// ReadTx reads every family within one transaction. Returned values are
// copies, safe to keep after the transaction ends.
type ReadTx interface {
	JobsReader
	CommandsReader
	RestorePointsReader
	AuditReader
	AlertsReader
	ProjectsReader
	CatalogReader
	UDFsReader
	TeamsReader
}

// Tx reads and writes every family within one transaction.
type Tx interface {
	ReadTx
	JobsTx
	CommandsTx
	RestorePointsTx
	AuditTx
	AlertsTx
	ProjectsTx
	CatalogTx
	UDFsTx
	TeamsTx
}
