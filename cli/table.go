package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// newTableCmd is `palink table`: the cluster's table catalog, the shared
// CREATE TABLE definitions a SQL job gets injected when it uses a table
// without defining it.
func newTableCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "table",
		Short: "Keep the table catalog: shared table definitions injected into SQL jobs",
		Long: "A SQL job that uses a table it does not define gets the catalog's definition of the\n" +
			"job's cluster injected as CREATE TEMPORARY TABLE when it is checked (sql check --cluster),\n" +
			"debugged (debug --cluster) and deployed. A job's own CREATE TABLE wins, with a warning.\n" +
			"Every edit is a new version; each deploy records the versions it used (job history).",
		Args: knownSubcommand,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newTablePutCmd(g, true), newTablePutCmd(g, false), newTableShowCmd(g), newTableListCmd(g), newTableRmCmd(g), newTableImportCmd(g))
	return cmd
}

func newTablePutCmd(g *globals, create bool) *cobra.Command {
	var sqlFile, note string
	use, short := "edit NAME --sql FILE", "Save a new version of a catalog table (lists the jobs it changes on their next restart)"
	if create {
		use, short = "add NAME --sql FILE", "Add a table to the catalog of a cluster: one CREATE TABLE statement, validated"
	}
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: "  palink table " + strings.Fields(use)[0] + " users --sql users.sql --cluster prod",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if sqlFile == "" {
				return fmt.Errorf("table %s %s: --sql FILE is required", strings.Fields(use)[0], args[0])
			}
			src, err := readSQL(cmd, sqlFile)
			if err != nil {
				return err
			}
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				cluster, err := pickCluster(e, g.cluster)
				if err != nil {
					return err
				}
				ch, err := e.svc.PutTable(ctx, api.PutTableRequest{Cluster: cluster, Name: args[0], SQL: strings.TrimSpace(src), Note: note, Create: create})
				if err != nil {
					return err
				}
				return printTableChange(cmd.OutOrStdout(), g.output, ch)
			})
		},
	}
	cmd.Flags().StringVar(&sqlFile, "sql", "", "file with the CREATE TABLE statement (- reads stdin)")
	cmd.Flags().StringVar(&note, "note", "", "what this version changes")
	return cmd
}

func newTableShowCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Show a catalog table: its definition, versions, and the jobs that use it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				cluster, err := pickCluster(e, g.cluster)
				if err != nil {
					return err
				}
				d, err := e.svc.Table(ctx, api.TableRef{Cluster: cluster, Name: args[0]})
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if g.structured() {
					return writeData(w, g.output, d)
				}
				if err := checkOutput(g.output); err != nil {
					return err
				}
				var b strings.Builder
				fmt.Fprintf(&b, "%s (cluster %s), version %d by %s, %s\n", d.Table.Name, d.Table.Cluster, d.Table.Version, d.Table.Author, stamp(d.Table.CreatedAt))
				if d.Error != "" {
					fmt.Fprintf(&b, "DOES NOT VALIDATE: %s\n", d.Error)
				}
				b.WriteString("\n" + strings.TrimRight(d.Table.SQL, "\n") + "\n\nversions:\n")
				for _, v := range d.Versions {
					fmt.Fprintf(&b, "  v%d  %s  %s  %s\n", v.Version, stamp(v.CreatedAt), v.Author, v.Note)
				}
				b.WriteString("\njobs:\n")
				if len(d.Jobs) == 0 {
					b.WriteString("  none uses it\n")
				}
				for _, u := range d.Jobs {
					b.WriteString("  " + useLine(u, d.Table.Version) + "\n")
				}
				_, err = io.WriteString(w, b.String())
				return err
			})
		},
	}
}

// useLine says how one job uses a table.
func useLine(u api.TableUse, version int) string {
	s := fmt.Sprintf("%s (%s)", u.JobName, u.State)
	switch {
	case u.Own:
		return s + ": defines the table itself"
	case u.Deployed == 0 && u.State == model.StateNone:
		return s + fmt.Sprintf(": gets v%d on its first submit", version)
	case u.Deployed == 0:
		return s + fmt.Sprintf(": deployed without it; gets v%d on its next restart", version)
	case u.Changes:
		return s + fmt.Sprintf(": deployed with v%d; gets v%d on its next restart", u.Deployed, version)
	}
	return s + fmt.Sprintf(": deployed with v%d", u.Deployed)
}

func newTableListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the catalog tables of a cluster (the newest version of each)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				cluster, err := pickCluster(e, g.cluster)
				if err != nil {
					return err
				}
				ts, err := e.svc.Tables(ctx, cluster)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if g.structured() {
					if ts == nil {
						ts = []model.CatalogTable{}
					}
					return writeData(w, g.output, ts)
				}
				if err := checkOutput(g.output); err != nil {
					return err
				}
				if len(ts) == 0 {
					_, err := fmt.Fprintf(w, "cluster %s has no catalog tables (palink table add NAME --sql FILE)\n", cluster)
					return err
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "NAME\tVERSION\tCONNECTOR\tBY\tUPDATED\tNOTE")
				for _, t := range ts {
					fmt.Fprintf(tw, "%s\tv%d\t%s\t%s\t%s\t%s\n", t.Name, t.Version, connectorOf(t.SQL), t.Author, since(t.CreatedAt), t.Note)
				}
				return tw.Flush()
			})
		},
	}
}

// connectorOf is the 'connector' option of a CREATE TABLE, for lists.
func connectorOf(sql string) string {
	_, rest, ok := strings.Cut(sql, "'connector'")
	if !ok {
		return "-"
	}
	_, rest, ok = strings.Cut(rest, "'")
	if !ok {
		return "-"
	}
	v, _, _ := strings.Cut(rest, "'")
	return v
}

func newTableRmCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a table from the catalog (the jobs that use it are refused on their next deploy)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				cluster, err := pickCluster(e, g.cluster)
				if err != nil {
					return err
				}
				ch, err := e.svc.RemoveTable(ctx, api.TableRef{Cluster: cluster, Name: args[0]})
				if err != nil {
					return err
				}
				return printTableChange(cmd.OutOrStdout(), g.output, ch)
			})
		},
	}
}

// printTableChange reports an add, edit or removal and the jobs it changes.
func printTableChange(w io.Writer, format string, ch api.TableChange) error {
	switch format {
	case outJSON, outYAML:
		if ch.Affected == nil {
			ch.Affected = []api.TableUse{}
		}
		return writeData(w, format, ch)
	case outTable, outWide:
	default:
		return checkOutput(format)
	}
	var b strings.Builder
	if ch.Removed {
		fmt.Fprintf(&b, "removed %s from the catalog of cluster %s\n", ch.Table.Name, ch.Table.Cluster)
	} else {
		fmt.Fprintf(&b, "%s of cluster %s is now version %d\n", ch.Table.Name, ch.Table.Cluster, ch.Table.Version)
	}
	var changes []api.TableUse
	for _, u := range ch.Affected {
		if u.Changes {
			changes = append(changes, u)
		}
	}
	switch {
	case len(changes) == 0:
		b.WriteString("no deployed job changes on its next restart\n")
	case ch.Removed:
		b.WriteString("these jobs use it and will be refused on their next restart:\n")
	default:
		b.WriteString("these jobs change on their next restart:\n")
	}
	for _, u := range changes {
		b.WriteString("  " + useLine(u, ch.Table.Version) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
