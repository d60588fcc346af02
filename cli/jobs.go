package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

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
				noteOrphans(ctx, e, cmd.ErrOrStderr())
				none := func() error { return noJobs(ctx, e, cmd.OutOrStdout(), f) }
				return printJobList(cmd.OutOrStdout(), g.output, jobsOf(ctx, e.svc, f), none)
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

// printJobs lists jobs held whole (the demo's).
func printJobs(w io.Writer, format string, jobs []api.JobView) error {
	return printJobList(w, format, sliceOf(jobs), nil)
}

// printJobList lists jobs as they come, a page at a time: -o json and
// yaml their records, the table (wide: more columns) their state at a
// glance. none, if set, speaks instead of an empty table.
func printJobList(w io.Writer, format string, jobs each[api.JobView], none func() error) error {
	switch format {
	case outJSON, outYAML:
		return writeList(w, format, func(fn func(model.Job) error) error {
			return jobs(func(j api.JobView) error { return fn(j.Job) })
		})
	case outTable, outWide:
	default:
		return checkOutput(format)
	}
	wide := format == outWide
	header := []string{"NAME", "KIND", "CLUSTER", "STATE", "APP", "UP", "CKPT"}
	if wide {
		header = []string{"ID", "NAME", "KIND", "CLUSTER", "STATE", "APP", "FLINK JOB", "UP", "CKPT", "RESTARTS", "PENDING", "DRIFT"}
	}
	now := time.Now()
	rows := func(row func(...string) error) error {
		return jobs(func(j api.JobView) error { return row(jobCells(j, wide, now)...) })
	}
	t, err := measureTable(header, rows)
	switch {
	case err != nil:
		return err
	case t.rows == 0 && none != nil:
		return none()
	}
	return t.write(w, rows)
}

// jobCells is a job's row of the jobs table, its ages as of now.
func jobCells(j api.JobView, wide bool, now time.Time) []string {
	up := "-"
	if j.State == model.StateRunning {
		up = ageAt(now, j.StartedAt)
	}
	ckpt := "-"
	if j.LatestCheckpoint != nil {
		ckpt = ageAt(now, j.LatestCheckpoint.Time)
	}
	app := dash(j.AppID)
	if !wide {
		return []string{j.Name, j.Kind.String(), j.Cluster, j.State.String(), app, up, ckpt}
	}
	pending, drift := "-", "-"
	if j.Pending != nil {
		pending = fmt.Sprintf("%s #%d %s", j.Pending.Kind, j.Pending.Seq, j.Pending.State)
	}
	if j.Drift != nil {
		drift = fmt.Sprintf("expected %s, saw %s", j.Drift.Expected, j.Drift.Observed)
	}
	return []string{j.ID, j.Name, j.Kind.String(), j.Cluster, j.State.String(), app, dash(j.FlinkJobID), up, ckpt,
		strconv.Itoa(j.PlatformRestarts), pending, drift}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// isNotFound: the job or command does not exist, here or at the agent.
func isNotFound(err error) bool { return errors.Is(err, model.ErrNotFound) }
