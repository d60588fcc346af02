package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func newJobsCmd(g *globals) *cobra.Command {
	var states []string
	cmd := &cobra.Command{
		Use:     "jobs",
		Short:   "List jobs across clusters",
		Example: "  palink jobs\n  palink jobs --state FAILED -o wide\n  palink jobs --cluster prod -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				f := api.JobFilter{Cluster: g.cluster}
				for _, s := range states {
					st, err := model.ParseJobState(s)
					if err != nil {
						return err
					}
					f.States = append(f.States, st)
				}
				jobs, err := e.svc.ListJobs(ctx, f)
				if err != nil {
					return err
				}
				noteOrphans(ctx, e, cmd.ErrOrStderr())
				if len(jobs) == 0 && !g.structured() {
					return noJobs(ctx, e, cmd.OutOrStdout(), f)
				}
				return printJobs(cmd.OutOrStdout(), g.output, jobs)
			})
		},
	}
	cmd.Flags().StringSliceVar(&states, "state", nil, "only jobs in these states (RUNNING, FAILED, …)")
	return cmd
}

// noJobs says why `palink jobs` lists nothing, instead of an empty table:
// no job in the states asked for, or none managed yet, with the Flink
// applications each cluster runs that palink could adopt.
func noJobs(ctx context.Context, e *env, w io.Writer, f api.JobFilter) error {
	if len(f.States) > 0 {
		var names []string
		for _, s := range f.States {
			names = append(names, s.String())
		}
		_, err := fmt.Fprintf(w, "No job is %s (`palink jobs` lists them all).\n", strings.Join(names, " or "))
		return err
	}
	fmt.Fprintln(w, "No job is managed by palink yet.")
	clusters := []string{f.Cluster}
	if f.Cluster == "" {
		clusters = clusters[:0]
		for _, c := range e.cfg.Clusters {
			clusters = append(clusters, c.Name)
		}
	}
	seen := 0
	for _, name := range clusters {
		ov, err := e.svc.ClusterOverview(ctx, name)
		if err != nil && ov.FetchedAt.IsZero() {
			fmt.Fprintf(w, "`palink cluster %s` cannot tell what runs there: %v\n", name, err)
			continue
		}
		running := 0
		for _, a := range ov.Unmanaged {
			if a.State == "RUNNING" {
				running++
			}
		}
		seen += len(ov.Unmanaged)
		fmt.Fprintf(w, "`palink cluster %s` sees %s not managed by palink (%d running).\n", name, plural(len(ov.Unmanaged), "Flink application"), running)
	}
	if seen > 0 {
		fmt.Fprintln(w, "Adopt one with `palink adopt APP_ID` (its id as `palink cluster` lists it), or create a job with `palink job create`.")
	} else {
		fmt.Fprintln(w, "Create one with `palink job create --name NAME --sql FILE` (or --jar, --py), or try `palink demo`.")
	}
	return nil
}

func printJobs(w io.Writer, format string, jobs []api.JobView) error {
	switch format {
	case outJSON, outYAML:
		out := make([]model.Job, len(jobs))
		for i, j := range jobs {
			out[i] = j.Job
		}
		return writeData(w, format, out)
	case outTable, outWide:
	default:
		return checkOutput(format)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if format == "wide" {
		fmt.Fprintln(tw, "ID\tNAME\tKIND\tCLUSTER\tSTATE\tAPP\tFLINK JOB\tUP\tCKPT\tRESTARTS\tPENDING\tDRIFT")
	} else {
		fmt.Fprintln(tw, "NAME\tKIND\tCLUSTER\tSTATE\tAPP\tUP\tCKPT")
	}
	for _, j := range jobs {
		up := "-"
		if j.State == model.StateRunning && !j.StartedAt.IsZero() {
			up = since(j.StartedAt)
		}
		ckpt := "-"
		if j.LatestCheckpoint != nil {
			ckpt = since(j.LatestCheckpoint.Time)
		}
		app := dash(j.AppID)
		if format == "wide" {
			pending, drift := "-", "-"
			if j.Pending != nil {
				pending = fmt.Sprintf("%s #%d %s", j.Pending.Kind, j.Pending.Seq, j.Pending.State)
			}
			if j.Drift != nil {
				drift = fmt.Sprintf("expected %s, saw %s", j.Drift.Expected, j.Drift.Observed)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", j.ID, j.Name, j.Kind, j.Cluster, j.State, app,
				dash(j.FlinkJobID), up, ckpt, j.PlatformRestarts, pending, drift)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", j.Name, j.Kind, j.Cluster, j.State, app, up, ckpt)
		}
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// isNotFound: the job or command does not exist, here or at the agent.
func isNotFound(err error) bool { return errors.Is(err, model.ErrNotFound) }
