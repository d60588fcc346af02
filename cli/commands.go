package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

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
				return printCommands(cmd.OutOrStdout(), g.output, cs)
			})
		},
	}
	cmd.Flags().StringVar(&job, "job", "", "only this job's commands")
	cmd.Flags().StringSliceVar(&states, "state", nil, "only commands in these states (UNDO, DOING, SUCCEEDED, FAILED)")
	cmd.Flags().IntVar(&limit, "limit", 0, "only the newest N")
	return cmd
}

func printCommands(w io.Writer, format string, cs []model.Command) error {
	if format == "json" {
		return writeJSON(w, cs)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tKIND\tJOB\tSTATE\tBY\tAGE\tRESULT")
	for _, c := range cs {
		result := c.Error
		if result == "" && len(c.Log) > 0 {
			result = c.Log[len(c.Log)-1].Text
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Seq, c.Kind, c.JobID, c.State, c.Issuer, since(c.CreatedAt), firstLine(result))
	}
	return tw.Flush()
}
