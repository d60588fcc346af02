// Package yarn holds palink's REST clients: the YARN ResourceManager, the
// Flink JobManager REST API (through the RM web proxy or directly) and the
// Flink SQL Gateway. It is the only package that speaks HTTP.
//
// Field names, paths and states follow the official specs in
// ../shared/reference (Flink OpenAPI files, Hadoop ResourceManagerRest.md),
// plus the wire facts its README documents where the servers depart from
// their specs (bare metric arrays, the SQL Gateway's fetch shape, ids written
// as hex strings, the standby RM's redirect). The tests check the types
// against those files.
//
// Clients:
//
//   - ResourceManager: /ws/v1/cluster/…, with RM HA (standby redirects and
//     unreachable RMs fail over; the active RM is remembered).
//   - Flink: one JobManager; GETs through the read base (usually the YARN
//     proxy), actions to the direct base (amRPCAddress), since the proxy
//     forwards only GET and PUT.
//   - ContainerLogs: YARN container logs from a NodeManager (running
//     applications) or the log server of yarn.log.server.web-service.url
//     (aggregated logs of applications that ended), which serve the same
//     paths.
//   - SQLGateway: version negotiation, sessions, statements, paged results.
//   - Webhook: POSTs alert messages (JSON) to a receiver, retried with
//     backoff; its URL is a secret and never shows beyond scheme and host.
//
// Files:
//
//   - client.go: Options and the transport every client shares (resty,
//     retries, TLS); errors.go: the sentinels and error types; flex.go: lenient
//     JSON scalars (numbers or strings, hex ids, bare or wrapped lists).
//   - rm.go, rm_types.go: the ResourceManager client and its types;
//     rm_containers.go: an attempt's containers and the RM's configuration.
//   - flink.go: the JobManager client; flink_logs.go: log listing and
//     ranged reads. Its types: flink_types.go (jobs, exceptions, jars,
//     execution results), flink_checkpoint_types.go (checkpoints,
//     savepoints, asynchronous operations), flink_metric_types.go
//     (metrics, back pressure, TaskManagers, log files).
//   - flink_diagnose.go, flink_diagnose_types.go: the plan, vertices and
//     subtasks, checkpoint parts, TaskManager details, configurations;
//     flink_flame.go: flame graphs and thread dumps, decoded as streams
//     within caps (the flame graph through internal/jsonscan, palink's
//     streaming JSON scanner) and returned Truncated past them.
//   - containerlogs.go: YARN container log lists and files.
//   - sqlgateway.go: the SQL Gateway client (versions, sessions,
//     statements, operations); sqlgateway_results.go: result columns,
//     pages and fetching them to the end.
//   - webhook.go: the alert webhook.
//   - kerberos.go: Kerberos, one login context (a principal's tickets from
//     a keytab, logged in again at 90 % of their life, or from a kinit
//     credential cache), and the SPNEGO round tripper that signs requests
//     to the RMs and to any host that answers 401 Negotiate; its errors
//     (ErrKerberosRequired, ErrClockSkew, …, *KerberosError) say what to do.
//
// Every method takes a ctx and returns plain structs. Failures are the
// sentinels and types of errors.go (ErrNotFound, ErrUnavailable,
// ErrTimeout, *HTTPError, *DecodeError, *RequestError), and read
// "GET /path on host:port: cause" with credentials removed. Only GETs are
// retried (Options.Retries, exponential backoff with jitter), and webhook
// POSTs, whose loss costs more than a repeat.
//
// Of palink's own it imports model and internal/jsonscan alone.
package yarn
