package tuitest

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// actionTable is decide.CanAct written out over every (job state, action,
// pending command): the fake fills its job views from it as core fills
// them from CanAct. core/journal's TestFakeActionTableIsCanAct keeps it
// CanAct's (the TUI and its fake may not import decide).
//
//go:embed actions.txt
var actionTable string

// refusals is actionTable by "STATE ACTION PENDING".
var refusals = func() map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(actionTable, "\n") {
		f := strings.SplitN(line, "\t", 4)
		if len(f) < 4 || strings.HasPrefix(line, "#") {
			continue
		}
		why := f[3]
		if why == "-" {
			why = ""
		}
		out[f[0]+" "+f[1]+" "+f[2]] = why
	}
	return out
}()

// refusal is why core refuses action k on job j with its pending command
// (nil for none), "" when it allows it.
func refusal(j model.Job, k model.CommandKind, pending *model.Command) string {
	p := "-"
	if pending != nil {
		p = pending.Kind.String() + "/" + pending.State.String()
	}
	why, ok := refusals[j.State.String()+" "+k.String()+" "+p]
	if !ok {
		panic("tuitest: actions.txt has no row for " + j.State.String() + " " + k.String() + " " + p)
	}
	if pending != nil {
		why = strings.ReplaceAll(why, "{seq}", strconv.FormatInt(pending.Seq, 10))
	}
	return why
}

// checked is v with core's answer for every action, as core's job views
// carry it (api.JobView.Actions).
func checked(v api.JobView) api.JobView {
	v.Actions = make([]api.ActionCheck, 0, len(model.CommandKinds()))
	for _, k := range model.CommandKinds() {
		v.Actions = append(v.Actions, api.ActionCheck{Kind: k, Refused: refusal(v.Job, k, v.Pending)})
	}
	return v
}
