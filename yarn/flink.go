package yarn

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-resty/resty/v2"
)

// Flink is a client of one Flink JobManager's REST API, reached by two
// bases:
//
//   - the read base, usually the application's tracking URL through the RM
//     web proxy (http://rm:8088/proxy/<appId>/), or a direct JobManager URL;
//   - the direct base, http://<amRPCAddress>, the JobManager itself.
//
// The YARN proxy forwards only GET and PUT (it answers 405 to the rest), so
// every POST, PATCH and DELETE goes to the direct base, and fails with
// ErrNoDirectAddress when there is none — except cancel, which falls back
// to Flink's GET /jobs/:id/yarn-cancel through the proxy. GETs use the read
// base, or the direct one when there is no read base.
//
// Tracking URLs change when a JobManager fails over: make a Flink per
// application per sync cycle with WithBases, which shares the connection
// pool. Safe for concurrent use.
type Flink struct {
	t      *transport
	read   *url.URL
	direct *url.URL
}

// NewFlink makes a JobManager client. readBase or directBase may be empty,
// not both. directBase may be a bare "host:port" (an amRPCAddress).
func NewFlink(readBase, directBase string, o Options) (*Flink, error) {
	t, err := newTransport(o, true)
	if err != nil {
		return nil, fmt.Errorf("new Flink client: %w", err)
	}
	return (&Flink{t: t}).WithBases(readBase, directBase)
}

// WithBases returns a client for another JobManager (or the same one at
// new addresses) that shares this client's options and connections.
func (c *Flink) WithBases(readBase, directBase string) (*Flink, error) {
	if strings.TrimSpace(readBase) == "" && strings.TrimSpace(directBase) == "" {
		return nil, errors.New("new Flink client: neither a read nor a direct address")
	}
	n := &Flink{t: c.t}
	var err error
	if strings.TrimSpace(readBase) != "" {
		if n.read, err = parseBase(readBase); err != nil {
			return nil, fmt.Errorf("new Flink client: read address: %w", err)
		}
	}
	if strings.TrimSpace(directBase) != "" {
		if n.direct, err = parseBase(directBase); err != nil {
			return nil, fmt.Errorf("new Flink client: direct address: %w", err)
		}
	}
	return n, nil
}

// JobManagerBases returns the read and direct bases of a YARN
// application's JobManager: the RM-proxied tracking URL while it points at
// the ApplicationMaster (not "History" after the end, nor "UNASSIGNED"
// before the JobManager is up), and http(s)://amRPCAddress. ok is false
// when the application has no live JobManager to talk to. httpsREST is the
// cluster's security.ssl.rest.enabled.
func JobManagerBases(a Application, httpsREST bool) (read, direct string, ok bool) {
	if a.Final() {
		return "", "", false
	}
	if strings.EqualFold(a.TrackingUI, "ApplicationMaster") && a.TrackingURL != "" {
		read = a.TrackingURL
	}
	if a.AMRPCAddress != "" && !strings.HasPrefix(a.AMRPCAddress, "N/A") {
		scheme := "http://"
		if httpsREST {
			scheme = "https://"
		}
		direct = scheme + a.AMRPCAddress
	}
	return read, direct, read != "" || direct != ""
}

// ForApplication returns a client for a YARN application's JobManager
// (see JobManagerBases), sharing this client's connections. It fails with
// ErrUnavailable when the application has no live JobManager.
func (c *Flink) ForApplication(a Application, httpsREST bool) (*Flink, error) {
	read, direct, ok := JobManagerBases(a, httpsREST)
	if !ok {
		return nil, fmt.Errorf("JobManager of %s: %w: application %s, tracking UI %q",
			a.ID, ErrUnavailable, a.State, a.TrackingUI)
	}
	return c.WithBases(read, direct)
}

// ReadBase is the base GETs go to ("" when none was given).
func (c *Flink) ReadBase() string { return redactURL(c.read) }

// DirectBase is the JobManager's own base ("" when unknown).
func (c *Flink) DirectBase() string { return redactURL(c.direct) }

// readURL is the base for GETs.
func (c *Flink) readURL() *url.URL {
	if c.read != nil {
		return c.read
	}
	return c.direct
}

// actionURL is the base for POST/PATCH/DELETE, never the proxy.
func (c *Flink) actionURL(method, p string) (*url.URL, error) {
	if c.direct == nil {
		return nil, &RequestError{Method: method, URL: redactURL(joinURL(c.read, p)), Kind: ErrNoDirectAddress}
	}
	return c.direct, nil
}

func (c *Flink) get(ctx context.Context, p string, q url.Values, what string, v any) (*response, error) {
	r := request{method: http.MethodGet, path: p, query: q}
	resp, err := c.t.do(ctx, c.readURL(), r)
	if err != nil {
		return nil, err
	}
	if err := expect(r.method, resp, http.StatusOK); err != nil {
		return nil, err
	}
	return resp, decode(r.method, resp, what, v)
}

// act sends a non-GET to the direct base and decodes a JSON answer into v
// when v is not nil.
func (c *Flink) act(ctx context.Context, method, p string, q url.Values, body any, what string, v any, want ...int) error {
	base, err := c.actionURL(method, p)
	if err != nil {
		return err
	}
	r := request{method: method, path: p, query: q}
	if body != nil {
		if r.body, err = jsonBody(body); err != nil {
			return err
		}
	}
	resp, err := c.t.do(ctx, base, r)
	if err != nil {
		return err
	}
	if err := expect(method, resp, want...); err != nil {
		return err
	}
	if v == nil {
		return nil
	}
	return decode(method, resp, what, v)
}

func jobPath(jobID string, rest ...string) string {
	p := "jobs/" + pathEscape(jobID)
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// Config returns the JobManager's web configuration, including its Flink version.
func (c *Flink) Config(ctx context.Context) (DashboardConfig, error) {
	var v DashboardConfig
	_, err := c.get(ctx, "config", nil, "dashboard configuration", &v)
	return v, err
}

// Overview returns the cluster overview: TaskManagers, slots, job counts.
func (c *Flink) Overview(ctx context.Context) (FlinkOverview, error) {
	var v FlinkOverview
	_, err := c.get(ctx, "overview", nil, "cluster overview", &v)
	return v, err
}

// Jobs lists the JobManager's jobs (GET /jobs/overview).
func (c *Flink) Jobs(ctx context.Context) ([]JobOverview, error) {
	var v struct {
		Jobs []JobOverview `json:"jobs"`
	}
	_, err := c.get(ctx, "jobs/overview", nil, "jobs overview", &v)
	return v.Jobs, err
}

// Job returns a job's details; Raw holds the body as served.
func (c *Flink) Job(ctx context.Context, jobID string) (JobDetails, error) {
	var v JobDetails
	resp, err := c.get(ctx, jobPath(jobID), nil, "job details", &v)
	if err == nil {
		v.Raw = append([]byte(nil), resp.body...)
	}
	return v, err
}

// JobStatus returns a job's status alone (RUNNING, FINISHED, …).
func (c *Flink) JobStatus(ctx context.Context, jobID string) (string, error) {
	var v struct {
		Status string `json:"status"`
	}
	_, err := c.get(ctx, jobPath(jobID, "status"), nil, "job status", &v)
	return v.Status, err
}

// ExecutionResult returns a finished job's result (Done false while it
// runs). A per-job cluster is gone soon after its job ends: expect
// ErrUnavailable or ErrNotFound then, and read the YARN final status instead.
func (c *Flink) ExecutionResult(ctx context.Context, jobID string) (ExecutionResult, error) {
	var v executionResultWire
	_, err := c.get(ctx, jobPath(jobID, "execution-result"), nil, "job execution result", &v)
	return v.result(), err
}

// Checkpoints returns a job's checkpoint statistics, including
// Latest.Restored, the path the job restored from.
func (c *Flink) Checkpoints(ctx context.Context, jobID string) (CheckpointStats, error) {
	var v CheckpointStats
	_, err := c.get(ctx, jobPath(jobID, "checkpoints"), nil, "checkpoint statistics", &v)
	return v, err
}

// CheckpointConfig returns a job's checkpointing configuration.
func (c *Flink) CheckpointConfig(ctx context.Context, jobID string) (CheckpointConfig, error) {
	var v CheckpointConfig
	_, err := c.get(ctx, jobPath(jobID, "checkpoints", "config"), nil, "checkpoint configuration", &v)
	return v, err
}

// NewTriggerID returns a random trigger id in Flink's format (32 hex
// digits). Persist it before triggering: re-sending the same id after a
// crash reaches the same operation instead of starting a second one.
func NewTriggerID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

type triggerResponse struct {
	RequestID string `json:"request-id"`
}

// savepointDisposalRequest is the spec's SavepointDisposalRequest.
type savepointDisposalRequest struct {
	SavepointPath string `json:"savepoint-path"`
}

// TriggerSavepoint starts a savepoint (POST /jobs/:id/savepoints, direct
// base) and returns its trigger id; poll it with SavepointStatus or
// WaitSavepoint.
func (c *Flink) TriggerSavepoint(ctx context.Context, jobID string, r SavepointRequest) (string, error) {
	var v triggerResponse
	err := c.act(ctx, http.MethodPost, jobPath(jobID, "savepoints"), nil, r, "savepoint trigger", &v,
		http.StatusAccepted, http.StatusOK)
	return v.RequestID, err
}

// StopWithSavepoint stops a job with a savepoint (POST /jobs/:id/stop,
// direct base) and returns the trigger id; its status is polled at the
// savepoint status path.
func (c *Flink) StopWithSavepoint(ctx context.Context, jobID string, r StopRequest) (string, error) {
	var v triggerResponse
	err := c.act(ctx, http.MethodPost, jobPath(jobID, "stop"), nil, r, "stop-with-savepoint trigger", &v,
		http.StatusAccepted, http.StatusOK)
	return v.RequestID, err
}

// SavepointStatus returns the state of a savepoint or stop-with-savepoint.
func (c *Flink) SavepointStatus(ctx context.Context, jobID, triggerID string) (Operation, error) {
	var v asyncResult
	_, err := c.get(ctx, jobPath(jobID, "savepoints", pathEscape(triggerID)), nil, "savepoint status", &v)
	return v.operation(), err
}

// TriggerCheckpoint starts a checkpoint (POST /jobs/:id/checkpoints, 1.19+).
func (c *Flink) TriggerCheckpoint(ctx context.Context, jobID string, r CheckpointRequest) (string, error) {
	var v triggerResponse
	err := c.act(ctx, http.MethodPost, jobPath(jobID, "checkpoints"), nil, r, "checkpoint trigger", &v,
		http.StatusAccepted, http.StatusOK)
	return v.RequestID, err
}

// CheckpointStatus returns the state of a triggered checkpoint.
func (c *Flink) CheckpointStatus(ctx context.Context, jobID, triggerID string) (Operation, error) {
	var v asyncResult
	_, err := c.get(ctx, jobPath(jobID, "checkpoints", pathEscape(triggerID)), nil, "checkpoint status", &v)
	return v.operation(), err
}

// WaitSavepoint polls a savepoint or stop-with-savepoint until it is done
// or ctx ends. A failed savepoint returns the Operation and an error that
// carries Flink's failure.
func (c *Flink) WaitSavepoint(ctx context.Context, jobID, triggerID string) (Operation, error) {
	return c.waitOperation(ctx, "savepoint "+triggerID+" of job "+jobID, func(ctx context.Context) (Operation, error) {
		return c.SavepointStatus(ctx, jobID, triggerID)
	})
}

// TriggerSavepointDisposal asks the cluster's dispatcher to delete a
// savepoint (POST /savepoint-disposal {"savepoint-path": …}, direct base)
// and returns the trigger id of the asynchronous operation.
func (c *Flink) TriggerSavepointDisposal(ctx context.Context, path string) (string, error) {
	var v triggerResponse
	err := c.act(ctx, http.MethodPost, "/savepoint-disposal", nil, savepointDisposalRequest{SavepointPath: path},
		"savepoint disposal trigger", &v, http.StatusAccepted, http.StatusOK)
	return v.RequestID, err
}

// SavepointDisposalStatus returns the state of a savepoint disposal
// (GET /savepoint-disposal/:triggerid); a failed one carries Flink's cause.
func (c *Flink) SavepointDisposalStatus(ctx context.Context, triggerID string) (Operation, error) {
	var v asyncResult
	_, err := c.get(ctx, "/savepoint-disposal/"+pathEscape(triggerID), nil, "savepoint disposal status", &v)
	return v.operation(), err
}

// DisposeSavepoint triggers the disposal of a savepoint and polls it until
// it is done or ctx ends. A failed disposal returns an
// *OperationFailedError with Flink's reason.
func (c *Flink) DisposeSavepoint(ctx context.Context, path string) error {
	id, err := c.TriggerSavepointDisposal(ctx, path)
	if err != nil {
		return err
	}
	_, err = c.waitOperation(ctx, "disposal of savepoint "+path, func(ctx context.Context) (Operation, error) {
		return c.SavepointDisposalStatus(ctx, id)
	})
	return err
}

// WaitCheckpoint polls a triggered checkpoint until it is done or ctx ends.
func (c *Flink) WaitCheckpoint(ctx context.Context, jobID, triggerID string) (Operation, error) {
	return c.waitOperation(ctx, "checkpoint "+triggerID+" of job "+jobID, func(ctx context.Context) (Operation, error) {
		return c.CheckpointStatus(ctx, jobID, triggerID)
	})
}

// OperationFailedError is an asynchronous operation that completed with a
// failure.
type OperationFailedError struct {
	What    string
	Failure *FailureCause
}

// Error says what failed and Flink's reason.
func (e *OperationFailedError) Error() string {
	return fmt.Sprintf("%s failed: %s", e.What, e.Failure.Message())
}

func (c *Flink) waitOperation(ctx context.Context, what string, status func(context.Context) (Operation, error)) (Operation, error) {
	p := c.t.poller()
	var last Operation
	for {
		op, err := status(ctx)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return last, waitErr("wait for "+what, cerr)
			}
			return last, err
		}
		last = op
		if op.Done {
			if op.Failure != nil {
				return op, &OperationFailedError{What: what, Failure: op.Failure}
			}
			return op, nil
		}
		if err := p.wait(ctx); err != nil {
			return op, waitErr("wait for "+what, err)
		}
	}
}

// Cancel cancels a job: PATCH /jobs/:id?mode=cancel on the direct base,
// or, with no direct base, GET /jobs/:id/yarn-cancel through the proxy (the
// route Flink keeps for the YARN proxy). Flink answers 202 and cancels
// asynchronously; poll JobStatus for CANCELED.
//
// When the direct base cannot even be connected to (JobManager hosts
// firewalled from the ops host), the request was never sent, and cancel
// goes through the proxy instead.
func (c *Flink) Cancel(ctx context.Context, jobID string) error {
	if c.direct != nil {
		q := url.Values{"mode": {"cancel"}}
		err := c.act(ctx, http.MethodPatch, jobPath(jobID), q, nil, "", nil, http.StatusAccepted, http.StatusOK)
		if err == nil || c.read == nil || !notSent(err) {
			return err
		}
	}
	r := request{method: http.MethodGet, path: jobPath(jobID, "yarn-cancel")}
	resp, err := c.t.do(ctx, c.read, r)
	if err != nil {
		return err
	}
	return expect(r.method, resp, http.StatusAccepted, http.StatusOK)
}

// Exceptions returns a job's exception history (at most max entries when
// max > 0), decoding both the 2.x and the deprecated 1.x fields.
func (c *Flink) Exceptions(ctx context.Context, jobID string, max int) (JobExceptions, error) {
	var q url.Values
	if max > 0 {
		q = url.Values{"maxExceptions": {strconv.Itoa(max)}}
	}
	var v JobExceptions
	_, err := c.get(ctx, jobPath(jobID, "exceptions"), q, "job exceptions", &v)
	return v, err
}

func metricQuery(names []string) url.Values {
	if len(names) == 0 {
		return nil
	}
	return url.Values{"get": {strings.Join(names, ",")}}
}

// JobMetrics returns the named job metrics, or with no names the list of
// available ones (ids only). The wire form is a bare JSON array.
func (c *Flink) JobMetrics(ctx context.Context, jobID string, names ...string) ([]Metric, error) {
	var v []Metric
	_, err := c.get(ctx, jobPath(jobID, "metrics"), metricQuery(names), "job metrics", &v)
	return v, err
}

// VertexMetrics returns the named metrics of one vertex (subtask metrics
// are named "<subtask>.<metric>"), or with no names the available ones.
func (c *Flink) VertexMetrics(ctx context.Context, jobID, vertexID string, names ...string) ([]Metric, error) {
	var v []Metric
	_, err := c.get(ctx, jobPath(jobID, "vertices", pathEscape(vertexID), "metrics"), metricQuery(names),
		"vertex metrics", &v)
	return v, err
}

// SubtaskMetrics returns metrics aggregated over a vertex's subtasks
// (GET …/subtasks/metrics?get=…&agg=…). aggs are among "min", "max",
// "sum", "avg", "skew"; none means all.
func (c *Flink) SubtaskMetrics(ctx context.Context, jobID, vertexID string, names, aggs []string) ([]AggregatedMetric, error) {
	q := metricQuery(names)
	if len(aggs) > 0 {
		if q == nil {
			q = url.Values{}
		}
		q.Set("agg", strings.Join(aggs, ","))
	}
	var v []AggregatedMetric
	_, err := c.get(ctx, jobPath(jobID, "vertices", pathEscape(vertexID), "subtasks", "metrics"), q,
		"aggregated subtask metrics", &v)
	return v, err
}

// Backpressure returns a vertex's back pressure.
func (c *Flink) Backpressure(ctx context.Context, jobID, vertexID string) (Backpressure, error) {
	var v Backpressure
	_, err := c.get(ctx, jobPath(jobID, "vertices", pathEscape(vertexID), "backpressure"), nil, "back pressure", &v)
	return v, err
}

// Watermarks returns a vertex's watermarks per subtask
// ("<subtask>.currentInputWatermark", in ms).
func (c *Flink) Watermarks(ctx context.Context, jobID, vertexID string) ([]Metric, error) {
	var v []Metric
	_, err := c.get(ctx, jobPath(jobID, "vertices", pathEscape(vertexID), "watermarks"), nil, "watermarks", &v)
	return v, err
}

// TaskManagers lists the cluster's TaskManagers.
func (c *Flink) TaskManagers(ctx context.Context) ([]TaskManager, error) {
	var v struct {
		TaskManagers []TaskManager `json:"taskmanagers"`
	}
	_, err := c.get(ctx, "taskmanagers", nil, "task managers", &v)
	return v.TaskManagers, err
}

// JobManagerLogs lists the JobManager's log files.
func (c *Flink) JobManagerLogs(ctx context.Context) ([]LogInfo, error) {
	var v struct {
		Logs []LogInfo `json:"logs"`
	}
	_, err := c.get(ctx, "jobmanager/logs", nil, "log list", &v)
	return v.Logs, err
}

// TaskManagerLogs lists a TaskManager's log files.
func (c *Flink) TaskManagerLogs(ctx context.Context, taskManagerID string) ([]LogInfo, error) {
	var v struct {
		Logs []LogInfo `json:"logs"`
	}
	_, err := c.get(ctx, "taskmanagers/"+pathEscape(taskManagerID)+"/logs", nil, "log list", &v)
	return v.Logs, err
}

// Jars lists the jars uploaded to the JobManager.
func (c *Flink) Jars(ctx context.Context) (JarList, error) {
	var v JarList
	_, err := c.get(ctx, "jars", nil, "jar list", &v)
	return v, err
}

// UploadJar uploads a jar (multipart field "jarfile", content type
// application/x-java-archive) to the direct base and returns its id. The
// upload is not bounded by Options.Timeout, only by ctx.
func (c *Flink) UploadJar(ctx context.Context, fileName string, jar io.Reader) (JarUpload, error) {
	const p = "jars/upload"
	base, err := c.actionURL(http.MethodPost, p)
	if err != nil {
		return JarUpload{}, err
	}
	name := filepath.Base(fileName)
	r := request{method: http.MethodPost, path: p, noTimeout: true, prepare: func(req *resty.Request) {
		req.SetMultipartField("jarfile", name, "application/x-java-archive", jar)
	}}
	// Not retried: the reader is consumed by the first attempt.
	resp, err := c.t.once(ctx, base, r)
	if err != nil {
		return JarUpload{}, err
	}
	if err := expect(r.method, resp, http.StatusOK); err != nil {
		return JarUpload{}, err
	}
	var v JarUpload
	if err := decode(r.method, resp, "jar upload", &v); err != nil {
		return v, err
	}
	v.ID = path.Base(filepath.ToSlash(v.Filename))
	if v.Filename == "" {
		return v, &DecodeError{Method: r.method, URL: resp.url, Status: resp.status, What: "jar upload",
			Err: errors.New(`no "filename"`), Excerpt: excerpt(resp.body, 200)}
	}
	return v, nil
}

// UploadJarFile uploads the jar at a local path.
func (c *Flink) UploadJarFile(ctx context.Context, localPath string) (JarUpload, error) {
	f, err := os.Open(localPath)
	if err != nil {
		return JarUpload{}, fmt.Errorf("upload jar: %w", err)
	}
	defer f.Close()
	return c.UploadJar(ctx, localPath, f)
}

// RunJar runs an uploaded jar (POST /jars/:id/run) and returns the new
// job's id.
func (c *Flink) RunJar(ctx context.Context, jarID string, r JarRunRequest) (JarRunResult, error) {
	var v JarRunResult
	err := c.act(ctx, http.MethodPost, "jars/"+pathEscape(jarID)+"/run", nil, r, "jar run result", &v, http.StatusOK)
	return v, err
}

// DeleteJar deletes an uploaded jar.
func (c *Flink) DeleteJar(ctx context.Context, jarID string) error {
	return c.act(ctx, http.MethodDelete, "jars/"+pathEscape(jarID), nil, nil, "", nil, http.StatusOK)
}

// CloseIdleConnections closes the client's idle keep-alive connections;
// call it when dropping the client. It affects every client made from this one with WithBases. In-flight calls are not affected.
func (c *Flink) CloseIdleConnections() { c.t.closeIdle() }
