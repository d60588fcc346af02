package core

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/script"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// planner is Local's part for SQL against a cluster's SQL Gateway: the
// Flink it runs and EXPLAIN, never a submission.
type planner struct {
	st       store.Store
	specs    []clusters.Spec
	clusters map[string]*clusters.Cluster
	now      func() time.Time
	secrets  catalog.Sources
	readOnly bool // DebugOnCluster starts jobs: a read-only palink refuses it
	user     string
}

// FlinkVersion implements api.SQLPlanner: GET /info of the cluster's SQL
// Gateway.
func (l planner) FlinkVersion(ctx context.Context, cluster string) (string, error) {
	cl := l.clusters[cluster]
	if cl == nil {
		return "", fmt.Errorf("flink version of %s: no such cluster (known: %s)", cluster, strings.Join(clusterNames(l.specs), ", "))
	}
	if cl.Gateway == nil {
		return "", fmt.Errorf("flink version of %s: the cluster has no sql_gateway configured", cluster)
	}
	info, err := cl.Gateway.Info(ctx)
	cl.Observe(err, l.now())
	if err != nil {
		return "", fmt.Errorf("flink version of %s: %w", cluster, err)
	}
	return info.Version, nil
}

// Explain implements api.SQLPlanner: the script's SET and DDL statements run
// in a session of their own, which is closed afterwards, then the gateway
// explains the job statement. Nothing is submitted.
func (l planner) Explain(ctx context.Context, cluster, sql string) (string, error) {
	// ${name} is the cluster's variable, secrets read here; the plan
	// (which quotes the tables' options) and errors have them masked.
	var vs []model.Variable
	err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		vs, err = catalog.ClusterVars(tx, cluster)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("explain on %s: read the variables: %w", cluster, err)
	}
	vars, err := catalog.Prepare(vs, sql, flinksql.Injection{}, nil, l.secrets)
	if err != nil {
		return "", fmt.Errorf("explain on %s: %w", cluster, err)
	}
	plan, err := l.explain(ctx, cluster, sql, func(s string) string { return flinksql.SubstituteVars(s, vars.Values) })
	return vars.Mask(plan), vars.MaskErr(err)
}

// explain is Explain with the script's variables replaced by sub as each
// statement is sent.
func (l planner) explain(ctx context.Context, cluster, sql string, sub func(string) string) (string, error) {
	cl := l.clusters[cluster]
	if cl == nil {
		return "", fmt.Errorf("explain on %s: no such cluster (known: %s)", cluster, strings.Join(clusterNames(l.specs), ", "))
	}
	if cl.Gateway == nil {
		return "", fmt.Errorf("explain on %s: the cluster has no sql_gateway configured", cluster)
	}
	p, err := script.Plan(sql)
	if err != nil {
		return "", fmt.Errorf("explain on %s: %w", cluster, err)
	}
	job, err := script.Explainable(p.Job.Text)
	if err != nil {
		return "", fmt.Errorf("explain on %s: line %d: %w", cluster, p.Job.Line, err)
	}
	sess, err := cl.Gateway.OpenSession(ctx, yarn.SessionRequest{Name: "palink-explain"})
	cl.Observe(err, l.now())
	if err != nil {
		return "", fmt.Errorf("explain on %s: open SQL Gateway session: %w", cluster, err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = cl.Gateway.CloseSession(cctx, sess)
	}()
	exec := func(stmt string) (yarn.Result, error) {
		return cl.Gateway.ExecuteAndFetch(ctx, sess, yarn.StatementRequest{Statement: sub(stmt)}, 1000)
	}
	for _, s := range append(p.Sets, p.DDL...) {
		if _, err := exec(s.Text); err != nil {
			return "", fmt.Errorf("explain on %s: line %d: %w", cluster, s.Line, err)
		}
	}
	res, err := exec("EXPLAIN " + job)
	if err != nil {
		return "", fmt.Errorf("explain on %s: line %d: %w", cluster, p.Job.Line, err)
	}
	var b strings.Builder
	for _, r := range res.Rows {
		for _, f := range r.Fields {
			fmt.Fprint(&b, f)
		}
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("explain on %s: the gateway returned no plan", cluster)
	}
	return b.String(), nil
}
