package debug

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palink/palink/join"
)

// FormatValue renders a row value as Flink's SQL client prints it: NULL,
// TRUE/FALSE, DATE as 2024-01-02, TIMESTAMP as 2024-01-02 10:00:00.123.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05.999999999")
	case []byte:
		return fmt.Sprintf("x'%x'", x)
	}
	return str(v)
}

// WriteTable writes rows as an aligned text table under a header.
func WriteTable(w io.Writer, cols []join.Column, rows []join.Row) error {
	widths := make([]int, len(cols))
	cells := make([][]string, len(rows))
	for i, c := range cols {
		widths[i] = utf8.RuneCountInString(c.Name)
	}
	for r, row := range rows {
		cells[r] = make([]string, len(cols))
		for i := range cols {
			var v any
			if i < len(row) {
				v = row[i]
			}
			s := strings.ReplaceAll(FormatValue(v), "\n", `\n`)
			cells[r][i] = s
			widths[i] = max(widths[i], utf8.RuneCountInString(s))
		}
	}
	line := func(vals []string) string {
		var b strings.Builder
		for i, v := range vals {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(v)
			if i < len(vals)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(v)))
			}
		}
		return strings.TrimRight(b.String(), " ") + "\n"
	}
	names := make([]string, len(cols))
	rule := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
		rule[i] = strings.Repeat("-", widths[i])
	}
	if _, err := io.WriteString(w, line(names)+line(rule)); err != nil {
		return err
	}
	for _, c := range cells {
		if _, err := io.WriteString(w, line(c)); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSONLines writes rows as JSON objects keyed by column name, one a
// line, in column order. Decimals are JSON numbers, as Flink's json format
// writes them; times are strings.
func WriteJSONLines(w io.Writer, cols []join.Column, rows []join.Row) error {
	for _, row := range rows {
		var b strings.Builder
		b.WriteByte('{')
		for i, c := range cols {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(c.Name)
			b.Write(k)
			b.WriteByte(':')
			var v any
			if i < len(row) {
				v = row[i]
			}
			j, err := jsonValue(v, c.Type)
			if err != nil {
				return fmt.Errorf("column %s: %w", c.Name, err)
			}
			b.Write(j)
		}
		b.WriteString("}\n")
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

func jsonValue(v any, typ string) ([]byte, error) {
	switch x := v.(type) {
	case time.Time:
		return json.Marshal(FormatValue(x))
	case string:
		if t, err := join.ParseType(typ); err == nil && t.Kind == join.KindDecimal {
			return []byte(x), nil
		}
	}
	return json.Marshal(v)
}

// WriteText writes the result for people: each sink's rows as a table,
// then what each lookup join did (WriteLookups).
func (res *Result) WriteText(w io.Writer) error {
	for i, s := range res.Sinks {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "%s: %d rows\n", s.Name, len(s.Rows)); err != nil {
			return err
		}
		if err := WriteTable(w, s.Columns, s.Rows); err != nil {
			return err
		}
	}
	return res.WriteLookups(w)
}

// WriteLookups writes what each lookup join did, one line each: lookups,
// queries, cache hits, latency, mode and capacity.
func (res *Result) WriteLookups(w io.Writer) error {
	for _, l := range res.Lookups {
		p50, p99 := l.Percentile(0.5).Round(10*time.Microsecond), l.Percentile(0.99).Round(10*time.Microsecond)
		if _, err := fmt.Fprintf(w, "\nlookup %s: %d lookups, %d queries, cache hit %.0f%%, p50 %v, p99 %v (%s, capacity %d)\n",
			l.Table, l.Stats.Lookups, l.Stats.Queries, 100*l.Stats.Cache.HitRatio(), p50, p99,
			strings.ToLower(l.Config.Options.Mode.String()), l.Config.Options.Capacity); err != nil {
			return err
		}
	}
	return nil
}

// WriteRows writes the rows of res.Sinks[sink] as JSON lines (WriteJSONLines).
func (res *Result) WriteRows(w io.Writer, sink int) error {
	if sink < 0 || sink >= len(res.Sinks) {
		return fmt.Errorf("no sink #%d: the run has %d", sink, len(res.Sinks))
	}
	s := res.Sinks[sink]
	return WriteJSONLines(w, s.Columns, s.Rows)
}

// WriteJSON writes the result as one JSON document, for scripts:
// {"sinks": [{"name", "columns", "rows": [{col: value}]}], "lookups": […]}.
func (res *Result) WriteJSON(w io.Writer) error {
	type sink struct {
		Name    string            `json:"name"`
		Columns []join.Column     `json:"columns"`
		Rows    []json.RawMessage `json:"rows"`
	}
	type lookup struct {
		Table    string  `json:"table"`
		Lookups  int64   `json:"lookups"`
		Queries  int64   `json:"queries"`
		HitRatio float64 `json:"cache_hit_ratio"`
		P50ms    float64 `json:"p50_ms"`
		P99ms    float64 `json:"p99_ms"`
	}
	doc := struct {
		Sinks   []sink   `json:"sinks"`
		Lookups []lookup `json:"lookups"`
	}{Sinks: []sink{}, Lookups: []lookup{}}
	for _, s := range res.Sinks {
		var b strings.Builder
		if err := WriteJSONLines(&b, s.Columns, s.Rows); err != nil {
			return fmt.Errorf("sink %s: %w", s.Name, err)
		}
		out := sink{Name: s.Name, Columns: s.Columns, Rows: []json.RawMessage{}}
		for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if line != "" {
				out.Rows = append(out.Rows, json.RawMessage(line))
			}
		}
		doc.Sinks = append(doc.Sinks, out)
	}
	for _, l := range res.Lookups {
		ms := func(d time.Duration) float64 { return float64(d.Round(10*time.Microsecond).Microseconds()) / 1000 }
		doc.Lookups = append(doc.Lookups, lookup{Table: l.Table, Lookups: l.Stats.Lookups, Queries: l.Stats.Queries,
			HitRatio: l.Stats.Cache.HitRatio(), P50ms: ms(l.Percentile(0.5)), P99ms: ms(l.Percentile(0.99))})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
