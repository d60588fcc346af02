package api

import "context"

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
}
