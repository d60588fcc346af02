package scheduler

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/script"
	"github.com/palink/palink/core/udfs"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// deploySQL runs the job's script through the SQL Gateway: session
// properties target the cluster and tag the application; SET statements
// name the pipeline, set parallelism and the restore path; then the DDL,
// then the one INSERT (or STATEMENT SET) whose job id the gateway returns.
func (x *execution) deploySQL(ctx context.Context, cl *clusters.Cluster, j model.Job, spec model.Spec, restore string, session bool) (deployed, error) {
	if cl.Gateway == nil {
		return deployed{}, fmt.Errorf("cluster %s has no sql_gateway configured", cl.Name)
	}
	stmts, err := script.Plan(spec.SQL)
	if err != nil {
		return deployed{}, err
	}
	injected, err := x.injectCatalog(ctx, j, spec)
	if err != nil {
		return deployed{}, err
	}
	fns, err := x.injectUDFs(ctx, cl, j, spec)
	if err != nil {
		return deployed{}, err
	}
	vars, err := x.resolveVars(ctx, j, spec, injected)
	if err != nil {
		return deployed{}, err
	}
	d, err := x.runSQL(ctx, cl, j, stmts, sqlInjected{injected, fns}, vars, restore, session)
	// A gateway's error may quote a statement: never with a secret in it.
	return d, vars.MaskErr(err)
}

// sqlInjected is what a SQL deploy adds to the script: the catalog's
// tables and the registered functions.
type sqlInjected struct {
	flinksql.Injection
	udfs udfs.Plan
}

// runSQL is deploySQL once the script, its catalog tables and its
// variables are known: ${name} references are replaced as each statement
// and property is sent, never in what palink keeps.
func (x *execution) runSQL(ctx context.Context, cl *clusters.Cluster, j model.Job, stmts script.Script, injected sqlInjected, vars catalog.Resolved, restore string, session bool) (deployed, error) {
	sub := func(s string) string { return flinksql.SubstituteVars(s, vars.Values) }
	props := map[string]string{}
	for k, v := range cl.Cfg.Deploy.Properties {
		props[k] = v
	}
	for k, v := range j.Config {
		props[k] = sub(v)
	}
	injected.udfs.AddProperties(props)
	forced(props, cl, "") // the gateway submits as itself
	props["execution.target"] = cl.Cfg.Deploy.Mode
	props["yarn.application.name"] = j.Name
	props["yarn.tags"] = strings.Join(clusters.SubmissionTags(x.s.storeID, j.ID, x.id), ",")
	if q := cl.Cfg.Deploy.Queue; q != "" {
		props["yarn.application.queue"] = q
	}
	if session {
		props["yarn.application.id"] = cl.Cfg.Deploy.SessionApp
		props["$internal.pipeline.job-id"] = fixedJobID(x.id)
	}
	if dir := cl.Cfg.Deploy.SavepointDir; dir != "" {
		props["state.savepoints.dir"] = dir
	}
	sess, err := cl.Gateway.OpenSession(ctx, yarn.SessionRequest{Name: "palink-" + j.Name, Properties: props})
	if err != nil {
		return deployed{}, fmt.Errorf("open SQL Gateway session: %w", err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = cl.Gateway.CloseSession(cctx, sess)
	}()
	exec := func(stmt string) (yarn.Result, error) {
		return cl.Gateway.ExecuteAndFetch(ctx, sess, yarn.StatementRequest{Statement: sub(stmt)}, 100)
	}
	for _, st := range stmts.Sets {
		if _, err := exec(st.Text); err != nil {
			return deployed{}, fmt.Errorf("line %d: %w", st.Line, err)
		}
	}
	palinkSets := []string{fmt.Sprintf("SET 'pipeline.name' = '%s'", sqlQuote(j.Name))}
	if j.Parallelism > 0 {
		palinkSets = append(palinkSets, fmt.Sprintf("SET 'parallelism.default' = '%d'", j.Parallelism))
	}
	if restore != "" {
		// 1.x reads execution.savepoint.path, 1.20+ execution.state-recovery.path.
		palinkSets = append(palinkSets,
			fmt.Sprintf("SET 'execution.savepoint.path' = '%s'", sqlQuote(restore)),
			fmt.Sprintf("SET 'execution.state-recovery.path' = '%s'", sqlQuote(restore)))
		if m := x.claimMode(); m != "" {
			palinkSets = append(palinkSets,
				fmt.Sprintf("SET 'execution.savepoint-restore-mode' = '%s'", m),
				fmt.Sprintf("SET 'execution.state-recovery.claim-mode' = '%s'", m))
		}
		if x.params().AllowNonRestoredState {
			palinkSets = append(palinkSets,
				"SET 'execution.savepoint.ignore-unclaimed-state' = 'true'",
				"SET 'execution.state-recovery.ignore-unclaimed-state' = 'true'")
		}
	}
	for _, set := range palinkSets {
		if _, err := exec(set); err != nil {
			return deployed{}, fmt.Errorf("%s: %w", set, err)
		}
	}
	for _, t := range injected.Tables {
		if _, err := exec(t.Stmt); err != nil {
			return deployed{}, fmt.Errorf("catalog table %s: %w", t.Ref(), err)
		}
	}
	for i, st := range injected.udfs.Statements {
		if _, err := exec(st); err != nil {
			return deployed{}, fmt.Errorf("function %s: %w", injected.udfs.Functions[i].Ref, err)
		}
	}
	for _, st := range stmts.DDL {
		if _, err := exec(st.Text); err != nil {
			return deployed{}, fmt.Errorf("line %d: %w", st.Line, err)
		}
	}
	x.logf(ctx, "executing the job statement (line %d) through %s", stmts.Job.Line, cl.Gateway.Base())
	if err := x.s.mayAct(); err != nil {
		return deployed{}, err
	}
	res, err := exec(stmts.Job.Text)
	if err != nil {
		return deployed{}, fmt.Errorf("line %d: %w", stmts.Job.Line, err)
	}
	jid, ok := yarn.InsertJobID(res)
	if !ok {
		return deployed{}, fmt.Errorf("line %d: the gateway returned no job id", stmts.Job.Line)
	}
	_ = x.save(ctx, func(c *model.Command) { c.Params.FlinkJobID = jid })
	x.logf(ctx, "Flink job %s submitted", jid)
	if session {
		app, err := cl.RM.Application(ctx, cl.Cfg.Deploy.SessionApp)
		if err != nil {
			return deployed{}, err
		}
		return deployed{app: app, jobID: jid, session: true}, nil
	}
	app, err := x.awaitApp(ctx, cl)
	if err != nil {
		return deployed{}, err
	}
	return deployed{app: app, jobID: jid}, nil
}
