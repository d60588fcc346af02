package editor

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Service is what the SQL editor asks of core: the job's spec versions
// (Specs, SaveSpec), its cluster's catalog tables and variables (Tables,
// Vars), the release its gateway runs (FlinkVersion) and the UDF
// registry's functions (UDFs). A debug run is not core's: it goes
// through the DebugRuns the root wires.
type Service interface {
	api.JobService
	api.CatalogService
	api.SQLPlanner
	api.UDFService
}

// call is what the package's Cmds capture: the session's context and
// timeout, and its service as a Service. It is the one place the package
// reads kit.Env.Svc (tui's TestScreensUseTheirService).
func call(e *kit.Env) kit.Call[Service] { return kit.CallOf[Service](e, e.Svc) }
