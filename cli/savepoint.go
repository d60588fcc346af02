package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// newJobSavepointsCmd lists a job's savepoint records with their status.
func newJobSavepointsCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:               "savepoints JOB",
		Short:             "List the savepoints palink recorded for a job, oldest first, with their status (completed, disposed, failed)",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeJobs(g, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				d, err := e.svc.Job(ctx, args[0])
				if err != nil {
					return err
				}
				sps := []model.RestorePoint{}
				for _, rp := range d.RestorePoints {
					if rp.Kind == model.Savepoint {
						sps = append(sps, rp)
					}
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, sps)
				}
				printSavepoints(cmd.OutOrStdout(), d.Job, sps)
				return nil
			})
		},
	}
}

func printSavepoints(w io.Writer, j model.Job, sps []model.RestorePoint) {
	if len(sps) == 0 {
		fmt.Fprintf(w, "no savepoint of %s recorded\n", j.Name)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RECORDED\tSTATUS\tORIGIN\tPATH\tNOTE")
	for _, rp := range sps {
		note := ""
		switch {
		case rp.Error != "":
			note = model.FirstLine(rp.Error)
		case j.LatestSavepoint != nil && j.LatestSavepoint.Path == rp.Path:
			note = "latest"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", rp.SeenAt.Local().Format(time.DateTime), rp.Status, rp.Origin, rp.Path, note)
	}
	tw.Flush()
}

func newSavepointCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "savepoint", Short: "Act on savepoints palink recorded"}
	cmd.AddCommand(newSavepointDisposeCmd(g))
	return cmd
}

func newSavepointDisposeCmd(g *globals) *cobra.Command {
	var (
		job   string
		force bool
	)
	cmd := &cobra.Command{
		Use:   "dispose PATH",
		Short: "Dispose of a recorded savepoint through Flink's savepoint-disposal (a running JobManager of its cluster deletes it)",
		Long: "Dispose of a savepoint palink recorded: a running JobManager of the job's cluster (the job's own, or the\n" +
			"session's) deletes its files, and the record is kept with its status. A savepoint the job still needs\n" +
			"(its latest, or the one a running job restored from) is refused unless --force.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				rp, err := e.svc.DisposeSavepoint(ctx, api.DisposeRequest{Path: args[0], JobRef: job, Force: force})
				if err != nil && rp.Path == "" {
					return err
				}
				if g.structured() {
					if werr := writeData(cmd.OutOrStdout(), g.output, rp); werr != nil {
						return werr
					}
				} else if err == nil {
					fmt.Fprintf(cmd.OutOrStdout(), "disposed of %s\n", rp.Path)
				}
				return err
			})
		},
	}
	cmd.Flags().StringVar(&job, "job", "", "the job whose savepoint it is (default: any job's record of PATH)")
	cmd.Flags().BoolVar(&force, "force", false, "dispose even of a savepoint the job still needs")
	return cmd
}
