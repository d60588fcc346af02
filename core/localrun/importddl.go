package localrun

import (
	"context"
	"fmt"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/join"
)

// Importer is api.Importer, in this process.
type Importer struct{}

var _ api.Importer = Importer{}

// ImportJDBC implements api.Importer (ImportJDBC).
func (Importer) ImportJDBC(ctx context.Context, r api.ImportRequest) (api.ImportedTable, error) {
	return ImportJDBC(ctx, r)
}

// ImportKafka implements api.Importer (ImportKafka).
func (Importer) ImportKafka(ctx context.Context, r api.KafkaImportRequest) (api.ImportedTable, error) {
	return ImportKafka(ctx, r)
}

// importTimeout bounds an import's talk with an unreachable database.
const importTimeout = 20 * time.Second

// ImportJDBC reads a PostgreSQL or MySQL (MariaDB) table's columns, types
// and primary key and writes its Flink DDL for the table catalog: the
// JDBC connector's type mapping, PRIMARY KEY … NOT ENFORCED, a type Flink
// lacks read as STRING with a warning, and the password as the variable
// ${NAME_password}. It runs in the caller's process, like a debug run:
// the database is the caller's to reach.
func ImportJDBC(ctx context.Context, r api.ImportRequest) (api.ImportedTable, error) {
	op := fmt.Sprintf("import table %s from %s", r.Name, r.SourceTable)
	ctx, cancel := context.WithTimeout(ctx, importTimeout)
	defer cancel()
	clean, user, password := join.SplitCredentials(r.JDBC)
	d, err := join.Describe(ctx, r.JDBC, "", "", r.SourceTable)
	if err != nil {
		if ctx.Err() != nil {
			return api.ImportedTable{}, fmt.Errorf("%s: the database did not answer within %s: %w", op, importTimeout, err)
		}
		return api.ImportedTable{}, fmt.Errorf("%s: %w", op, err)
	}
	var out api.ImportedTable
	if password != "" {
		out.PasswordVar = r.Name + "_password"
	}
	out.SQL, out.Warnings = d.DDL(r.Name, clean, user, out.PasswordVar)
	if _, err := flinksql.ParseCatalogTable(r.Name, out.SQL, flinksql.Options{File: r.Name}); err != nil {
		return api.ImportedTable{}, fmt.Errorf("%s: the DDL written does not validate: %w", op, err)
	}
	return out, nil
}
