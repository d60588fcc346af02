package join

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
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
func WriteTable(w io.Writer, cols []Column, rows []Row) error {
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
func WriteJSONLines(w io.Writer, cols []Column, rows []Row) error {
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
		if t, err := parseType(typ); err == nil && t.kind == kindDecimal {
			return []byte(x), nil
		}
	}
	return json.Marshal(v)
}
