package core

import (
	"context"
	"time"
)

// ExplainArgs are Explain's arguments.
type ExplainArgs struct {
	Cluster string
	SQL     string
}

// Explain is Service.Explain, for operators only: it runs the script's
// DDL (CREATE, DROP, ALTER …) in a SQL Gateway session under the agent's
// identity, and a persistent catalog keeps what it does.
func (h *rpcHandler) Explain(a ExplainArgs, out *string) (err error) {
	if err := h.mustBeOperator("explain on the SQL Gateway"); err != nil {
		return err
	}
	ctx, cancel := h.call(2 * time.Minute)
	defer cancel()
	*out, err = h.svc.Explain(ctx, a.Cluster, a.SQL)
	return err
}

// Explain implements Service.
func (r *Remote) Explain(ctx context.Context, cluster, sql string) (out string, err error) {
	return out, r.call(ctx, "Explain", ExplainArgs{Cluster: cluster, SQL: sql}, &out)
}
