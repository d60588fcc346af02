package tui

import (
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// Results of service calls carry the identity of the request (a sequence
// number, and the job or cluster they are about) so that a screen drops an
// answer to a request it no longer waits for.

type tickMsg struct{ now, wall time.Time }

type clustersLoadedMsg struct {
	seq      int
	clusters []api.ClusterStatus
	err      error
}

// leadLoadedMsg is who leads the store (api.FleetService.Leadership).
type leadLoadedMsg struct {
	seq  int
	lead api.Leadership
	err  error
}

// watchStartedMsg, watchEndedMsg and watchRetryMsg carry the generation
// of the watch stream (as kit.ChangeMsg does), so that what concerns a
// stream that was replaced is dropped.
type watchStartedMsg struct {
	gen int
	ch  <-chan api.Change
	err error
}

type watchEndedMsg struct{ gen int }

// changesMsg is a burst of changes of the stream, in order, read at once
// (nextChangeCmd): the root hands each on as a kit.ChangeMsg.
type changesMsg struct {
	gen     int
	changes []api.Change
}

type watchRetryMsg struct{ gen int }

// commandLineMsg is a `:` command the user entered.
type commandLineMsg struct{ line string }

// planItem is one job of an action on its way: the request, what Plan said,
// and why it was skipped when a local check already refused it.
type planItem struct {
	req api.ActionRequest
	job model.Job
	// view is the job as the screen showed it, for the crash loop's ways
	// out (another action on the same job).
	view api.JobView
	// pausable: core would take a pause of the job now (its view's
	// answer), so that a kill may suggest one instead.
	pausable bool
	plan     api.ActionPlan
	err      error
	skipped  string
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
