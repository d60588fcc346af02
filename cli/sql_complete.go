package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/complete"
)

// sqlSuggestion is one suggestion as `sql complete -o json` prints it.
type sqlSuggestion struct {
	Text string `json:"text"`
	// Kind is keyword, table, column, function, option, value or hint.
	Kind        string `json:"kind"`
	Detail      string `json:"detail"`
	Description string `json:"description"`
}

// sqlCompletion is `sql complete -o json`'s document: the suggestions,
// best first, replace the text from start (line, col) to the cursor,
// which is prefix.
type sqlCompletion struct {
	File        string          `json:"file"`
	Line        int             `json:"line"`
	Col         int             `json:"col"`
	Prefix      string          `json:"prefix"`
	StartLine   int             `json:"start_line"`
	StartCol    int             `json:"start_col"`
	Suggestions []sqlSuggestion `json:"suggestions"`
}

func newSQLCompleteCmd(g *globals) *cobra.Command {
	var line, col int
	var flinkVersion string
	cmd := &cobra.Command{
		Use:   "complete FILE --line L --col C",
		Short: "List what may be written at a place of a Flink SQL script (what the editor's popup offers)",
		Long: "Keywords the grammar takes there, the script's tables and their columns (o. gives the columns\n" +
			"of alias o), functions with their signatures, a connector's options inside WITH (…) and their\n" +
			"values, hint names inside /*+ … */. Best first. LINE and COL are 1-based; COL counts characters.\n" +
			"Functions and options are those of --flink-version, else of the --cluster's flink_version.",
		Example: "  palink sql complete orders.sql --line 12 --col 10\n  palink sql complete - --line 3 --col 1 -o json < draft.sql",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if g.output == outWide {
				return fmt.Errorf("sql complete: output format %q: want table, json or yaml", g.output)
			}
			if line < 1 || col < 1 {
				return fmt.Errorf("sql complete: --line and --col are needed, from 1")
			}
			src, err := readSQL(cmd, args[0])
			if err != nil {
				return err
			}
			version, target, err := sqlTarget(cmd, g, flinkVersion)
			if err != nil {
				return err
			}
			c := complete.At(src, line, col, flinksql.Options{File: args[0], Version: version, Target: target})
			out := sqlCompletion{File: args[0], Line: line, Col: col, Prefix: c.Prefix,
				StartLine: c.Start.Line, StartCol: c.Start.Col, Suggestions: []sqlSuggestion{}}
			for _, s := range c.Items {
				out.Suggestions = append(out.Suggestions, sqlSuggestion{Text: s.Text, Kind: s.Kind.String(), Detail: s.Detail, Description: s.Doc})
			}
			if g.structured() {
				return writeData(cmd.OutOrStdout(), g.output, out)
			}
			return printCompletion(cmd.OutOrStdout(), out)
		},
	}
	cmd.Flags().IntVar(&line, "line", 0, "line of the cursor, from 1")
	cmd.Flags().IntVar(&col, "col", 0, "column of the cursor in characters, from 1")
	cmd.Flags().StringVar(&flinkVersion, "flink-version", "", "Flink release to complete for, like 1.18 (default: the --cluster's flink_version, else the newest)")
	return cmd
}

func printCompletion(w io.Writer, c sqlCompletion) error {
	if len(c.Suggestions) == 0 {
		_, err := fmt.Fprintf(w, "%s:%d:%d: nothing to suggest\n", c.File, c.Line, c.Col)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TEXT\tKIND\tDETAIL\tDESCRIPTION")
	for _, s := range c.Suggestions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Text, s.Kind, s.Detail, s.Description)
	}
	return tw.Flush()
}
