package cli

import (
	"fmt"
	"io"

	"github.com/palink/palink/config"
	"github.com/palink/palink/flinksql/builtin"
)

// assetsCluster is the cluster whose table catalog and variables a check
// or a debug run of a script takes: --cluster, else the only configured
// cluster or the config's default_cluster. Without --cluster a check needs
// no config: with none, or several clusters and no default, implied is
// false and the script is taken as it is. A config that does not load is
// noted on errw and not used, for the same reason.
func assetsCluster(g *globals, errw io.Writer) (cluster string, implied bool) {
	if g.cluster != "" {
		return g.cluster, false
	}
	if g.configPath == "" && !fileExists(config.DefaultPath()) {
		return "", false
	}
	cfg, err := g.loadConfig()
	if err != nil {
		fmt.Fprintf(errw, "note: without the table catalog of a cluster: %v\n", err)
		return "", false
	}
	c, ok := impliedCluster(cfg)
	return c, ok
}

// impliedTarget is the Flink release of the cluster a command without
// --cluster means (the only one, or default_cluster), when the config
// names it: a check nobody pointed at a cluster does not wait on a gateway.
func impliedTarget(g *globals) (builtin.Version, string, error) {
	if g.configPath == "" && !fileExists(config.DefaultPath()) {
		return builtin.Version{}, "", nil
	}
	cfg, err := g.loadConfig()
	if err != nil {
		return builtin.Version{}, "", nil // the catalog's note says why
	}
	name, ok := impliedCluster(cfg)
	if !ok {
		return builtin.Version{}, "", nil
	}
	cl, ok := cfg.Cluster(name)
	if !ok || cl.FlinkVersion == "" {
		return builtin.Version{}, "", nil
	}
	v, err := builtin.ParseVersion(cl.FlinkVersion)
	if err != nil {
		return builtin.Version{}, "", fmt.Errorf("cluster %s: %w", cl.Name, err)
	}
	return v, "cluster " + cl.Name, nil
}
