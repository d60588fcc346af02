package metrics

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Service is what the metric browser asks of core: what Flink exposes
// (FlinkMetrics) and the job's charts (ChartMetric).
type Service interface {
	api.MetricsService
}

// call is what the package's Cmds capture: the session's context and
// timeout, and its service as a Service. It is the one place the package
// reads kit.Env.Svc (tui's TestScreensUseTheirService).
func call(e *kit.Env) kit.Call[Service] { return kit.CallOf[Service](e, e.Svc) }
