package core

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/yarn"
)

// Explain implements api.SQLPlanner: the script's SET and DDL statements run
// in a session of their own, which is closed afterwards, then the gateway
// explains the job statement. Nothing is submitted.
func (l *Local) Explain(ctx context.Context, cluster, sql string) (string, error) {
	cl := l.clusters[cluster]
	if cl == nil {
		return "", fmt.Errorf("explain on %s: no such cluster (known: %s)", cluster, strings.Join(l.clusterNames(), ", "))
	}
	if cl.Gateway == nil {
		return "", fmt.Errorf("explain on %s: the cluster has no sql_gateway configured", cluster)
	}
	p, err := planScript(sql)
	if err != nil {
		return "", fmt.Errorf("explain on %s: %w", cluster, err)
	}
	job, err := explainable(p.job.text)
	if err != nil {
		return "", fmt.Errorf("explain on %s: line %d: %w", cluster, p.job.line, err)
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
		return cl.Gateway.ExecuteAndFetch(ctx, sess, yarn.StatementRequest{Statement: stmt}, 1000)
	}
	for _, s := range append(p.sets, p.ddl...) {
		if _, err := exec(s.text); err != nil {
			return "", fmt.Errorf("explain on %s: line %d: %w", cluster, s.line, err)
		}
	}
	res, err := exec("EXPLAIN " + job)
	if err != nil {
		return "", fmt.Errorf("explain on %s: line %d: %w", cluster, p.job.line, err)
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

// explainable turns a job statement into what EXPLAIN takes: an INSERT or
// STATEMENT SET BEGIN … END. EXECUTE is dropped, and the SQL client's
// BEGIN STATEMENT SET; … END; is rewritten into the one-statement form.
func explainable(stmt string) (string, error) {
	s := strings.TrimSpace(stmt)
	if w := leadKeywords(s); w == "EXECUTE" {
		i := strings.Index(strings.ToUpper(s), "EXECUTE")
		s = strings.TrimSpace(s[i+len("EXECUTE"):])
	}
	up := strings.ToUpper(s)
	if strings.HasPrefix(up, "BEGIN") {
		rest := strings.TrimSpace(s[len("BEGIN"):])
		if !strings.HasPrefix(strings.ToUpper(rest), "STATEMENT") {
			return "", fmt.Errorf("cannot explain %q", firstLineOf(strings.TrimSpace(stmt)))
		}
		rest = strings.TrimSpace(rest[len("STATEMENT"):])
		if !strings.HasPrefix(strings.ToUpper(rest), "SET") {
			return "", fmt.Errorf("cannot explain %q", firstLineOf(strings.TrimSpace(stmt)))
		}
		rest = strings.TrimPrefix(strings.TrimSpace(rest[len("SET"):]), ";")
		return "STATEMENT SET BEGIN\n" + strings.TrimSpace(rest), nil
	}
	return s, nil
}
