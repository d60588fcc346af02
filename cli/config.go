package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/palink/palink/config"
)

func newConfigCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "config", Short: "Check the configuration"}
	cmd.AddCommand(&cobra.Command{
		Use:   "check",
		Short: "Validate the config file; every problem is reported at its line",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path := g.configPath
			if path == "" {
				path = config.DefaultPath()
			}
			_, warnings, err := config.Load(path)
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
			if nwarn > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: valid, with %s (above)\n", path, plural(nwarn, "warning"))
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", path)
			return nil
		},
	})
	return cmd
}
