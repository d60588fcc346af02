package agent_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

type (
	storeReader  = store.ReadTx
	clustersSpec = clusters.Spec
)

// The roles, proven by enumeration: every declared API method (api.Methods)
// is called with a valid example through the agent as an admin, an
// operator and a viewer, through a --read-only client, on a read-only
// agent and on a read-only palink in process. The audit log is the
// oracle of "it wrote": whatever an admin's call appended there must be
// declared Writes, and must append nothing for whoever may not write.
// A method without an example fails the test, so a new method cannot slip
// past; lowering a role shows as a viewer's call that wrote.

// walkFixture is what the examples act on.
type walkFixture struct {
	dir       string
	cmdID     string // the submit of the job "walk"
	savepoint string // a savepoint of "walk" palink recorded
	appID     string // an application palink does not manage
	vertex    string
	tm        string
	checkID   int64
	log       api.LogRef
	n         int  // makes names unique across calls
	table     bool // walk_t is in the catalog
}

// example calls one method with arguments that work on the fixture.
type example func(ctx context.Context, s api.Service, f *walkFixture) error

func diag(s api.Service) api.DiagnoseService { return s.(api.DiagnoseService) }

var examples = map[string]example{
	"ListJobs": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.ListJobs(ctx, api.JobFilter{})
		return err
	},
	"ListJobsPage": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.ListJobsPage(ctx, api.JobFilter{}, api.Page{Size: 10})
		return err
	},
	"Job": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Job(ctx, "walk")
		return err
	},
	"SyncJob": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.SyncJob(ctx, "walk")
		return err
	},
	"CreateJob": func(ctx context.Context, s api.Service, f *walkFixture) error {
		f.n++
		_, err := s.CreateJob(ctx, api.CreateJobRequest{Name: fmt.Sprintf("walk-new-%d", f.n), Cluster: "sim", Kind: model.KindSQL,
			Spec: model.Spec{SQL: coretest.SQL}})
		return err
	},
	"SaveSpec": func(ctx context.Context, s api.Service, f *walkFixture) error {
		f.n++
		_, err := s.SaveSpec(ctx, "walk", model.Spec{SQL: fmt.Sprintf("%s\n-- edit %d", coretest.SQL, f.n)})
		return err
	},
	"Specs": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Specs(ctx, "walk")
		return err
	},
	"Plan": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Plan(ctx, api.ActionRequest{JobRef: "walk", Kind: model.CmdSavepoint})
		return err
	},
	"Act": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		c, err := s.Act(ctx, api.ActionRequest{JobRef: "walk", Kind: model.CmdSavepoint})
		if err == nil {
			// Its end is audited too: let it end before the next method's turn.
			_, err = s.WaitCommand(ctx, c.ID)
		}
		return err
	},
	"WaitCommand": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.WaitCommand(ctx, f.cmdID)
		return err
	},
	"Command": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.Command(ctx, f.cmdID)
		return err
	},
	"Commands": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Commands(ctx, api.CommandFilter{})
		return err
	},
	"CommandsPage": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.CommandsPage(ctx, api.CommandFilter{JobRef: "walk"}, api.Page{Size: 10})
		return err
	},
	"Leadership": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Leadership(ctx)
		return err
	},
	"Clusters": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Clusters(ctx)
		return err
	},
	"ClusterOverview": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.ClusterOverview(ctx, "sim")
		return err
	},
	"ClusterNodes": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.ClusterNodes(ctx, "sim")
		return err
	},
	"Adopt": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.Adopt(ctx, api.AdoptRequest{Cluster: "sim", AppID: f.appID, Name: "walk-adopted"})
		return err
	},
	"AdoptAll": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.AdoptAll(ctx, api.AdoptAllRequest{Cluster: "sim", Queue: "no-such-queue"})
		return err
	},
	"DisposeSavepoint": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.DisposeSavepoint(ctx, api.DisposeRequest{Path: f.savepoint, JobRef: "walk", Force: true})
		return err
	},
	"AddProject": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.AddProject(ctx, model.Project{Name: "walk-proj", Repo: filepath.Join(f.dir, "no-repo.git"), Build: "true", Artifact: "x.jar"})
		return err
	},
	"Projects": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Projects(ctx)
		return err
	},
	// The repository does not exist, so the build fails; a failed build is
	// audited all the same.
	"BuildProject": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.BuildProject(ctx, api.BuildRequest{Project: "walk-proj"})
		if err != nil && !errors.Is(err, model.ErrReadOnly) && !errors.Is(err, model.ErrForbidden) {
			return nil
		}
		return err
	},
	"Artifacts": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Artifacts(ctx, "walk-proj")
		return err
	},
	"BuildStatus": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.BuildStatus(ctx, "walk-proj")
		return err
	},
	"Watch": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		_, err := s.Watch(ctx)
		return err
	},
	"ReadOnly": func(_ context.Context, s api.Service, _ *walkFixture) error {
		_ = s.ReadOnly()
		return nil
	},
	"Backup": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Backup(ctx, io.Discard)
		return err
	},
	"SetInterest": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		return s.SetInterest(ctx, api.InterestRequest{Client: "walk", Jobs: []string{"walk"}})
	},
	"JobMetrics": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.JobMetrics(ctx, "walk")
		return err
	},
	"FlinkMetrics": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.FlinkMetrics(ctx, api.FlinkMetricsRequest{JobRef: "walk", Scope: model.MetricScopeVertex, VertexID: f.vertex})
		return err
	},
	"ChartMetric": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.ChartMetric(ctx, api.ChartRequest{JobRef: "walk", Chart: model.MetricChart{Scope: model.MetricScopeJob, Metric: "uptime"}})
		return err
	},
	"SubtaskHistory": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.SubtaskHistory(ctx, api.VertexRequest{JobRef: "walk", VertexID: f.vertex})
		return err
	},
	"Alerts": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Alerts(ctx, api.AlertFilter{})
		return err
	},
	"ActOnAlert": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.ActOnAlert(ctx, api.AlertAction{Rule: "job-failed", JobRef: "walk-failed", Silence: time.Hour})
		return err
	},
	"Logs": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Logs(ctx, "walk")
		return err
	},
	"ReadLog": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.ReadLog(ctx, api.LogRequest{JobRef: "walk", Log: f.log, Tail: true, Limit: 1024})
		return err
	},
	"FindInLog": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.FindInLog(ctx, api.LogSearch{JobRef: "walk", Log: f.log, Query: api.LogQuery{Text: "INFO"}})
		return err
	},
	"SaveLog": func(ctx context.Context, s api.Service, f *walkFixture) error {
		f.n++
		_, err := s.SaveLog(ctx, api.SaveLogRequest{JobRef: "walk", Log: f.log, Path: filepath.Join(f.dir, fmt.Sprintf("saved-%d.log", f.n))})
		return err
	},
	"Explain": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Explain(ctx, "sim", coretest.SQL)
		return err
	},
	"DebugOnCluster": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.DebugOnCluster(ctx, api.RemoteDebugRequest{Cluster: "sim", SQL: "SELECT 1 AS x", Limit: 1})
		return err
	},
	"FlinkVersion": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.FlinkVersion(ctx, "sim")
		return err
	},
	"Tables": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Tables(ctx, "sim")
		return err
	},
	"Table": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Table(ctx, api.TableRef{Cluster: "sim", Name: "walk_fixed"})
		return err
	},
	"PutTable": func(ctx context.Context, s api.Service, f *walkFixture) error {
		f.n++
		_, err := s.PutTable(ctx, api.PutTableRequest{Cluster: "sim", Name: "walk_t", Create: !f.table,
			SQL: fmt.Sprintf("CREATE TABLE walk_t (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '%d')", f.n)})
		f.table = f.table || err == nil
		return err
	},
	"RemoveTable": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.RemoveTable(ctx, api.TableRef{Cluster: "sim", Name: "walk_t"})
		f.table = f.table && err != nil
		return err
	},
	"Vars": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Vars(ctx, "sim")
		return err
	},
	"SetVar": func(ctx context.Context, s api.Service, f *walkFixture) error {
		f.n++
		_, err := s.SetVar(ctx, model.Variable{Cluster: "sim", Name: "walk_v", Value: fmt.Sprint(f.n)})
		return err
	},
	"RemoveVar": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		return s.RemoveVar(ctx, api.VarRef{Cluster: "sim", Name: "walk_v"})
	},
	"UDFs": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.UDFs(ctx)
		return err
	},
	"AddUDF": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := s.AddUDF(ctx, api.AddUDFRequest{UDF: model.UDF{Name: "walk_fn", Class: "walk.fn", Language: model.UDFPython,
			PyFile: filepath.Join(f.dir, "walk.py")}, Replace: true})
		return err
	},
	"RemoveUDF": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.RemoveUDF(ctx, api.RemoveUDFRequest{Name: "walk_fn"})
		return err
	},
	"JobGraph": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := diag(s).JobGraph(ctx, "walk")
		return err
	},
	"Vertex": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := diag(s).Vertex(ctx, api.VertexRequest{JobRef: "walk", VertexID: f.vertex})
		return err
	},
	"Checkpoints": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := diag(s).Checkpoints(ctx, "walk")
		return err
	},
	"Checkpoint": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := diag(s).Checkpoint(ctx, api.CheckpointRequest{JobRef: "walk", ID: f.checkID})
		return err
	},
	"TaskManagers": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := diag(s).TaskManagers(ctx, "walk")
		return err
	},
	"TaskManager": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := diag(s).TaskManager(ctx, api.TaskManagerRequest{JobRef: "walk", ID: f.tm})
		return err
	},
	"FlinkConfig": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := diag(s).FlinkConfig(ctx, "walk")
		return err
	},
	"FlameGraph": func(ctx context.Context, s api.Service, f *walkFixture) error {
		_, err := diag(s).FlameGraph(ctx, api.FlameGraphRequest{JobRef: "walk", VertexID: f.vertex})
		return err
	},
	"Exceptions": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := diag(s).Exceptions(ctx, "walk")
		return err
	},
	"ContainerLogs": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := diag(s).ContainerLogs(ctx, "walk")
		return err
	},
	"Teams": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Teams(ctx)
		return err
	},
	"TeamMembers": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.TeamMembers(ctx, "walk-team")
		return err
	},
	"AddTeam": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.AddTeam(ctx, api.TeamRequest{Name: "walk-team"})
		return err
	},
	"Grant": func(ctx context.Context, s api.Service, f *walkFixture) error {
		f.n++
		_, err := s.Grant(ctx, api.GrantRequest{Team: "walk-team", User: fmt.Sprintf("walk-user-%d", f.n), Role: model.Viewer})
		return err
	},
	"WhoAmI": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.WhoAmI(ctx)
		return err
	},
	"Audit": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		_, err := s.Audit(ctx, api.AuditFilter{Limit: 10})
		return err
	},
	"Debug": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		d, ok := s.(api.Debugger)
		if !ok {
			return nil // a local method: the agent's client has none
		}
		ev, err := d.Debug(ctx, api.DebugRequest{SQL: coretest.SQL, Limit: 1})
		for range ev {
		}
		return err
	},
	// The importers run in the caller's process, like a debug run: no
	// service, in this process or an agent's, is an api.Importer.
	"ImportJDBC": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		if _, ok := s.(api.Importer); ok {
			return fmt.Errorf("the service is an api.Importer: an import would run in the agent's process")
		}
		return nil
	},
	"ImportKafka": func(ctx context.Context, s api.Service, _ *walkFixture) error {
		if _, ok := s.(api.Importer); ok {
			return fmt.Errorf("the service is an api.Importer: an import would run in the agent's process")
		}
		return nil
	},
}

// newWalk makes the fixture: a RUNNING job "walk" with a savepoint, a
// FAILED job "walk-failed" whose alert fires, a catalog table, and an
// application palink does not manage.
func newWalk(t *testing.T) (*coretest.Env, *walkFixture) {
	f := &walkFixture{dir: t.TempDir()}
	e := coretest.NewWith(t, sim.Options{}, nil, func(o *core.Options) { o.ProjectCache = filepath.Join(f.dir, "projects") })
	// The alert rules run beside state sync, as in an agent.
	ctx, cancel := context.WithCancel(e.Ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = e.Svc.RunSync(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	if err := os.WriteFile(filepath.Join(f.dir, "walk.py"), []byte("def fn(s):\n    return s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.CreateSQL("walk")
	f.cmdID = e.Act("walk", model.CmdSubmit, 0).ID
	e.SyncUntil("walk", "RUNNING with a checkpoint", func(j model.Job) bool { return coretest.Running(j) && j.LatestCheckpoint != nil })
	sp := e.Act("walk", model.CmdSavepoint, 0)
	if sp.State != model.CmdSucceeded {
		t.Fatalf("savepoint: %s", sp.State)
	}
	f.savepoint = e.Job("walk").LatestSavepoint.Path

	e.CreateSQL("walk-failed")
	e.Act("walk-failed", model.CmdSubmit, 0)
	e.SyncUntil("walk-failed", "RUNNING", coretest.Running)
	if err := e.Sim.FailJob(e.Job("walk-failed").AppID); err != nil {
		t.Fatal(err)
	}
	e.SyncUntil("walk-failed", "FAILED", func(j model.Job) bool { return j.State == model.StateFailed })
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, err := e.Svc.MeasureNow(e.Ctx); err != nil {
			t.Fatal(err)
		}
		if as, err := e.Svc.Alerts(e.Ctx, api.AlertFilter{JobRef: "walk-failed"}); err == nil && len(as) > 0 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("no alert fires for walk-failed: %v", err)
		}
	}
	if _, err := e.Svc.PutTable(e.Ctx, api.PutTableRequest{Cluster: "sim", Name: "walk_fixed", Create: true,
		SQL: "CREATE TABLE walk_fixed (id BIGINT) WITH ('connector' = 'datagen')"}); err != nil {
		t.Fatal(err)
	}
	// A team that owns the cluster: its members' examples need it. Only
	// the agents given its Tenancy enforce it
	// (TestEveryMethodRefusesByTheRoleInTheTeam).
	if _, err := e.Svc.AddTeam(e.Ctx, api.TeamRequest{Name: "walk-team", Owns: []model.Holding{{Cluster: "sim"}}}); err != nil {
		t.Fatal(err)
	}
	sub, err := e.Sim.Submit(e.Ctx, sim.SubmitRequest{Name: "not-ours", Queue: "default", User: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	f.appID = sub.AppID

	g, err := e.Svc.JobGraph(e.Ctx, "walk")
	if err != nil || len(g.Vertices) == 0 {
		t.Fatalf("job graph: %v", err)
	}
	f.vertex = g.Vertices[0].ID
	tms, err := e.Svc.TaskManagers(e.Ctx, "walk")
	if err != nil || len(tms.TaskManagers) == 0 {
		t.Fatalf("task managers: %v", err)
	}
	f.tm = tms.TaskManagers[0].ID
	cps, err := e.Svc.Checkpoints(e.Ctx, "walk")
	if err != nil || len(cps.History) == 0 {
		t.Fatalf("checkpoints: %v", err)
	}
	f.checkID = cps.History[0].ID
	ls, err := e.Svc.Logs(e.Ctx, "walk")
	if err != nil || len(ls.Sources) == 0 {
		t.Fatalf("logs: %v", err)
	}
	f.log = ls.Sources[0].Ref
	return e, f
}

func auditLen(t *testing.T, e *coretest.Env) int {
	t.Helper()
	var n int
	if err := e.St.View(e.Ctx, func(tx storeReader) error {
		a, err := tx.Audit(0, 0)
		n = len(a)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// refusedForRole reports whether err is a refusal for the caller's role or
// for --read-only.
func refusedForRole(err error) bool {
	return errors.Is(err, model.ErrReadOnly) || errors.Is(err, model.ErrForbidden)
}

func TestEveryMethodRefusesWhoMayNotCallIt(t *testing.T) {
	e, f := newWalk(t)
	me := core.CurrentUser()
	var missing []string
	for _, m := range api.Methods() {
		if examples[m.Name] == nil {
			missing = append(missing, m.Name)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("declared methods without an example in roles_test.go: %s", strings.Join(missing, ", "))
	}

	// An admin may call everything. Every method declared Writes must
	// append to the audit log, and whatever appended there is an action a
	// viewer may not take (Explain too: it runs SQL as the agent).
	admin := serveAgent(t, e, agent.Roles{Self: me})
	if admin.Info().Role != model.Admin {
		t.Fatalf("the agent's own user is %s, want admin", admin.Info().Role)
	}
	for _, m := range api.Methods() {
		before := auditLen(t, e)
		err := examples[m.Name](e.Ctx, admin, f)
		if err != nil {
			t.Errorf("%s as an admin: %v", m.Name, err)
			continue
		}
		wrote := auditLen(t, e) > before
		if m.Writes && !wrote {
			t.Errorf("%s as an admin: declared Writes, but nothing was audited", m.Name)
		}
		if wrote && m.Role == model.Viewer {
			t.Errorf("%s as an admin: appended to the audit log, but its declaration lets viewers call it", m.Name)
		}
	}

	for _, c := range []struct {
		name  string
		roles agent.Roles
		role  model.Role
		// guard: the service in this process behind api.Guard (as an SSH
		// session has it), instead of an agent's client.
		guard bool
	}{
		{"operator", agent.Roles{Operators: []string{me}}, model.Operator, false},
		{"viewer", agent.Roles{Operators: []string{"somebody-else"}}, model.Viewer, false},
		{"operator in process, guarded", agent.Roles{}, model.Operator, true},
		{"viewer in process, guarded", agent.Roles{}, model.Viewer, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r api.Service
			if c.guard {
				r = api.Guard(e.Svc, api.Caller{User: me, Role: c.role, Where: " over SSH"})
			} else {
				cl := serveAgent(t, e, c.roles)
				if cl.Info().Role != c.role {
					t.Fatalf("role %s, want %s", cl.Info().Role, c.role)
				}
				r = cl
			}
			for _, m := range api.Methods() {
				if m.Local && c.guard {
					continue // not part of Service: the caller's own process
				}
				before := auditLen(t, e)
				err := examples[m.Name](e.Ctx, r, f)
				switch {
				case m.Local:
				case c.role.Allows(m.Role) && refusedForRole(err):
					t.Errorf("%s as a%s %s: refused: %v", m.Name, map[bool]string{true: "n"}[c.role == model.Operator], c.role, err)
				case !c.role.Allows(m.Role) && !refusedForRole(err):
					t.Errorf("%s needs %s; as %s it was not refused: %v", m.Name, m.Role, c.role, err)
				case !c.role.Allows(m.Role) && !strings.Contains(fmt.Sprint(err), "user "+me+" is a"):
					t.Errorf("%s as %s: the refusal does not name the user and role: %v", m.Name, c.role, err)
				}
				if !c.role.Allows(m.Role) && auditLen(t, e) != before {
					t.Errorf("%s as %s: refused, yet the audit log grew", m.Name, c.role)
				}
			}
		})
	}

	// --read-only refuses every method that writes before it reaches the
	// agent, whatever the role; so does a read-only agent, and a read-only
	// palink in process.
	roClient := serveAgent(t, e, agent.Roles{Self: me})
	roClient.SetReadOnly()
	roCore, err := core.NewLocal(core.Options{Store: e.St, Clusters: []clustersSpec{coretest.SimCluster(e.Sim)}, User: "tester", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	roAgent := serveAgentOn(t, e, roCore, agent.Roles{Self: me})
	for name, svc := range map[string]api.Service{"--read-only client": roClient, "read-only agent": roAgent, "read-only in process": roCore} {
		t.Run(name, func(t *testing.T) {
			for _, m := range api.Methods() {
				if m.Local && svc != api.Service(roCore) {
					continue
				}
				before := auditLen(t, e)
				err := examples[m.Name](e.Ctx, svc, f)
				if m.Writes && !errors.Is(err, model.ErrReadOnly) {
					t.Errorf("%s writes; %s did not refuse it as read-only: %v", m.Name, name, err)
				}
				if !m.Writes && errors.Is(err, model.ErrReadOnly) {
					t.Errorf("%s only reads; %s refused it: %v", m.Name, name, err)
				}
				if m.Writes && auditLen(t, e) != before {
					t.Errorf("%s: refused as read-only by %s, yet the audit log grew", m.Name, name)
				}
			}
		})
	}
	if slices.ContainsFunc(api.Methods(), func(m api.Method) bool { return m.Writes && m.Role == model.Viewer }) {
		t.Error("a method that writes is declared for viewers")
	}
}
