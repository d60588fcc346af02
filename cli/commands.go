package cli

import (
	"context"
	"io"
	"strconv"
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
				noteOrphans(ctx, e, cmd.ErrOrStderr())
				cs := commandsOf(ctx, e.svc, f)
				switch g.output {
				case outJSON, outYAML:
					return writeList(cmd.OutOrStdout(), g.output, cs)
				case outTable, outWide:
					return printCommandList(cmd.OutOrStdout(), g.output, cs, jobNames(ctx, e))
				}
				return checkOutput(g.output)
			})
		},
	}
	cmd.Flags().StringVar(&job, "job", "", "only this job's commands")
	cmd.Flags().StringSliceVar(&states, "state", nil, "only commands in these states (UNDO, DOING, SUCCEEDED, FAILED)")
	cmd.Flags().IntVar(&limit, "limit", 0, "only the newest N")
	return cmd
}

// printCommands lists commands held whole (a job's history).
func printCommands(w io.Writer, format string, cs []model.Command, names map[string]string) error {
	return printCommandList(w, format, sliceOf(cs), names)
}

// printCommandList lists commands as they come, with their jobs' names
// (ids too, and absolute times, with -o wide).
func printCommandList(w io.Writer, format string, cs each[model.Command], names map[string]string) error {
	switch format {
	case outJSON, outYAML:
		return writeList(w, format, cs)
	case outTable, outWide:
	default:
		return checkOutput(format)
	}
	wide := format == outWide
	header := []string{"#", "KIND", "JOB", "STATE", "BY", "AGE", "RESULT"}
	if wide {
		header = []string{"#", "ID", "KIND", "JOB", "JOB ID", "STATE", "BY", "CREATED", "ENDED", "RESULT"}
	}
	now := time.Now()
	rows := func(row func(...string) error) error {
		return cs(func(c model.Command) error { return row(commandCells(c, names, wide, now)...) })
	}
	t, err := measureTable(header, rows)
	if err != nil {
		return err
	}
	return t.write(w, rows)
}

// commandCells is a command's row of the commands table, its age as of now.
func commandCells(c model.Command, names map[string]string, wide bool, now time.Time) []string {
	result := c.Error
	if result == "" && len(c.Log) > 0 {
		result = c.Log[len(c.Log)-1].Text
	}
	name := names[c.JobID]
	if name == "" {
		name = c.JobID
	}
	seq := strconv.FormatInt(c.Seq, 10)
	if wide {
		return []string{seq, c.ID, c.Kind.String(), name, c.JobID, c.State.String(), c.Issuer,
			stamp(c.CreatedAt), stamp(c.EndedAt), firstLine(result)}
	}
	return []string{seq, c.Kind.String(), name, c.State.String(), c.Issuer, ageAt(now, c.CreatedAt), firstLine(result)}
}

// jobNames maps job ids to names, for lists of commands, as far as they
// can be read (a command of a job it lacks shows the job's id): read a
// page of jobs at a time, it holds their names only.
func jobNames(ctx context.Context, e *env) map[string]string {
	out := map[string]string{}
	_ = jobsOf(ctx, e.svc, api.JobFilter{})(func(j api.JobView) error {
		out[j.ID] = j.Name
		return nil
	})
	return out
}

// stamp is a time as a wide listing shows it, local and to the second.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format(time.DateTime)
}
