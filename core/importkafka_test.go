package core_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
)

// TestImportKafkaJSON: the proposed DDL of a JSON topic has a column per
// field with the type its values say, NOT NULL only where every record
// had a value, a field of two kinds read as STRING with a warning, and the
// record that does not decode counted and left out.
func TestImportKafkaJSON(t *testing.T) {
	addr := kafkaWith(t, map[string][]string{"orders_json": {
		`{"id": 1, "price": 9.5, "ok": true, "at": "2026-12-02T10:00:00.123", "user": {"name": "a", "tier": 1}, "tags": ["x"], "note": null, "mixed": 1}`,
		`{"id": 2, "price": 10, "ok": false, "at": "2026-12-02T10:00:01", "user": {"name": "b", "tier": 2}, "tags": [], "note": "n", "mixed": "s"}`,
		`not json`,
		`{"id": 3, "price": 1.25, "ok": true, "at": "2026-12-02T10:00:02.5", "user": {"name": "c", "tier": 3}, "tags": ["y", "z"], "mixed": 2}`,
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	imp, err := core.ImportKafka(ctx, api.KafkaImportRequest{Name: "orders", Brokers: addr, Topic: "orders_json"})
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE `orders` (\n" +
		"  `id` BIGINT NOT NULL,\n" +
		"  `price` DOUBLE NOT NULL,\n" +
		"  `ok` BOOLEAN NOT NULL,\n" +
		"  `at` TIMESTAMP(3) NOT NULL,\n" +
		"  `user` ROW<`name` STRING, `tier` BIGINT> NOT NULL,\n" +
		"  `tags` ARRAY<STRING> NOT NULL,\n" +
		"  `note` STRING,\n" +
		"  `mixed` STRING NOT NULL\n" +
		") WITH (\n" +
		"  'connector' = 'kafka',\n" +
		"  'topic' = 'orders_json',\n" +
		"  'properties.bootstrap.servers' = '" + addr + "',\n" +
		"  'format' = 'json',\n" +
		"  'json.timestamp-format.standard' = 'ISO-8601',\n" +
		"  'scan.startup.mode' = 'latest-offset'\n" +
		")"
	if imp.SQL != want {
		t.Errorf("DDL:\n%s\nwant\n%s", imp.SQL, want)
	}
	if imp.Records != 3 || imp.Undecodable != 1 || !strings.Contains(imp.FirstError, "record 3: not a JSON object") {
		t.Errorf("records %d, undecodable %d (%s)", imp.Records, imp.Undecodable, imp.FirstError)
	}
	warns := strings.Join(imp.Warnings, "\n")
	if !strings.Contains(warns, "field mixed: seen as BIGINT and STRING; read as STRING") ||
		!strings.Contains(warns, "1 of 4 records did not decode as json") {
		t.Errorf("warnings:\n%s", warns)
	}
}

// TestImportKafkaCSV: csv records give positional columns, an empty field
// is null, a record of another width is counted as undecodable.
func TestImportKafkaCSV(t *testing.T) {
	addr := kafkaWith(t, map[string][]string{"orders_csv": {
		"1,apple,2.5,true,2026-12-02 10:00:00",
		"2,,3,false,2026-12-02 10:00:01.5",
		"3,pear,4.75",
		"4,plum,1,true,2026-12-02 10:00:02",
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	imp, err := core.ImportKafka(ctx, api.KafkaImportRequest{Name: "fruit", Brokers: addr, Topic: "orders_csv", Format: "csv", Records: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE `fruit` (\n  `f0` BIGINT NOT NULL,\n  `f1` STRING,\n  `f2` DOUBLE NOT NULL,\n  `f3` BOOLEAN NOT NULL,\n  `f4` TIMESTAMP(3) NOT NULL\n) WITH (\n" +
		"  'connector' = 'kafka',\n  'topic' = 'orders_csv',\n  'properties.bootstrap.servers' = '" + addr + "',\n  'format' = 'csv',\n  'scan.startup.mode' = 'latest-offset'\n)"
	if imp.SQL != want {
		t.Errorf("DDL:\n%s\nwant\n%s", imp.SQL, want)
	}
	if imp.Records != 3 || imp.Undecodable != 1 || !strings.Contains(imp.FirstError, "3 CSV fields, the records before had 5") {
		t.Errorf("records %d, undecodable %d (%s)", imp.Records, imp.Undecodable, imp.FirstError)
	}
	// A topic none of whose records decode is an error that says why.
	_, err = core.ImportKafka(ctx, api.KafkaImportRequest{Name: "x", Brokers: addr, Topic: "orders_csv", Format: "json"})
	if err == nil || !strings.Contains(err.Error(), "none of the 4 records decodes as json") {
		t.Errorf("csv read as json: %v", err)
	}
}
