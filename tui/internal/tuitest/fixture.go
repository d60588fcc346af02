package tuitest

import (
	"fmt"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// testNow is the pinned clock of every test: golden files depend on it.
var Now = time.Date(2026, 3, 14, 9, 12, 3, 0, time.UTC)

// NewFixture is a fake with a realistic spread of jobs over two clusters,
// prod being protected.
func NewFixture() *Fake {
	now := Now
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	rp := func(kind model.RestorePointKind, path string, d time.Duration, origin string) *model.RestorePoint {
		return &model.RestorePoint{JobID: "j001", Kind: kind, Path: path, Time: ago(d), Origin: origin}
	}
	fig := func(in, out, bp float64, ck time.Duration, lag float64) api.Figures {
		return api.Figures{At: ago(2 * time.Second), RecordsInPerSec: in, RecordsOutPerS: out, Backpressure: bp, CheckpointAge: ck,
			Lag: lag, InSpark: []float64{in * 0.5, in * 0.7, in * 0.9, in * 1.2, in}}
	}
	job := func(id, name string, kind model.JobKind, cluster string, st model.JobState) model.Job {
		return model.Job{ID: id, Name: name, Kind: kind, Cluster: cluster, State: st, SpecVersion: 3, Parallelism: 4,
			CreatedAt: ago(30 * 24 * time.Hour), UpdatedAt: ago(time.Minute), SyncedAt: ago(2 * time.Second)}
	}

	orders := job("j001", "orders-enrich", model.KindSQL, "prod", model.StateRunning)
	orders.SpecVersion = 7
	orders.AppID, orders.FlinkJobID = "application_1732000000000_0042", "3f9c0d1e2b3a4c5d6e7f8091a2b3a21e"
	orders.TrackingURL = "http://rm1.prod:8088/proxy/application_1732000000000_0042/"
	orders.JMAddress = "node7.prod:41233"
	orders.FlinkState = "RUNNING"
	orders.StartedAt = ago(76 * time.Hour)
	orders.LatestCheckpoint = rp(model.Checkpoint, "hdfs:///flink/ck/3f9c0d1e/chk-8812", 12*time.Second, "sync")
	orders.LatestCheckpoint.CheckID, orders.LatestCheckpoint.FlinkJobID, orders.LatestCheckpoint.Size = 8812, orders.FlinkJobID, 1230<<20
	// The savepoint of the pause is of the job's run before this one.
	orders.LatestSavepoint = rp(model.Savepoint, "hdfs:///flink/sp/orders-enrich/savepoint-7f3a21", 77*time.Hour, "PAUSE #40")
	orders.LatestSavepoint.CheckID, orders.LatestSavepoint.FlinkJobID, orders.LatestSavepoint.Size = 8650, "7f3a21c04d5e6f708192a3b4c5d6e7f8", 1180<<20
	orders.RestoredFrom = "hdfs:///flink/sp/orders-enrich/savepoint-7f3a21"

	payments := job("j002", "payments-dedup", model.KindJAR, "prod", model.StateRunning)
	payments.AppID, payments.StartedAt, payments.FlinkState = "application_1732000000000_0017", ago(217*time.Hour), "RUNNING"
	payments.PlatformRestarts, payments.FlinkRestarts = 1, 1
	payments.LatestCheckpoint = rp(model.Checkpoint, "hdfs:///flink/ck/payments/chk-120", 31*time.Second, "sync")

	clicks := job("j003", "clicks-to-hudi", model.KindSQL, "prod", model.StateRunning)
	clicks.AppID, clicks.StartedAt, clicks.FlinkState = "application_1732000000000_0090", ago(14*time.Minute), "RUNNING"
	clicks.LatestCheckpoint = rp(model.Checkpoint, "hdfs:///flink/ck/clicks/chk-9", 8*time.Second, "sync")

	users := job("j004", "user-features", model.KindSQL, "staging", model.StateRunning)
	users.AppID, users.StartedAt, users.FlinkState = "application_1730000000000_0003", ago(26*time.Hour), "RESTARTING"
	users.FlinkRestarts = 4
	users.LatestCheckpoint = rp(model.Checkpoint, "hdfs:///flink/ck/users/chk-77", 3*time.Minute, "sync")

	fraud := job("j005", "fraud-scoring", model.KindJAR, "prod", model.StateFailed)
	fraud.Diagnostics = "java.lang.OutOfMemoryError: Java heap space"
	fraud.LatestCheckpoint = rp(model.Checkpoint, "hdfs:///flink/ck/fraud/chk-4410", 2*time.Hour, "sync")

	sessions := job("j006", "sessionize", model.KindSQL, "staging", model.StateFinished)
	sessions.LatestSavepoint = rp(model.Savepoint, "hdfs:///flink/sp/sessionize/savepoint-01ab", 5*time.Hour, "PAUSE #12")

	ads := job("j007", "ad-clicks-agg", model.KindSQL, "staging", model.StateKilled)

	inventory := job("j008", "inventory-sync", model.KindJAR, "prod", model.StateDeploying)
	inventory.AppID = "application_1732000000000_0101"
	// Logs as the scheduler writes them: who runs the command (a lease
	// owner: host, pid and a random part), the steps, and the end.
	submit := &model.Command{ID: "c000038", Seq: 38, JobID: "j008", Kind: model.CmdSubmit, State: model.CmdDoing, Issuer: "ops",
		CreatedAt: ago(20 * time.Second), StartedAt: ago(19 * time.Second), LeaseOwner: "ops-1 pid 4242 #9f3a2b", LeaseUntil: ago(-40 * time.Second),
		Attempts: 1, Log: []model.LogLine{{Time: ago(19 * time.Second), Text: "started by ops-1 pid 4242 #9f3a2b"}}}

	draft := job("j009", "new-pipeline", model.KindSQL, "staging", model.StateNone)

	geo := job("j010", "geo-enrich", model.KindSQL, "prod", model.StateDeployFailed)
	geo.Diagnostics = "SQL validation failed: Object 'geo_dim' not found"

	f := &Fake{
		now: now,
		Jobs: []api.JobView{
			{Job: orders, Figures: fig(12400, 12380, 0.04, 12*time.Second, 1200)},
			{Job: payments, Figures: fig(3100, 3099, 0.31, 31*time.Second, 2_140_000)},
			{Job: clicks, Figures: fig(48000, 47950, 0.87, 8*time.Second, api.Unknown)},
			{Job: users, Figures: fig(900, 0, 0, 3*time.Minute, 35)},
			{Job: fraud},
			{Job: sessions},
			{Job: ads},
			{Job: inventory, Pending: submit},
			{Job: draft},
			{Job: geo},
		},
		commands: []model.Command{
			{ID: "c000040", Seq: 40, JobID: "j001", Kind: model.CmdPause, State: model.CmdSucceeded, Attempts: 1, Issuer: "ops",
				CreatedAt: ago(78 * time.Hour), Log: []model.LogLine{
					{Time: ago(78 * time.Hour), Text: "stop-with-savepoint triggered (trigger 9a1c)"},
					{Time: ago(77 * time.Hour), Text: "savepoint hdfs:///flink/sp/orders-enrich/savepoint-7f3a21"}}},
			{ID: "c000041", Seq: 41, JobID: "j001", Kind: model.CmdRestart, State: model.CmdSucceeded, Attempts: 1, Issuer: "ops",
				CreatedAt: ago(76 * time.Hour), StartedAt: ago(76 * time.Hour), EndedAt: ago(76*time.Hour - 40*time.Second),
				Params: model.CommandParams{Restore: model.RestoreSavepoint},
				Log: []model.LogLine{
					{Time: ago(76 * time.Hour), Text: "started by ops-1 pid 3117 #c04e11"},
					{Time: ago(76 * time.Hour), Text: "submitted application_1732000000000_0042"},
					{Time: ago(76*time.Hour - 40*time.Second), Text: "succeeded"}}},
			*submit,
			{ID: "c000039", Seq: 39, JobID: "j005", Kind: model.CmdRestart, State: model.CmdFailed, Attempts: 3, Issuer: "policy",
				CreatedAt: ago(90 * time.Minute), Error: "deploy timed out after 5m: application stayed ACCEPTED"},
		},
		ClusterList: []api.ClusterStatus{
			{Name: "prod", Connected: true, ActiveRM: "rm1", LastOK: ago(2 * time.Second)},
			{Name: "staging", Connected: true, ActiveRM: "rm2", LastOK: ago(4 * time.Second)},
		},
		protected: map[string]bool{"prod": true},
		seq:       41,
		details: map[string]api.JobDetail{
			"j001": {
				Spec: model.Spec{JobID: "j001", Version: 7, Author: "ops", CreatedAt: ago(80 * time.Hour), Note: "join users dimension",
					SQL: "CREATE TABLE orders (\n  order_id BIGINT,\n  user_id BIGINT\n) WITH ('connector' = 'kafka');\nINSERT INTO enriched\nSELECT o.order_id, u.name FROM orders AS o\nLEFT JOIN users FOR SYSTEM_TIME AS OF o.proc_time AS u ON o.user_id = u.id;"},
				Events: []model.Event{
					{JobID: "j001", Seq: 1, Time: ago(77 * time.Hour), From: model.StateRunning, To: model.StateFinished, Reason: "PAUSE #40 by ops: savepoint savepoint-7f3a21", CommandID: "c000040"},
					{JobID: "j001", Seq: 2, Time: ago(76*time.Hour - time.Minute), From: model.StateFinished, To: model.StateDeploying, Reason: "RESTART #41 by ops", CommandID: "c000041"},
					{JobID: "j001", Seq: 3, Time: ago(20 * time.Second), From: model.StateDeploySucceeded, To: model.StateRunning, Reason: "sync: YARN RUNNING, Flink RUNNING"},
				},
				RestorePoints: []model.RestorePoint{*orders.LatestSavepoint, *orders.LatestCheckpoint,
					{JobID: "j001", Kind: model.Savepoint, Path: "hdfs:///flink/sp/orders-enrich/savepoint-11aa02", Time: ago(300 * time.Hour), Origin: "SAVEPOINT #12",
						Status: model.SavepointDisposed, DisposedAt: ago(100 * time.Hour)}},
				Live: &api.LiveJob{
					FetchedAt: ago(time.Second), YARNState: "RUNNING", FinalStatus: "UNDEFINED", FlinkState: "RUNNING",
					Vertices: []api.Vertex{{ID: "v1", Name: "Source: orders", Parallelism: 4, Status: "RUNNING"}, {ID: "v2", Name: "LookupJoin -> Sink: enriched", Parallelism: 4, Status: "RUNNING"}},
					Checkpoints: []api.CheckpointInfo{
						{ID: 8812, Status: "COMPLETED", TriggeredAt: ago(12 * time.Second), Duration: 1200 * time.Millisecond, Size: 38 << 20, Path: "hdfs:///flink/ck/3f9c0d1e/chk-8812"},
						{ID: 8811, Status: "FAILED", TriggeredAt: ago(72 * time.Second), Duration: 60 * time.Second, Failure: "Checkpoint expired before completing"},
						{ID: 8810, Status: "COMPLETED", TriggeredAt: ago(132 * time.Second), Duration: 1100 * time.Millisecond, Size: 37 << 20, Path: "hdfs:///flink/ck/3f9c0d1e/chk-8810"},
					},
					Exceptions: []api.ExceptionInfo{
						{Time: ago(3 * time.Hour), Name: "java.net.SocketTimeoutException: Read timed out", Task: "LookupJoin (2/4)", Location: "node7.prod:41233",
							Stacktrace: "java.net.SocketTimeoutException: Read timed out\n\tat java.net.SocketInputStream.read(SocketInputStream.java:171)\n\tat org.apache.flink.connector.jdbc.JdbcLookupFunction.eval(JdbcLookupFunction.java:88)"},
						{Time: ago(27 * time.Hour), Name: "org.apache.kafka.common.errors.TimeoutException", Task: "Source: orders (1/4)"},
					},
					RawJSON: `{"jid":"3f9c0d1e2b3a4c5d6e7f8091a2b3a21e","name":"orders-enrich","state":"RUNNING","vertices":[{"id":"v1","name":"Source: orders","parallelism":4}]}`,
				},
			},
		},
		overviews: map[string]api.ClusterOverview{
			"prod": {
				Name: "prod", FetchedAt: ago(time.Second),
				Metrics: api.ClusterMetrics{AppsRunning: 12, AppsPending: 1, AppsFailed: 2, AppsKilled: 5, AppsCompleted: 40,
					MemoryUsedMB: 49152, MemoryTotalMB: 98304, VCoresUsed: 24, VCoresTotal: 48, ActiveNodes: 6, UnhealthyNodes: 1},
				Queues: []api.Queue{
					{Name: "root", Depth: 0, Capacity: 100, UsedCapacity: 50, MaxCapacity: 100, Apps: 13},
					{Name: "streaming", Depth: 1, Capacity: 70, UsedCapacity: 64.3, MaxCapacity: 90, Apps: 11},
					{Name: "adhoc", Depth: 1, Capacity: 30, UsedCapacity: 10, MaxCapacity: 50, Apps: 2},
				},
				Unmanaged: []api.Application{
					{ID: "application_1732000000000_0077", Name: "legacy-etl", Type: "Apache Flink", User: "etl", Queue: "streaming", State: "RUNNING", StartedAt: ago(400 * time.Hour)},
					{ID: "application_1732000000000_0088", Name: "ad-hoc-backfill", Type: "Apache Flink", User: "alice", Queue: "adhoc", State: "RUNNING", StartedAt: ago(3 * time.Hour)},
				},
				Sessions: []api.SessionCluster{
					{AppID: "application_1732000000000_0003", Name: "flink-session-prod", TaskManagers: 4, SlotsTotal: 16, SlotsFree: 5, Jobs: 6},
				},
			},
			"staging": {Name: "staging", FetchedAt: ago(time.Second), Metrics: api.ClusterMetrics{AppsRunning: 2, MemoryUsedMB: 8192, MemoryTotalMB: 32768, VCoresUsed: 4, VCoresTotal: 16, ActiveNodes: 2}},
		},
	}
	f.logPart, f.metricsPart, f.specPart, f.catalogPart = &logPart{f}, &metricsPart{f}, &specPart{f}, &catalogPart{f: f}
	f.udfPart = &udfPart{f: f, UDFList: fixtureUDFs(ago)}
	f.Nodes = fixtureNodes(ago)
	f.ProjectList = []model.Project{
		{Name: "payments-dedup", Repo: "git@git.acme:stream/payments-dedup.git", Ref: "main", Build: "mvn -B -q package -DskipTests", Artifact: "target/dedup-*.jar"},
		{Name: "fraud-model", Repo: "https://git.acme/ml/fraud.git", Ref: "release", Build: "gradle shadowJar", Artifact: "build/libs/*-all.jar"},
	}
	f.ArtifactList = map[string][]model.Artifact{"payments-dedup": {
		{Project: "payments-dedup", Version: 1, Commit: "3f9c0d1e2b4a5c6d7e8f9a0b1c2d3e4f5a6b7c8d", Subject: "dedup by event id", Size: 48_213_004, BuiltBy: "ana", BuiltAt: ago(50 * time.Hour)},
		{Project: "payments-dedup", Version: 2, Commit: "9c1f2e3d4b5a69788796a5b4c3d2e1f00112233a", Subject: "dedup within 10 minutes", Size: 48_390_112, BuiltBy: "bob", BuiltAt: ago(3 * time.Hour)},
	}}
	f.diagPart = newDiagPart(f)
	return f
}

// ManyJobs generates n jobs for benchmarks and scale tests. Every row looks
// alike whatever n is (same widths, same kinds of figures), so that a
// frame's cost can be compared across sizes.
func ManyJobs(n int) []api.JobView {
	states := []model.JobState{model.StateRunning, model.StateRunning, model.StateRunning, model.StateFailed, model.StateFinished, model.StateDeploying}
	out := make([]api.JobView, n)
	for i := range out {
		st := states[i%len(states)]
		out[i] = api.JobView{Job: model.Job{
			ID: fmt.Sprintf("j%07d", i), Name: fmt.Sprintf("job-%07d", (i*7919)%n), Kind: model.KindSQL,
			Cluster: []string{"prod", "staging", "dev"}[i%3], State: st,
			AppID:     fmt.Sprintf("application_1732000000000_%06d", i),
			StartedAt: Now.Add(-time.Duration(600+i%1000) * time.Minute),
		}, Figures: api.Figures{At: Now, RecordsInPerSec: float64(1000 + (i%100)*37), Backpressure: float64(i%10) / 10,
			Lag: float64((i * 7919) % 100_000)}}
	}
	return out
}
