package debug

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRunReportsStatePerOperator: a run says how much state each stateful
// operator held at its most and at the end, and the rows it dropped as
// late, in the summary and in -o json.
func TestRunReportsStatePerOperator(t *testing.T) {
	job := `CREATE TABLE orders (usr STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
  WITH ('connector' = 'kafka', 'format' = 'json');
SELECT window_start, usr, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, usr`
	// Three users in the first minute, then a row that closes it and a
	// late one for it.
	res := run(t, job, map[string]string{"orders.jsonl": `{"usr": "a", "ts": "2024-01-01 00:00:10"}
{"usr": "b", "ts": "2024-01-01 00:00:20"}
{"usr": "c", "ts": "2024-01-01 00:00:30"}
{"usr": "a", "ts": "2024-01-01 00:01:10"}
{"usr": "b", "ts": "2024-01-01 00:00:50"}
`})
	var agg *OperatorReport
	for i, o := range res.Operators {
		if strings.HasPrefix(o.Name, "WindowAggregate(") {
			agg = &res.Operators[i]
		}
	}
	if agg == nil {
		t.Fatalf("no WindowAggregate among the operators reported: %+v", res.Operators)
	}
	if agg.PeakRows != 3 || agg.PeakBytes <= 0 || agg.Rows != 0 || agg.Bytes != 0 || agg.Late != 1 {
		t.Errorf("WindowAggregate's state: %+v, want a peak of 3 groups (the first minute's users), none at the end, 1 late row", *agg)
	}

	var text strings.Builder
	if err := res.WriteLookups(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "state "+agg.Name+": peak 3 entries (") ||
		!strings.Contains(text.String(), "at the end 0 entries (0 B), 1 late rows dropped") {
		t.Errorf("the summary does not report the window aggregate's state:\n%s", text.String())
	}

	var doc strings.Builder
	if err := res.WriteJSON(&doc); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Operators []struct {
			Name      string `json:"name"`
			PeakRows  int64  `json:"peak_rows"`
			PeakBytes int64  `json:"peak_bytes"`
			Late      int64  `json:"late_dropped"`
		} `json:"operators"`
	}
	if err := json.Unmarshal([]byte(doc.String()), &got); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range got.Operators {
		if o.Name == agg.Name {
			found = o.PeakRows == 3 && o.PeakBytes == agg.PeakBytes && o.Late == 1
		}
	}
	if !found {
		t.Errorf("-o json's operators: %+v, want the WindowAggregate with peak_rows 3 and late_dropped 1", got.Operators)
	}
}

// TestStatelessRunReportsNoState: a projection holds nothing, and the
// summary says nothing of state.
func TestStatelessRunReportsNoState(t *testing.T) {
	res := run(t, `CREATE TABLE orders (usr STRING) WITH ('connector' = 'kafka', 'format' = 'json');
SELECT UPPER(usr) FROM orders`, map[string]string{"orders.jsonl": `{"usr": "a"}` + "\n"})
	var text strings.Builder
	if err := res.WriteLookups(&text); err != nil {
		t.Fatal(err)
	}
	if len(res.Operators) != 0 || text.Len() != 0 {
		t.Errorf("operators %+v, summary %q: want none", res.Operators, text.String())
	}
}
