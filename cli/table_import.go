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
	// Records and Undecodable (--kafka) count the records the schema was
	// inferred from and those that did not decode.
	Records     int `json:"records,omitempty"`
	Undecodable int `json:"undecodable,omitempty"`
}

func newTableImportCmd(g *globals) *cobra.Command {
	var jdbc, source string
	var k kafkaImport
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "import NAME (--jdbc URL --source-table T | --kafka BROKERS --topic T)",
		Short: "Write a catalog table's DDL from a PostgreSQL or MySQL table, or from a Kafka topic's records",
		Long: "Reads the table's columns, types and primary key and adds the Flink DDL (the jdbc connector,\n" +
			"types as Flink's JDBC connector maps them, PRIMARY KEY … NOT ENFORCED) to the catalog of the\n" +
			"cluster. A type Flink lacks is read as STRING, with a warning. The URL's user and password\n" +
			"parameters are the credentials to read with; the DDL keeps the user, and the password only as\n" +
			"${NAME_password}: set it with palink var set NAME_password --secret-env ENV.\n" +
			"--dry-run prints the DDL without adding it.\n\n" +
			"With --kafka it reads the newest --records records of --topic (json or csv, --format) and\n" +
			"proposes a kafka table: a column per field, typed from the values seen (BIGINT, DOUBLE,\n" +
			"BOOLEAN, STRING, TIMESTAMP(3) for timestamp strings, ROW for objects, ARRAY), NOT NULL where\n" +
			"no record had it null; a field seen with two types is read as STRING, with a warning; records\n" +
			"that do not decode are counted and left out. It asks before adding the table (--yes does not).",
		Example: "  palink table import users --jdbc 'jdbc:postgresql://db:5432/app?user=ro&password=…' --source-table public.users\n" +
			"  palink table import regions --jdbc 'jdbc:mysql://db:3306/app?user=ro&password=…' --source-table regions --dry-run\n" +
			"  palink table import clicks --kafka kafka-1:9092,kafka-2:9092 --topic clicks --records 500",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if k.brokers == "" && (jdbc == "" || source == "") {
				return fmt.Errorf("table import %s: --jdbc URL and --source-table T (or --kafka BROKERS and --topic T) are required", args[0])
			}
			if !dryRun {
				if err := mayAddTable(cmd, g, args[0]); err != nil {
					return err
				}
			}
			if k.brokers != "" {
				return k.run(cmd, g, args[0], dryRun)
			}
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			imp, err := core.Importer().ImportJDBC(ctx, api.ImportRequest{Name: args[0], JDBC: jdbc, SourceTable: source})
			if err != nil {
				return err
			}
			return addImported(cmd, g, args[0], "imported from "+source, imp, dryRun)
		},
	}
	cmd.Flags().StringVar(&jdbc, "jdbc", "", "the database's JDBC URL (jdbc:postgresql://…, jdbc:mysql://…, jdbc:mariadb://…)")
	cmd.Flags().StringVar(&source, "source-table", "", "the table to describe (schema.table in PostgreSQL)")
	k.flags(cmd)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the DDL, add nothing")
	return cmd
}

// mayAddTable refuses an import whose table could not be added (under
// --read-only, or for a viewer on the agent) before the import connects
// to anything: a refused user has no business making palink reach a
// database or brokers on its behalf, nor waiting for their answer.
func mayAddTable(cmd *cobra.Command, g *globals, name string) error {
	refusal := func(err error) error {
		return fmt.Errorf("table import %s: %w; nothing was read (--dry-run only prints the DDL)", name, err)
	}
	if g.readOnly {
		return refusal(api.ReadOnly("change the table catalog"))
	}
	return g.withEnv(cmd, func(ctx context.Context, e *env) error {
		if _, err := pickCluster(e, g.cluster); err != nil {
			return fmt.Errorf("table import %s: %w", name, err)
		}
		if err := e.refusal("PutTable"); err != nil {
			return refusal(err)
		}
		return nil
	})
}

// addImported adds an import's DDL to the catalog of the chosen cluster
// (not with dryRun) and reports it.
func addImported(cmd *cobra.Command, g *globals, name, note string, imp api.ImportedTable, dryRun bool) error {
	out := importOut{SQL: imp.SQL, Warnings: imp.Warnings, PasswordVar: imp.PasswordVar, Records: imp.Records, Undecodable: imp.Undecodable}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	if !dryRun {
		err := g.withEnv(cmd, func(ctx context.Context, e *env) error {
			cluster, err := pickCluster(e, g.cluster)
			if err != nil {
				return err
			}
			ch, err := e.svc.PutTable(ctx, api.PutTableRequest{Cluster: cluster, Name: name, SQL: imp.SQL,
				Note: note, Create: true})
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
	if out.Records > 0 {
		fmt.Fprintf(errw, "inferred from %d records of the topic (%d did not decode)\n", out.Records, out.Undecodable)
	}
	for _, warn := range out.Warnings {
		fmt.Fprintf(errw, "warning: %s\n", warn)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
