package agent

import (
	"context"

	"github.com/palink/palink/core/api"
)

// diagnoses is the agent client's api.DiagnoseService: reads the agent
// makes of one job's JobManager and containers, never actions.
type diagnoses struct{ w *wire }

// JobGraph implements api.DiagnoseService.
func (d diagnoses) JobGraph(ctx context.Context, ref string) (api.JobGraph, error) {
	return do[string, api.JobGraph](ctx, d.w, "JobGraph", ref)
}

// Vertex implements api.DiagnoseService.
func (d diagnoses) Vertex(ctx context.Context, r api.VertexRequest) (api.VertexDetail, error) {
	return do[api.VertexRequest, api.VertexDetail](ctx, d.w, "Vertex", r)
}

// Checkpoints implements api.DiagnoseService.
func (d diagnoses) Checkpoints(ctx context.Context, ref string) (api.CheckpointsView, error) {
	return do[string, api.CheckpointsView](ctx, d.w, "Checkpoints", ref)
}

// Checkpoint implements api.DiagnoseService.
func (d diagnoses) Checkpoint(ctx context.Context, r api.CheckpointRequest) (api.CheckpointDetail, error) {
	return do[api.CheckpointRequest, api.CheckpointDetail](ctx, d.w, "Checkpoint", r)
}

// TaskManagers implements api.DiagnoseService.
func (d diagnoses) TaskManagers(ctx context.Context, ref string) (api.TaskManagerList, error) {
	return do[string, api.TaskManagerList](ctx, d.w, "TaskManagers", ref)
}

// TaskManager implements api.DiagnoseService.
func (d diagnoses) TaskManager(ctx context.Context, r api.TaskManagerRequest) (api.TaskManagerDetail, error) {
	return do[api.TaskManagerRequest, api.TaskManagerDetail](ctx, d.w, "TaskManager", r)
}

// FlinkConfig implements api.DiagnoseService.
func (d diagnoses) FlinkConfig(ctx context.Context, ref string) (api.FlinkConfig, error) {
	return do[string, api.FlinkConfig](ctx, d.w, "FlinkConfig", ref)
}

// FlameGraph implements api.DiagnoseService.
func (d diagnoses) FlameGraph(ctx context.Context, r api.FlameGraphRequest) (api.FlameGraph, error) {
	return do[api.FlameGraphRequest, api.FlameGraph](ctx, d.w, "FlameGraph", r)
}

// Exceptions implements api.DiagnoseService.
func (d diagnoses) Exceptions(ctx context.Context, ref string) (api.ExceptionHistory, error) {
	return do[string, api.ExceptionHistory](ctx, d.w, "Exceptions", ref)
}

// ContainerLogs implements api.DiagnoseService.
func (d diagnoses) ContainerLogs(ctx context.Context, ref string) (api.ContainerLogList, error) {
	return do[string, api.ContainerLogList](ctx, d.w, "ContainerLogs", ref)
}
