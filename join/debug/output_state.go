package debug

import (
	"fmt"
	"io"
	"strings"
)

// operatorState is an operator's state in WriteJSON's document.
type operatorState struct {
	Name      string `json:"name"`
	Rows      int64  `json:"rows"`
	Bytes     int64  `json:"bytes"`
	PeakRows  int64  `json:"peak_rows"`
	PeakBytes int64  `json:"peak_bytes"`
	Late      int64  `json:"late_dropped"`
	Open      string `json:"open,omitempty"`
}

func (res *Result) operatorStates() []operatorState {
	out := []operatorState{}
	for _, o := range res.Operators {
		out = append(out, operatorState{Name: o.Name, Rows: o.Rows, Bytes: o.Bytes, PeakRows: o.PeakRows,
			PeakBytes: o.PeakBytes, Late: o.Late, Open: o.Open})
	}
	return out
}

// skippedSource is a source's ignore-parse-errors in WriteJSON's document.
type skippedSource struct {
	Table  string  `json:"table"`
	File   string  `json:"file"`
	Rows   int64   `json:"rows_skipped"`
	Fields int64   `json:"fields_nulled"`
	Lines  []int64 `json:"first_lines"`
}

func (res *Result) skippedSources() []skippedSource {
	out := []skippedSource{}
	for _, s := range res.Skipped {
		out = append(out, skippedSource{Table: s.Table, File: s.File, Rows: s.Rows, Fields: s.Fields, Lines: s.Lines})
	}
	return out
}

// writeSkipped writes what each source's ignore-parse-errors passed over,
// a line each, which Flink counts nowhere: "source orders (orders.jsonl):
// ignore-parse-errors skipped 2 records that did not parse and set 1
// field that did not read to NULL, at lines 2, 5, 9".
func (res *Result) writeSkipped(w io.Writer) error {
	for i, s := range res.Skipped {
		var b strings.Builder
		if i == 0 {
			b.WriteString("\n")
		}
		var what []string
		if s.Rows > 0 {
			what = append(what, fmt.Sprintf("skipped %s that did not parse", plural(s.Rows, "record")))
		}
		if s.Fields > 0 {
			what = append(what, fmt.Sprintf("set %s that did not read to NULL", plural(s.Fields, "field")))
		}
		lines := make([]string, len(s.Lines))
		for j, l := range s.Lines {
			lines[j] = fmt.Sprint(l)
		}
		more := ""
		if int64(len(s.Lines)) < s.Rows+s.Fields {
			more = ", …"
		}
		fmt.Fprintf(&b, "source %s (%s): ignore-parse-errors %s, at lines %s%s\n", s.Table, s.File, strings.Join(what, " and "), strings.Join(lines, ", "), more)
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// writeState writes the state each stateful operator held, a line each:
// the most while the run went and what is left at the end, with the rows
// it dropped as late. A run of stateless operators writes nothing.
func (res *Result) writeState(w io.Writer) error {
	for i, o := range res.Operators {
		var b strings.Builder
		if i == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "state %s: peak %s (%s), at the end %s (%s)", o.Name, entries(o.PeakRows), byteSize(o.PeakBytes),
			entries(o.Rows), byteSize(o.Bytes))
		if o.Late > 0 {
			fmt.Fprintf(&b, ", %d late rows dropped", o.Late)
		}
		if o.Open != "" {
			fmt.Fprintf(&b, "; %s", o.Open)
		}
		b.WriteString("\n")
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

func entries(n int64) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// byteSize is an estimated size for people: 812 B, 4.2 KB, 37.0 MB.
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
}
