package scheduler

import (
	"context"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// actingCluster is the cluster of j as the team that owns j acts on it
// (clusters.Cluster.As): its kills, savepoints and submissions are made as
// the team's principal where the cluster gives the team one. nil when j's
// cluster is not configured. The teams are read only where some team has
// an identity of its own on the cluster.
func actingCluster(ctx context.Context, s *Scheduler, j model.Job) (*clusters.Cluster, error) {
	cl := s.clusters[j.Cluster]
	if cl == nil || len(cl.Teams()) == 0 {
		return cl, nil
	}
	var teams []model.Team
	if err := s.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		teams, err = tx.Teams()
		return err
	}); err != nil {
		return nil, err
	}
	return cl.As(model.OwnerOf(teams, j.Cluster, model.JobQueue(cl.Cfg.Deploy.Queue, j.Config))), nil
}

// forced sets the properties a job's config may not override: the
// cluster's (its team's) Kerberos login, and where the client acts for a
// proxy user, no delegation tokens of the login's own — Flink submits as a
// Hadoop proxy user only so (FLINK-31109).
func forced(props map[string]string, cl *clusters.Cluster, proxy string) map[string]string {
	for k, v := range cl.Cfg.Deploy.Forced {
		props[k] = v
	}
	if proxy != "" {
		props["security.kerberos.fetch.delegation-token"] = "false"
	}
	return props
}

// issuerOf is who issued x's command, read under its lock: the lease's
// renewal writes x.cmd meanwhile.
func issuerOf(x *execution) string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.cmd.Issuer
}
