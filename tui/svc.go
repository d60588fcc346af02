package tui

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// appService is what the root itself asks of core: the clusters, the
// lead and the change stream (api.FleetService), the plans and actions it
// confirms (api.ActionService) and what is on screen, for the metrics
// (api.MetricsService's SetInterest). The screens get the session's whole
// service through the Env, and each narrows it to its own Service.
type appService interface {
	api.FleetService
	api.ActionService
	api.MetricsService
}

// call is what the root's Cmds capture: the session's context and
// timeout, and its service as an appService.
func call(e *kit.Env) kit.Call[appService] { return kit.CallOf[appService](e, e.Svc) }
