package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/model"
)

func newClusterCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "cluster [NAME]",
		Short: "YARN cluster metrics, queues, and Flink applications palink does not manage yet",
		Args:  cobra.MaximumNArgs(1),
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
				ov, err := e.svc.ClusterOverview(ctx, name)
				if err != nil && ov.FetchedAt.IsZero() {
					return err
				}
				if g.output == "json" {
					return writeJSON(cmd.OutOrStdout(), ov)
				}
				w := cmd.OutOrStdout()
				m := ov.Metrics
				fmt.Fprintf(w, "cluster %s\n", ov.Name)
				fmt.Fprintf(w, "  apps      %d running, %d pending, %d failed, %d killed, %d completed\n",
					m.AppsRunning, m.AppsPending, m.AppsFailed, m.AppsKilled, m.AppsCompleted)
				fmt.Fprintf(w, "  memory    %d / %d MB\n  vcores    %d / %d\n  nodes     %d active, %d unhealthy\n",
					m.MemoryUsedMB, m.MemoryTotalMB, m.VCoresUsed, m.VCoresTotal, m.ActiveNodes, m.UnhealthyNodes)
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
}

func newAdoptCmd(g *globals) *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:   "adopt APP_ID",
		Short: "Make a running Flink application on YARN a palink job",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				cl, err := pickCluster(e, g.cluster)
				if err != nil {
					return err
				}
				j, err := e.svc.Adopt(ctx, core.AdoptRequest{Cluster: cl, AppID: args[0], Name: name})
				if err != nil {
					return err
				}
				if g.output == "json" {
					return writeJSON(cmd.OutOrStdout(), j)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "adopted %s as job %s (%s)\n", args[0], j.Name, j.ID)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "job name (default: the application's name)")
	return cmd
}

func newJobEditCmd(g *globals) *cobra.Command {
	var sqlFile, jarFile, class, note string
	cmd := &cobra.Command{
		Use:   "edit JOB (--sql FILE | --jar FILE --class CLASS) [-- ARGS…]",
		Short: "Save a new spec version of a job (deploy it with restart or resubmit)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			var s model.Spec
			switch {
			case sqlFile != "" && jarFile == "":
				b, err := os.ReadFile(sqlFile)
				if err != nil {
					return err
				}
				s = model.Spec{SQL: string(b), Note: note}
			case jarFile != "" && sqlFile == "":
				if class == "" {
					return errors.New("a JAR spec needs --class")
				}
				s = model.Spec{JarPath: jarFile, EntryClass: class, Args: args[1:], Note: note}
			default:
				return errors.New("give --sql FILE, or --jar FILE --class CLASS")
			}
			e, err := g.openEnv(ctx)
			if err != nil {
				return err
			}
			defer e.Close()
			saved, err := e.svc.SaveSpec(ctx, args[0], s)
			if err != nil {
				return err
			}
			if g.output == "json" {
				return writeJSON(cmd.OutOrStdout(), saved)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "saved %s v%d; deploy it with: palink job resubmit %s --restore latest\n", args[0], saved.Version, args[0])
			return nil
		},
	}
	cmd.Flags().StringVar(&sqlFile, "sql", "", "the new SQL script")
	cmd.Flags().StringVar(&jarFile, "jar", "", "the new jar")
	cmd.Flags().StringVar(&class, "class", "", "entry class of the jar")
	cmd.Flags().StringVar(&note, "note", "", "what changed")
	return cmd
}
