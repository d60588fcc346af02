package scheduler

import (
	"context"
	"fmt"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/udfs"
	"github.com/palink/palink/flinksql/builtin"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// injectUDFs works out the registered functions a SQL deploy creates (those
// the script calls without creating them), for the cluster's Flink
// release, and records them on the command and in its log.
func (x *execution) injectUDFs(ctx context.Context, cl *clusters.Cluster, j model.Job, spec model.Spec) (udfs.Plan, error) {
	var (
		p   udfs.Plan
		err error
	)
	v := x.flinkVersion(ctx, cl)
	if err := x.s.st.View(ctx, func(tx store.ReadTx) error {
		p, err = udfs.ForScript(tx, spec.SQL, v)
		return err
	}); err != nil {
		return p, fmt.Errorf("UDF registry: %w", err)
	}
	if len(p.Functions) == 0 {
		return p, nil
	}
	refs := p.Refs()
	how := "CREATE TEMPORARY FUNCTION … USING JAR"
	if _, ok := p.Properties["pipeline.jars"]; ok {
		how = "pipeline.jars (Flink " + v.String() + " has no USING JAR)"
	}
	x.logf(ctx, "injecting from the UDF registry: %s (%s)", model.UDFRefs(refs), how)
	if err := x.save(ctx, func(c *model.Command) { c.Params.UDFs = refs }); err != nil {
		return p, err
	}
	return p, nil
}

// flinkVersion is the Flink release of the cluster, as its SQL Gateway
// reports it (the one that runs the statements); zero when it does not
// tell.
func (x *execution) flinkVersion(ctx context.Context, cl *clusters.Cluster) builtin.Version {
	if cl.Gateway == nil {
		return builtin.Version{}
	}
	info, err := cl.Gateway.Info(ctx)
	if err != nil {
		return builtin.Version{}
	}
	v, _ := builtin.ParseVersion(info.Version)
	return v
}
