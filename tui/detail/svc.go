package detail

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Service is what the job detail asks of core: the job in depth (Job),
// its metrics (JobMetrics), its logs (Logs) and, for the tabs that find
// the cause, Flink's views of it (api.DiagnoseService).
type Service interface {
	api.JobService
	api.MetricsService
	api.LogService
	api.DiagnoseService
}

// call is what the package's Cmds capture: the session's context and
// timeout, and its service as a Service. It is the one place the package
// reads kit.Env.Svc (tui's TestScreensUseTheirService).
func call(e *kit.Env) kit.Call[Service] { return kit.CallOf[Service](e, e.Svc) }
