package decide

import (
	"fmt"
	"strings"

	"github.com/palink/palink/model"
)

// Observation is what one sync saw of a job on its cluster.
type Observation struct {
	AppFound    bool   // the RM knows the application
	YARNState   string // YarnApplicationState
	FinalStatus string // FinalApplicationStatus
	// FlinkState is the Flink job's status; "" when the JobManager was not
	// asked (application not running) or did not answer.
	FlinkState string
	// FlinkGone: the JobManager answered but does not know the job.
	FlinkGone bool
}

// Outcome is the platform's reading of an observation.
type Outcome int

// Outcomes.
const (
	OutcomeWait     Outcome = iota + 1 // starting, restarting or unknown: no state change
	OutcomeRunning                     // → EvSyncRunning
	OutcomeFinished                    // → EvSyncFinished
	OutcomeKilled                      // → EvSyncKilled
	OutcomeFailed                      // → EvSyncFailed
	OutcomeGone                        // the application (or session job) vanished: drift
)

var outcomeNames = map[Outcome]string{
	OutcomeWait: "wait", OutcomeRunning: "running", OutcomeFinished: "finished",
	OutcomeKilled: "killed", OutcomeFailed: "failed", OutcomeGone: "gone",
}

func (o Outcome) String() string {
	if s, ok := outcomeNames[o]; ok {
		return s
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Event is the job event an outcome drives, if any.
func (o Outcome) Event() (JobEvent, bool) {
	switch o {
	case OutcomeRunning:
		return EvSyncRunning, true
	case OutcomeFinished:
		return EvSyncFinished, true
	case OutcomeKilled:
		return EvSyncKilled, true
	case OutcomeFailed:
		return EvSyncFailed, true
	}
	return 0, false
}

// mappingRow is one row of the mapping table; "*" matches anything, "-"
// matches the empty string (Flink not asked or not answering).
type mappingRow struct {
	yarn, final, flink string
	out                Outcome
}

// mappingTable maps (YARN state, final status, Flink status) to the platform
// state. The first matching row wins. Flink's own restart strategy comes
// first: RESTARTING and FAILING keep the job RUNNING until Flink gives up.
var mappingTable = []mappingRow{
	// The application has not started its JobManager yet.
	{"NEW", "*", "*", OutcomeWait},
	{"NEW_SAVING", "*", "*", OutcomeWait},
	{"SUBMITTED", "*", "*", OutcomeWait},
	{"ACCEPTED", "*", "*", OutcomeWait},
	// The application runs: Flink's job status decides.
	{"RUNNING", "*", "RUNNING", OutcomeRunning},
	{"RUNNING", "*", "RESTARTING", OutcomeRunning},
	{"RUNNING", "*", "FAILING", OutcomeRunning},
	{"RUNNING", "*", "INITIALIZING", OutcomeWait},
	{"RUNNING", "*", "CREATED", OutcomeWait},
	{"RUNNING", "*", "RECONCILING", OutcomeWait},
	{"RUNNING", "*", "SUSPENDED", OutcomeWait}, // JobManager failover: a new leader takes over
	{"RUNNING", "*", "FINISHED", OutcomeFinished},
	{"RUNNING", "*", "CANCELLING", OutcomeKilled},
	{"RUNNING", "*", "CANCELED", OutcomeKilled},
	{"RUNNING", "*", "FAILED", OutcomeFailed},
	{"RUNNING", "*", "-", OutcomeWait}, // JobManager unreachable this cycle
	// The application ended: YARN's final status decides.
	{"FINISHED", "SUCCEEDED", "*", OutcomeFinished},
	{"FINISHED", "KILLED", "*", OutcomeKilled}, // Flink cancel of a per-job cluster
	{"FINISHED", "FAILED", "*", OutcomeFailed},
	{"FINISHED", "ENDED", "*", OutcomeFinished},
	{"FINISHED", "UNDEFINED", "*", OutcomeFinished},
	{"FAILED", "*", "*", OutcomeFailed},
	{"KILLED", "*", "*", OutcomeKilled},
}

// MapObservation reads an observation with the mapping table. The reason
// says both sides in words, for the job's timeline.
func MapObservation(o Observation) (Outcome, string) {
	if !o.AppFound {
		return OutcomeGone, "YARN: application not found"
	}
	reason := "YARN " + o.YARNState
	if o.FinalStatus != "" && o.FinalStatus != "UNDEFINED" {
		reason += "/" + o.FinalStatus
	}
	if o.YARNState == "RUNNING" && o.FlinkGone {
		return OutcomeGone, reason + ", Flink: job not found on the JobManager"
	}
	if o.FlinkState != "" {
		reason += ", Flink " + o.FlinkState
	}
	flink := o.FlinkState
	if flink == "" {
		flink = "-"
	}
	for _, r := range mappingTable {
		if match(r.yarn, o.YARNState) && match(r.final, o.FinalStatus) && match(r.flink, flink) {
			return r.out, reason
		}
	}
	return OutcomeWait, reason + " (unmapped)"
}

func match(pattern, v string) bool {
	return pattern == "*" || strings.EqualFold(pattern, v)
}

// RunEndOf is how the job's Flink job ended, read from an observation that
// maps to an end (MapObservation): Flink's own terminal status when its
// JobManager still answered, else YARN's. A per-job cluster deregisters
// FINISHED/SUCCEEDED after its job FINISHED, FINISHED/KILLED after a
// cancel, FINISHED/FAILED after a failure; an application YARN KILLED, or
// FAILED because its AM kept dying, never let Flink clean up. Anything
// else is not known.
func RunEndOf(o Observation) model.RunEnd {
	switch strings.ToUpper(o.FlinkState) {
	case "FINISHED":
		return model.EndFinished
	case "CANCELED", "CANCELLING":
		return model.EndCanceled
	case "FAILED":
		return model.EndFailed
	}
	if !o.AppFound || o.YARNState == "RUNNING" {
		return model.EndUnknown
	}
	switch {
	case o.YARNState == "KILLED", o.YARNState == "FAILED":
		return model.EndKilled
	case o.YARNState != "FINISHED":
		return model.EndUnknown
	}
	switch o.FinalStatus {
	case "SUCCEEDED":
		return model.EndFinished
	case "KILLED":
		return model.EndCanceled
	case "FAILED":
		return model.EndFailed
	}
	return model.EndUnknown
}
