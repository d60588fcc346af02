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
