package journal

import (
	"errors"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/model"
)

// Checks is core's answer, for every action a user may ask, whether it may
// be asked of job j now, pending being its unfinished command (nil for
// none): decide.CanAct's, for every view of a job core hands out
// (api.JobView.Actions), so that a client never decides by itself.
func Checks(j model.Job, pending *model.Command) []api.ActionCheck {
	kinds := model.CommandKinds()
	out := make([]api.ActionCheck, len(kinds))
	for i, k := range kinds {
		out[i] = api.ActionCheck{Kind: k, Refused: refusal(decide.CanAct(j, k, pending))}
	}
	return out
}

// refusal is a refusal's reason alone, without the action and the job,
// which the client names itself.
func refusal(err error) string {
	if err == nil {
		return ""
	}
	var r *decide.ActionRefusedError
	if errors.As(err, &r) {
		return r.Reason
	}
	return err.Error()
}

// View is job j as the jobs table shows it: with its pending command, its
// figures and core's answer for every action (Checks).
func View(j model.Job, pending *model.Command, f api.Figures) api.JobView {
	return api.JobView{Job: j, Pending: pending, Figures: f, Actions: Checks(j, pending)}
}
