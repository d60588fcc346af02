package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
)

// importOut is `table import -o json`'s document.
type importOut struct {
	// SQL is the DDL written; Change what adding it did (none with
	// --dry-run).
	SQL      string           `json:"sql"`
	Warnings []string         `json:"warnings"`
	Change   *api.TableChange `json:"change"`
	// PasswordVar is the variable the DDL's password names.
	PasswordVar string `json:"password_var,omitempty"`
}

func newTableImportCmd(g *globals) *cobra.Command {
	var jdbc, source string
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "import NAME --jdbc URL --source-table T",
		Short: "Write a catalog table's DDL from a PostgreSQL or MySQL table (columns, types, primary key)",
		Long: "Reads the table's columns, types and primary key and adds the Flink DDL (the jdbc connector,\n" +
			"types as Flink's JDBC connector maps them, PRIMARY KEY … NOT ENFORCED) to the catalog of the\n" +
			"cluster. A type Flink lacks is read as STRING, with a warning. The URL's user and password\n" +
			"parameters are the credentials to read with; the DDL keeps the user, and the password only as\n" +
			"${NAME_password}: set it with palink var set NAME_password --secret-env ENV.\n" +
			"--dry-run prints the DDL without adding it.",
		Example: "  palink table import users --jdbc 'jdbc:postgresql://db:5432/app?user=ro&password=…' --source-table public.users\n" +
			"  palink table import regions --jdbc 'jdbc:mysql://db:3306/app?user=ro&password=…' --source-table regions --dry-run",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if jdbc == "" || source == "" {
				return fmt.Errorf("table import %s: --jdbc URL and --source-table T are required", args[0])
			}
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			imp, err := core.ImportJDBC(ctx, api.ImportRequest{Name: args[0], JDBC: jdbc, SourceTable: source})
			if err != nil {
				return err
			}
			out := importOut{SQL: imp.SQL, Warnings: imp.Warnings, PasswordVar: imp.PasswordVar}
			if out.Warnings == nil {
				out.Warnings = []string{}
			}
			if !dryRun {
				err := g.withEnv(cmd, func(ctx context.Context, e *env) error {
					cluster, err := pickCluster(e, g.cluster)
					if err != nil {
						return err
					}
					ch, err := e.svc.PutTable(ctx, api.PutTableRequest{Cluster: cluster, Name: args[0], SQL: imp.SQL,
						Note: "imported from " + source, Create: true})
					if ch.Affected == nil {
						ch.Affected = []api.TableUse{}
					}
					out.Change = &ch
					return err
				})
				if err != nil {
					return err
				}
			}
			w := cmd.OutOrStdout()
			if g.structured() {
				return writeData(w, g.output, out)
			}
			if err := checkOutput(g.output); err != nil {
				return err
			}
			return printImport(w, cmd.ErrOrStderr(), out)
		},
	}
	cmd.Flags().StringVar(&jdbc, "jdbc", "", "the database's JDBC URL (jdbc:postgresql://…, jdbc:mysql://…, jdbc:mariadb://…)")
	cmd.Flags().StringVar(&source, "source-table", "", "the table to describe (schema.table in PostgreSQL)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the DDL, add nothing")
	return cmd
}

func printImport(w, errw io.Writer, out importOut) error {
	var b strings.Builder
	b.WriteString(out.SQL + "\n")
	if out.Change != nil {
		fmt.Fprintf(&b, "\nadded %s to the catalog of cluster %s (version %d)\n", out.Change.Table.Name, out.Change.Table.Cluster, out.Change.Table.Version)
	}
	if out.PasswordVar != "" {
		fmt.Fprintf(&b, "the password is not kept: set it with palink var set %s --secret-env ENV (or --secret-file FILE)\n", out.PasswordVar)
	}
	for _, warn := range out.Warnings {
		fmt.Fprintf(errw, "warning: %s\n", warn)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
