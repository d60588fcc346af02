// Package sim is a simulated YARN + Flink + SQL Gateway cluster that speaks
// the real REST APIs, with fault injection and a deterministic mode. It powers
// `palink demo`, `palink sim` and the tests. Its JSON follows the official
// specs in ../shared/reference, which its contract tests check.
//
// What listens:
//   - one or more ResourceManagers (RM REST API under /ws/v1/cluster, the web
//     proxy under /proxy/<appId>/, and the simulator's own admin API under
//     /sim/, which is not YARN); with two or more, the standbys answer like
//     Hadoop's RMWebAppFilter (307 to the active RM, except cluster/info);
//   - one Flink JobManager REST server per running application, on its own
//     port, which is the application's amRPCAddress; it is opened when the
//     address is first needed and closed when the JobManager dies;
//   - one Flink SQL Gateway (API V1…V4, V3 for Flink 1.x);
//   - one NodeManager web server that every simulated node shares, with
//     its containers' logs, and a log server (the timeline server's
//     application history) with the aggregated logs of applications that
//     ended, which the RM's /conf names (nodemanager.go).
//
// Time is simulated (Options.Speed, or any Clock such as a *ManualClock):
// every state is a function of the clock, applied lazily when read and by
// one scheduler goroutine that only visits applications with due events, so
// ten thousand applications cost no goroutine each.
//
// Inside, the Cluster is a facade over parts, each a type with the few
// other parts it uses. One lock, the cluster's, guards them all, so every
// transition is atomic: each handler and each Go API call holds it while
// it reads or changes the simulation. Only the wire-fault injector has a
// lock of its own, always taken after the cluster's, never before. The
// rooms:
//
//   - sim.go: Options, the Cluster, New (which wires the parts), Start,
//     Close and the scheduler's tick; api.go: the Go API (Submit, Apps,
//     FailJob, FailoverJM, KillApp, FailoverRM, …).
//   - events.go: eventQueue, the agenda. Every state change is an event of
//     one application, run when the clock has passed it.
//   - apps.go: yarnApps, the YARN applications and their lifecycle
//     (submission, attempts, kill, deregistration); ids.go: their ids.
//   - job.go: flinkJobs, the Flink jobs and their state machine (start,
//     restarts, failure, cancel); checkpoints.go: periodic checkpoints,
//     savepoints, stop-with-savepoint, and pointStore, what can still be
//     restored; metrics.go: a job's metrics, a pure function of its seed
//     and the time.
//   - rm.go: the RM listeners, rmHA (which RM is active) and rmAPI, the RM
//     REST API behind the standby filter; rm_apps.go: applications and
//     their filters; rm_scheduler.go: cluster metrics and the capacity
//     scheduler; proxy.go: webProxy; admin.go: the /sim/ API.
//   - jm.go: jobManagers, the JobManager listeners, their shared router
//     and the cluster-wide endpoints; jm_jobs.go, jm_checkpoints.go,
//     jm_metrics.go, jm_diagnose.go, jars.go, logs.go: the other
//     endpoints, by family; program.go: JAR programs that cannot start
//     (a missing jar, an entry class not in it) and a client's submission
//     into a running session (flink run -t yarn-session).
//   - graph.go: job graphs (ship strategies, SetJobGraph: any shape,
//     cycles included) and Diagnosis, which gives a job a known cause
//     (a bottleneck, a hot subtask, a slow checkpoint part, huge flame
//     graphs and thread dumps, a JobManager that stalls); diagnose.go:
//     the figures behind checkpoint parts, TaskManagers, flame graphs and
//     thread dumps; failures.go: task failures with their causes, as Java
//     prints them.
//   - gateway.go: sqlGateway, its sessions and operations; sql.go: the SQL
//     it understands.
//   - faults.go: the Faults configuration; inject.go: injector, the wire
//     faults; chaos.go: the periodic faults (failovers, job failures).
//   - populate.go: fleet, the applications that exist at start.
//   - clock.go: clocks; errors.go: the Go API's errors and the REST error
//     shapes.
//   - secure.go: secure mode (Options.Kerberos), the RMs' authentication
//     filter as Hadoop's: 401 Negotiate, SPNEGO checked with the RM's
//     keytab (gokrb5's service side), 403 with the GSS failure, doAs for
//     proxy users, and the MODIFY_APP ACL on kills; tls.go: HTTPS for the
//     RMs with a CA the cluster makes (Options.TLS).
//
// Where real clusters and the brief could differ, the simulator follows the
// real clusters, and says so:
//   - a per-job cluster whose job FAILED ends YARN state FINISHED with final
//     status FAILED (Flink deregisters its AM); state FAILED is for an AM
//     that exhausted its attempts. A canceled job ends FINISHED/KILLED, a
//     stopped one FINISHED/SUCCEEDED, a YARN kill KILLED/KILLED;
//   - restoring from a path the simulator never produced, or from a
//     subsumed checkpoint, fails the job like a missing file does
//     (Options.LenientRestore accepts any path);
//   - YARN lower-cases application tags; an empty application list is
//     {"apps":null};
//   - per-job and application clusters have no web submission (/jars is
//     404); only session clusters take jars;
//   - a JAR program whose jar is missing or lacks its entry class fails
//     where Flink builds it: the client of a per-job submission (nothing
//     deployed), the JobManager of an application cluster (it deregisters
//     FINISHED/FAILED with the ProgramInvocationException and its
//     ClassNotFoundException as diagnostics), a session's jars/run (400);
//     a jar with no class files at all (a test's stub) runs any class;
//   - checkpoints follow Flink's CheckpointProperties, per job, from its
//     configuration as submitted (then the application's): beyond
//     num-retained (execution.checkpointing.num-retained, before 1.20
//     state.checkpoints.num-retained; default 1) the oldest is subsumed and
//     deleted while the job runs; when a job ends by Flink's hand, its
//     execution.checkpointing.externalized-checkpoint-retention decides:
//     NO_EXTERNALIZED_CHECKPOINTS (the default) deletes them whatever the
//     end, DELETE_ON_CANCELLATION keeps them after FAILED only,
//     RETAIN_ON_CANCELLATION after CANCELED and FAILED, and every retention
//     deletes them when the job FINISHES (stop-with-savepoint). Savepoints
//     are never deleted. A YARN kill, or an AM that died, runs no cleanup:
//     the files stay, and the job shows SUSPENDED. Flink's own SUSPENDED
//     (a graceful shutdown without HA, which deletes them unless
//     RETAIN_ON_CANCELLATION) does not happen here. checkpoints/config
//     reports the retention as Flink's CheckpointConfigHandler does;
//     a Job snapshot's Retained lists what the simulated HDFS holds;
//   - a per-job JobManager whose job ended by stop-with-savepoint stays up
//     until a client fetched the result (at most 60 simulated seconds);
//   - flame graphs answer endTimestamp -2 unless rest.flamegraph.enabled is
//     "true" (Flink's default is off), and -3 for the first seconds of
//     sampling after the first request;
//   - GET /jobs/{jobid}/config is written under the wire's names (jid,
//     name, execution-config), not the spec's.
//
// Simplifications: log files have a fixed size and fixed-width lines, so a
// task failure later than a TaskManager log's last line is written near its
// end, under its own time; the YARN application name of an SQL job is
// yarn.application.name, else pipeline.name (Flink itself would use its
// default name); SELECT is simulated for constants only; gateway session
// idle timeouts run on the simulated clock.
//
// It must not import palink's HTTP clients (package yarn): it is what they
// are tested against, so it is written from the specs alone.
package sim
