package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
	"github.com/spf13/cobra"
)

func newClusterCmd(g *globals) *cobra.Command {
	var nodes bool
	cmd := &cobra.Command{
		Use:               "cluster [NAME] [--nodes]",
		ValidArgsFunction: completeClusters(g),
		Short:             "YARN cluster metrics, queues, and Flink applications palink does not manage yet; --nodes its NodeManagers",
		Args:              cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				name := g.cluster
				if len(args) == 1 {
					name = args[0]
				}
				name, err := pickCluster(e, name)
				if err != nil {
					return err
				}
				if nodes {
					return printNodes(ctx, cmd, g, e, name)
				}
				ov, err := e.svc.ClusterOverview(ctx, name)
				if err != nil && ov.FetchedAt.IsZero() {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, ov)
				}
				w := cmd.OutOrStdout()
				m := ov.Metrics
				fmt.Fprintf(w, "cluster %s\n", ov.Name)
				fmt.Fprintf(w, "  apps      %d running, %d pending, %d failed, %d killed, %d completed\n",
					m.AppsRunning, m.AppsPending, m.AppsFailed, m.AppsKilled, m.AppsCompleted)
				// The TUI's units (GiB, TiB); -o json keeps YARN's MB.
				fmt.Fprintf(w, "  memory    %s / %s%s\n  vcores    %d / %d\n  nodes     %d active, %d unhealthy\n",
					kit.Bytes(m.MemoryUsedMB<<20), kit.Bytes(m.MemoryTotalMB<<20), usedShare(m.MemoryUsedMB, m.MemoryTotalMB),
					m.VCoresUsed, m.VCoresTotal, m.ActiveNodes, m.UnhealthyNodes)
				for _, sc := range ov.Sessions {
					if sc.Error != "" {
						fmt.Fprintf(w, "  session   %s %s: %s\n", sc.AppID, sc.Name, sc.Error)
						continue
					}
					fmt.Fprintf(w, "  session   %s %s: %d TaskManagers, %d of %d slots free, %d jobs\n",
						sc.AppID, sc.Name, sc.TaskManagers, sc.SlotsFree, sc.SlotsTotal, sc.Jobs)
				}
				if len(ov.Queues) > 0 {
					fmt.Fprintln(w, "\nQueues")
					tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
					fmt.Fprintln(tw, "  QUEUE\tCAPACITY\tUSED\tMAX\tAPPS")
					for _, q := range ov.Queues {
						fmt.Fprintf(tw, "  %*s%s\t%.0f%%\t%.0f%%\t%.0f%%\t%d\n", 2*q.Depth, "", q.Name, q.Capacity, q.UsedCapacity, q.MaxCapacity, q.Apps)
					}
					tw.Flush()
				}
				fmt.Fprintf(w, "\nFlink applications not managed by palink (%d); adopt with: palink adopt APP_ID\n", len(ov.Unmanaged))
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "  APP\tNAME\tUSER\tQUEUE\tSTATE\tUP")
				for _, a := range ov.Unmanaged {
					fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", a.ID, a.Name, a.User, a.Queue, a.State, since(a.StartedAt))
				}
				tw.Flush()
				if err != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), "partial:", err)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&nodes, "nodes", false, "list the cluster's YARN nodes: the ones out of service first, with their health report")
	return cmd
}

// printNodes is `palink cluster --nodes`: the RM's nodes as core orders
// them, the ones out of service first with their whole health report;
// -o json keeps YARN's MB.
func printNodes(ctx context.Context, cmd *cobra.Command, g *globals, e *env, name string) error {
	ns, err := e.svc.ClusterNodes(ctx, name)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if g.structured() {
		return writeData(w, g.output, ns)
	}
	if err := checkOutput(g.output); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tSTATE\tCONTAINERS\tMEMORY\tVCORES\tHEALTH")
	for _, n := range ns {
		containers, memory, vcores := "-", "-", "-"
		if n.InService() {
			containers = fmt.Sprint(n.Containers)
			memory = kit.Bytes(n.MemoryUsedMB<<20) + " / " + kit.Bytes(n.MemoryTotalMB<<20)
			vcores = fmt.Sprintf("%d / %d", n.VCoresUsed, n.VCoresTotal)
		}
		health := n.HealthReport
		if health == "" && !n.InService() {
			health = "last heard of " + since(n.LastHealthUpdate) + " ago"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", n.ID, n.State, containers, memory, vcores, orDash(health))
	}
	return tw.Flush()
}

func newAdoptCmd(g *globals) *cobra.Command {
	var (
		name, queue, user, nameFrom string
		all, dryRun                 bool
	)
	cmd := &cobra.Command{
		Use:   "adopt APP_ID | --all [--queue Q] [--user U] [--name-from app|tag] [--dry-run]",
		Short: "Make a running Flink application on YARN a palink job (--all: every unmanaged one)",
		Long: "Makes a running Flink application palink did not deploy a palink job. With --all it\n" +
			"adopts every live Flink application of the cluster (--cluster; every configured one\n" +
			"without it) that no job owns and no palink tagged, of --queue and --user when given,\n" +
			"many in one transaction. Names come from the application's name (--name-from app) or\n" +
			"its first YARN tag (--name-from tag); a name taken gets -2, -3, … in the order of the\n" +
			"applications' ids. --dry-run lists what it would adopt.",
		Args: cobra.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if all != (len(args) == 0) {
				return exitError{code: 2, msg: "adopt: give an APP_ID, or --all"}
			}
			if all && name != "" {
				return exitError{code: 2, msg: "adopt --all: --name names one job; use --name-from"}
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				w := cmd.OutOrStdout()
				if all {
					res, err := e.svc.AdoptAll(ctx, api.AdoptAllRequest{Cluster: g.cluster, Queue: queue, User: user, NameFrom: nameFrom, DryRun: dryRun})
					if err != nil {
						return err
					}
					if g.structured() {
						return writeData(w, g.output, res)
					}
					verb := "adopted"
					if res.DryRun {
						verb = "would adopt"
					}
					for _, a := range res.Adopted {
						fmt.Fprintf(w, "%s %s (%s) as job %s\n", verb, a.AppID, a.Cluster, a.Name)
					}
					fmt.Fprintf(w, "%s %s\n", verb, plural(len(res.Adopted), "application"))
					return nil
				}
				cl, err := pickCluster(e, g.cluster)
				if err != nil {
					return err
				}
				j, err := e.svc.Adopt(ctx, api.AdoptRequest{Cluster: cl, AppID: args[0], Name: name})
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(w, g.output, j)
				}
				fmt.Fprintf(w, "adopted %s as job %s (%s)\n", args[0], j.Name, j.ID)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "job name (default: the application's name)")
	cmd.Flags().BoolVar(&all, "all", false, "adopt every unmanaged Flink application (of --cluster, else of every cluster)")
	cmd.Flags().StringVar(&queue, "queue", "", "with --all: only applications of this YARN queue")
	cmd.Flags().StringVar(&user, "user", "", "with --all: only applications of this YARN user")
	cmd.Flags().StringVar(&nameFrom, "name-from", "app", "with --all: name jobs after the application's name (app) or its first tag (tag)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "with --all: list what would be adopted, adopt nothing")
	return cmd
}

// usedShare is " (15%)", or "" when the total is not known.
func usedShare(used, total int64) string {
	if total <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%.0f%%)", float64(used)*100/float64(total))
}
