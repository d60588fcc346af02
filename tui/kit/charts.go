package kit

import "github.com/palink/palink/model"

// ChartTitle names a chart a person added to a job's Metrics tab, for its
// title there and in the metric browser's messages:
// "numRecordsInPerSecond (sum) · Calc[2]", "uptime",
// "Status.JVM.CPU.Load · TaskManager …01_000002".
func ChartTitle(c model.MetricChart) string {
	t := c.Metric
	if c.Agg != "" {
		t += " (" + c.Agg + ")"
	}
	switch c.Scope {
	case model.MetricScopeVertex:
		t += " · " + VertexShort(OrDash(c.VertexName))
	case model.MetricScopeTaskManager:
		t += " · TaskManager " + ContainerShort(c.TaskManager)
	}
	return t
}
