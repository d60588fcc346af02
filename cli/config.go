package cli

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/options"
)

func newConfigCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "config", Short: "Check the configuration"}
	var connect bool
	check := &cobra.Command{
		Use:   "check",
		Short: "Validate the config file; every problem is reported at its line",
		Long: "Validates the config file; every problem is reported at its line. With --connect it then\n" +
			"tries every endpoint of every cluster once (each RM, the RM's web proxy, the SQL Gateway)\n" +
			"and prints one line per endpoint with its authentication and TLS.",
		Example: "  palink config check\n  palink config check --connect -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path := g.configPath
			if path == "" {
				path = config.DefaultPath()
			}
			cfg, warnings, err := config.Load(path)
			nwarn := 0
			for _, w := range warnings {
				if w.Warning { // errors come back as err
					fmt.Fprintln(cmd.ErrOrStderr(), w.Error())
					nwarn++
				}
			}
			if err != nil {
				var ps config.Problems
				if errors.As(err, &ps) {
					return exitError{code: 1, msg: ps.Error()}
				}
				return err
			}
			if connect {
				return checkConnect(cmd, g, cfg)
			}
			if nwarn > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: valid, with %s (above)\n", path, plural(nwarn, "warning"))
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", path)
			return nil
		},
	}
	check.Flags().BoolVar(&connect, "connect", false, "also try every endpoint of every cluster, with its authentication and TLS")
	cmd.AddCommand(check)
	return cmd
}

// checkConnect tries the endpoints of the clusters (or of --cluster) and
// prints one line each; it fails when one failed.
func checkConnect(cmd *cobra.Command, g *globals, cfg *config.Config) error {
	ctx, cancel := signalContext(cmd.Context())
	defer cancel()
	if g.cluster != "" {
		only := *cfg
		only.Clusters = slices.DeleteFunc(slices.Clone(cfg.Clusters), func(c config.Cluster) bool { return c.Name != g.cluster })
		if len(only.Clusters) == 0 {
			return exitError{code: 2, msg: fmt.Sprintf("config check --connect: no cluster %q in the config", g.cluster)}
		}
		cfg = &only
	}
	checks, err := core.CheckEndpoints(ctx, options.FromConfig(cfg).Clusters)
	if err != nil {
		return fmt.Errorf("config check --connect: %w", err)
	}
	out := cmd.OutOrStdout()
	if g.structured() {
		if err := writeData(out, g.output, checks); err != nil {
			return err
		}
	} else {
		for _, c := range checks {
			fmt.Fprintln(out, c.String())
		}
	}
	failed := 0
	for _, c := range checks {
		if !c.OK && c.Note == "" {
			failed++
		}
	}
	if failed > 0 {
		return exitError{code: 1, msg: fmt.Sprintf("config check --connect: %s failed", plural(failed, "endpoint"))}
	}
	return nil
}
