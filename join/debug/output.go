package debug

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palink/palink/join"
	"github.com/palink/palink/join/debug/value"
)

// FormatValue renders a value whose type is not known as Flink's SQL
// client prints it: NULL, TRUE/FALSE, a TIMESTAMP with its milliseconds.
// A string (a SinkRow's values are already printed) is left as it is.
func FormatValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return value.Guess(v, time.UTC)
}

// columnTypes are the types of join columns as the runtime knows them; a
// type it cannot read is the NULL type (values then print by their Go type).
func columnTypes(cols []join.Column) []value.Type {
	out := make([]value.Type, len(cols))
	for i, c := range cols {
		if t, err := value.Parse(c.Type); err == nil {
			out[i] = t
		}
	}
	return out
}

// cell is a join.Row value of type t as the SQL client prints it.
func cell(v any, t value.Type) string {
	if t.Kind == value.Null {
		return FormatValue(v)
	}
	x, err := fromJoin(v, t)
	if err != nil {
		return FormatValue(v)
	}
	return value.Print(x, t, time.UTC)
}

// WriteTable writes rows as an aligned text table under a header.
func WriteTable(w io.Writer, cols []join.Column, rows []join.Row) error {
	types := columnTypes(cols)
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
			s := strings.ReplaceAll(cell(v, types[i]), "\n", `\n`)
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
// line, in column order, as Flink's json format writes them: decimals are
// JSON numbers, times strings in SQL's format.
func WriteJSONLines(w io.Writer, cols []join.Column, rows []join.Row) error {
	types := columnTypes(cols)
	for _, row := range rows {
		var b strings.Builder
		b.WriteByte('{')
		for i, c := range cols {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(&b, c.Name)
			b.WriteByte(':')
			var v any
			if i < len(row) {
				v = row[i]
			}
			if types[i].Kind != value.Null {
				x, err := fromJoin(v, types[i])
				if err != nil {
					return fmt.Errorf("column %s: %w", c.Name, err)
				}
				v = x
			}
			writeJSONValue(&b, v, types[i], time.UTC)
		}
		b.WriteString("}\n")
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// jsonOut is where JSON is written: a strings.Builder, or a sink's file
// buffer directly.
type jsonOut interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

func writeJSONString(b jsonOut, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			// What encoding/json escapes, and as it does.
			j, _ := json.Marshal(s)
			b.Write(j)
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// writeJSONValue writes a runtime value of type t as Flink's json format
// does.
func writeJSONValue(b jsonOut, v any, t value.Type, loc *time.Location) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int64:
		var buf [20]byte
		b.Write(strconv.AppendInt(buf[:0], x, 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			writeJSONString(b, value.JavaFloat(x, 64))
			return
		}
		if t.Kind == value.Float {
			b.WriteString(value.JavaFloat(x, 32))
			return
		}
		b.WriteString(value.JavaFloat(x, 64))
	case *big.Rat:
		if t.Kind == value.Decimal {
			b.WriteString(value.DecimalString(x, t.Scale))
			return
		}
		b.WriteString(value.Guess(x, loc))
	case value.Array:
		et := value.Type{}
		if t.Elem != nil {
			et = *t.Elem
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONValue(b, e, et, loc)
		}
		b.WriteByte(']')
	case value.Row:
		b.WriteByte('{')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			name, ft := fmt.Sprintf("f%d", i), value.Type{}
			if i < len(t.Fields) {
				name, ft = t.Fields[i].Name, t.Fields[i].Type
			}
			writeJSONString(b, name)
			b.WriteByte(':')
			writeJSONValue(b, e, ft, loc)
		}
		b.WriteByte('}')
	default:
		if t.Kind == value.Null {
			writeJSONString(b, value.Guess(v, loc))
			return
		}
		writeJSONString(b, value.String(v, t, loc))
	}
}

// WriteText writes the result for people: each sink's rows as a table
// (its final table, and its changelog when it had updates), then what each
// lookup join did (WriteLookups).
func (res *Result) WriteText(w io.Writer) error {
	for i, s := range res.Sinks {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if s.Updating {
			if _, err := fmt.Fprintf(w, "%s: changelog, %d changes (+I %d, -U %d, +U %d, -D %d)\n", s.Name,
				s.Counts[0]+s.Counts[1]+s.Counts[2]+s.Counts[3], s.Counts[0], s.Counts[1], s.Counts[2], s.Counts[3]); err != nil {
				return err
			}
			cols := append([]join.Column{{Name: "op", Type: "STRING"}}, s.Columns...)
			rows := make([]join.Row, len(s.Changes))
			for j, c := range s.Changes {
				rows[j] = append(join.Row{c.Kind}, c.Row...)
			}
			if err := WriteTable(w, cols, rows); err != nil {
				return err
			}
			if _, err := fmt.Fprintf(w, "\n%s: final table, %d rows\n", s.Name, len(s.Rows)); err != nil {
				return err
			}
		} else if _, err := fmt.Fprintf(w, "%s: %d rows\n", s.Name, len(s.Rows)); err != nil {
			return err
		}
		if err := WriteTable(w, s.Columns, s.Rows); err != nil {
			return err
		}
	}
	return res.WriteLookups(w)
}

// WriteLookups writes what each lookup join did, one line each: lookups,
// queries, cache hits, latency, mode and capacity; then what sources'
// ignore-parse-errors passed over (writeSkipped) and the state each
// stateful operator held (writeState).
func (res *Result) WriteLookups(w io.Writer) error {
	for _, l := range res.Lookups {
		p50, p99 := l.Percentile(0.5).Round(10*time.Microsecond), l.Percentile(0.99).Round(10*time.Microsecond)
		if _, err := fmt.Fprintf(w, "\nlookup %s: %d lookups, %d queries, cache hit %.0f%%, p50 %v, p99 %v (%s, capacity %d)\n",
			l.Table, l.Stats.Lookups, l.Stats.Queries, 100*l.Stats.Cache.HitRatio(), p50, p99,
			strings.ToLower(l.Config.Options.Mode.String()), l.Config.Options.Capacity); err != nil {
			return err
		}
	}
	if err := res.writeSkipped(w); err != nil {
		return err
	}
	return res.writeState(w)
}

// WriteFinal writes the final table of each sink that received updates
// (the rows printed as they came were its changelog), then WriteLookups.
func (res *Result) WriteFinal(w io.Writer) error {
	for _, s := range res.Sinks {
		if !s.Updating {
			continue
		}
		if _, err := fmt.Fprintf(w, "\n%s: final table, %d rows\n", s.Name, len(s.Rows)); err != nil {
			return err
		}
		if err := WriteTable(w, s.Columns, s.Rows); err != nil {
			return err
		}
	}
	return res.WriteLookups(w)
}

// WriteRows writes the final table of res.Sinks[sink] as JSON lines
// (WriteJSONLines).
func (res *Result) WriteRows(w io.Writer, sink int) error {
	if sink < 0 || sink >= len(res.Sinks) {
		return fmt.Errorf("no sink #%d: the run has %d", sink, len(res.Sinks))
	}
	s := res.Sinks[sink]
	return WriteJSONLines(w, s.Columns, s.Rows)
}

// WriteJSON writes the result as one JSON document, for scripts:
// {"sinks": [{"name", "columns", "key", "rows": [{col: value}],
// "changelog": [{"op", col: value}]}], "lookups": […], "operators": […],
// "skipped": […]}; "rows" is the final table, "changelog" is there when the
// sink received updates, "operators" the state of each stateful operator,
// "skipped" what each source's ignore-parse-errors passed over. It is
// written as it goes, not built first: a sink whose changes went to a file
// (Options.Out) has its rows or changelog copied from there line by line,
// so that a run of millions of rows keeps none of them in memory.
func (res *Result) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	jw := &jsonDoc{w: bw}
	jw.raw("{\n  \"sinks\": [")
	for i, s := range res.Sinks {
		if i > 0 {
			jw.raw(",")
		}
		jw.raw("\n    {\n      \"name\": ")
		jw.value(s.Name, "      ")
		jw.raw(",\n      \"columns\": ")
		jw.value(s.Columns, "      ")
		if len(s.Key) > 0 {
			jw.raw(",\n      \"key\": ")
			jw.value(s.Key, "      ")
		}
		jw.raw(",\n      \"rows\": ")
		if !s.Updating && s.path != "" {
			jw.fileLines(s.path)
		} else {
			jw.rowLines(s.Columns, s.Rows)
		}
		if s.Updating {
			jw.raw(",\n      \"changelog\": ")
			if s.path != "" {
				jw.fileLines(s.path)
			} else {
				cols := append([]join.Column{{Name: "op", Type: "STRING"}}, s.Columns...)
				changes := make([]join.Row, len(s.Changes))
				for j, c := range s.Changes {
					changes[j] = append(join.Row{c.Kind}, c.Row...)
				}
				jw.rowLines(cols, changes)
			}
		}
		jw.raw("\n    }")
		if jw.err != nil {
			return fmt.Errorf("sink %s: %w", s.Name, jw.err)
		}
	}
	if len(res.Sinks) > 0 {
		jw.raw("\n  ")
	}
	type lookup struct {
		Table    string  `json:"table"`
		Lookups  int64   `json:"lookups"`
		Queries  int64   `json:"queries"`
		HitRatio float64 `json:"cache_hit_ratio"`
		P50ms    float64 `json:"p50_ms"`
		P99ms    float64 `json:"p99_ms"`
	}
	lookups := []lookup{}
	for _, l := range res.Lookups {
		ms := func(d time.Duration) float64 { return float64(d.Round(10*time.Microsecond).Microseconds()) / 1000 }
		lookups = append(lookups, lookup{Table: l.Table, Lookups: l.Stats.Lookups, Queries: l.Stats.Queries,
			HitRatio: l.Stats.Cache.HitRatio(), P50ms: ms(l.Percentile(0.5)), P99ms: ms(l.Percentile(0.99))})
	}
	jw.raw("],\n  \"lookups\": ")
	jw.value(lookups, "  ")
	jw.raw(",\n  \"operators\": ")
	jw.value(res.operatorStates(), "  ")
	jw.raw(",\n  \"skipped\": ")
	jw.value(res.skippedSources(), "  ")
	jw.raw("\n}\n")
	if jw.err != nil {
		return jw.err
	}
	return bw.Flush()
}

// jsonDoc writes a JSON document piece by piece, keeping its first error.
type jsonDoc struct {
	w   *bufio.Writer
	err error
}

func (d *jsonDoc) raw(s string) {
	if d.err == nil {
		_, d.err = d.w.WriteString(s)
	}
}

// value writes v indented as if at indent.
func (d *jsonDoc) value(v any, indent string) {
	if d.err != nil {
		return
	}
	b, err := json.MarshalIndent(v, indent, "  ")
	if err != nil {
		d.err = err
		return
	}
	_, d.err = d.w.Write(b)
}

// lines writes an array of JSON objects, one a line, from next until it
// says there are no more.
func (d *jsonDoc) lines(next func() (string, bool)) {
	d.raw("[")
	n := 0
	for d.err == nil {
		line, ok := next()
		if !ok {
			break
		}
		if n > 0 {
			d.raw(",")
		}
		d.raw("\n        ")
		d.raw(line)
		n++
	}
	if n > 0 {
		d.raw("\n      ")
	}
	d.raw("]")
}

// rowLines writes rows held in memory (WriteJSONLines' lines).
func (d *jsonDoc) rowLines(cols []join.Column, rows []join.Row) {
	var b strings.Builder
	if err := WriteJSONLines(&b, cols, rows); err != nil {
		d.err = err
		return
	}
	text := strings.TrimSuffix(b.String(), "\n")
	d.lines(func() (string, bool) {
		if text == "" {
			return "", false
		}
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		return line, true
	})
}

// fileLines copies a sink's JSON lines file (already masked) into the
// document.
func (d *jsonDoc) fileLines(path string) {
	f, err := os.Open(path)
	if err != nil {
		d.err = err
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	d.lines(func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		return sc.Text(), true
	})
	if d.err == nil {
		d.err = sc.Err()
	}
}
