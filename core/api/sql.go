package api

import (
	"context"
	"encoding/json"
)

// SQLPlanner asks a cluster's SQL Gateway about a SQL job without running
// it: `palink sql check --remote`.
type SQLPlanner interface {
	// Explain runs the script's SET and DDL statements in a throwaway
	// gateway session of the cluster and returns the gateway's EXPLAIN of
	// the job statement (the INSERT or statement set). It fails when the
	// cluster has no SQL Gateway, when the script has no job statement, or
	// with the gateway's own error (a missing table, a bad option).
	//palink:api role=operator what="explain on the SQL Gateway" on=cluster(cluster)
	Explain(ctx context.Context, cluster, sql string) (string, error)
	// FlinkVersion is the Flink release of the cluster's SQL Gateway, as
	// its /info says ("1.20.1"): the release its SQL jobs run on, for a
	// cluster whose config does not say. It fails when the cluster has no
	// SQL Gateway or the gateway does not answer.
	//palink:api role=viewer on=cluster(cluster)
	FlinkVersion(ctx context.Context, cluster string) (string, error)
	// DebugOnCluster runs a debug run on the cluster itself, through its
	// SQL Gateway (`palink debug --on`): the sources read the run's
	// samples (a filesystem table over each, where the cluster reads
	// them), each sink becomes a query whose rows and their changes come
	// back through the gateway's results, the registered UDFs the script
	// calls are created from their artifacts, and every query is cancelled
	// at Limit or ends with its sources. It starts Flink jobs on the
	// cluster, so it is an operator's.
	//palink:api role=operator writes what="run a debug job on" caller=Issuer timeout=30m on=cluster(r.Cluster)
	DebugOnCluster(ctx context.Context, r RemoteDebugRequest) (RemoteDebugResult, error)
}

// Session keys a debug run on a cluster sets for the simulator's gateway,
// which runs queries on palink's own runtime (a Flink gateway keeps keys it
// does not know and uses none of them): the stand-ins of the UDFs that
// runtime cannot load, a line each, and the most rows a query gives.
const (
	DebugConfStandIns = "palink.debug.stand-ins"
	DebugConfLimit    = "palink.debug.limit"
)

// RemoteDebugRequest is a debug run on a cluster (DebugOnCluster).
type RemoteDebugRequest struct {
	Cluster string
	// SQL is the job's script; File names it in messages.
	SQL, File string
	// Data are the samples of the source tables: table → file. A table
	// without one reads what its connector reads on the cluster.
	Data map[string]string
	// Limit is the most changes each sink's query gives before it is
	// cancelled; 0: 1,000 (a streaming source never ends).
	Limit int
	// StandIns stand in for UDFs where the cluster runs palink's runtime
	// (the simulator); a cluster loads the registered ones themselves.
	StandIns []string
	// Issuer is who runs it (the agent fills it in).
	Issuer string
}

// RemoteDebugResult is what each sink's query gave on the cluster.
type RemoteDebugResult struct {
	Cluster string
	Sinks   []RemoteSink
	// Notes say what the run did that a reader should know (where the
	// cluster read the samples, the session it ran in).
	Notes []string
}

// RemoteSink is one sink's query on the cluster: its changes as they came
// and the table they leave, values as the gateway's JSON gives them.
type RemoteSink struct {
	Name    string
	Columns []DebugColumn
	Changes []RemoteChange
	Final   [][]json.RawMessage
	// Truncated: the query was cancelled at the limit.
	Truncated bool
	// JobID is the Flink job that ran the query.
	JobID string
}

// RemoteChange is one change a sink's query gave: +I, -U, +U or -D.
type RemoteChange struct {
	Kind   string
	Values []json.RawMessage
}
