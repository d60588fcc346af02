package diagnose

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Service is what the diagnostic views ask of core: Flink's own
// views of a job, through api.DiagnoseService (kit.Diagnose), and a
// vertex's subtasks over the last minutes (api.MetricsService's
// SubtaskHistory).
type Service interface {
	api.DiagnoseService
	api.MetricsService
}

// call is what the package's Cmds capture: the session's context and
// timeout, and its service as a Service. It is the one place the package
// reads kit.Env.Svc (tui's TestScreensUseTheirService).
func call(e *kit.Env) kit.Call[Service] { return kit.CallOf[Service](e, e.Svc) }
