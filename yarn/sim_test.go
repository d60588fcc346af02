package yarn_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/yarn"
	"github.com/palink/palink/yarn/sim"
)

// These tests run the clients against the simulated cluster with each of
// its faults switched on: every call must end in a success (after a retry or
// a failover) or a clear typed error — never a hang or a panic. The wire
// shapes themselves are checked against the specs in the package's own
// tests; here the point is the clients' behaviour under the sim's faults.

func startSim(t *testing.T, o sim.Options) *sim.Cluster {
	t.Helper()
	c, err := sim.New(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(t.Context(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func quick() yarn.Options {
	return yarn.Options{
		Timeout:      time.Second,
		RetryWait:    time.Millisecond,
		RetryMaxWait: 5 * time.Millisecond,
		PollInterval: time.Millisecond,
	}
}

// bounded gives each call a deadline far beyond what it needs, so that a
// hang fails the test instead of stalling it.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestSimRMFailover(t *testing.T) {
	c := startSim(t, sim.Options{Seed: 1, RMs: 2})
	urls := c.RMURLs()
	rm, err := yarn.NewResourceManager(urls, quick())
	if err != nil {
		t.Fatal(err)
	}
	ci, err := rm.ClusterInfo(bounded(t))
	if err != nil || ci.HAState != "ACTIVE" || rm.Active() != urls[0] {
		t.Fatalf("info %+v active %s err %v", ci, rm.Active(), err)
	}
	c.FailoverRM()
	ci, err = rm.ClusterInfo(bounded(t))
	if err != nil || ci.HAState != "ACTIVE" {
		t.Fatalf("after RM failover: info %+v err %v", ci, err)
	}
	if rm.Active() != urls[1] {
		t.Errorf("Active = %s, want %s", rm.Active(), urls[1])
	}

	if err := c.SetActiveRM(-1); err != nil { // mid-failover: no RM active
		t.Fatal(err)
	}
	_, err = rm.ClusterInfo(bounded(t))
	if !errors.Is(err, yarn.ErrUnavailable) {
		t.Fatalf("no active RM: err = %v, want ErrUnavailable", err)
	}
}

func TestSimRMWireFaults(t *testing.T) {
	c := startSim(t, sim.Options{Seed: 7})
	o := quick()
	o.Timeout = 150 * time.Millisecond
	rm, err := yarn.NewResourceManager(c.RMURLs(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		fault sim.WireFaults
		check func(t *testing.T, err error)
	}{
		{"every connection reset", sim.WireFaults{ResetRate: 1}, func(t *testing.T, err error) {
			if !errors.Is(err, yarn.ErrUnavailable) {
				t.Errorf("err = %v, want ErrUnavailable", err)
			}
		}},
		{"every answer a 5xx", sim.WireFaults{ErrorRate: 1}, func(t *testing.T, err error) {
			var he *yarn.HTTPError
			if !errors.As(err, &he) || he.Status < 500 {
				t.Errorf("err = %v, want an HTTPError 5xx", err)
			}
		}},
		{"malformed JSON", sim.WireFaults{MalformedRate: 1}, func(t *testing.T, err error) {
			var de *yarn.DecodeError
			if !errors.As(err, &de) || de.Excerpt == "" {
				t.Errorf("err = %v, want a DecodeError with an excerpt", err)
			}
		}},
		{"truncated JSON", sim.WireFaults{TruncateRate: 1}, func(t *testing.T, err error) {
			var de *yarn.DecodeError
			if !errors.As(err, &de) {
				t.Errorf("err = %v, want a DecodeError", err)
			}
		}},
		{"slower than the timeout", sim.WireFaults{Latency: 400 * time.Millisecond}, func(t *testing.T, err error) {
			if !errors.Is(err, yarn.ErrTimeout) {
				t.Errorf("err = %v, want ErrTimeout", err)
			}
		}},
		{"half the connections reset", sim.WireFaults{ResetRate: 0.5}, nil},
		{"some latency", sim.WireFaults{Latency: 20 * time.Millisecond, Jitter: 20 * time.Millisecond}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := c.SetFaults(sim.Faults{Per: map[sim.Kind]sim.WireFaults{sim.KindRM: tc.fault}}); err != nil {
				t.Fatal(err)
			}
			if tc.check == nil {
				// Recoverable: enough retries get through.
				r, err := yarn.NewResourceManager(c.RMURLs(), yarn.Options{Retries: 30, RetryWait: time.Millisecond,
					RetryMaxWait: 2 * time.Millisecond, Timeout: time.Second})
				if err != nil {
					t.Fatal(err)
				}
				for range 5 {
					if _, err := r.ClusterInfo(bounded(t)); err != nil {
						t.Fatalf("recoverable fault not recovered: %v", err)
					}
				}
				return
			}
			_, err := rm.ClusterInfo(bounded(t))
			tc.check(t, err)
		})
	}
}

// eventually polls cond (every few ms, up to 10 s) and fails the test if
// it never holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fastSim runs a whole job lifecycle in well under a second of wall time.
func fastSim(t *testing.T, rms int) *sim.Cluster {
	return startSim(t, sim.Options{Seed: 11, Speed: 50, RMs: rms, CheckpointInterval: 2 * time.Second, LogSize: 256 << 10})
}

type simClients struct {
	rm   *yarn.ResourceManager
	root *yarn.Flink
	gw   *yarn.SQLGateway
}

func clientsFor(t *testing.T, c *sim.Cluster) simClients {
	t.Helper()
	rm, err := yarn.NewResourceManager(c.RMURLs(), quick())
	if err != nil {
		t.Fatal(err)
	}
	root, err := yarn.NewFlink(c.RMURLs()[0], "", quick())
	if err != nil {
		t.Fatal(err)
	}
	gw, err := yarn.NewSQLGateway(c.GatewayURL(), quick())
	if err != nil {
		t.Fatal(err)
	}
	return simClients{rm, root, gw}
}

// runningApp waits until the application is RUNNING with a JobManager.
func (s simClients) runningApp(t *testing.T, appID string) yarn.Application {
	t.Helper()
	var app yarn.Application
	eventually(t, appID+" RUNNING with a JobManager", func() bool {
		var err error
		app, err = s.rm.Application(bounded(t), appID)
		return err == nil && app.State == yarn.AppRunning && app.AMRPCAddress != "" &&
			app.TrackingUI == "ApplicationMaster"
	})
	return app
}

func (s simClients) jobManager(t *testing.T, app yarn.Application) *yarn.Flink {
	t.Helper()
	jm, err := s.root.ForApplication(app, false)
	if err != nil {
		t.Fatal(err)
	}
	return jm
}

func TestSimSQLJobLifecycle(t *testing.T) {
	c := fastSim(t, 1)
	s := clientsFor(t, c)
	ctx := bounded(t)

	sess, err := s.gw.OpenSession(ctx, yarn.SessionRequest{Name: "palink-test", Properties: map[string]string{
		"execution.target": "yarn-per-job", "yarn.application.name": "orders-enrich", "yarn.tags": "palink-job=j1",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s.gw.Version() < 2 {
		t.Fatalf("negotiated v%d with a 2.x gateway", s.gw.Version())
	}
	for _, ddl := range []string{
		"CREATE TABLE orders (id BIGINT, amount DOUBLE) WITH ('connector' = 'kafka', 'topic' = 'orders')",
		"CREATE TABLE enriched (id BIGINT, amount DOUBLE) WITH ('connector' = 'print')",
	} {
		if err := s.gw.ConfigureSession(ctx, sess, ddl, 0); err != nil {
			t.Fatal(err)
		}
	}
	sel, err := s.gw.ExecuteAndFetch(ctx, sess, yarn.StatementRequest{Statement: "SELECT 1"}, 10)
	if err != nil || len(sel.Rows) != 1 || !sel.IsQuery {
		t.Fatalf("SELECT 1: %+v, %v", sel, err)
	}
	_, err = s.gw.ExecuteAndFetch(ctx, sess, yarn.StatementRequest{Statement: "INSERT INTO enriched SELECT * FROM orderz"}, 0)
	var he *yarn.HTTPError
	if !errors.As(err, &he) || !strings.Contains(err.Error(), "orderz") {
		t.Fatalf("bad INSERT: err = %v, want the gateway's validation error", err)
	}
	res, err := s.gw.ExecuteAndFetch(ctx, sess, yarn.StatementRequest{Statement: "INSERT INTO enriched SELECT id, amount FROM orders"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	jid, ok := yarn.InsertJobID(res)
	if !ok {
		t.Fatalf("INSERT gave no job id: %+v", res)
	}

	var apps []yarn.Application
	eventually(t, "the job's application listed", func() bool {
		apps, err = s.rm.Applications(ctx, yarn.AppFilter{ApplicationTypes: []string{"Apache Flink"},
			ApplicationTags: []string{"palink-job=j1"}, States: []string{yarn.AppAccepted, yarn.AppRunning}})
		return err == nil && len(apps) == 1
	})
	app := s.runningApp(t, apps[0].ID)
	if got := strings.Join(app.Tags(), ","); got != "palink-job=j1" {
		t.Errorf("tags = %q", got)
	}
	jm := s.jobManager(t, app)

	jobs, err := jm.Jobs(ctx)
	if err != nil || len(jobs) != 1 || jobs[0].ID != jid {
		t.Fatalf("jobs %+v err %v", jobs, err)
	}
	eventually(t, "job RUNNING", func() bool {
		st, err := jm.JobStatus(ctx, jid)
		return err == nil && st == yarn.JobRunning
	})
	d, err := jm.Job(ctx, jid)
	if err != nil || len(d.Vertices) == 0 {
		t.Fatalf("details %+v err %v", d, err)
	}
	eventually(t, "two completed checkpoints", func() bool {
		cp, err := jm.Checkpoints(ctx, jid)
		return err == nil && cp.Counts.Completed >= 2 && cp.Latest.Completed != nil &&
			strings.HasPrefix(cp.Latest.Completed.ExternalPath, "hdfs:///")
	})
	if _, err := jm.CheckpointConfig(ctx, jid); err != nil {
		t.Error(err)
	}
	v := d.Vertices[0].ID
	if m, err := jm.VertexMetrics(ctx, jid, v, "0.numRecordsInPerSecond"); err != nil || len(m) != 1 {
		t.Errorf("vertex metrics %+v err %v", m, err)
	}
	if am, err := jm.SubtaskMetrics(ctx, jid, v, []string{"numRecordsOutPerSecond"}, []string{"sum", "max"}); err != nil || len(am) != 1 || am[0].Sum == nil {
		t.Errorf("aggregated metrics %+v err %v", am, err)
	}
	if _, err := jm.JobMetrics(ctx, jid); err != nil {
		t.Error(err)
	}
	if _, err := jm.Backpressure(ctx, jid, v); err != nil {
		t.Error(err)
	}
	if _, err := jm.Watermarks(ctx, jid, v); err != nil {
		t.Error(err)
	}
	if _, err := jm.Exceptions(ctx, jid, 10); err != nil {
		t.Error(err)
	}
	tms, err := jm.TaskManagers(ctx)
	if err != nil || len(tms) == 0 {
		t.Fatalf("taskmanagers %+v err %v", tms, err)
	}
	logs, err := jm.TaskManagerLogs(ctx, tms[0].ID)
	if err != nil || len(logs) == 0 {
		t.Fatalf("tm logs %+v err %v", logs, err)
	}
	for _, l := range logs { // the .log and the empty ones alike
		ch, err := jm.ReadLog(ctx, yarn.LogFile{TaskManager: tms[0].ID, Name: l.Name}, yarn.LogRange{Tail: true, Limit: 1000})
		if err != nil || ch.Offset+int64(len(ch.Data)) != l.Size || l.Size > 0 && len(ch.Data) == 0 {
			t.Fatalf("tail of %s (%d bytes): offset %d, %d bytes, err %v", l.Name, l.Size, ch.Offset, len(ch.Data), err)
		}
	}
	if _, err := jm.ReadLog(ctx, yarn.LogFile{}, yarn.LogRange{Limit: 4096}); err != nil {
		t.Error(err)
	}

	trig, err := jm.TriggerSavepoint(ctx, jid, yarn.SavepointRequest{TargetDirectory: "hdfs:///flink/savepoints"})
	if err != nil {
		t.Fatal(err)
	}
	op, err := jm.WaitSavepoint(ctx, jid, trig)
	if err != nil || op.Location == "" {
		t.Fatalf("savepoint %+v err %v", op, err)
	}

	trig, err = jm.StopWithSavepoint(ctx, jid, yarn.StopRequest{TargetDirectory: "hdfs:///flink/savepoints"})
	if err != nil {
		t.Fatal(err)
	}
	op, err = jm.WaitSavepoint(ctx, jid, trig)
	if err != nil || !strings.HasPrefix(op.Location, "hdfs:///flink/savepoints") {
		t.Fatalf("stop with savepoint %+v err %v", op, err)
	}
	final, err := s.rm.WaitFinal(ctx, app.ID)
	if err != nil || final.State != yarn.AppFinished || final.FinalStatus != yarn.FinalSucceeded {
		t.Fatalf("after stop: app %s/%s err %v", final.State, final.FinalStatus, err)
	}
	if _, _, ok := yarn.JobManagerBases(final, false); ok {
		t.Error("a finished application still offers a JobManager")
	}

	// Restore from the savepoint: the new job reports it as latest.restored.
	sess2, err := s.gw.OpenSession(ctx, yarn.SessionRequest{Properties: map[string]string{
		"execution.target": "yarn-per-job", "yarn.tags": "palink-job=j1-restart",
		"execution.state-recovery.path": op.Location,
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ddl := range []string{
		"CREATE TABLE orders (id BIGINT, amount DOUBLE) WITH ('connector' = 'kafka', 'topic' = 'orders')",
		"CREATE TABLE enriched (id BIGINT, amount DOUBLE) WITH ('connector' = 'print')",
	} {
		if err := s.gw.ConfigureSession(ctx, sess2, ddl, 0); err != nil {
			t.Fatal(err)
		}
	}
	res, err = s.gw.ExecuteAndFetch(ctx, sess2, yarn.StatementRequest{Statement: "INSERT INTO enriched SELECT id, amount FROM orders"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	jid2, _ := yarn.InsertJobID(res)
	eventually(t, "restarted application listed", func() bool {
		apps, err = s.rm.Applications(ctx, yarn.AppFilter{ApplicationTags: []string{"palink-job=j1-restart"}})
		return err == nil && len(apps) == 1
	})
	jm2 := s.jobManager(t, s.runningApp(t, apps[0].ID))
	eventually(t, "latest.restored", func() bool {
		cp, err := jm2.Checkpoints(ctx, jid2)
		return err == nil && cp.Latest.Restored != nil && cp.Latest.Restored.ExternalPath == op.Location
	})
	if _, err := s.gw.CloseSession(ctx, sess); err != nil {
		t.Error(err)
	}
}

func TestSimKillCancelAndTheProxy(t *testing.T) {
	c := fastSim(t, 1)
	s := clientsFor(t, c)
	ctx := bounded(t)
	a1, err := c.Submit(ctx, sim.SubmitRequest{Name: "to-kill", EntryClass: "com.example.Job"})
	if err != nil {
		t.Fatal(err)
	}
	a2, err := c.Submit(ctx, sim.SubmitRequest{Name: "to-cancel", EntryClass: "com.example.Job"})
	if err != nil {
		t.Fatal(err)
	}
	s.runningApp(t, a1.AppID)
	app2 := s.runningApp(t, a2.AppID)

	killed, err := s.rm.Kill(ctx, a1.AppID)
	if err != nil || killed.State != yarn.AppKilled {
		t.Fatalf("kill: %s err %v", killed.State, err)
	}

	// Read-only through the proxy: actions that need the JobManager refuse
	// before sending anything; cancel takes Flink's yarn-cancel GET.
	viaProxy, err := s.root.WithBases(app2.TrackingURL, "")
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "job RUNNING", func() bool {
		st, err := viaProxy.JobStatus(ctx, a2.JobID)
		return err == nil && st == yarn.JobRunning
	})
	if _, err := viaProxy.StopWithSavepoint(ctx, a2.JobID, yarn.StopRequest{}); !errors.Is(err, yarn.ErrNoDirectAddress) {
		t.Fatalf("stop through the proxy: err = %v", err)
	}
	if err := viaProxy.Cancel(ctx, a2.JobID); err != nil {
		t.Fatalf("cancel through the proxy: %v", err)
	}
	eventually(t, "job CANCELED", func() bool {
		a, err := c.App(a2.AppID)
		return err == nil && len(a.Jobs) == 1 && a.Jobs[0].State == yarn.JobCanceled
	})
}

func TestSimJobManagerFailover(t *testing.T) {
	c := fastSim(t, 1)
	s := clientsFor(t, c)
	ctx := bounded(t)
	sub, err := c.Submit(ctx, sim.SubmitRequest{Name: "failover", EntryClass: "com.example.Job"})
	if err != nil {
		t.Fatal(err)
	}
	app := s.runningApp(t, sub.AppID)
	old := s.jobManager(t, app)
	eventually(t, "a completed checkpoint", func() bool {
		cp, err := old.Checkpoints(ctx, sub.JobID)
		return err == nil && cp.Counts.Completed >= 1
	})
	if err := c.FailoverJM(sub.AppID); err != nil {
		t.Fatal(err)
	}
	// The old direct address is gone: a clear error, not a hang.
	stale, err := s.root.WithBases("", app.AMRPCAddress)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stale.Overview(ctx); !errors.Is(err, yarn.ErrUnavailable) {
		t.Errorf("old JobManager: err = %v, want ErrUnavailable", err)
	}
	var moved yarn.Application
	eventually(t, "a new attempt with a new amRPCAddress", func() bool {
		moved = s.runningApp(t, sub.AppID)
		return moved.AMRPCAddress != app.AMRPCAddress
	})
	atts, err := s.rm.AppAttempts(ctx, sub.AppID)
	if err != nil || len(atts) < 2 {
		t.Errorf("attempts %+v err %v", atts, err)
	}
	jm := s.jobManager(t, moved)
	eventually(t, "job recovered on the new JobManager", func() bool {
		st, err := jm.JobStatus(ctx, sub.JobID)
		return err == nil && st == yarn.JobRunning
	})
}

func TestSimRMFailoverWithApplications(t *testing.T) {
	c := fastSim(t, 2)
	s := clientsFor(t, c)
	ctx := bounded(t)
	sub, err := c.Submit(ctx, sim.SubmitRequest{Name: "ha", EntryClass: "com.example.Job"})
	if err != nil {
		t.Fatal(err)
	}
	s.runningApp(t, sub.AppID)
	c.FailoverRM()
	apps, err := s.rm.Applications(ctx, yarn.AppFilter{States: []string{yarn.AppRunning}})
	if err != nil || len(apps) != 1 {
		t.Fatalf("apps after failover %+v err %v", apps, err)
	}
	if s.rm.Active() != c.ActiveRMURL() {
		t.Errorf("Active = %s, want %s", s.rm.Active(), c.ActiveRMURL())
	}
	c.FailoverRM()
	if k, err := s.rm.Kill(ctx, sub.AppID); err != nil || k.State != yarn.AppKilled {
		t.Fatalf("kill after a second failover: %s %v", k.State, err)
	}
	if s.rm.Active() != c.ActiveRMURL() {
		t.Errorf("Active = %s, want %s", s.rm.Active(), c.ActiveRMURL())
	}
}

func TestSimWireFaultsPerListener(t *testing.T) {
	c := fastSim(t, 1)
	s := clientsFor(t, c)
	ctx := bounded(t)
	sub, err := c.Submit(ctx, sim.SubmitRequest{Name: "faults", EntryClass: "com.example.Job"})
	if err != nil {
		t.Fatal(err)
	}
	app := s.runningApp(t, sub.AppID)

	o := quick()
	o.Timeout = 150 * time.Millisecond
	calls := map[sim.Kind]func(yarn.Options) error{
		sim.KindProxy: func(o yarn.Options) error {
			f, _ := yarn.NewFlink(app.TrackingURL, "", o)
			_, err := f.Job(bounded(t), sub.JobID)
			return err
		},
		sim.KindJM: func(o yarn.Options) error {
			f, _ := yarn.NewFlink("", app.AMRPCAddress, o)
			_, err := f.Checkpoints(bounded(t), sub.JobID)
			return err
		},
		sim.KindGateway: func(o yarn.Options) error {
			g, _ := yarn.NewSQLGateway(c.GatewayURL(), o)
			_, err := g.Negotiate(bounded(t))
			return err
		},
	}
	for _, kind := range []sim.Kind{sim.KindProxy, sim.KindJM, sim.KindGateway} {
		for _, tc := range []struct {
			name  string
			fault sim.WireFaults
			want  func(error) bool
		}{
			{"reset", sim.WireFaults{ResetRate: 1}, func(err error) bool { return errors.Is(err, yarn.ErrUnavailable) }},
			{"5xx", sim.WireFaults{ErrorRate: 1}, func(err error) bool {
				var he *yarn.HTTPError
				return errors.As(err, &he) && he.Status >= 500
			}},
			{"malformed", sim.WireFaults{MalformedRate: 1}, func(err error) bool {
				var de *yarn.DecodeError
				return errors.As(err, &de)
			}},
			{"truncated", sim.WireFaults{TruncateRate: 1}, func(err error) bool {
				var de *yarn.DecodeError
				return errors.As(err, &de)
			}},
			{"slow", sim.WireFaults{Latency: 400 * time.Millisecond}, func(err error) bool { return errors.Is(err, yarn.ErrTimeout) }},
		} {
			t.Run(string(kind)+" "+tc.name, func(t *testing.T) {
				if err := c.SetFaults(sim.Faults{Per: map[sim.Kind]sim.WireFaults{kind: tc.fault}}); err != nil {
					t.Fatal(err)
				}
				if err := calls[kind](o); !tc.want(err) {
					t.Errorf("err = %v", err)
				}
			})
		}
		t.Run(string(kind)+" recoverable", func(t *testing.T) {
			if err := c.SetFaults(sim.Faults{Per: map[sim.Kind]sim.WireFaults{kind: {ResetRate: 0.4, ErrorRate: 0}}}); err != nil {
				t.Fatal(err)
			}
			patient := yarn.Options{Retries: 30, RetryWait: time.Millisecond, RetryMaxWait: 2 * time.Millisecond, Timeout: time.Second}
			for range 5 {
				if err := calls[kind](patient); err != nil {
					t.Fatalf("recoverable fault not recovered: %v", err)
				}
			}
		})
	}
	if err := c.SetFaults(sim.Faults{}); err != nil {
		t.Fatal(err)
	}
	if err := calls[sim.KindJM](o); err != nil {
		t.Errorf("after clearing faults: %v", err)
	}
}
