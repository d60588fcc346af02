package sim

import (
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fast is a cluster clock at which a test sees a whole lifecycle in well
// under a second of wall time.
func fastOptions() Options {
	return Options{Seed: 7, Speed: 50, CheckpointInterval: 2 * time.Second}
}

const ddl = `CREATE TABLE orders (id BIGINT, amount DOUBLE) WITH ('connector' = 'kafka', 'topic' = 'orders');
`

func setupTables(t *testing.T, c *Cluster, session string) {
	t.Helper()
	runSQL(t, c, session, ddl)
	runSQL(t, c, session, "CREATE TABLE enriched (id BIGINT, amount DOUBLE) WITH ('connector' = 'print')")
}

type jobCheckpoints struct {
	Counts struct {
		Restored  int64 `json:"restored"`
		Completed int64 `json:"completed"`
		Failed    int64 `json:"failed"`
	} `json:"counts"`
	Latest struct {
		Completed *struct {
			ID           int64  `json:"id"`
			ExternalPath string `json:"external_path"`
		} `json:"completed"`
		Savepoint *struct {
			ExternalPath string `json:"external_path"`
			IsSavepoint  bool   `json:"is_savepoint"`
		} `json:"savepoint"`
		Restored *struct {
			ID           int64  `json:"id"`
			ExternalPath string `json:"external_path"`
			IsSavepoint  bool   `json:"is_savepoint"`
		} `json:"restored"`
	} `json:"latest"`
	History []struct {
		ClassName string `json:"className"`
		ID        int64  `json:"id"`
		Status    string `json:"status"`
	} `json:"history"`
}

func jobStatus(t *testing.T, jm, jid string) string {
	t.Helper()
	var s struct {
		Status string `json:"status"`
	}
	mustJSON(t, "GET", jm+"/jobs/"+jid+"/status", nil, 200, &s)
	return s.Status
}

// submitInsert runs the INSERT in a session configured by props and returns
// the job id and the YARN app that runs it, once it is RUNNING.
func submitInsert(t *testing.T, c *Cluster, props map[string]string) (jid string, app appJSON, jm string) {
	t.Helper()
	session := gwSession(t, c, "v2", nil)
	for k, v := range props {
		runSQL(t, c, session, "SET '"+k+"' = '"+v+"'")
	}
	setupTables(t, c, session)
	res := runSQL(t, c, session, "INSERT INTO enriched SELECT id, amount FROM orders")
	if res.JobID == "" || len(res.Results.Data) != 1 || res.Results.Data[0].Fields[0] != res.JobID {
		t.Fatalf("INSERT result: want jobID and a 'job id' row with it, got %+v", res)
	}
	if res.Results.Columns[0].Name != "job id" || res.IsQueryResult || res.ResultKind != "SUCCESS_WITH_CONTENT" {
		t.Fatalf("INSERT result shape: %+v", res)
	}
	jid = res.JobID
	var apps struct {
		Apps *struct {
			App []appJSON `json:"app"`
		} `json:"apps"`
	}
	eventually(t, "the job's YARN application RUNNING with an amRPCAddress", func() bool {
		mustJSON(t, "GET", c.ActiveRMURL()+"/ws/v1/cluster/apps?applicationTypes=apache%20flink&applicationTags="+props["yarn.tags"], nil, 200, &apps)
		if apps.Apps == nil || len(apps.Apps.App) == 0 {
			return false
		}
		app = apps.Apps.App[0]
		return app.State == "RUNNING" && app.AMRPCAddress != ""
	})
	jm = "http://" + app.AMRPCAddress
	eventually(t, "job RUNNING", func() bool { return jobStatus(t, jm, jid) == "RUNNING" })
	return jid, app, jm
}

func TestGatewayInsertRunsCheckpointsStopsWithSavepointAndRestores(t *testing.T) {
	c := startCluster(t, fastOptions())
	jid, app, jm := submitInsert(t, c, map[string]string{
		"execution.target": "yarn-per-job", "yarn.application.name": "orders-enrich",
		"yarn.tags": "palink-job=j1,Team-X", "yarn.application.queue": "prod", "pipeline.name": "orders-enrich-job",
	})
	if app.Name != "orders-enrich" || app.Queue != "prod" || app.ApplicationType != "Apache Flink" {
		t.Errorf("app name/queue/type = %q %q %q", app.Name, app.Queue, app.ApplicationType)
	}
	if app.ApplicationTags != "palink-job=j1,team-x" {
		t.Errorf("applicationTags = %q, want YARN's lower-cased comma list", app.ApplicationTags)
	}
	if app.TrackingUI != "ApplicationMaster" || app.TrackingURL != c.ActiveRMURL()+"/proxy/"+app.ID+"/" {
		t.Errorf("tracking = %q %q", app.TrackingUI, app.TrackingURL)
	}
	var details struct {
		Name     string `json:"name"`
		Vertices []struct {
			Name string `json:"name"`
		} `json:"vertices"`
	}
	mustJSON(t, "GET", jm+"/v1/jobs/"+jid, nil, 200, &details)
	if details.Name != "orders-enrich-job" || len(details.Vertices) != 3 || !strings.HasPrefix(details.Vertices[0].Name, "Source: orders") {
		t.Errorf("job details: %+v", details)
	}

	var cps jobCheckpoints
	eventually(t, "three completed checkpoints", func() bool {
		mustJSON(t, "GET", jm+"/jobs/"+jid+"/checkpoints", nil, 200, &cps)
		return cps.Counts.Completed >= 3
	})
	want := "hdfs:///flink/checkpoints/" + jid + "/chk-"
	if cps.Latest.Completed == nil || !strings.HasPrefix(cps.Latest.Completed.ExternalPath, want) {
		t.Fatalf("latest completed checkpoint %+v, want a path under %s", cps.Latest.Completed, want)
	}
	if len(cps.History) == 0 || cps.History[0].ID < cps.Latest.Completed.ID {
		t.Errorf("history %+v does not start with the newest checkpoint", cps.History)
	}

	// Stop with savepoint, through the JobManager (never the proxy).
	var trig struct {
		RequestID string `json:"request-id"`
	}
	mustJSON(t, "POST", jm+"/jobs/"+jid+"/stop", map[string]any{"targetDirectory": "hdfs:///flink/sp", "drain": false}, 202, &trig)
	var op struct {
		Status    struct{ ID string } `json:"status"`
		Operation struct {
			Location string `json:"location"`
		} `json:"operation"`
	}
	// The JobManager stays up until the result is fetched, so the job's
	// end can be seen first. (IN_PROGRESS is checked step by step in
	// TestPhasesUnderAManualClock.)
	eventually(t, "job FINISHED", func() bool { return jobStatus(t, jm, jid) == "FINISHED" })
	mustJSON(t, "GET", jm+"/jobs/"+jid+"/savepoints/"+trig.RequestID, nil, 200, &op)
	if op.Status.ID != "COMPLETED" || !strings.HasPrefix(op.Operation.Location, "hdfs:///flink/sp/savepoint-"+jid[:6]+"-") {
		t.Fatalf("stop-with-savepoint result %+v", op)
	}
	eventually(t, "app FINISHED/SUCCEEDED", func() bool {
		a := rmApp(t, c, app.ID)
		return a.State == "FINISHED" && a.FinalStatus == "SUCCEEDED" && a.TrackingUI == "History" && a.AMRPCAddress == ""
	})
	if _, err := net.DialTimeout("tcp", app.AMRPCAddress, time.Second); err == nil {
		t.Error("the JobManager of a finished application still accepts connections")
	}

	// Restore from the savepoint in a new application.
	jid2, _, jm2 := submitInsert(t, c, map[string]string{
		"execution.target": "yarn-per-job", "yarn.tags": "palink-job=j1-2",
		"execution.savepoint.path": op.Operation.Location,
	})
	var cps2 jobCheckpoints
	mustJSON(t, "GET", jm2+"/jobs/"+jid2+"/checkpoints", nil, 200, &cps2)
	r := cps2.Latest.Restored
	if r == nil || r.ExternalPath != op.Operation.Location || !r.IsSavepoint || cps2.Counts.Restored != 1 {
		t.Fatalf("latest.restored = %+v (restored count %d), want the savepoint %s", r, cps2.Counts.Restored, op.Operation.Location)
	}
	eventually(t, "a checkpoint after the restore", func() bool {
		mustJSON(t, "GET", jm2+"/jobs/"+jid2+"/checkpoints", nil, 200, &cps2)
		return cps2.Latest.Completed != nil
	})
	if cps2.Latest.Completed.ID <= r.ID {
		t.Errorf("checkpoint ids restart at %d after restoring checkpoint %d; Flink continues the counter", cps2.Latest.Completed.ID, r.ID)
	}
}

func TestRestoreFromUnknownPathFailsTheJob(t *testing.T) {
	c := startCluster(t, fastOptions())
	out, err := c.Submit(t.Context(), SubmitRequest{Name: "ghost", SavepointPath: "hdfs:///nowhere/savepoint-000000-abc"})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "job FAILED and app FINISHED/FAILED", func() bool {
		a, err := c.App(out.AppID)
		if err != nil {
			t.Fatal(err)
		}
		return a.Jobs[0].State == "FAILED" && a.State == "FINISHED" && a.FinalStatus == "FAILED"
	})
	a, _ := c.App(out.AppID)
	if !strings.Contains(a.Diagnostics, "Cannot find checkpoint or savepoint") {
		t.Errorf("diagnostics %q do not say why", a.Diagnostics)
	}
}

func TestYARNKillAnswers202ThenKilled(t *testing.T) {
	c := startCluster(t, fastOptions())
	out, err := c.Submit(t.Context(), SubmitRequest{Name: "to-kill", Tags: []string{"k"}})
	if err != nil {
		t.Fatal(err)
	}
	var addr string
	eventually(t, "app RUNNING", func() bool {
		a := rmApp(t, c, out.AppID)
		addr = a.AMRPCAddress
		return a.State == "RUNNING" && addr != ""
	})
	url := c.ActiveRMURL() + "/ws/v1/cluster/apps/" + out.AppID + "/state?user.name=ops"
	var st appState
	r := mustJSON(t, "PUT", url, map[string]string{"state": "KILLED"}, 202, &st)
	if r.header.Get("Location") != c.ActiveRMURL()+"/ws/v1/cluster/apps/"+out.AppID || st.State != "RUNNING" {
		t.Errorf("first PUT: Location %q, state %q", r.header.Get("Location"), st.State)
	}
	eventually(t, "PUT answers 200 KILLED", func() bool {
		r := do(t, "PUT", url, map[string]string{"state": "KILLED"})
		return r.status == 200 && strings.Contains(string(r.body), `"state":"KILLED"`)
	})
	a := rmApp(t, c, out.AppID)
	if a.FinalStatus != "KILLED" || a.AMRPCAddress != "" || a.Diagnostics != "Application killed by user." {
		t.Errorf("after kill: %+v", a)
	}
	_, err = net.DialTimeout("tcp", addr, time.Second)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial the killed JobManager: %v, want connection refused", err)
	}

	// Any other target state is refused with the RM's error shape.
	var rex remoteException
	mustJSON(t, "PUT", url, map[string]string{"state": "RUNNING"}, 400, &rex)
	if rex.RemoteException.Exception != "BadRequestException" || !strings.Contains(rex.RemoteException.Message, "Only 'KILLED' is allowed") {
		t.Errorf("bad target state: %+v", rex)
	}
}

func TestFailJobRestartsThenFails(t *testing.T) {
	c := startCluster(t, fastOptions())
	out, err := c.Submit(t.Context(), SubmitRequest{Name: "doomed"})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "job RUNNING", func() bool {
		a, _ := c.App(out.AppID)
		return len(a.Jobs) == 1 && a.Jobs[0].State == "RUNNING"
	})
	if err := c.FailJob(out.AppID); err != nil {
		t.Fatal(err)
	}
	var restarts int
	eventually(t, "job FAILED", func() bool {
		a, _ := c.App(out.AppID)
		restarts = a.Jobs[0].Restarts
		return a.Jobs[0].State == "FAILED"
	})
	if restarts != 3 {
		t.Errorf("FAILED after %d restarts, want 3 (the default strategy)", restarts)
	}
	eventually(t, "app FINISHED/FAILED", func() bool {
		a := rmApp(t, c, out.AppID)
		return a.State == "FINISHED" && a.FinalStatus == "FAILED" && strings.Contains(a.Diagnostics, out.JobID)
	})
}

func TestExceptionsAreRecordedOnFailure(t *testing.T) {
	c := startCluster(t, fastOptions())
	out, _ := c.Submit(t.Context(), SubmitRequest{Name: "flaky"})
	var jm string
	eventually(t, "job RUNNING", func() bool {
		a, _ := c.App(out.AppID)
		jm = "http://" + a.JMAddress
		return len(a.Jobs) == 1 && a.Jobs[0].State == "RUNNING"
	})
	if err := c.InterruptJob(out.JobID); err != nil {
		t.Fatal(err)
	}
	var ex struct {
		ExceptionHistory struct {
			Entries []struct {
				ExceptionName string `json:"exceptionName"`
				Stacktrace    string `json:"stacktrace"`
				TaskName      string `json:"taskName"`
			} `json:"entries"`
		} `json:"exceptionHistory"`
	}
	mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/exceptions", nil, 200, &ex)
	if len(ex.ExceptionHistory.Entries) != 1 || ex.ExceptionHistory.Entries[0].TaskName == "" || ex.ExceptionHistory.Entries[0].Stacktrace == "" {
		t.Fatalf("exception history %+v", ex)
	}
	var details struct {
		Timestamps map[string]int64 `json:"timestamps"`
	}
	mustJSON(t, "GET", jm+"/jobs/"+out.JobID, nil, 200, &details)
	if details.Timestamps["RESTARTING"] == 0 {
		t.Errorf("no RESTARTING timestamp after the failure: %v", details.Timestamps)
	}
	eventually(t, "job RUNNING again", func() bool { return jobStatus(t, jm, out.JobID) == "RUNNING" })
	var metrics []metricEntry
	mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/metrics?get=numRestarts", nil, 200, &metrics)
	if len(metrics) != 1 || *metrics[0].Value != "1" {
		t.Errorf("numRestarts metric %+v, want 1", metrics)
	}
}

func TestJMFailoverMovesTheJobManagerAndRecovers(t *testing.T) {
	c := startCluster(t, fastOptions())
	out, _ := c.Submit(t.Context(), SubmitRequest{Name: "ha"})
	var before App
	eventually(t, "two checkpoints", func() bool {
		before, _ = c.App(out.AppID)
		return len(before.Jobs) == 1 && before.Jobs[0].CompletedCheckpoints >= 2
	})
	if err := c.FailoverJM(out.AppID); err != nil {
		t.Fatal(err)
	}
	var after appJSON
	eventually(t, "a new attempt RUNNING", func() bool {
		after = rmApp(t, c, out.AppID)
		return after.State == "RUNNING" && after.AMRPCAddress != ""
	})
	if after.AMRPCAddress == before.JMAddress {
		t.Fatalf("amRPCAddress did not change: %s", after.AMRPCAddress)
	}
	var attempts struct {
		AppAttempts struct {
			AppAttempt []attemptJSON `json:"appAttempt"`
		} `json:"appAttempts"`
	}
	mustJSON(t, "GET", c.ActiveRMURL()+"/ws/v1/cluster/apps/"+out.AppID+"/appattempts", nil, 200, &attempts)
	if n := len(attempts.AppAttempts.AppAttempt); n != 2 || attempts.AppAttempts.AppAttempt[0].AppAttemptState != "FAILED" {
		t.Errorf("attempts %+v, want the first FAILED and a second", attempts.AppAttempts.AppAttempt)
	}
	jm := "http://" + after.AMRPCAddress
	eventually(t, "job RUNNING on the new JobManager", func() bool { return jobStatus(t, jm, out.JobID) == "RUNNING" })
	var cps jobCheckpoints
	mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/checkpoints", nil, 200, &cps)
	if cps.Latest.Restored == nil || cps.Latest.Restored.ExternalPath != before.Jobs[0].LatestCheckpoint && cps.Latest.Restored.ID < 2 {
		t.Errorf("restored %+v, want the latest checkpoint (at least %s)", cps.Latest.Restored, before.Jobs[0].LatestCheckpoint)
	}
	if _, err := net.DialTimeout("tcp", before.JMAddress, time.Second); err == nil {
		t.Error("the old JobManager still accepts connections")
	}
}

func TestRMFailoverStandbyRedirects(t *testing.T) {
	c := startCluster(t, Options{Seed: 3, RMs: 2, Apps: 3})
	rm1, rm2 := c.RMURLs()[0], c.RMURLs()[1]
	r := do(t, "GET", rm2+"/ws/v1/cluster/apps?states=RUNNING", nil)
	if r.status != http.StatusTemporaryRedirect || r.header.Get("Location") != rm1+"/ws/v1/cluster/apps?states=RUNNING" {
		t.Fatalf("standby answered %s, Location %q", r, r.header.Get("Location"))
	}
	if !strings.HasPrefix(string(r.body), "This is standby RM. The redirect url is: ") {
		t.Errorf("standby body %q", r.body)
	}
	// cluster/info is served by the standby itself.
	var info struct {
		ClusterInfo clusterInfo `json:"clusterInfo"`
	}
	mustJSON(t, "GET", rm2+"/ws/v1/cluster/info", nil, 200, &info)
	if info.ClusterInfo.HAState != "STANDBY" {
		t.Errorf("standby haState %s", info.ClusterInfo.HAState)
	}
	c.FailoverRM()
	mustJSON(t, "GET", rm2+"/ws/v1/cluster/apps", nil, 200, nil)
	r = do(t, "GET", rm1+"/ws/v1/cluster/metrics", nil)
	if r.status != http.StatusTemporaryRedirect || r.header.Get("Location") != rm2+"/ws/v1/cluster/metrics" {
		t.Errorf("old active after failover: %s Location %q", r, r.header.Get("Location"))
	}
	// New applications carry the new active RM's cluster timestamp.
	out, err := c.Submit(t.Context(), SubmitRequest{Name: "after-failover"})
	if err != nil {
		t.Fatal(err)
	}
	mustJSON(t, "GET", rm2+"/ws/v1/cluster/info", nil, 200, &info)
	if out.AppID != "application_"+itoa(info.ClusterInfo.ID)+"_0001" {
		t.Errorf("new app id %s, want the new RM's cluster id %d and sequence 0001", out.AppID, info.ClusterInfo.ID)
	}
	// Mid-failover, no RM is active: a retry hint, no Location.
	if err := c.SetActiveRM(-1); err != nil {
		t.Fatal(err)
	}
	r = do(t, "GET", rm1+"/ws/v1/cluster/apps", nil)
	if r.status != http.StatusTemporaryRedirect || r.header.Get("Location") != "" || r.header.Get("Refresh") == "" ||
		!strings.HasPrefix(string(r.body), "Can not find any active RM.") {
		t.Errorf("no active RM: %s %v", r, r.header)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestProxyForwardsGETAndRefusesPOST(t *testing.T) {
	c := startCluster(t, fastOptions())
	out, _ := c.Submit(t.Context(), SubmitRequest{Name: "proxied"})
	var a appJSON
	eventually(t, "job RUNNING", func() bool {
		a = rmApp(t, c, out.AppID)
		return a.State == "RUNNING" && a.TrackingURL != ""
	})
	var jobs struct {
		Jobs []struct {
			ID string `json:"id"`
		} `json:"jobs"`
	}
	mustJSON(t, "GET", a.TrackingURL+"jobs", nil, 200, &jobs)
	if len(jobs.Jobs) != 1 || jobs.Jobs[0].ID != out.JobID {
		t.Errorf("GET through the proxy: %+v", jobs)
	}
	for _, m := range []string{"POST", "PATCH", "DELETE"} {
		if r := do(t, m, a.TrackingURL+"jobs/"+out.JobID+"/stop", "{}"); r.status != http.StatusMethodNotAllowed {
			t.Errorf("%s through the proxy: %s, want 405", m, r)
		}
	}
	// PUT is forwarded (Flink answers 404 for this route: it got there).
	if r := do(t, "PUT", a.TrackingURL+"jobs/"+out.JobID, "{}"); r.status != 404 || !strings.Contains(string(r.body), "Not found") {
		t.Errorf("PUT through the proxy: %s", r)
	}
}

// TestPhasesUnderAManualClock checks, step by step, the short phases that
// a fast clock makes too brief to catch: a savepoint IN_PROGRESS, a job
// RESTARTING, an application ACCEPTED while its JobManager fails over.
func TestPhasesUnderAManualClock(t *testing.T) {
	clock := NewManualClock(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC))
	c := startCluster(t, Options{Seed: 12, Clock: clock, CheckpointInterval: 5 * time.Second})
	out, err := c.Submit(t.Context(), SubmitRequest{Name: "phases"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		advance  time.Duration
		state    string // YARN state
		tracking string
	}{
		{0, "NEW", "UNASSIGNED"}, {300 * time.Millisecond, "NEW_SAVING", "UNASSIGNED"},
		{200 * time.Millisecond, "SUBMITTED", "UNASSIGNED"}, {400 * time.Millisecond, "ACCEPTED", "UNASSIGNED"},
		{3 * time.Second, "RUNNING", "ApplicationMaster"},
	}
	for _, s := range steps {
		clock.Advance(s.advance)
		if a := rmApp(t, c, out.AppID); a.State != s.state || a.TrackingUI != s.tracking || (a.AMRPCAddress != "") != (s.state == "RUNNING") {
			t.Fatalf("+%v: %s %s amRPCAddress %q, want %s %s", s.advance, a.State, a.TrackingUI, a.AMRPCAddress, s.state, s.tracking)
		}
	}
	a := rmApp(t, c, out.AppID)
	jm := "http://" + a.AMRPCAddress
	for _, want := range []string{"INITIALIZING", "CREATED", "RUNNING"} {
		if s := jobStatus(t, jm, out.JobID); s != want {
			t.Fatalf("job %s, want %s", s, want)
		}
		clock.Advance(time.Second)
	}
	clock.Advance(10 * time.Second)

	// A savepoint is IN_PROGRESS for a while, then COMPLETED.
	var trig struct {
		RequestID string `json:"request-id"`
	}
	mustJSON(t, "POST", jm+"/jobs/"+out.JobID+"/savepoints", map[string]any{"cancel-job": false}, 202, &trig)
	var op struct {
		Status    struct{ ID string } `json:"status"`
		Operation *struct {
			Location string `json:"location"`
		} `json:"operation"`
	}
	mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/savepoints/"+trig.RequestID, nil, 200, &op)
	if op.Status.ID != "IN_PROGRESS" || op.Operation != nil {
		t.Errorf("right after the trigger: %+v", op)
	}
	clock.Advance(2 * time.Second)
	mustJSON(t, "GET", jm+"/jobs/"+out.JobID+"/savepoints/"+trig.RequestID, nil, 200, &op)
	if op.Status.ID != "COMPLETED" || op.Operation == nil || !strings.HasPrefix(op.Operation.Location, "hdfs:///flink/savepoints/savepoint-") {
		t.Errorf("after 2 s: %+v", op)
	}
	if s := jobStatus(t, jm, out.JobID); s != "RUNNING" {
		t.Errorf("a plain savepoint left the job %s", s)
	}

	// A transient failure: RESTARTING for the restart delay.
	if err := c.InterruptJob(out.AppID); err != nil {
		t.Fatal(err)
	}
	if s := jobStatus(t, jm, out.JobID); s != "RESTARTING" {
		t.Errorf("after the failure: %s", s)
	}
	clock.Advance(1500 * time.Millisecond)
	if s := jobStatus(t, jm, out.JobID); s != "RUNNING" {
		t.Errorf("after the restart delay: %s", s)
	}

	// JobManager failover: ACCEPTED without an AM until the new one registers.
	if err := c.FailoverJM(out.AppID); err != nil {
		t.Fatal(err)
	}
	a = rmApp(t, c, out.AppID)
	if a.State != "ACCEPTED" || a.AMRPCAddress != "" || a.TrackingUI != "UNASSIGNED" || !strings.Contains(a.Diagnostics, "exited with") {
		t.Errorf("during the failover: %s %q %s %q", a.State, a.AMRPCAddress, a.TrackingUI, a.Diagnostics)
	}
	clock.Advance(3500 * time.Millisecond)
	if a = rmApp(t, c, out.AppID); a.State != "RUNNING" || a.AMRPCAddress == "" || "http://"+a.AMRPCAddress == jm {
		t.Errorf("after the failover: %s %q", a.State, a.AMRPCAddress)
	}
}
