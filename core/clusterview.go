package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// Clusters implements Service.
func (l *Local) Clusters(ctx context.Context) ([]api.ClusterStatus, error) {
	var out []api.ClusterStatus
	for _, name := range clusterNames(l.specs) {
		if cl := l.clusters[name]; cl != nil {
			out = append(out, cl.Status())
		}
	}
	return out, nil
}

// ClusterOverview implements Service: YARN metrics, queues, and the Flink
// applications no palink job owns.
func (l *Local) ClusterOverview(ctx context.Context, name string) (api.ClusterOverview, error) {
	cl := l.clusters[name]
	if cl == nil {
		return api.ClusterOverview{}, fmt.Errorf("cluster %q is not configured (known: %s)", name, strings.Join(clusterNames(l.specs), ", "))
	}
	ov := api.ClusterOverview{Name: name}
	var (
		wg                  sync.WaitGroup
		mErr, sErr, appsErr error
		metrics             yarn.ClusterMetrics
		sched               yarn.Scheduler
		apps                []yarn.Application
	)
	wg.Add(3)
	go func() { defer wg.Done(); metrics, mErr = cl.RM.ClusterMetrics(ctx) }()
	go func() { defer wg.Done(); sched, sErr = cl.RM.Scheduler(ctx) }()
	go func() {
		defer wg.Done()
		apps, appsErr = cl.RM.Applications(ctx, yarn.AppFilter{ApplicationTypes: []string{cl.Cfg.ApplicationType}, States: clusters.LiveStates})
	}()
	wg.Wait()
	err := errors.Join(mErr, sErr, appsErr)
	cl.Observe(err, l.now())
	if mErr == nil {
		ov.Metrics = api.ClusterMetrics{
			AppsRunning: metrics.AppsRunning, AppsPending: metrics.AppsPending, AppsFailed: metrics.AppsFailed,
			AppsKilled: metrics.AppsKilled, AppsCompleted: metrics.AppsCompleted,
			MemoryUsedMB: metrics.AllocatedMB, MemoryTotalMB: metrics.TotalMB,
			VCoresUsed: metrics.AllocatedVirtualCores, VCoresTotal: metrics.TotalVirtualCores,
			ActiveNodes: metrics.ActiveNodes, UnhealthyNodes: metrics.UnhealthyNodes,
		}
	}
	if sErr == nil {
		ov.Queues = flattenQueues(sched)
	}
	if appsErr == nil {
		owned, sessions := map[string]bool{}, map[string]bool{}
		if s := cl.Cfg.Deploy.SessionApp; s != "" {
			sessions[s] = true
		}
		var jobs []model.Job
		if err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
			jobs, err = tx.Jobs()
			for _, j := range jobs {
				switch {
				case j.AppID == "":
				case j.Session:
					sessions[j.AppID] = true
				default:
					owned[j.AppID] = true
				}
			}
			return err
		}); err != nil {
			return ov, err
		}
		ov.Sessions = sessionClusters(ctx, cl, apps, sessions)
		for _, a := range apps {
			if owned[a.ID] || clusters.HasTag(a.Tags(), clusters.TagPalink) && !legacyOfOurs(jobs, a) {
				continue
			}
			ov.Unmanaged = append(ov.Unmanaged, api.Application{ID: a.ID, Name: a.Name, Type: a.ApplicationType,
				User: a.User, Queue: a.Queue, State: a.State, Tags: a.Tags(), StartedAt: a.Started()})
		}
		sort.Slice(ov.Unmanaged, func(i, k int) bool { return ov.Unmanaged[i].ID < ov.Unmanaged[k].ID })
	}
	if mErr != nil && sErr != nil && appsErr != nil {
		// Nothing was fetched: the overview is no overview (FetchedAt stays zero).
		if errors.Is(mErr, yarn.ErrUnauthorized) || errors.Is(mErr, yarn.ErrKerberos) {
			// The RM answered, and refused: say why once, not "no answer".
			return ov, fmt.Errorf("cluster %s: %w", name, mErr)
		}
		return ov, fmt.Errorf("cluster %s: no ResourceManager answered: %w", name, err)
	}
	ov.FetchedAt = l.now()
	return ov, err
}

// legacyOfOurs reports whether a palink from before store ids submitted a
// for one of jobs: this store did not take it by itself (it may be another
// copy's of the same older store), so it is listed for a person to adopt.
func legacyOfOurs(jobs []model.Job, a yarn.Application) bool {
	for _, j := range jobs {
		if clusters.LegacyFor(a, j.ID) {
			return true
		}
	}
	return false
}

// sessionClusters asks each live session cluster palink uses for its
// TaskManagers and slots, concurrently.
func sessionClusters(ctx context.Context, cl *clusters.Cluster, apps []yarn.Application, ids map[string]bool) []api.SessionCluster {
	var out []api.SessionCluster
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, a := range apps {
		if !ids[a.ID] || a.State != yarn.AppRunning {
			continue
		}
		wg.Add(1)
		go func(a yarn.Application) {
			defer wg.Done()
			sc := api.SessionCluster{AppID: a.ID, Name: a.Name}
			f, err := cl.Flink(a)
			if err == nil {
				var o yarn.FlinkOverview
				if o, err = f.Overview(ctx); err == nil {
					sc.TaskManagers, sc.SlotsTotal, sc.SlotsFree, sc.Jobs = o.TaskManagers, o.SlotsTotal, o.SlotsAvailable, o.JobsRunning
				}
			}
			if err != nil {
				sc.Error = err.Error()
			}
			mu.Lock()
			out = append(out, sc)
			mu.Unlock()
		}(a)
	}
	wg.Wait()
	sort.Slice(out, func(i, k int) bool { return out[i].AppID < out[k].AppID })
	return out
}

// Adopt implements Service: an application palink did not deploy becomes a
// job in DEPLOY_SUCCEEDED; sync takes it from there. Its spec is unknown, so
// it can be paused, killed and savepointed, and restarted only after a spec
// is saved. An application whose tags name one of this store's jobs (and
// no other store), such as one a palink from before store ids submitted,
// which reconciliation does not take by itself, becomes that job's
// instead (adoptInto), unless Name names another job.
func (l *Local) Adopt(ctx context.Context, r api.AdoptRequest) (model.Job, error) {
	if l.readOnly {
		return model.Job{}, api.ReadOnly("adopt")
	}
	cl := l.clusters[r.Cluster]
	if cl == nil {
		return model.Job{}, fmt.Errorf("adopt %s: cluster %q is not configured", r.AppID, r.Cluster)
	}
	app, err := cl.RM.Application(ctx, r.AppID)
	if err != nil {
		return model.Job{}, fmt.Errorf("adopt %s: %w", r.AppID, err)
	}
	if app.Final() {
		return model.Job{}, fmt.Errorf("adopt %s: the application already ended (%s)", r.AppID, app.State)
	}
	name := r.Name
	if name == "" {
		name = sanitizeName(app.Name)
	}
	if err := checkJobName(name); err != nil {
		return model.Job{}, fmt.Errorf("adopt %s: %w", r.AppID, err)
	}
	now := l.now()
	user := orUser(r.Issuer, l.user)
	j := model.Job{ID: newJobID(), Name: name, Kind: model.KindJAR, Cluster: r.Cluster, SpecVersion: 1,
		AppID: app.ID, TrackingURL: app.TrackingURL, JMAddress: app.AMRPCAddress,
		CreatedAt: now, UpdatedAt: now}
	var ev *model.Event
	err = l.st.Update(ctx, func(tx store.Tx) error {
		jobs, err := tx.Jobs()
		if err != nil {
			return err
		}
		for _, o := range jobs {
			if o.AppID == app.ID && !o.Session {
				return fmt.Errorf("adopt %s: job %s already owns it", app.ID, o.Name)
			}
		}
		if o, ok := taggedJob(jobs, app, l.st.ID(), r); ok {
			j, ev, err = adoptInto(tx, o, app, user, now)
			return err
		}
		if err := tx.CreateJob(j); err != nil {
			return fmt.Errorf("adopt %s as %s: %w", app.ID, name, err)
		}
		if _, err := tx.AddSpec(model.Spec{JobID: j.ID, Author: user, CreatedAt: now,
			Note: fmt.Sprintf("adopted from %s (%s); its code is not known to palink", app.ID, app.Name)}); err != nil {
			return err
		}
		j, ev, err = journal.Apply(tx, j, decide.EvAdopt, fmt.Sprintf("adopted %s by %s", app.ID, user), "", now)
		if err != nil {
			return err
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: now, User: user, Action: "adopt", JobID: j.ID, Outcome: "succeeded: " + app.ID})
		return err
	})
	if err != nil {
		return model.Job{}, err
	}
	publisher{l}.Job(j, nil, ev)
	return j, nil
}

// taggedJob is the job of this store that application a's tags name, if
// a carries no other store's tag and the request names that job or none.
func taggedJob(jobs []model.Job, a yarn.Application, storeID string, r api.AdoptRequest) (model.Job, bool) {
	if clusters.OtherStore(a, storeID) {
		return model.Job{}, false
	}
	for _, o := range jobs {
		if o.Cluster == r.Cluster && clusters.HasTag(a.Tags(), clusters.JobTag(o.ID)) && (r.Name == "" || r.Name == o.Name) {
			return o, true
		}
	}
	return model.Job{}, false
}

// adoptInto makes application a job j's: the job must run nothing and
// wait for no command, so that it never has two applications.
func adoptInto(tx store.Tx, j model.Job, a yarn.Application, user string, now time.Time) (model.Job, *model.Event, error) {
	if j.State.Live() {
		return j, nil, fmt.Errorf("adopt %s: its tags name job %s, which is %s; adopt it only into a job that runs nothing, or as a new job with --name", a.ID, j.Name, j.State)
	}
	p, err := journal.Pending(tx, j.ID)
	if err != nil {
		return j, nil, err
	}
	if p != nil {
		return j, nil, fmt.Errorf("adopt %s: its tags name job %s, whose %s #%d is still %s; let it end first (`palink sync --once` resumes an orphaned one)", a.ID, j.Name, p.Kind, p.Seq, p.State)
	}
	j.AppID, j.TrackingURL, j.JMAddress = a.ID, a.TrackingURL, a.AMRPCAddress
	j.FlinkJobID, j.Session, j.FlinkState, j.Diagnostics, j.Drift = "", false, "", "", nil
	j.StartedAt, j.NextRestart = time.Time{}, time.Time{}
	j, ev, err := journal.Apply(tx, j, decide.EvAdopt, fmt.Sprintf("adopted %s by %s: its tags name this job", a.ID, user), "", now)
	if err != nil {
		return j, nil, fmt.Errorf("adopt %s into %s: %w", a.ID, j.Name, err)
	}
	_, err = tx.AppendAudit(model.AuditEntry{Time: now, User: user, Action: "adopt", JobID: j.ID, Outcome: "succeeded: " + a.ID})
	return j, ev, err
}

func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		ok := r == '-' || r == '_' || r == '.' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "adopted"
	}
	return b.String()
}

// live fetches what the cluster says of a job right now, for the detail view.
func live(ctx context.Context, cs map[string]*clusters.Cluster, now func() time.Time, j model.Job) (*api.LiveJob, error) {
	if j.AppID == "" {
		return nil, nil
	}
	cl := cs[j.Cluster]
	if cl == nil {
		return nil, fmt.Errorf("cluster %q is not configured", j.Cluster)
	}
	app, err := cl.RM.Application(ctx, j.AppID)
	cl.Observe(err, now())
	if err != nil {
		return nil, fmt.Errorf("application %s: %w", j.AppID, err)
	}
	lj := &api.LiveJob{FetchedAt: now(), YARNState: app.State, FinalStatus: app.FinalStatus}
	if app.State != yarn.AppRunning || j.FlinkJobID == "" {
		return lj, nil
	}
	f, err := cl.Flink(app)
	if err != nil {
		return lj, err
	}
	var (
		wg            sync.WaitGroup
		det           yarn.JobDetails
		cps           yarn.CheckpointStats
		ex            yarn.JobExceptions
		dErr, cErr, e error
	)
	wg.Add(3)
	go func() { defer wg.Done(); det, dErr = f.Job(ctx, j.FlinkJobID) }()
	go func() { defer wg.Done(); cps, cErr = f.Checkpoints(ctx, j.FlinkJobID) }()
	go func() { defer wg.Done(); ex, e = f.Exceptions(ctx, j.FlinkJobID, 20) }()
	wg.Wait()
	if dErr == nil {
		lj.FlinkState = det.State
		for _, v := range det.Vertices {
			lj.Vertices = append(lj.Vertices, api.Vertex{ID: v.ID, Name: v.Name, Parallelism: v.Parallelism, Status: v.Status})
		}
		raw := det.Raw
		if len(raw) == 0 {
			raw, _ = json.Marshal(det)
		}
		lj.RawJSON = indentJSON(raw)
	}
	if cErr == nil {
		for _, c := range cps.History {
			lj.Checkpoints = append(lj.Checkpoints, api.CheckpointInfo{
				ID: c.ID, Status: c.Status, Savepoint: c.IsSavepoint, TriggeredAt: time.UnixMilli(c.TriggerTimestamp),
				Duration: time.Duration(c.EndToEndDuration) * time.Millisecond, Size: c.CheckpointedSize,
				Path: c.ExternalPath, Failure: c.FailureMessage,
			})
		}
	}
	if e == nil {
		lj.Exceptions = exceptionInfos(ex)
	}
	return lj, errors.Join(dErr, cErr, e)
}

// exceptionInfos orders a job's exceptions root cause first, then history.
func exceptionInfos(ex yarn.JobExceptions) []api.ExceptionInfo {
	var out []api.ExceptionInfo
	for _, e := range ex.History.Entries {
		out = append(out, api.ExceptionInfo{Time: time.UnixMilli(e.Timestamp), Name: e.ExceptionName,
			Stacktrace: e.Stacktrace, Task: e.TaskName, Location: e.Endpoint})
	}
	if len(out) == 0 && ex.RootException != "" {
		out = append(out, api.ExceptionInfo{Time: time.UnixMilli(ex.Timestamp), Name: model.FirstLine(ex.RootException), Stacktrace: ex.RootException})
	}
	return out
}

func indentJSON(b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return string(b)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(b)
	}
	return string(out)
}

// flattenQueues lists the scheduler's queues depth-first.
func flattenQueues(s yarn.Scheduler) []api.Queue {
	var out []api.Queue
	for _, q := range s.Flatten() {
		out = append(out, api.Queue{Name: q.Name, Depth: q.Depth, Capacity: q.Capacity, UsedCapacity: q.UsedCapacity,
			MaxCapacity: q.MaxCapacity, Apps: q.Apps})
	}
	return out
}

// EndpointCheck is one endpoint as CheckEndpoints tried it.
type EndpointCheck = clusters.EndpointCheck

// CheckEndpoints connects once to every endpoint of every cluster (the
// RMs, the web proxy, the SQL Gateway) with the clusters' own
// authentication and TLS, for `palink config check --connect`. It needs
// no store.
func CheckEndpoints(ctx context.Context, specs []clusters.Spec) ([]EndpointCheck, error) {
	cs, err := clusters.New(specs)
	if err != nil {
		return nil, err
	}
	var out []EndpointCheck
	for _, name := range clusterNames(specs) {
		out = append(out, cs[name].CheckEndpoints(ctx)...)
	}
	return out, nil
}
