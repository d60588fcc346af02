package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// A list as long as the fleet (`palink jobs`, `palink commands`) is
// written as it is read, a page at a time from the service, so that
// palink holds one page of it whatever its length: the JSON and YAML one
// element at a time (listWriter), the table in two passes over the pages
// (writeTable). The bytes are those of the whole list written at once.

// each is a list read a page at a time: it hands every item to fn, in the
// list's order, and stops at fn's first error.
type each[T any] func(fn func(T) error) error

// sliceOf is a list already held whole, as an each.
func sliceOf[T any](items []T) each[T] {
	return func(fn func(T) error) error {
		for _, it := range items {
			if err := fn(it); err != nil {
				return err
			}
		}
		return nil
	}
}

// paged reads a list through page, which answers one page from a cursor
// ("" for the first) with the cursor of the next ("" after the last).
func paged[T any](page func(p api.Page) ([]T, string, error)) each[T] {
	return func(fn func(T) error) error {
		for p := (api.Page{}); ; {
			items, next, err := page(p)
			if err != nil {
				return err
			}
			for _, it := range items {
				if err := fn(it); err != nil {
					return err
				}
			}
			switch {
			case next == "":
				return nil
			case next <= p.Cursor:
				// Cursors are keys read upwards: one that does not move
				// on would list the same page for ever.
				return fmt.Errorf("the page after %q did not move on (next %q)", p.Cursor, next)
			}
			p.Cursor = next
		}
	}
}

// jobsOf is every job f selects, a page at a time (ListJobsPage).
func jobsOf(ctx context.Context, svc api.Service, f api.JobFilter) each[api.JobView] {
	return paged(func(p api.Page) ([]api.JobView, string, error) {
		pg, err := svc.ListJobsPage(ctx, f, p)
		return pg.Jobs, pg.Next, err
	})
}

// commandsOf is every command f selects, oldest first, a page at a time
// (CommandsPage).
func commandsOf(ctx context.Context, svc api.Service, f api.CommandFilter) each[model.Command] {
	return paged(func(p api.Page) ([]model.Command, string, error) {
		pg, err := svc.CommandsPage(ctx, f, p)
		return pg.Commands, pg.Next, err
	})
}

// writeList writes the items of list in the documented form (-o json or
// yaml) one at a time as they come: the same bytes as writeData of them
// all as one slice.
func writeList[T any](w io.Writer, format string, list each[T]) error {
	lw := &listWriter{w: w, format: format}
	if err := list(func(it T) error { return lw.add(it) }); err != nil {
		return err
	}
	return lw.close()
}

// listWriter writes a JSON or YAML list an element at a time.
type listWriter struct {
	w      io.Writer
	format string
	n      int
	buf    bytes.Buffer
}

func (l *listWriter) add(v any) error {
	doc := wire(reflect.ValueOf(v))
	l.buf.Reset()
	if l.format == outYAML {
		// A sequence of one, as writeData writes each of many.
		enc := yaml.NewEncoder(&l.buf)
		enc.SetIndent(2)
		if err := enc.Encode([]any{doc}); err != nil {
			return err
		}
		if err := enc.Close(); err != nil {
			return err
		}
	} else {
		// An element of a list is indented one level, its closing
		// bracket too; the list writes the comma and the newline.
		sep := ",\n  "
		if l.n == 0 {
			sep = "[\n  "
		}
		l.buf.WriteString(sep)
		enc := json.NewEncoder(&l.buf)
		enc.SetIndent("  ", "  ")
		if err := enc.Encode(doc); err != nil {
			return err
		}
		l.buf.Truncate(l.buf.Len() - 1) // Encode's newline
	}
	l.n++
	_, err := l.w.Write(l.buf.Bytes())
	return err
}

func (l *listWriter) close() error {
	end := "\n]\n"
	switch {
	case l.n == 0:
		end = "[]\n" // JSON's and YAML's empty list alike
	case l.format == outYAML:
		return nil
	}
	_, err := io.WriteString(l.w, end)
	return err
}

// table is a table measured before it is written: text/tabwriter's
// alignment (each column as wide as its widest cell and two spaces, the
// last column as it is) from two passes over its rows, one to measure and
// one to write, so that a table of 100,000 rows is never held whole. Its
// rows must give the same cells both times (times are measured from one
// now); a cell wider than the first pass saw widens its column from there.
type table struct {
	header []string
	widths []int
	rows   int
}

// tableRows gives a table's rows, each to row.
type tableRows func(row func(cells ...string) error) error

// measureTable is the first pass over rows.
func measureTable(header []string, rows tableRows) (*table, error) {
	t := &table{header: header, widths: make([]int, len(header))}
	t.widen(header)
	err := rows(func(cells ...string) error {
		t.rows++
		t.widen(cells)
		return nil
	})
	return t, err
}

func (t *table) widen(cells []string) {
	for i, c := range cells[:len(cells)-1] {
		t.widths[i] = max(t.widths[i], utf8.RuneCountInString(c))
	}
}

// write is the second pass: the header and rows, aligned.
func (t *table) write(w io.Writer, rows tableRows) error {
	var line strings.Builder
	write := func(cells ...string) error {
		t.widen(cells)
		line.Reset()
		for i, c := range cells[:len(cells)-1] {
			line.WriteString(c)
			line.WriteString(strings.Repeat(" ", t.widths[i]+2-utf8.RuneCountInString(c)))
		}
		line.WriteString(cells[len(cells)-1])
		line.WriteByte('\n')
		_, err := io.WriteString(w, line.String())
		return err
	}
	if err := write(t.header...); err != nil {
		return err
	}
	return rows(write)
}

// ageAt is how long before now t was, as tables show it ("-" unknown).
func ageAt(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return model.Age(now.Sub(t))
}
