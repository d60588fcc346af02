package kit

import (
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// The messages screens and the root share. A screen asks the root for what
// only the root can do (open a screen, start an action) by sending one of
// these; results that concern several screens are broadcast as these.

// Send wraps a message in a Cmd. The message is built before the Cmd runs,
// so the Cmd shares nothing with the model.
func Send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// ChangeMsg is one change from the service's Watch stream. Gen is the
// stream's generation: the root drops changes of a stream it replaced.
type ChangeMsg struct {
	Gen    int
	Change api.Change
}

// PushMsg asks the root to open a screen on top of the stack; Init is its
// first Cmd (the screen's load), made when the screen was built.
type PushMsg struct {
	Screen Screen
	Init   tea.Cmd
}

// PopMsg asks the root to close the top screen.
type PopMsg struct{}

// StartActionMsg asks the root to plan, confirm and act: one job, or the
// marked jobs of a bulk action.
type StartActionMsg struct {
	Kind model.CommandKind
	// Jobs are the jobs as the sender shows them, with core's answer for
	// each action (api.JobView.Actions).
	Jobs    []api.JobView
	Restore model.RestoreChoice
	Path    string
	// AllowNonRestoredState lets the deploy drop state that maps to no
	// operator of the job (a crash loop's way out, with an edited job).
	AllowNonRestoredState bool
	// History is the job's restore points, when the sender has them, for
	// the resubmit dialog's "from history" choice.
	History []model.RestorePoint
}

// CreatedMsg is the answer to CreateJob, for every screen.
type CreatedMsg struct {
	Job model.Job
	Err error
	Req api.CreateJobRequest
}

// AdoptedMsg is the answer to Adopt, for every screen.
type AdoptedMsg struct {
	Req api.AdoptRequest
	Job model.Job
	Err error
}

// AdoptedAllMsg is the answer to AdoptAll of the applications a screen
// marked, for every screen: Res says which it adopted, also when Err
// says it stopped.
type AdoptedAllMsg struct {
	Req api.AdoptAllRequest
	Res api.AdoptAllResult
	Err error
}

// AdoptMsg asks the root to confirm adopting an unmanaged application.
type AdoptMsg struct {
	Cluster string
	App     api.Application
}

// OpenDetailMsg asks the root to open a job's detail, on a tab by title
// ("" for Overview).
type OpenDetailMsg struct {
	Job api.JobView
	Tab string
}

// OpenJobsMsg asks the root for the jobs table narrowed to the jobs IDs,
// on every cluster (the callers of a UDF); Label says which they are
// ("calling mask_pan"), in the table's title. esc gives the table back.
type OpenJobsMsg struct {
	Label string
	IDs   []string
}

// OpenRawMsg asks the root to show a job as raw data (JSON or YAML).
type OpenRawMsg struct{ Job api.JobView }

// OpenCreateMsg asks the root to open the create-job form.
type OpenCreateMsg struct{}

// OpenEditorMsg asks the root to open a job's SQL editor.
type OpenEditorMsg struct{ Job api.JobView }

// OpenLogMsg asks the root to open one of a job's logs in the log viewer;
// with Find, at the first line Find matches (a failure's time) rather
// than at the tail.
type OpenLogMsg struct {
	JobID, JobName string
	Source         api.LogSource
	Find           api.LogQuery
}

// OpenTextLogMsg asks the root to show text palink holds (a thread dump)
// in the log viewer, to scroll and search it as a log.
type OpenTextLogMsg struct {
	JobID, JobName, Title string
	Text                  []byte
}

// DiagView is a view that finds where a job hurts, opened from the job
// detail: the root builds it (tui/diagnose), as the detail may not import
// another feature.
type DiagView int

// Diagnostic views.
const (
	DiagVertex DiagView = iota + 1
	DiagFlame
	DiagCheckpoint
	DiagTaskManager
	DiagConfig
)

// OpenDiagMsg asks the root to open a diagnostic view of a job: a vertex
// (VertexID), its flame graph, a checkpoint (Checkpoint, or Recorded, a
// restore point palink recorded), a TaskManager (TaskManager) or the
// Flink configuration.
type OpenDiagMsg struct {
	View        DiagView
	Job         api.JobView
	VertexID    string
	VertexName  string
	Checkpoint  int64
	Recorded    *model.RestorePoint
	TaskManager string
}

// OpenMetricsMsg asks the root to open the metric browser: every metric
// Flink exposes of a job (Scope model.MetricScopeJob), of one of its
// vertices (VertexID, named VertexName) or of a TaskManager of its
// cluster (TaskManager).
type OpenMetricsMsg struct {
	Job         api.JobView
	Scope       model.MetricScope
	VertexID    string
	VertexName  string
	TaskManager string
}

// OpenHelpMsg asks the root to open the help of a screen that has the
// keyboard (the editor's f1), as `?` does for the others.
type OpenHelpMsg struct{ Of Screen }

// ActedMsg is what Act recorded for an action's jobs, for every screen:
// the root flashes it, the table spends its marks, lists of commands
// show the new ones. Seq is the action's.
type ActedMsg struct {
	Seq     int
	Results []ActResult
}

// ActResult is one job's command, or why Act refused it.
type ActResult struct {
	Job model.Job
	Cmd model.Command
	Err error
}

// OpenCommandLogMsg asks the root to open a command's log.
type OpenCommandLogMsg struct{ Cmd model.Command }
