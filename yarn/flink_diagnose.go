package yarn

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// The JobManager's diagnostic reads: the plan, a vertex and its subtasks,
// a checkpoint's parts, TaskManagers, configurations, flame graphs and
// thread dumps. All are GETs, so they go through the read base (the RM web
// proxy, usually).

func vertexPath(jobID, vertexID string, rest ...string) string {
	return jobPath(jobID, append([]string{"vertices", pathEscape(vertexID)}, rest...)...)
}

// Plan returns a job's plan (GET /jobs/:id/plan): the job graph's vertices
// and, for each, the edges that feed it with their ship strategy.
func (c *Flink) Plan(ctx context.Context, jobID string) (JobPlan, error) {
	var v struct {
		Plan JobPlan `json:"plan"`
	}
	_, err := c.get(ctx, jobPath(jobID, "plan"), nil, "job plan", &v)
	return v.Plan, err
}

// Vertex returns a vertex's details with one row per subtask
// (GET /jobs/:id/vertices/:vid).
func (c *Flink) Vertex(ctx context.Context, jobID, vertexID string) (VertexDetails, error) {
	var v VertexDetails
	_, err := c.get(ctx, vertexPath(jobID, vertexID), nil, "vertex details", &v)
	return v, err
}

// SubtaskTimes returns when each subtask of a vertex entered each state.
func (c *Flink) SubtaskTimes(ctx context.Context, jobID, vertexID string) (SubtaskTimes, error) {
	var v SubtaskTimes
	_, err := c.get(ctx, vertexPath(jobID, vertexID, "subtasktimes"), nil, "subtask times", &v)
	return v, err
}

// VertexTaskManagers returns a vertex's subtasks grouped by TaskManager.
func (c *Flink) VertexTaskManagers(ctx context.Context, jobID, vertexID string) (VertexTaskManagers, error) {
	var v VertexTaskManagers
	_, err := c.get(ctx, vertexPath(jobID, vertexID, "taskmanagers"), nil, "vertex TaskManagers", &v)
	return v, err
}

// SubtaskMetricValues returns the named metrics of one subtask
// (GET …/subtasks/:index/metrics), or with no names the available ones.
func (c *Flink) SubtaskMetricValues(ctx context.Context, jobID, vertexID string, subtask int, names ...string) ([]Metric, error) {
	var v []Metric
	_, err := c.get(ctx, vertexPath(jobID, vertexID, "subtasks", strconv.Itoa(subtask), "metrics"),
		metricQuery(names), "subtask metrics", &v)
	return v, err
}

// TaskManagerMetrics returns the named metrics of one TaskManager
// (GET /taskmanagers/:id/metrics: Status.JVM.*, Status.Shuffle.*, …), or
// with no names the available ones.
func (c *Flink) TaskManagerMetrics(ctx context.Context, taskManagerID string, names ...string) ([]Metric, error) {
	var v []Metric
	_, err := c.get(ctx, "taskmanagers/"+pathEscape(taskManagerID)+"/metrics", metricQuery(names), "TaskManager metrics", &v)
	return v, err
}

// CheckpointDetails returns one checkpoint with its per-vertex figures
// (GET /jobs/:id/checkpoints/details/:cid).
func (c *Flink) CheckpointDetails(ctx context.Context, jobID string, checkpointID int64) (Checkpoint, error) {
	var v Checkpoint
	_, err := c.get(ctx, jobPath(jobID, "checkpoints", "details", strconv.FormatInt(checkpointID, 10)), nil,
		"checkpoint details", &v)
	return v, err
}

// CheckpointSubtasks returns one vertex's part of a checkpoint, subtask by
// subtask (GET /jobs/:id/checkpoints/details/:cid/subtasks/:vid).
func (c *Flink) CheckpointSubtasks(ctx context.Context, jobID string, checkpointID int64, vertexID string) (TaskCheckpointDetails, error) {
	var v TaskCheckpointDetails
	p := jobPath(jobID, "checkpoints", "details", strconv.FormatInt(checkpointID, 10), "subtasks", pathEscape(vertexID))
	_, err := c.get(ctx, p, nil, "checkpoint subtask details", &v)
	return v, err
}

// TaskManager returns one TaskManager with its slots, memory and garbage
// collectors (GET /taskmanagers/:id).
func (c *Flink) TaskManager(ctx context.Context, id string) (TaskManagerDetails, error) {
	var v TaskManagerDetails
	_, err := c.get(ctx, "taskmanagers/"+pathEscape(id), nil, "TaskManager details", &v)
	return v, err
}

// JobManagerConfig returns the JobManager's configuration
// (GET /jobmanager/config), secrets masked by Flink.
func (c *Flink) JobManagerConfig(ctx context.Context) ([]ConfigEntry, error) {
	var v []ConfigEntry
	_, err := c.get(ctx, "jobmanager/config", nil, "JobManager configuration", &v)
	return v, err
}

// JobConfig returns a job's execution configuration (GET /jobs/:id/config).
func (c *Flink) JobConfig(ctx context.Context, jobID string) (JobConfig, error) {
	var v JobConfig
	_, err := c.get(ctx, jobPath(jobID, "config"), nil, "job configuration", &v)
	return v, err
}

// getStream sends a GET whose 200 body the caller reads as a stream (and
// must close); any other status is an *HTTPError.
func (c *Flink) getStream(ctx context.Context, p string, q url.Values) (*response, error) {
	r := request{method: http.MethodGet, path: p, query: q, stream: true}
	resp, err := c.t.do(ctx, c.readURL(), r)
	if err != nil {
		return nil, err
	}
	if resp.status != http.StatusOK {
		if resp.stream != nil {
			resp.stream.Close()
		}
		return nil, respError(r.method, resp)
	}
	return resp, nil
}

// FlameGraphRequest selects a flame graph.
type FlameGraphRequest struct {
	// Type is FlameFull (default), FlameOnCPU or FlameOffCPU.
	Type string
	// Subtask selects one subtask (Flink 1.17+); negative for all.
	Subtask int
	// MaxFrames and MaxBytes cap what is kept and read (0: the defaults).
	MaxFrames int
	MaxBytes  int64
}

// FlameGraph returns a vertex's flame graph
// (GET /jobs/:id/vertices/:vid/flamegraph). Flink answers 200 in every
// case: Status says whether there is a graph, or why not (FlameDisabled
// when rest.flamegraph.enabled is off, FlameWaiting while the first samples
// are taken). A graph larger than the caps comes back Truncated.
func (c *Flink) FlameGraph(ctx context.Context, jobID, vertexID string, r FlameGraphRequest) (FlameGraph, error) {
	q := url.Values{}
	if r.Type != "" {
		q.Set("type", r.Type)
	}
	if r.Subtask >= 0 {
		q.Set("subtaskindex", strconv.Itoa(r.Subtask))
	}
	resp, err := c.getStream(ctx, vertexPath(jobID, vertexID, "flamegraph"), q)
	if err != nil {
		return FlameGraph{}, err
	}
	defer resp.stream.Close()
	g, err := decodeFlameGraph(resp.stream, r.MaxFrames, r.MaxBytes)
	if err != nil {
		return g, streamErr(ctx, resp, "flame graph", err)
	}
	return g, nil
}

// ThreadDump returns a TaskManager's thread dump
// (GET /taskmanagers/:id/thread-dump), read up to maxBytes
// (0: DefaultMaxThreadDumpBytes); a longer one comes back Truncated.
func (c *Flink) ThreadDump(ctx context.Context, taskManagerID string, maxBytes int64) (ThreadDump, error) {
	resp, err := c.getStream(ctx, "taskmanagers/"+pathEscape(taskManagerID)+"/thread-dump", nil)
	if err != nil {
		return ThreadDump{}, err
	}
	defer resp.stream.Close()
	td, err := decodeThreadDump(resp.stream, maxBytes)
	if err != nil {
		return td, streamErr(ctx, resp, "thread dump", err)
	}
	return td, nil
}

// streamErr explains a streamed body that could not be read to its end:
// the caller's ctx, a connection lost halfway, or a body that is not JSON.
func streamErr(ctx context.Context, resp *response, what string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return classify(ctx, nil, http.MethodGet, resp.url, cerr)
	}
	if connectionFailure(err) {
		return &RequestError{Method: http.MethodGet, URL: resp.url, Kind: ErrUnavailable, Err: err}
	}
	return &DecodeError{Method: http.MethodGet, URL: resp.url, Status: resp.status, What: what, Err: err}
}
