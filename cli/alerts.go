package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// newAlertsCmd is `palink alerts`, the scriptable form of the TUI's
// `:alerts`: firing alerts first, then the ones resolved within a day.
func newAlertsCmd(g *globals) *cobra.Command {
	var (
		firing, check bool
		job           string
	)
	cmd := &cobra.Command{
		Use:   "alerts",
		Short: "List firing and recently resolved alerts",
		Long: "Lists the alerts the rules of the config raised (firing first), as the agent or the palink\n" +
			"that runs state sync decided them. With --check it exits 3 while an alert fires, for monitoring.",
		Example: "  palink alerts\n  palink alerts --firing -o json\n  palink alerts --job orders-enrich\n  palink alerts --check || page-someone",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var firingNow bool
			err := g.withEnv(cmd, func(ctx context.Context, e *env) error {
				f := api.AlertFilter{JobRef: job}
				if firing {
					f.States = []model.AlertState{model.AlertFiring}
				}
				as, err := e.svc.Alerts(ctx, f)
				if err != nil {
					return err
				}
				for _, a := range as {
					firingNow = firingNow || a.State == model.AlertFiring
				}
				return printAlerts(cmd.OutOrStdout(), g.output, as)
			})
			if err == nil && check && firingNow {
				return exitError{code: 3, msg: ""}
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&firing, "firing", false, "only the alerts that fire now")
	cmd.Flags().StringVar(&job, "job", "", "only the alerts of this job (id or name)")
	cmd.Flags().BoolVar(&check, "check", false, "exit 3 while an alert fires")
	return cmd
}

func printAlerts(w io.Writer, format string, as []model.Alert) error {
	switch format {
	case outJSON, outYAML:
		if as == nil {
			as = []model.Alert{}
		}
		return writeData(w, format, as)
	case outTable, outWide:
	default:
		return checkOutput(format)
	}
	if len(as) == 0 {
		_, err := fmt.Fprintln(w, "no alerts")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if format == "wide" {
		fmt.Fprintln(tw, "STATE\tSEVERITY\tRULE\tJOB\tCLUSTER\tSINCE\tRESOLVED\tNOTIFIED\tVALUE")
	} else {
		fmt.Fprintln(tw, "STATE\tSEVERITY\tRULE\tJOB\tSINCE\tVALUE")
	}
	for _, a := range as {
		if format == "wide" {
			resolved := "-"
			if !a.ResolvedAt.IsZero() {
				resolved = since(a.ResolvedAt)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", a.State, a.Severity, a.Rule, a.JobName, a.Cluster,
				since(a.Since), resolved, len(a.Notified), a.Value)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.State, a.Severity, a.Rule, a.JobName, since(a.Since), a.Value)
		}
	}
	return tw.Flush()
}
