package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// Results of service calls carry the identity of the request (a sequence
// number, and the job or cluster they are about) so that a screen drops an
// answer to a request it no longer waits for.

type tickMsg struct{ now time.Time }

type jobsLoadedMsg struct {
	seq  int
	jobs []api.JobView
	err  error
}

type clustersLoadedMsg struct {
	seq      int
	clusters []api.ClusterStatus
	err      error
}

// watchStartedMsg, changeMsg and watchEndedMsg carry the generation of the
// watch stream, so that changes of a stream that was replaced are dropped.
type watchStartedMsg struct {
	gen int
	ch  <-chan api.Change
	err error
}

type changeMsg struct {
	gen    int
	change api.Change
}

type watchEndedMsg struct{ gen int }

type watchRetryMsg struct{ gen int }

type detailLoadedMsg struct {
	jobID  string
	seq    int
	detail api.JobDetail
	err    error
}

type commandsLoadedMsg struct {
	seq  int
	cmds []model.Command
	err  error
}

type overviewLoadedMsg struct {
	cluster string
	seq     int
	ov      api.ClusterOverview
	err     error
}

// flashMsg asks the root to show a result or an error in the flash line.
type flashMsg struct {
	level flashLevel
	text  string
}

type flashExpiredMsg struct{ id int }

// pushMsg asks the root to open a screen on top of the stack; init is its
// first Cmd (the screen's load), made when the screen was built.
type pushMsg struct {
	s    screen
	init tea.Cmd
}

// popMsg asks the root to close the top screen.
type popMsg struct{}

// commandLineMsg is a `:` command the user entered.
type commandLineMsg struct{ line string }

// startActionMsg asks the root to plan, confirm and act: one job, or the
// marked jobs of a bulk action.
type startActionMsg struct {
	kind    model.CommandKind
	jobs    []model.Job
	restore model.RestoreChoice
	path    string
	// history is the job's restore points, when the sender has them, for
	// the resubmit dialog's "from history" choice.
	history []model.RestorePoint
}

// planItem is one job of an action on its way: the request, what Plan said,
// and why it was skipped when a local check already refused it.
type planItem struct {
	req     api.ActionRequest
	job     model.Job
	plan    api.ActionPlan
	err     error
	skipped string
}

// allowed reports whether the item can be acted on.
func (p planItem) allowed() bool { return p.err == nil && p.skipped == "" && p.plan.Allowed }

type plannedMsg struct {
	seq   int
	items []planItem
}

// confirmedMsg is a dialog's yes: act on the allowed items.
type confirmedMsg struct {
	seq   int
	items []planItem
}

type actResult struct {
	item planItem
	cmd  model.Command
	err  error
}

type actedMsg struct {
	seq     int
	results []actResult
}

type createdMsg struct {
	job model.Job
	err error
	req api.CreateJobRequest
}

type adoptedMsg struct {
	req api.AdoptRequest
	job model.Job
	err error
}

// adoptMsg asks the root to confirm adopting an unmanaged application.
type adoptMsg struct {
	cluster string
	app     api.Application
}

// send wraps a message in a Cmd. The message is built before the Cmd runs,
// so the Cmd shares nothing with the model.
func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// openDetailMsg asks the root to open a job's detail, on a tab by title
// ("" for Overview).
type openDetailMsg struct {
	job api.JobView
	tab string
}

// openCreateMsg asks the root to open the create-job form.
type openCreateMsg struct{}
