package flinksql

import (
	"strings"
	"testing"

	"github.com/palink/palink/flinksql/builtin"
)

// TestThirdPartyConnectorsAreNotRefused: a connector that ships outside
// Apache Flink gets its structure checked and one warning that its options
// are not, whatever options it is given; it is never refused as a lookup
// source.
func TestThirdPartyConnectorsAreNotRefused(t *testing.T) {
	src := `CREATE TABLE orders (id BIGINT, user_id BIGINT, pt AS PROCTIME()) WITH ('connector' = 'datagen');
CREATE TABLE users (id BIGINT, name STRING) WITH ('connector' = 'faker', 'fields.name.expression' = '#{Name.fullName}', 'made-up.option' = 'x');
CREATE TABLE more_users (id BIGINT, name STRING) WITH ('connector' = 'faker');
CREATE TABLE lake (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'paimon', 'bucket' = '4', 'changlog-producer' = 'lookup');
CREATE TABLE ice (id BIGINT) WITH ('connector' = 'iceberg', 'catalog-name' = 'c');
CREATE TABLE mongo (id BIGINT) WITH ('connector' = 'mongodb', 'uri' = 'mongodb://h', 'database' = 'd', 'collection' = 'c');
CREATE TABLE dor (id BIGINT) WITH ('connector' = 'doris', 'fenodes' = 'h:8030');
CREATE TABLE pul (id BIGINT) WITH ('connector' = 'pulsar', 'topics' = 't', 'service-url' = 'pulsar://h:6650');
CREATE TABLE cdc (id BIGINT) WITH ('connector' = 'mysql-cdc', 'hostname' = 'db');
CREATE TABLE own (id BIGINT) WITH ('connector' = 'my-company-sink');
SELECT o.id, u.name FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.user_id = u.id;
SELECT o.id, m.name FROM orders AS o JOIN more_users FOR SYSTEM_TIME AS OF o.pt AS m ON o.user_id = m.id;
SELECT o.id FROM orders AS o JOIN cdc FOR SYSTEM_TIME AS OF o.pt AS c ON o.user_id = c.id;
SELECT o.id, u.nme FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.user_id = u.id;
`
	r := Check(src, Options{})
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.Severity.String()+" "+d.Code+" "+d.Pos.String())
	}
	want := []string{
		"warning unchecked-options 2:65",  // faker, once for both tables
		"warning unchecked-options 4:95",  // paimon: no "did you mean" for its misspelled option
		"warning unchecked-options 5:50",  // iceberg
		"warning unchecked-options 6:52",  // mongodb
		"warning unchecked-options 7:50",  // doris
		"warning unchecked-options 8:50",  // pulsar
		"warning unchecked-options 9:50",  // mysql-cdc: not a lookup source, but not refused either
		"warning unchecked-options 10:50", // a connector palink has never heard of
		"error unknown-column 14:14",      // the structure is still checked
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		for _, d := range r.Diagnostics {
			t.Log(d.Error())
		}
	}
}

// TestCheckedConnectorsStillCheck: Flink's own connectors keep their
// option checks, with versions, enums and formats from the catalog.
func TestCheckedConnectorsStillCheck(t *testing.T) {
	kafka := func(opts string) string {
		return "CREATE TABLE k (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b:9092', 'format' = 'json'" + opts + ");"
	}
	tests := []struct {
		name string
		src  string
		v    builtin.Version
		want []diagAt
	}{
		{"option newer than the release", kafka(", 'scan.parallelism' = '2'"), builtin.Version{Major: 1, Minor: 18},
			[]diagAt{{CodeNeedsNewerFlink, SeverityWarning, 1, 134, "option 'scan.parallelism' needs Flink 1.19; checking for Flink 1.18"}}},
		{"option of the release", kafka(", 'scan.parallelism' = '2'"), builtin.Version{Major: 1, Minor: 19}, nil},
		{"enum value", kafka(", 'scan.startup.mode' = 'earliest'"), builtin.Version{},
			[]diagAt{{CodeBadOptionValue, SeverityError, 1, 156, "invalid value 'earliest' for 'scan.startup.mode'"}}},
		{"format option", kafka(", 'json.ignore-parse-error' = 'true'"), builtin.Version{},
			[]diagAt{{CodeUnknownOption, SeverityError, 1, 134, "did you mean 'json.ignore-parse-errors'?"}}},
		{"format enum", kafka(", 'json.timestamp-format.standard' = 'ISO8601'"), builtin.Version{},
			[]diagAt{{CodeBadOptionValue, SeverityError, 1, 169, "did you mean 'ISO-8601'?"}}},
		{"missing required", "CREATE TABLE j (id BIGINT) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://h/db');", builtin.Version{},
			[]diagAt{{CodeMissingOption, SeverityError, 1, 14, "needs the 'table-name' option"}}},
		{"typo of a connector", "CREATE TABLE k (id BIGINT) WITH ('connector' = 'kafak');", builtin.Version{},
			[]diagAt{{CodeBadOptionValue, SeverityWarning, 1, 48, "unknown connector 'kafak'; did you mean 'kafka'?"}}},
		{"lookup against kafka", kafka("") + "\nCREATE TABLE o (id BIGINT, pt AS PROCTIME()) WITH ('connector' = 'datagen');\nSELECT o.id FROM o JOIN k FOR SYSTEM_TIME AS OF o.pt ON o.id = k.id;", builtin.Version{},
			[]diagAt{{CodeLookupJoin, SeverityError, 3, 25, "'k' (connector 'kafka') is not a lookup source"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Check(tt.src, Options{Version: tt.v})
			if len(r.Diagnostics) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d: %v", len(r.Diagnostics), len(tt.want), r.Diagnostics)
			}
			for i, w := range tt.want {
				d := r.Diagnostics[i]
				if d.Code != w.code || d.Severity != w.sev || d.Pos.Line != w.line || d.Pos.Col != w.col || !strings.Contains(d.Message(), w.msg) {
					t.Errorf("got %s %s at %d:%d %q\nwant %v\n%s", d.Severity, d.Code, d.Pos.Line, d.Pos.Col, d.Message(), w, d.Snippet())
				}
			}
		})
	}
}

// TestConnectorCatalog holds the option lists to what completion shows:
// every option of the connectors the issue names has a type and a line of
// description, an enum's default is one of its values, and no key is
// listed twice.
func TestConnectorCatalog(t *testing.T) {
	for _, name := range []string{"kafka", "upsert-kafka", "jdbc", "filesystem", "datagen", "print", "hbase-2.2", "elasticsearch-7",
		"pulsar", "paimon", "iceberg", "mysql-cdc", "postgres-cdc", "mongodb", "doris", "starrocks", "faker"} {
		c := builtin.Connectors[name]
		if c == nil || c.Desc == "" {
			t.Errorf("%s: not in the catalog or without a description", name)
			continue
		}
		seen := map[string]bool{}
		for _, op := range c.Options {
			if op.Typ == "" || op.Desc == "" {
				t.Errorf("%s: option %q without a type or description", name, op.Key)
			}
			if seen[op.Key] {
				t.Errorf("%s: option %q listed twice", name, op.Key)
			}
			seen[op.Key] = true
			if len(op.Enum) > 0 && op.Def != "" && !containsFold(op.Enum, op.Def) {
				t.Errorf("%s: %q defaults to %q, not one of %v", name, op.Key, op.Def, op.Enum)
			}
		}
	}
	for name, f := range builtin.Formats {
		for _, op := range f.Options {
			if op.Typ == "" || op.Desc == "" {
				t.Errorf("format %s: option %q without a type or description", name, op.Key)
			}
		}
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
