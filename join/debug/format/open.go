package format

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// Column is a column a file gives: a physical or metadata column.
type Column struct {
	Name string
	Type value.Type
	// Metadata says the column is a METADATA column: not a field of the
	// message's value (the avro formats leave it out of their schema).
	Metadata bool
}

// Table is what a reader needs of the table.
type Table struct {
	Name      string
	Columns   []Column
	Options   map[string]string // the table's WITH options
	Connector string
	Format    string
	// Key is the primary key's column positions (upsert-kafka's key).
	Key []int
}

// Open reads path as the table's format says.
func Open(path string, t Table) (stream.Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data for table %s: %w", t.Name, err)
	}
	name := filepath.Base(path)
	lr := &lines{sc: bufio.NewScanner(f), closer: f, name: name}
	lr.sc.Buffer(make([]byte, 64*1024), 64<<20)
	format := strings.ToLower(t.Format)
	opt := func(k string) string { return t.Options[format+"."+k] }
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case ext == ".csv" && format != "csv":
		// A CSV sample of a table of another format: by its header.
		return newCSV(f, name, t, func(string) string { return "" }, true)
	case (ext == ".jsonl" || ext == ".json") && (format == "csv" || format == "raw"):
		// A JSON-lines fixture of a table whose records are not JSON (a
		// sample palink took from the topic and decoded): by column name.
		return newJSON(lr, t, func(string) string { return "" })
	case t.Connector == "upsert-kafka" && (format == "avro" || format == "avro-confluent"):
		u, err := newUpsert(lr, t)
		if err != nil {
			return nil, err
		}
		if u.avro, err = newAvro(lr, t, avroOptions(t, format)); err != nil {
			return nil, err
		}
		return u, nil
	case t.Connector == "upsert-kafka":
		return newUpsert(lr, t)
	case format == "json":
		return newJSON(lr, t, opt)
	case format == "csv":
		return newCSV(f, name, t, opt, false)
	case format == "raw":
		return &rawReader{lines: lr, t: t}, nil
	case format == "debezium-json":
		return newCDC(lr, t, opt, debezium)
	case format == "canal-json":
		return newCDC(lr, t, opt, canal)
	case format == "maxwell-json":
		return newCDC(lr, t, opt, maxwell)
	case format == "avro" || format == "avro-confluent":
		return newAvro(lr, t, avroOptions(t, format))
	}
	return newJSON(lr, t, func(string) string { return "" })
}

// lines reads a file a line at a time, skipping blank ones.
type lines struct {
	sc     *bufio.Scanner
	closer io.Closer
	name   string
	line   int64
}

// next is the next non-blank line, without the spaces around it, and its
// number.
func (l *lines) next() (string, int64, bool, error) {
	text, n, ok, err := l.nextRaw()
	return strings.TrimSpace(text), n, ok, err
}

// nextRaw is the next non-blank line as it is (less a CRLF's CR), and its
// number.
func (l *lines) nextRaw() (string, int64, bool, error) {
	for l.sc.Scan() {
		l.line++
		text := strings.TrimSuffix(l.sc.Text(), "\r")
		if strings.TrimSpace(text) != "" {
			return text, l.line, true, nil
		}
	}
	if err := l.sc.Err(); err != nil {
		return "", l.line, false, fmt.Errorf("%s: %w", l.name, err)
	}
	return "", l.line, false, nil
}

func (l *lines) Close() error { return l.closer.Close() }

// rawReader is the raw format: the line is the one column's value.
type rawReader struct {
	*lines
	t Table
}

func (r *rawReader) Next() (stream.Rec, bool, error) {
	// The message as it is: Flink's raw format keeps its spaces.
	s, n, ok, err := r.nextRaw()
	if !ok || err != nil {
		return stream.Rec{}, false, err
	}
	row := make(value.Row, len(r.t.Columns))
	if len(row) > 0 {
		if r.t.Columns[0].Type.Kind == value.Binary || r.t.Columns[0].Type.Kind == value.Varbinary {
			row[0] = []byte(s)
		} else {
			row[0] = s
		}
	}
	return stream.Rec{Row: row, Src: n}, true, nil
}

// CountRows counts the rows of a data file as a run reads them: its
// non-blank lines, less a header when the file is a .csv.
func CountRows(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	var n int64
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			n++
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if strings.EqualFold(filepath.Ext(path), ".csv") && n > 0 {
		n-- // the header; a quoted field spanning lines would make this an estimate
	}
	return n, nil
}

// avroOptions reads the avro formats' options: 'avro-confluent.schema',
// or 'value.avro-confluent.schema' where the format is the value's.
func avroOptions(t Table, format string) func(string) string {
	return func(k string) string {
		if v, ok := t.Options[format+"."+k]; ok {
			return v
		}
		return t.Options["value."+format+"."+k]
	}
}
