package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/spf13/cobra"
)

func newCommandsCmd(g *globals) *cobra.Command {
	var (
		job    string
		states []string
		limit  int
	)
	cmd := &cobra.Command{
		Use:     "commands",
		Aliases: []string{"cmd"},
		Short:   "List commands (the audit of every action), newest last",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				f := api.CommandFilter{JobRef: job, Limit: limit}
				for _, s := range states {
					st, err := model.ParseCommandState(s)
					if err != nil {
						return err
					}
					f.States = append(f.States, st)
				}
				cs, err := e.svc.Commands(ctx, f)
				if err != nil {
					return err
				}
				noteOrphans(ctx, e, cmd.ErrOrStderr())
				return printCommands(cmd.OutOrStdout(), g.output, cs, jobNames(ctx, e))
			})
		},
	}
	cmd.Flags().StringVar(&job, "job", "", "only this job's commands")
	cmd.Flags().StringSliceVar(&states, "state", nil, "only commands in these states (UNDO, DOING, SUCCEEDED, FAILED)")
	cmd.Flags().IntVar(&limit, "limit", 0, "only the newest N")
	return cmd
}

// printCommands lists commands with their jobs' names (ids too, and
// absolute times, with -o wide).
func printCommands(w io.Writer, format string, cs []model.Command, names map[string]string) error {
	switch format {
	case outJSON, outYAML:
		return writeData(w, format, cs)
	case outTable, outWide:
	default:
		return checkOutput(format)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if format == "wide" {
		fmt.Fprintln(tw, "#\tID\tKIND\tJOB\tJOB ID\tSTATE\tBY\tCREATED\tENDED\tRESULT")
	} else {
		fmt.Fprintln(tw, "#\tKIND\tJOB\tSTATE\tBY\tAGE\tRESULT")
	}
	for _, c := range cs {
		result := c.Error
		if result == "" && len(c.Log) > 0 {
			result = c.Log[len(c.Log)-1].Text
		}
		name := names[c.JobID]
		if name == "" {
			name = c.JobID
		}
		if format == "wide" {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Seq, c.ID, c.Kind, name, c.JobID, c.State, c.Issuer,
				stamp(c.CreatedAt), stamp(c.EndedAt), firstLine(result))
			continue
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Seq, c.Kind, name, c.State, c.Issuer, since(c.CreatedAt), firstLine(result))
	}
	return tw.Flush()
}

// jobNames maps job ids to names, for lists of commands.
func jobNames(ctx context.Context, e *env) map[string]string {
	jobs, _ := e.svc.ListJobs(ctx, api.JobFilter{})
	out := make(map[string]string, len(jobs))
	for _, j := range jobs {
		out[j.ID] = j.Name
	}
	return out
}

// stamp is a time as a wide listing shows it, local and to the second.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format(time.DateTime)
}
