package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

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
			"that runs state sync decided them. With --check it exits 5 while an alert fires, for monitoring.",
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
				return exitError{code: exitFiring, msg: ""}
			}
			return err
		},
	}
	cmd.AddCommand(newAlertActCmd(g, "ack", "Acknowledge a firing alert: you have it in hand (shown to everyone)"),
		newAlertActCmd(g, "silence", "Hold an alert's webhook messages back for a while (--for), across its firings"),
		newAlertActCmd(g, "unsilence", "Lift an alert's silence"))
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
		fmt.Fprintln(tw, "STATE\tSEVERITY\tRULE\tJOB\tCLUSTER\tSINCE\tRESOLVED\tNOTIFIED\tHANDLED\tVALUE")
	} else {
		fmt.Fprintln(tw, "STATE\tSEVERITY\tRULE\tJOB\tSINCE\tHANDLED\tVALUE")
	}
	for _, a := range as {
		if format == "wide" {
			resolved := "-"
			if !a.ResolvedAt.IsZero() {
				resolved = since(a.ResolvedAt)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", a.State, a.Severity, a.Rule, a.JobName, a.Cluster,
				since(a.Since), resolved, len(a.Notified), handled(a), a.Value)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.State, a.Severity, a.Rule, a.JobName, since(a.Since), handled(a), a.Value)
		}
	}
	return tw.Flush()
}

// handled says who has an alert in hand: its acknowledgement and silence.
func handled(a model.Alert) string {
	var parts []string
	if a.AckedBy != "" && a.State == model.AlertFiring {
		parts = append(parts, "acked by "+a.AckedBy+" "+since(a.AckedAt)+" ago")
	}
	if a.Silenced(time.Now()) {
		parts = append(parts, "silenced until "+a.SilencedUntil.Local().Format("15:04")+" by "+a.SilencedBy)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// newAlertActCmd is `palink alerts ack|silence|unsilence RULE JOB`.
func newAlertActCmd(g *globals, verb, short string) *cobra.Command {
	var dur time.Duration
	cmd := &cobra.Command{
		Use:               verb + " RULE JOB",
		Short:             short,
		Args:              cobra.ExactArgs(2),
		ValidArgsFunction: completeAlerts(g),
		RunE: func(cmd *cobra.Command, args []string) error {
			a := api.AlertAction{Rule: args[0], JobRef: args[1]}
			switch verb {
			case "ack":
				a.Ack = true
			case "silence":
				if dur <= 0 {
					return fmt.Errorf("silence %s of %s: give how long with --for (e.g. --for 2h)", args[0], args[1])
				}
				a.Silence = dur
			default:
				a.Unsilence = true
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				al, err := e.svc.ActOnAlert(ctx, a)
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, al)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s of %s: %s %s\n", al.Rule, al.JobName, al.State, handled(al))
				return nil
			})
		},
	}
	if verb == "silence" {
		cmd.Flags().DurationVar(&dur, "for", 0, "how long to hold the alert's messages back (e.g. 30m, 2h)")
	}
	return cmd
}
