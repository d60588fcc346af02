package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// streamJob is 250 generated rows into an append-only sink, and a count
// per parity into an updating one.
const streamJob = `CREATE TABLE gen (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '250',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000', 'fields.name.length' = '3');
CREATE TABLE ids (id BIGINT, name STRING) WITH ('connector' = 'blackhole');
CREATE TABLE parity (odd BOOLEAN, n BIGINT, PRIMARY KEY (odd) NOT ENFORCED) WITH ('connector' = 'blackhole');
EXECUTE STATEMENT SET BEGIN
INSERT INTO ids SELECT id, name FROM gen;
INSERT INTO parity SELECT id % 2 = 1, COUNT(*) FROM gen GROUP BY id % 2 = 1;
END;
`

// TestDebugJSONLines: -o jsonl writes each change a sink receives as one
// JSON line, as it comes — its sink, its change and its typed values — and
// nothing else on stdout; what the run did goes to stderr.
func TestDebugJSONLines(t *testing.T) {
	job := writeTemp(t, "stream.sql", streamJob)
	out, errOut, err := runCLI(t, "debug", job, "-o", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	kinds := map[string]int{}
	for i, l := range lines {
		var row map[string]any
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatalf("line %d is no JSON object: %q: %v", i+1, l, err)
		}
		sink, _ := row["sink"].(string)
		op, _ := row["op"].(string)
		kinds[sink+" "+op]++
		if sink == "ids" {
			if _, ok := row["id"].(float64); !ok {
				t.Fatalf("line %d: id %v is not a JSON number", i+1, row["id"])
			}
		}
	}
	// ids: 250 inserts; parity: each count inserted once, then retracted
	// and updated on each of its other 124 rows.
	if kinds["ids +I"] != 250 || kinds["parity +I"] != 2 || kinds["parity -U"] != 248 || kinds["parity +U"] != 248 {
		t.Errorf("changes by sink and kind: %v", kinds)
	}
	if !strings.Contains(errOut, "state GroupAggregate") {
		t.Errorf("stderr lacks what the run held:\n%s", errOut)
	}
}

// TestDebugTableStreams: the table of a sink of many rows is printed as
// they come, its widths from its first rows, with how many came at the
// end; an updating sink's changelog, then its final table.
func TestDebugTableStreams(t *testing.T) {
	job := writeTemp(t, "stream.sql", streamJob)
	out, _, err := runCLI(t, "debug", job)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"ids: rows as they come\n", "ids | id  | name\n", "ids | --- | ----\n", fmt.Sprintf("ids | %-3d | ", 250),
		"parity: changelog as it comes\n", "parity | op | odd   | n\n", "parity | +U | FALSE | 125\n",
		"\nids: 250 rows\nparity: changelog of 498 changes\n",
		"parity: final table, 2 rows\nodd   | n\n----- | ---\nTRUE  | 125\nFALSE | 125\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out[max(0, len(out)-3000):])
		}
	}
}

// TestDebugJSONDocumentOfManyRows: -o json is one document with every row,
// written from the run's files, not from rows kept in memory (which hold
// only the first of them).
func TestDebugJSONDocumentOfManyRows(t *testing.T) {
	// More rows than a run keeps in memory (api.MaxDebugFinal).
	job := writeTemp(t, "stream.sql", strings.NewReplacer("'250'", "'12000'").Replace(streamJob))
	out, _, err := runCLI(t, "debug", job, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sinks []struct {
			Name      string
			Rows      []map[string]any
			Changelog []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out[:min(len(out), 2000)])
	}
	got := map[string][2]int{}
	for _, s := range doc.Sinks {
		got[s.Name] = [2]int{len(s.Rows), len(s.Changelog)}
	}
	if got["ids"] != [2]int{12000, 0} || got["parity"] != [2]int{2, 23998} {
		t.Errorf("rows and changes by sink: %v", got)
	}
}
