package tuitest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// Fake is api.Service in memory for the TUI's tests: it holds jobs,
// records every call, can be made slow (every call waits delay, or until
// its ctx ends) or failing, and pushes changes to its watchers.
type Fake struct {
	*logPart
	*metricsPart
	*specPart
	*catalogPart
	*udfPart
	*diagPart

	Mu          sync.Mutex
	now         time.Time
	Jobs        []api.JobView
	details     map[string]api.JobDetail
	commands    []model.Command
	ClusterList []api.ClusterStatus
	// Lead is what Leadership answers.
	Lead api.Leadership
	// ActErr, if set, is what Act answers: the action was not written
	// (a store that does not answer).
	ActErr error
	// AdoptAllErr, if set, is what AdoptAll answers when it is no dry run.
	AdoptAllErr error
	// ProjectList and ArtifactList are what Projects and Artifacts answer.
	ProjectList  []model.Project
	ArtifactList map[string][]model.Artifact
	// Build steers BuildProject (fake_build.go).
	Build FakeBuild
	// ArtifactChanges are what a deploy plan of a job (by id) says it
	// changes in the jar.
	ArtifactChanges map[string]*model.ArtifactChange

	overviews map[string]api.ClusterOverview
	protected map[string]bool
	Viewer    bool
	Role      model.Role // WhoAmI's role when set (and not Viewer); else admin
	delay     time.Duration
	fail      error
	calls     []string
	Watchers  []chan api.Change
	seq       int64
	logs      fakeLogs    // fake_logs_test.go
	Metrics   fakeMetrics // fake_metrics_test.go

	Versions map[string][]model.Spec // job id → saved versions, oldest first (fake_editor_test.go)
	// GatewayVersion is the Flink release every cluster's SQL Gateway
	// says it runs; default 2.1.0, as the simulator's.
	GatewayVersion string
	// Nodes are each cluster's YARN nodes, as ClusterNodes lists them (fake_nodes.go).
	Nodes map[string][]api.ClusterNode
}

var _ api.Service = (*Fake)(nil)

// ErrClusterDown is what a failing fake answers.
var ErrClusterDown = errors.New("connection refused")

func (f *Fake) record(format string, args ...any) {
	f.Mu.Lock()
	f.calls = append(f.calls, fmt.Sprintf(format, args...))
	f.Mu.Unlock()
}

// Calls returns the recorded calls, in order.
func (f *Fake) Calls() []string {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return slices.Clone(f.calls)
}

// Called reports whether a call starting with prefix was made.
func (f *Fake) Called(prefix string) bool {
	for _, c := range f.Calls() {
		if strings.HasPrefix(c, prefix) {
			return true
		}
	}
	return false
}

// wait is the fake's latency and failure: it honours ctx like a real client.
func (f *Fake) wait(ctx context.Context) error {
	f.Mu.Lock()
	d, fail := f.delay, f.fail
	f.Mu.Unlock()
	if d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fail
}

// SetDelay makes every call wait d (or until its ctx ends).
func (f *Fake) SetDelay(d time.Duration) { f.Mu.Lock(); f.delay = d; f.Mu.Unlock() }

// SetFail makes every call fail with err (nil: succeed again).
func (f *Fake) SetFail(err error) { f.Mu.Lock(); f.fail = err; f.Mu.Unlock() }

func (f *Fake) find(ref string) (int, error) {
	i := slices.IndexFunc(f.Jobs, func(j api.JobView) bool { return j.ID == ref || j.Name == ref })
	if i < 0 {
		return -1, fmt.Errorf("job %q: not found", ref)
	}
	return i, nil
}

// ListJobs implements api.Service.
func (f *Fake) ListJobs(ctx context.Context, flt api.JobFilter) ([]api.JobView, error) {
	f.record("ListJobs")
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	var out []api.JobView
	for _, j := range f.Jobs {
		if flt.Cluster != "" && j.Cluster != flt.Cluster {
			continue
		}
		out = append(out, checked(j))
	}
	return out, nil
}

// Job implements api.Service.
func (f *Fake) Job(ctx context.Context, ref string) (api.JobDetail, error) {
	f.record("Job %s", ref)
	if err := f.wait(ctx); err != nil {
		return api.JobDetail{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, err := f.find(ref)
	if err != nil {
		return api.JobDetail{}, err
	}
	d := f.details[f.Jobs[i].ID]
	d.Job = f.Jobs[i].Job
	for _, c := range f.commands {
		if c.JobID == d.Job.ID && !slices.ContainsFunc(d.Commands, func(x model.Command) bool { return x.ID == c.ID }) {
			d.Commands = append(d.Commands, c)
		}
	}
	return d, nil
}

// SyncJob implements api.Service.
func (f *Fake) SyncJob(ctx context.Context, ref string) (model.Job, error) {
	f.record("SyncJob %s", ref)
	if err := f.wait(ctx); err != nil {
		return model.Job{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, err := f.find(ref)
	if err != nil {
		return model.Job{}, err
	}
	return f.Jobs[i].Job, nil
}

// CreateJob implements api.Service.
func (f *Fake) CreateJob(ctx context.Context, r api.CreateJobRequest) (model.Job, error) {
	f.record("CreateJob %s %s %s", r.Name, r.Cluster, r.Kind)
	if err := f.wait(ctx); err != nil {
		return model.Job{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if _, err := f.find(r.Name); err == nil {
		return model.Job{}, fmt.Errorf("job %s: already exists", r.Name)
	}
	j := model.Job{ID: fmt.Sprintf("j%03d", len(f.Jobs)+1), Name: r.Name, Kind: r.Kind, Cluster: r.Cluster,
		SpecVersion: 1, Parallelism: r.Parallelism, State: model.StateNone, CreatedAt: f.now}
	f.Jobs = append(f.Jobs, api.JobView{Job: j})
	f.emitLocked(api.Change{Kind: api.JobChanged, Job: &api.JobView{Job: j}})
	return j, nil
}

// SaveSpec implements api.Service.
func (f *Fake) SaveSpec(ctx context.Context, ref string, s model.Spec) (model.Spec, error) {
	f.record("SaveSpec %s", ref)
	if err := f.wait(ctx); err != nil {
		return model.Spec{}, err
	}
	return f.saveSpec(ref, s) // fake_editor_test.go
}

// Specs implements api.Service.
func (f *Fake) Specs(ctx context.Context, ref string) ([]model.Spec, error) {
	f.record("Specs %s", ref)
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	return f.SpecsOf(ref) // fake_editor_test.go
}

// planFor is what the service would plan for an action, from the job as
// the fake holds it now: refused as core's CanAct refuses it (the table
// of fake_actions.go), else the steps and the confirmation.
func planFor(j api.JobView, kind model.CommandKind, protected bool) api.ActionPlan {
	p := api.ActionPlan{JobID: j.ID, JobName: j.Name, Kind: kind, Allowed: true, Confirm: api.ConfirmAsk}
	if why := refusal(j.Job, kind, j.Pending); why != "" {
		p.Allowed, p.Reason = false, why
		return p
	}
	switch kind {
	case model.CmdPause:
		p.Steps = []string{"Flink will stop " + j.Name + " with a savepoint (stop-with-savepoint)."}
	case model.CmdSavepoint:
		p.Steps = []string{"Flink will trigger a savepoint of " + j.Name + "."}
		p.Confirm = api.ConfirmNone
	case model.CmdKill:
		p.Steps = []string{fmt.Sprintf("YARN will kill %s (per-job cluster).", j.AppID)}
		p.Warnings = []string{"State is NOT saved; latest checkpoint 12s ago."}
		p.Confirm = api.ConfirmDestructive
		if protected {
			p.Confirm = api.ConfirmName
		}
	case model.CmdRestart, model.CmdResubmit, model.CmdSubmit:
		p.Steps = []string{fmt.Sprintf("palink will submit %s v%d to %s.", j.Name, j.SpecVersion, j.Cluster)}
		if j.LatestSavepoint != nil {
			p.Restore = j.LatestSavepoint.Path
		}
	}
	return p
}

// restoreSteps say where a deploy restores from, as core's plan does:
// the point with its age, or empty state; what allowNonRestoredState
// does; and the job's crash loop, when the deploy restores its point.
func restoreSteps(p *api.ActionPlan, j api.JobView, r api.ActionRequest, now time.Time) {
	if p.Restore == "" {
		p.Steps = append(p.Steps, "Start with empty state.")
		return
	}
	from := "Restore state from " + p.Restore
	for _, rp := range []*model.RestorePoint{j.LatestSavepoint, j.LatestCheckpoint} {
		if rp != nil && rp.Path == p.Restore {
			from += " · " + model.Age(now.Sub(rp.Time)) + " ago"
			break
		}
	}
	p.Steps = append(p.Steps, from+".")
	if r.AllowNonRestoredState {
		p.Steps = append(p.Steps, "Flink drops the state that maps to no operator of the job (allowNonRestoredState).")
	}
	if loop := j.CrashLoop; loop != nil && loop.RestorePoint == p.Restore {
		p.CrashLoop = loop
		p.Warnings = append(p.Warnings, loop.Sentence()+".")
	}
}

// Plan implements api.Service.
func (f *Fake) Plan(ctx context.Context, r api.ActionRequest) (api.ActionPlan, error) {
	allow := ""
	if r.AllowNonRestoredState {
		allow = " allow-non-restored-state"
	}
	f.record("Plan %s %s %s%s", r.Kind, r.JobRef, restoreName(r.Restore), allow)
	if err := f.wait(ctx); err != nil {
		return api.ActionPlan{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, err := f.find(r.JobRef)
	if err != nil {
		return api.ActionPlan{}, err
	}
	j := f.Jobs[i]
	p := planFor(j, r.Kind, f.protected[j.Cluster])
	if p.Allowed && r.Kind.Deploys() {
		p.Artifact = f.ArtifactChanges[j.ID]
		switch r.Restore {
		case model.RestorePath:
			p.Restore = r.RestorePath
		case model.RestoreNone:
			p.Restore = ""
		case model.RestoreCheckpoint:
			p.Restore = ""
			if j.LatestCheckpoint != nil {
				p.Restore = j.LatestCheckpoint.Path
			}
		case 0, model.RestoreLatest:
			// The newest of the two, as core's latest.
			if cp := j.LatestCheckpoint; cp != nil && r.Kind != model.CmdSubmit &&
				(j.LatestSavepoint == nil || cp.Time.After(j.LatestSavepoint.Time)) {
				p.Restore = cp.Path
			}
		}
		if r.Kind == model.CmdSubmit {
			p.Restore = ""
		}
		restoreSteps(&p, j, r, f.now)
	}
	return p, nil
}

// Act implements api.Service.
func (f *Fake) Act(ctx context.Context, r api.ActionRequest) (model.Command, error) {
	f.record("Act %s %s %s %s", r.Kind, r.JobRef, restoreName(r.Restore), r.RestorePath)
	if err := f.wait(ctx); err != nil {
		return model.Command{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Viewer {
		return model.Command{}, errors.New("read-only")
	}
	if f.ActErr != nil {
		return model.Command{}, f.ActErr
	}
	i, err := f.find(r.JobRef)
	if err != nil {
		return model.Command{}, err
	}
	if p := planFor(f.Jobs[i], r.Kind, false); !p.Allowed {
		return model.Command{}, errors.New("refused: " + p.Reason)
	}
	f.seq++
	c := model.Command{ID: fmt.Sprintf("c%06d", f.seq), Seq: f.seq, JobID: f.Jobs[i].ID, Kind: r.Kind,
		Params: model.CommandParams{Restore: r.Restore, RestorePath: r.RestorePath}, State: model.CmdUndo,
		Issuer: "ops", CreatedAt: f.now}
	f.commands = append(f.commands, c)
	f.Jobs[i].Pending = &c
	jv := f.Jobs[i]
	f.emitLocked(api.Change{Kind: api.CommandChanged, Command: &c})
	f.emitLocked(api.Change{Kind: api.JobChanged, Job: &jv})
	return c, nil
}

// restoreName prints a restore choice; the zero value (none chosen) would
// send model's String into endless recursion (reported to the lead).
func restoreName(r model.RestoreChoice) string {
	if r == 0 {
		return "-"
	}
	return r.String()
}

// Finish ends a command the way the scheduler would, and moves its job.
func (f *Fake) Finish(id string, ok bool, logLine string) model.Command {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	ci := slices.IndexFunc(f.commands, func(c model.Command) bool { return c.ID == id })
	c := &f.commands[ci]
	c.Logf(f.now, "%s", logLine)
	c.State = model.CmdSucceeded
	if !ok {
		c.State, c.Error = model.CmdFailed, logLine
	}
	ji, _ := f.find(c.JobID)
	j := &f.Jobs[ji]
	from := j.State
	if ok {
		switch c.Kind {
		case model.CmdPause:
			j.State = model.StateFinished
		case model.CmdKill:
			j.State = model.StateKilled
		case model.CmdRestart, model.CmdResubmit, model.CmdSubmit:
			j.State = model.StateDeploying
		}
	}
	j.Pending = nil
	jv, cc := *j, *c
	ev := model.Event{JobID: j.ID, Seq: int64(len(f.details[j.ID].Events) + 1), Time: f.now, From: from, To: j.State,
		Reason: fmt.Sprintf("%s #%d by ops", c.Kind, c.Seq), CommandID: c.ID}
	f.emitLocked(api.Change{Kind: api.CommandChanged, Command: &cc})
	f.emitLocked(api.Change{Kind: api.JobChanged, Job: &jv, Event: &ev})
	return cc
}

// AddCommands adds commands to the history, as if run before.
func (f *Fake) AddCommands(cs ...model.Command) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.commands = append(f.commands, cs...)
}

// AddRestorePoints adds restore points to a job's record, as if palink
// had recorded them before.
func (f *Fake) AddRestorePoints(jobID string, rps ...model.RestorePoint) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	d := f.details[jobID]
	d.RestorePoints = append(slices.Clone(d.RestorePoints), rps...)
	f.details[jobID] = d
}

// WaitCommand implements api.Service.
func (f *Fake) WaitCommand(ctx context.Context, id string) (model.Command, error) {
	return f.Command(ctx, id)
}

// Command implements api.Service.
func (f *Fake) Command(ctx context.Context, id string) (model.Command, error) {
	f.record("Command %s", id)
	if err := f.wait(ctx); err != nil {
		return model.Command{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	for _, c := range f.commands {
		if c.ID == id {
			return c, nil
		}
	}
	return model.Command{}, fmt.Errorf("command %s: not found", id)
}

// Commands implements api.Service.
func (f *Fake) Commands(ctx context.Context, flt api.CommandFilter) ([]model.Command, error) {
	f.record("Commands")
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return slices.Clone(f.commands), nil
}

// Clusters implements api.Service.
func (f *Fake) Clusters(ctx context.Context) ([]api.ClusterStatus, error) {
	f.record("Clusters")
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return slices.Clone(f.ClusterList), nil
}

// Leadership implements api.Service.
func (f *Fake) Leadership(ctx context.Context) (api.Leadership, error) {
	f.record("Leadership")
	if err := f.wait(ctx); err != nil {
		return api.Leadership{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return f.Lead, nil
}

// ClusterOverview implements api.Service.
func (f *Fake) ClusterOverview(ctx context.Context, cluster string) (api.ClusterOverview, error) {
	f.record("ClusterOverview %s", cluster)
	if err := f.wait(ctx); err != nil {
		return api.ClusterOverview{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	ov, ok := f.overviews[cluster]
	if !ok {
		return api.ClusterOverview{}, fmt.Errorf("cluster %s: not found", cluster)
	}
	return ov, nil
}

// Adopt implements api.Service.
// DisposeSavepoint implements api.Service: it marks the record disposed.
func (f *Fake) DisposeSavepoint(ctx context.Context, r api.DisposeRequest) (model.RestorePoint, error) {
	f.record("DisposeSavepoint %s", r.Path)
	if err := f.wait(ctx); err != nil {
		return model.RestorePoint{}, err
	}
	return model.RestorePoint{Kind: model.Savepoint, Path: r.Path, Status: model.SavepointDisposed}, nil
}

// AddProject implements api.Service.
func (f *Fake) AddProject(_ context.Context, p model.Project) (model.Project, error) { return p, nil }

// Projects implements api.Service: none.
func (f *Fake) Projects(ctx context.Context) ([]model.Project, error) {
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return slices.Clone(f.ProjectList), nil
}

// Artifacts implements api.Service: none.
func (f *Fake) Artifacts(_ context.Context, project string) ([]model.Artifact, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return slices.Clone(f.ArtifactList[project]), nil
}

func (f *Fake) Adopt(ctx context.Context, r api.AdoptRequest) (model.Job, error) {
	f.record("Adopt %s %s %s", r.Cluster, r.AppID, r.Name)
	if err := f.wait(ctx); err != nil {
		return model.Job{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	j := model.Job{ID: fmt.Sprintf("j%03d", len(f.Jobs)+1), Name: r.Name, Kind: model.KindJAR, Cluster: r.Cluster,
		State: model.StateRunning, AppID: r.AppID, CreatedAt: f.now}
	f.Jobs = append(f.Jobs, api.JobView{Job: j})
	ov := f.overviews[r.Cluster]
	ov.Unmanaged = slices.DeleteFunc(slices.Clone(ov.Unmanaged), func(a api.Application) bool { return a.ID == r.AppID })
	f.overviews[r.Cluster] = ov
	return j, nil
}

// Watch implements api.Service.
func (f *Fake) Watch(ctx context.Context) (<-chan api.Change, error) {
	f.record("Watch")
	f.Mu.Lock()
	fail := f.fail
	f.Mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	ch := make(chan api.Change, 1024)
	f.Mu.Lock()
	f.Watchers = append(f.Watchers, ch)
	f.Mu.Unlock()
	go func() {
		<-ctx.Done()
		f.Mu.Lock()
		defer f.Mu.Unlock()
		f.Watchers = slices.DeleteFunc(f.Watchers, func(c chan api.Change) bool { return c == ch })
		close(ch)
	}()
	return ch, nil
}

// Emit sends a change to every watcher.
func (f *Fake) Emit(c api.Change) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.emitLocked(c)
}

func (f *Fake) emitLocked(c api.Change) {
	if c.Job != nil {
		v := checked(*c.Job)
		c.Job = &v
	}
	for _, w := range f.Watchers {
		select {
		case w <- c:
		default: // a reader this far behind gets a resync from a real service
		}
	}
}

// ReadOnly implements api.Service.
func (f *Fake) ReadOnly() bool { return f.Viewer }

// ActOnAlert records the call and acts as the service does on the alert
// of the rule and job: acknowledged or silenced by "ops" at the fake's now,
// or the last acknowledgement or silence undone (no window: the TUI's is
// what its tests check).
func (f *Fake) ActOnAlert(_ context.Context, a api.AlertAction) (model.Alert, error) {
	f.record("ActOnAlert %s %s ack=%v silence=%s unsilence=%v undo=%v", a.Rule, a.JobRef, a.Ack, a.Silence, a.Unsilence, a.Undo)
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Metrics.undos == nil {
		f.Metrics.undos = map[string]fakeUndo{}
	}
	for i, al := range f.Metrics.alerts {
		if al.Rule != a.Rule || (al.JobID != a.JobRef && al.JobName != a.JobRef) {
			continue
		}
		key := al.Key()
		u, undoable := f.Metrics.undos[key]
		switch {
		case a.Undo && !undoable:
			return model.Alert{}, fmt.Errorf("alert %s of %s: nothing to undo: %w", a.Rule, a.JobRef, model.ErrRefused)
		case a.Undo && u.ack:
			al.AckedBy, al.AckedAt = u.before.AckedBy, u.before.AckedAt
		case a.Undo:
			al.SilencedUntil, al.SilencedBy = u.before.SilencedUntil, u.before.SilencedBy
		case a.Ack:
			f.Metrics.undos[key] = fakeUndo{before: al, ack: true}
			al.AckedBy, al.AckedAt = "ops", f.now
		case a.Silence > 0:
			f.Metrics.undos[key] = fakeUndo{before: al}
			al.SilencedUntil, al.SilencedBy = f.now.Add(a.Silence), "ops"
		case a.Unsilence:
			al.SilencedUntil, al.SilencedBy = time.Time{}, ""
		}
		if a.Undo {
			delete(f.Metrics.undos, key)
		}
		f.Metrics.alerts[i] = al
		return al, nil
	}
	return model.Alert{}, fmt.Errorf("act on alert %s of %s: %w", a.Rule, a.JobRef, model.ErrNotFound)
}

// Backup is never called by the TUI.
func (f *Fake) Backup(context.Context, io.Writer) (int64, error) {
	return 0, errors.New("fake: no backup")
}
