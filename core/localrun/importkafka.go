package localrun

import (
	"context"
	"fmt"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
)

// ImportKafka samples the newest records of a Kafka topic and proposes the
// catalog table that reads it: a kafka table of the records' format with
// a column per field, its type inferred from the values (BIGINT, DOUBLE,
// BOOLEAN, STRING, TIMESTAMP(3) for timestamp strings, ROW for objects,
// ARRAY), NOT NULL only where no record had it null or lacked it. Records
// that do not decode are counted and the rest used. It runs in the
// caller's process: the brokers are the caller's to reach.
func ImportKafka(ctx context.Context, r api.KafkaImportRequest) (api.ImportedTable, error) {
	op := fmt.Sprintf("import table %s from topic %s at %s", r.Name, r.Topic, r.Brokers)
	if r.BrokersVar != "" && !model.ValidCatalogName(r.BrokersVar) {
		return api.ImportedTable{}, fmt.Errorf("%s: --brokers-var %q is not a variable name (letters, digits and _)", op, r.BrokersVar)
	}
	format := r.Format
	if format == "" {
		format = "json"
	}
	if format != "json" && format != "csv" {
		return api.ImportedTable{}, fmt.Errorf("%s: format %q: an import reads json or csv", op, format)
	}
	n := r.Records
	if n <= 0 {
		n = api.DefaultImportRecords
	}
	recs, err := lastRecords(ctx, strings.Split(r.Brokers, ","), r.Topic, n)
	if err != nil {
		return api.ImportedTable{}, fmt.Errorf("%s: %w", op, err)
	}
	if len(recs) == 0 {
		return api.ImportedTable{}, fmt.Errorf("%s: the topic has no records to infer a schema from", op)
	}
	values := make([][]byte, len(recs))
	for i, rec := range recs {
		values[i] = rec.Value
	}
	top, bad, firstErr := schemaOf(format, values)
	out := api.ImportedTable{Records: len(recs) - bad, Undecodable: bad, FirstError: firstErr}
	if out.Records == 0 {
		return out, fmt.Errorf("%s: none of the %d records decodes as %s (%s)", op, len(recs), format, firstErr)
	}
	brokers := r.Brokers
	if r.BrokersVar != "" {
		brokers = "${" + r.BrokersVar + "}"
	}
	out.SQL = kafkaDDL(r.Name, brokers, r.Topic, format, top)
	for _, n := range top.names {
		out.Warnings = append(out.Warnings, top.fields[n].warnings(n)...)
	}
	if bad > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d of %d records did not decode as %s and were left out (%s)", bad, len(recs), format, firstErr))
	}
	if format == "csv" {
		out.Warnings = append(out.Warnings, "csv records have no field names: the columns are f0, f1, …; rename them in the DDL (the csv format reads by position)")
	}
	if _, err := flinksql.ParseCatalogTable(r.Name, out.SQL, flinksql.Options{File: r.Name}); err != nil {
		return out, fmt.Errorf("%s: the DDL written does not validate: %w", op, err)
	}
	return out, nil
}
