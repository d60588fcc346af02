package decide

import (
	"fmt"
	"strings"

	"github.com/palink/palink/model"
)

// JobEvent is something that happens to a job: a command's progress or an
// observation of state sync.
type JobEvent int

// Job events. The transition table below says which are legal where.
const (
	EvDeploy       JobEvent = iota + 1 // a SUBMIT/RESTART/RESUBMIT command was accepted
	EvDeployOK                         // that command succeeded: an application runs the job
	EvDeployFailed                     // that command failed
	EvSyncRunning                      // sync: YARN RUNNING, Flink RUNNING
	EvSyncFinished                     // sync: the job finished
	EvSyncKilled                       // sync: the application was killed or the job canceled
	EvSyncFailed                       // sync: the job or its application failed
	EvPaused                           // a PAUSE command stopped the job with a savepoint
	EvKilled                           // a KILL command killed the application / canceled the job
	EvAdopt                            // a person made a running application this job's (palink adopt)
)

var jobEventNames = map[JobEvent]string{
	EvDeploy: "deploy", EvDeployOK: "deploy-ok", EvDeployFailed: "deploy-failed",
	EvSyncRunning: "sync-running", EvSyncFinished: "sync-finished", EvSyncKilled: "sync-killed",
	EvSyncFailed: "sync-failed", EvPaused: "paused", EvKilled: "killed", EvAdopt: "adopt",
}

func (e JobEvent) String() string {
	if s, ok := jobEventNames[e]; ok {
		return s
	}
	return fmt.Sprintf("JobEvent(%d)", int(e))
}

// JobEvents lists every job event, for exhaustive tests.
func JobEvents() []JobEvent {
	return []JobEvent{EvDeploy, EvDeployOK, EvDeployFailed, EvSyncRunning, EvSyncFinished,
		EvSyncKilled, EvSyncFailed, EvPaused, EvKilled, EvAdopt}
}

type jobEdge struct {
	from model.JobState
	ev   JobEvent
}

// jobTransitions is DESIGN.md's table of job states, and nothing else. An
// observation that repeats the current state (sync says RUNNING of a RUNNING
// job) is not an edge: Step reports it as unchanged.
var jobTransitions = map[jobEdge]model.JobState{
	{model.StateNone, EvDeploy}:         model.StateDeploying,
	{model.StateNone, EvAdopt}:          model.StateDeploySucceeded,
	{model.StateDeployFailed, EvDeploy}: model.StateDeploying,
	{model.StateFinished, EvDeploy}:     model.StateDeploying,
	{model.StateKilled, EvDeploy}:       model.StateDeploying,
	{model.StateFailed, EvDeploy}:       model.StateDeploying,
	// A person adopts an application for a job that runs nothing: one
	// that a palink from before store ids submitted for it and that this
	// store could not prove its own (clusters.ClaimOf).
	{model.StateDeployFailed, EvAdopt}: model.StateDeploySucceeded,
	{model.StateFinished, EvAdopt}:     model.StateDeploySucceeded,
	{model.StateKilled, EvAdopt}:       model.StateDeploySucceeded,
	{model.StateFailed, EvAdopt}:       model.StateDeploySucceeded,

	{model.StateDeploying, EvDeployOK}:     model.StateDeploySucceeded,
	{model.StateDeploying, EvDeployFailed}: model.StateDeployFailed,
	// A KILL supersedes a deploy that is stuck or unwanted: it kills
	// whatever the deploy may have started.
	{model.StateDeploying, EvKilled}: model.StateKilled,

	{model.StateDeploySucceeded, EvSyncRunning}:  model.StateRunning,
	{model.StateDeploySucceeded, EvSyncFinished}: model.StateFinished,
	{model.StateDeploySucceeded, EvSyncKilled}:   model.StateKilled,
	{model.StateDeploySucceeded, EvSyncFailed}:   model.StateFailed,
	{model.StateDeploySucceeded, EvKilled}:       model.StateKilled,

	{model.StateRunning, EvSyncFinished}: model.StateFinished,
	{model.StateRunning, EvSyncKilled}:   model.StateKilled,
	{model.StateRunning, EvSyncFailed}:   model.StateFailed,
	{model.StateRunning, EvPaused}:       model.StateFinished,
	{model.StateRunning, EvKilled}:       model.StateKilled,
}

// jobSame lists observations that confirm the current state: legal, no change.
var jobSame = map[jobEdge]bool{
	{model.StateRunning, EvSyncRunning}:   true,
	{model.StateFinished, EvSyncFinished}: true,
	{model.StateFinished, EvPaused}:       true, // a resumed PAUSE whose job sync already saw finish
	{model.StateKilled, EvSyncKilled}:     true,
	{model.StateKilled, EvKilled}:         true,
	{model.StateFailed, EvSyncFailed}:     true,
}

// IllegalTransitionError is returned for an event that the table does not allow.
type IllegalTransitionError struct {
	State model.JobState
	Event JobEvent
}

func (e *IllegalTransitionError) Error() string {
	return fmt.Sprintf("illegal job transition: %s on %s", e.Event, e.State)
}

// StepJob applies ev to a job in state s. It returns the next state and
// whether it differs from s; an event the table does not allow is an error,
// never a silent overwrite.
func StepJob(s model.JobState, ev JobEvent) (model.JobState, bool, error) {
	if to, ok := jobTransitions[jobEdge{s, ev}]; ok {
		return to, true, nil
	}
	if jobSame[jobEdge{s, ev}] {
		return s, false, nil
	}
	return s, false, &IllegalTransitionError{State: s, Event: ev}
}

// ActionRefusedError says why an action cannot be taken now, for people.
type ActionRefusedError struct {
	Job    string
	Action model.CommandKind
	Reason string
}

// Is makes a refusal a model.ErrRefused, wherever it travels.
func (e *ActionRefusedError) Is(target error) bool { return target == model.ErrRefused }

func (e *ActionRefusedError) Error() string {
	return fmt.Sprintf("%s %s: %s", strings.ToLower(e.Action.String()), e.Job, e.Reason)
}

// CanAct decides whether a user may issue action k on job j now. pending is
// the job's unfinished command, if any: one at a time, so nothing is done
// twice. The one exception is KILL: an emergency is never blocked by a
// command that is stuck (or whose palink died), so a kill supersedes any
// pending command but another kill (Supersedes says so).
func CanAct(j model.Job, k model.CommandKind, pending *model.Command) error {
	refuse := func(format string, args ...any) error {
		return &ActionRefusedError{Job: j.Name, Action: k, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case pending == nil, Supersedes(k, pending):
	case pending.State == model.CmdUnknown && k == model.CmdKill && pending.Kind != model.CmdKill:
		// An emergency is not blocked while palink reconciles what a
		// command did; nor does the kill write that command off.
	case pending.State == model.CmdUnknown:
		return refuse("%s #%d is UNKNOWN: palink is finding out from the cluster whether it took effect; wait for it to end", pending.Kind, pending.Seq)
	default:
		return refuse("%s #%d is still %s; wait for it to end", pending.Kind, pending.Seq, pending.State)
	}
	s := j.State
	switch k {
	case model.CmdSubmit:
		if s != model.StateNone && s != model.StateDeployFailed {
			if s.Live() {
				return refuse("job is already %s", s)
			}
			return refuse("job is %s; use restart (from its latest state) or resubmit", s)
		}
	case model.CmdRestart:
		switch s {
		case model.StateFinished, model.StateFailed:
		case model.StateKilled:
			return refuse("after a kill, choose a restore point: use resubmit")
		case model.StateNone:
			return refuse("job was never deployed; use submit")
		default:
			return refuse("job is %s; only a FINISHED or FAILED job restarts", s)
		}
	case model.CmdResubmit:
		switch s {
		case model.StateFinished, model.StateKilled, model.StateFailed, model.StateDeployFailed:
		case model.StateNone:
			return refuse("job was never deployed; use submit")
		default:
			return refuse("job is %s; pause or kill it first", s)
		}
	case model.CmdPause:
		if s != model.StateRunning {
			return refuse("job is %s, not RUNNING", s)
		}
	case model.CmdSavepoint:
		if s != model.StateRunning {
			return refuse("job is %s, not RUNNING", s)
		}
	case model.CmdKill:
		if !s.Live() {
			return refuse("job is %s; nothing runs to kill", s)
		}
	default:
		return refuse("unknown action")
	}
	return nil
}

// Supersedes reports whether a new command of kind k ends the pending
// command instead of waiting for it: only a KILL does, and not another
// KILL, nor a command that is UNKNOWN (what it did is still being found out).
func Supersedes(k model.CommandKind, pending *model.Command) bool {
	return k == model.CmdKill && pending != nil && pending.Kind != model.CmdKill && !pending.State.Final() &&
		pending.State != model.CmdUnknown
}

// AcceptEvent is the job event a command's acceptance causes, if any:
// a deploy (SUBMIT, RESTART, RESUBMIT) is EvDeploy; the others cause none.
func AcceptEvent(k model.CommandKind) (JobEvent, bool) {
	if k.Deploys() {
		return EvDeploy, true
	}
	return 0, false
}
