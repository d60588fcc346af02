package sim

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// App is a snapshot of one YARN application and its Flink jobs.
type App struct {
	ID          string
	Name        string
	Type        string // applicationType, "Apache Flink" for Flink
	User        string
	Queue       string
	Tags        []string
	State       string // YARN state: NEW … ACCEPTED, RUNNING, FINISHED, FAILED, KILLED
	FinalStatus string // UNDEFINED, SUCCEEDED, FAILED, KILLED
	Diagnostics string
	// Session is true for a Flink session cluster (yarn-session).
	Session bool
	// Attempt is the current application attempt number (1, 2 after a JM failover, …).
	Attempt int
	// JMAddress is the JobManager REST host:port (YARN's amRPCAddress), ""
	// while no JobManager runs.
	JMAddress string
	// TrackingURL is the RM's trackingUrl ("" while UNASSIGNED).
	TrackingURL string
	StartedAt   time.Time
	FinishedAt  time.Time
	Jobs        []Job
}

// Job is a snapshot of one Flink job.
type Job struct {
	ID    string
	Name  string
	State string // Flink JobStatus: INITIALIZING, CREATED, RUNNING, RESTARTING, FINISHED, …
	// Restarts is Flink's numRestarts.
	Restarts int
	// RestoredFrom is the path the job last restored from ("" for none).
	RestoredFrom string
	// CompletedCheckpoints counts completed checkpoints and savepoints.
	CompletedCheckpoints int64
	// LatestCheckpoint is the external path of the newest completed checkpoint.
	LatestCheckpoint string
	// Savepoints are the paths of the job's completed savepoints, oldest first.
	Savepoints []string
	StartedAt  time.Time
	EndedAt    time.Time
}

// Deployment modes of SubmitRequest.Mode, named like Flink's execution.target.
const (
	ModePerJob      = "yarn-per-job"
	ModeApplication = "yarn-application"
	ModeSession     = "yarn-session"
)

// SubmitRequest starts an application the way `flink run -t yarn-per-job`
// (or -t yarn-application, or yarn-session.sh for Mode ModeSession) would.
type SubmitRequest struct {
	// Mode is ModePerJob (default), ModeApplication or ModeSession.
	Mode string `json:"mode,omitempty"`
	// Name is the YARN application name (yarn.application.name). Defaults to
	// JobName, then to Flink's own default for the mode.
	Name string `json:"name,omitempty"`
	// JobName is the Flink job name (pipeline.name). Defaults to Name, then
	// to the entry class. Ignored for sessions.
	JobName string   `json:"jobName,omitempty"`
	Queue   string   `json:"queue,omitempty"` // default "default"
	User    string   `json:"user,omitempty"`  // default Options.User
	Tags    []string `json:"tags,omitempty"`  // yarn.tags
	// SavepointPath makes the job restore from a savepoint or retained
	// checkpoint (execution.savepoint.path).
	SavepointPath         string   `json:"savepointPath,omitempty"`
	AllowNonRestoredState bool     `json:"allowNonRestoredState,omitempty"`
	Parallelism           int      `json:"parallelism,omitempty"`
	Jar                   string   `json:"jar,omitempty"`
	EntryClass            string   `json:"entryClass,omitempty"`
	Args                  []string `json:"args,omitempty"`
	// Config holds any other Flink options; explicit fields above win.
	Config map[string]string `json:"config,omitempty"`
}

// Submitted names what Submit created. JobID is "" for a session cluster.
type Submitted struct {
	AppID string `json:"appId"`
	JobID string `json:"jobId,omitempty"`
}

// Submit creates a new YARN application (and its Flink job unless Mode is
// ModeSession). The application goes NEW → … → ACCEPTED → RUNNING over the
// next simulated seconds; the ids are known at once, as `flink run` prints
// them.
func (c *Cluster) Submit(ctx context.Context, r SubmitRequest) (Submitted, error) {
	if err := ctx.Err(); err != nil {
		return Submitted{}, fmt.Errorf("submit %q: %w", r.Name, err)
	}
	return Submitted{}, fmt.Errorf("submit %q: %w", r.Name, errNotYet)
}

var errNotYet = errors.New("not implemented yet")

// Apps returns a snapshot of every application, oldest first.
func (c *Cluster) Apps() []App { return nil }

// App returns a snapshot of one application.
func (c *Cluster) App(id string) (App, error) {
	return App{}, fmt.Errorf("app %s: %w", id, ErrNotFound)
}

// FailJob makes a Flink job fail for good: Flink restarts it (RESTARTING,
// numRestarts grows) until its restart strategy gives up, then the job is
// FAILED with its exceptions recorded and, in a per-job or application
// cluster, the YARN application ends with final status FAILED. ref is an
// application id (its newest running job) or a Flink job id.
func (c *Cluster) FailJob(ref string) error { return fmt.Errorf("fail job %s: %w", ref, errNotYet) }

// InterruptJob makes a Flink job fail once: it goes RESTARTING and recovers
// from its latest checkpoint. ref is as for FailJob.
func (c *Cluster) InterruptJob(ref string) error {
	return fmt.Errorf("interrupt job %s: %w", ref, errNotYet)
}

// FailoverJM kills the application's JobManager: YARN starts a new
// attempt, whose JobManager listens on a new port (amRPCAddress changes)
// and recovers the jobs from their latest checkpoints.
func (c *Cluster) FailoverJM(appID string) error {
	return fmt.Errorf("fail over JobManager of %s: %w", appID, errNotYet)
}

// KillApp kills an application as `yarn application -kill` does.
func (c *Cluster) KillApp(appID string) error {
	return fmt.Errorf("kill %s: %w", appID, errNotYet)
}

// FailoverRM makes the next ResourceManager the active one and the others
// standbys, and returns its index. With a single RM it is a no-op.
func (c *Cluster) FailoverRM() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.rms) < 2 {
		return c.active
	}
	c.active = (c.active + 1) % len(c.rms)
	if c.active < 0 {
		c.active = 0
	}
	c.opts.Logf("sim: RM failover: rm%d is active", c.active+1)
	return c.active
}

// SetActiveRM makes RM i (0-based) active and the others standbys; -1
// leaves no RM active, as in the middle of a failover.
func (c *Cluster) SetActiveRM(i int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.rms)
	if n == 0 {
		n = c.opts.RMs
	}
	if i < -1 || i >= n {
		return fmt.Errorf("set active RM %d: %w: have %d RMs", i, ErrInvalid, n)
	}
	c.active = i
	return nil
}
