package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/palink/palink/core/api"
)

// rowStream prints a debug run's rows as they come, so that memory does
// not grow with them: as JSON lines (-o jsonl), each with its sink and
// change, or as tables (-o table) whose column widths are those of their
// first streamHead rows (a later, wider value widens its own line only).
// With several sinks each row line starts with its sink's name.
type rowStream struct {
	w     *bufio.Writer
	jsonl bool
	cols  map[string][]string // sink → column names, from DebugStarted or its first row
	multi bool
	sinks map[string]*streamedSink
	order []string // the sinks in the order their first rows came
	atEnd bool     // finish prints the sinks left, each a block of its own
	err   error
}

// streamHead is how many rows of a sink set its table's widths.
const streamHead = 100

type streamedSink struct {
	name      string
	changelog bool
	widths    []int
	head      [][]string // rows held until the widths are known
	started   bool
	count     int64 // rows (changes) received
}

func newRowStream(w io.Writer, jsonl bool) *rowStream {
	return &rowStream{w: bufio.NewWriterSize(w, 64<<10), jsonl: jsonl, sinks: map[string]*streamedSink{}, cols: map[string][]string{}}
}

// event takes a run's event: its sinks' columns, and each row.
func (r *rowStream) event(ev api.DebugEvent) {
	switch {
	case ev.Kind == api.DebugStarted:
		for _, s := range ev.Sinks {
			names := make([]string, len(s.Columns))
			for i, c := range s.Columns {
				names[i] = c.Name
			}
			r.cols[s.Name] = names
		}
		r.multi = len(ev.Sinks) > 1
	case ev.Kind == api.DebugRowReceived && ev.Row != nil:
		if r.jsonl {
			r.jsonLine(*ev.Row)
		} else {
			r.tableRow(*ev.Row)
		}
	}
}

// jsonLine writes {"sink": …, "op": …, column: value, …}.
func (r *rowStream) jsonLine(row api.DebugRow) {
	kind := row.Kind
	if kind == "" {
		kind = "+I"
	}
	fields := strings.TrimPrefix(row.JSON, "{")
	sep := ","
	if fields == "}" || fields == "" {
		fields, sep = "}", ""
	}
	r.write(fmt.Sprintf(`{"sink":%q,"op":%q%s%s`+"\n", row.Sink, kind, sep, fields))
}

func (r *rowStream) tableRow(row api.DebugRow) {
	s := r.sinks[row.Sink]
	if s == nil {
		s = &streamedSink{name: row.Sink, changelog: row.Changelog}
		r.sinks[row.Sink] = s
		r.order = append(r.order, row.Sink)
	}
	if len(row.Columns) > 0 {
		names := make([]string, len(row.Columns))
		for i, c := range row.Columns {
			names[i] = c.Name
		}
		r.cols[row.Sink] = names
	}
	s.count++
	cells := make([]string, 0, len(row.Values)+1)
	if s.changelog {
		kind := row.Kind
		if kind == "" {
			kind = "+I"
		}
		cells = append(cells, kind)
	}
	for _, v := range row.Values {
		cells = append(cells, strings.ReplaceAll(v, "\n", `\n`))
	}
	if !s.started {
		s.head = append(s.head, cells)
		if len(s.head) >= streamHead {
			r.start(s)
		}
		return
	}
	r.line(s, cells)
}

// start prints a sink's title and header, widths from its rows so far,
// then those rows.
func (r *rowStream) start(s *streamedSink) {
	names := r.cols[s.name]
	if s.changelog {
		names = append([]string{"op"}, names...)
	}
	s.widths = make([]int, len(names))
	for i, n := range names {
		s.widths[i] = utf8.RuneCountInString(n)
	}
	for _, row := range s.head {
		for i, c := range row {
			if i < len(s.widths) {
				s.widths[i] = max(s.widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	what := "rows as they come"
	if s.changelog {
		what = "changelog as it comes"
	}
	if len(r.sinks) > 1 || s.started {
		r.write("\n")
	}
	r.write(fmt.Sprintf("%s: %s\n", s.name, what))
	rule := make([]string, len(names))
	for i := range names {
		rule[i] = strings.Repeat("-", s.widths[i])
	}
	s.started = true
	r.line(s, names)
	r.line(s, rule)
	for _, row := range s.head {
		r.line(s, row)
	}
	s.head = nil
}

func (r *rowStream) line(s *streamedSink, cells []string) {
	var b strings.Builder
	if r.multi && !r.atEnd {
		// Rows of several sinks may interleave as they come.
		b.WriteString(s.name + " | ")
	}
	for i, c := range cells {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(c)
		if i < len(cells)-1 && i < len(s.widths) {
			b.WriteString(strings.Repeat(" ", max(0, s.widths[i]-utf8.RuneCountInString(c))))
		}
	}
	r.write(strings.TrimRight(b.String(), " ") + "\n")
}

func (r *rowStream) write(s string) {
	if r.err == nil {
		_, r.err = r.w.WriteString(s)
	}
}

// finish prints the sinks whose rows were all held (fewer than
// streamHead), and the sinks that received nothing, then how many rows each
// received, then flushes.
func (r *rowStream) finish(sinks []api.DebugSink) error {
	if !r.jsonl {
		for _, ds := range sinks {
			if r.sinks[ds.Name] == nil {
				r.sinks[ds.Name] = &streamedSink{name: ds.Name, changelog: ds.Updating}
				r.order = append(r.order, ds.Name)
				if len(r.cols[ds.Name]) == 0 {
					for _, c := range ds.Columns {
						r.cols[ds.Name] = append(r.cols[ds.Name], c.Name)
					}
				}
			}
		}
		r.atEnd = true
		for _, name := range r.order {
			if s := r.sinks[name]; !s.started {
				r.start(s)
			}
		}
		r.write("\n")
		for _, name := range r.order {
			s := r.sinks[name]
			what := plural(int(s.count), "row")
			if s.changelog {
				what = "changelog of " + plural(int(s.count), "change")
			}
			r.write(fmt.Sprintf("%s: %s\n", name, what))
		}
	}
	if r.err != nil {
		return r.err
	}
	return r.w.Flush()
}
