package scheduler

import (
	"context"
	"fmt"

	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// injectCatalog works out the catalog tables a SQL deploy injects (the
// newest versions of those the script uses without defining them),
// records them on the command and in its log, and refuses the deploy when
// one no longer validates.
func (x *execution) injectCatalog(ctx context.Context, j model.Job, spec model.Spec) (flinksql.Injection, error) {
	var in flinksql.Injection
	err := x.s.st.View(ctx, func(tx store.ReadTx) (err error) {
		in, err = catalog.ForScript(tx, j.Cluster, spec.SQL)
		return err
	})
	if err != nil {
		return in, fmt.Errorf("read the table catalog of cluster %s: %w", j.Cluster, err)
	}
	if err := in.Err(); err != nil {
		return in, err
	}
	for _, d := range in.Shadowed {
		x.logf(ctx, "the script defines %s itself: the table catalog's %s is not used", d.Name, d.Ref())
	}
	if len(in.Tables) == 0 {
		return in, nil
	}
	refs := catalog.Refs(in)
	x.logf(ctx, "injecting from the table catalog: %s", model.CatalogRefs(refs))
	if err := x.save(ctx, func(c *model.Command) { c.Params.Catalog = refs }); err != nil {
		return in, err
	}
	return in, nil
}

// resolveVars reads the variables a SQL deploy of j needs (secrets from
// this process's environment or files) and checks every reference.
func (x *execution) resolveVars(ctx context.Context, j model.Job, spec model.Spec, in flinksql.Injection) (catalog.Resolved, error) {
	var vs []model.Variable
	err := x.s.st.View(ctx, func(tx store.ReadTx) (err error) {
		vs, err = catalog.ClusterVars(tx, j.Cluster)
		return err
	})
	if err != nil {
		return catalog.Resolved{}, fmt.Errorf("read the variables of cluster %s: %w", j.Cluster, err)
	}
	// A secret outside a connector option is deployed (refusing it would
	// stop a job that ran before), but Flink shows its value in the
	// job's plan and web UI: the command log says where it stands.
	var secrets []string
	for _, v := range vs {
		if v.Secret() {
			secrets = append(secrets, v.Name)
		}
	}
	for _, d := range flinksql.SecretsOutsideOptions(spec.SQL, "", secrets, flinksql.SeverityWarning) {
		x.logf(ctx, "warning: line %s: %s", d.Pos, d.Message())
	}
	return catalog.Prepare(vs, spec.SQL, in, j.Config, x.s.opts.Secrets)
}

// resolveJobVars reads the variables a JAR or PyFlink deploy of j needs:
// those its program arguments and Flink config refer to, with ${name}.
func (x *execution) resolveJobVars(ctx context.Context, j model.Job, spec model.Spec) (catalog.Resolved, error) {
	var vs []model.Variable
	err := x.s.st.View(ctx, func(tx store.ReadTx) (err error) {
		vs, err = catalog.ClusterVars(tx, j.Cluster)
		return err
	})
	if err != nil {
		return catalog.Resolved{}, fmt.Errorf("read the variables of cluster %s: %w", j.Cluster, err)
	}
	return catalog.PrepareJob(vs, spec.Args, j.Config, x.s.opts.Secrets)
}

// substituted are args and config with their ${name} references replaced.
func substituted(vars catalog.Resolved, args []string, config map[string]string) ([]string, map[string]string) {
	outArgs := make([]string, len(args))
	for i, a := range args {
		outArgs[i] = flinksql.SubstituteVars(a, vars.Values)
	}
	outConf := make(map[string]string, len(config))
	for k, v := range config {
		outConf[k] = flinksql.SubstituteVars(v, vars.Values)
	}
	return outArgs, outConf
}

// catalogRefusal is why a deploy of j must be refused for its catalog
// tables, "" if it need not be.
func catalogRefusal(tx store.ReadTx, j model.Job, kind model.CommandKind) (string, error) {
	if !kind.Deploys() {
		return "", nil
	}
	return catalog.Refusal(tx, j)
}
