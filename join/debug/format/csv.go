package format

import (
	"encoding/base64"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// csvReader is the csv format: fields by position, as Flink's csv format
// has no header — but a file whose first line names the columns (or any
// .csv of a table of another format) is read by its header's names.
type csvReader struct {
	cr     *csv.Reader
	closer io.Closer
	name   string
	t      Table
	at     []int // the field of each column, -1: none
	ignore bool
	skips
	null    string
	hasNull bool
	arrSep  string
	line    int64
	first   []string // a first record that was not a header
	header  bool     // the file had a header: rows are numbered after it
}

func newCSV(f io.ReadCloser, name string, t Table, opt func(string) string, header bool) (*csvReader, error) {
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	if d := opt("field-delimiter"); d != "" {
		d = strings.ReplaceAll(d, `\t`, "\t")
		if len([]rune(d)) != 1 {
			return nil, fmt.Errorf("table %s: 'csv.field-delimiter' must be one character", t.Name)
		}
		cr.Comma = []rune(d)[0]
	}
	if isTrue(opt("allow-comments")) {
		cr.Comment = '#'
	}
	if q := opt("quote-character"); q != "" && q != `"` || isTrue(opt("disable-quote-character")) {
		cr.LazyQuotes = true
	}
	r := &csvReader{cr: cr, closer: f, name: name, t: t, ignore: isTrue(opt("ignore-parse-errors")), arrSep: ";"}
	if v, ok := t.Options["csv.null-literal"]; ok {
		r.null, r.hasNull = v, true
	}
	if s := opt("array-element-delimiter"); s != "" {
		r.arrSep = s
	}
	rec, err := cr.Read()
	if errors.Is(err, io.EOF) {
		r.at = positions(len(t.Columns))
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r.line = 1
	if header || isHeader(rec, t.Columns) {
		r.header = true
		r.at = make([]int, len(t.Columns))
		for i, c := range t.Columns {
			r.at[i] = -1
			for j, h := range rec {
				if strings.EqualFold(strings.TrimSpace(h), c.Name) {
					r.at[i] = j
				}
			}
			if r.at[i] < 0 && header {
				return nil, fmt.Errorf("%s: the header has no column %s (it has %s)", name, c.Name, strings.Join(rec, ", "))
			}
		}
		return r, nil
	}
	r.at = positions(len(t.Columns))
	r.first = append([]string(nil), rec...)
	return r, nil
}

func positions(n int) []int {
	at := make([]int, n)
	for i := range at {
		at[i] = i
	}
	return at
}

// isHeader says whether a record is the columns' names.
func isHeader(rec []string, cols []Column) bool {
	if len(rec) != len(cols) {
		return false
	}
	for i, c := range cols {
		if !strings.EqualFold(strings.TrimSpace(rec[i]), c.Name) {
			return false
		}
	}
	return true
}

func (r *csvReader) Next() (stream.Rec, bool, error) {
	for {
		var rec []string
		if r.first != nil {
			rec, r.first = r.first, nil
		} else {
			var err error
			rec, err = r.cr.Read()
			if errors.Is(err, io.EOF) {
				return stream.Rec{}, false, nil
			}
			r.line++
			if err != nil {
				if r.ignore {
					r.skips.row(r.line)
					continue
				}
				return stream.Rec{}, false, fmt.Errorf("%s: %w", r.name, err)
			}
		}
		line, _ := r.cr.FieldPos(0)
		if line == 0 {
			line = int(r.line)
		}
		what := "line"
		if r.header {
			line--
			what = "row"
		}
		row, err := r.row(rec)
		if err != nil {
			if r.ignore {
				r.skips.row(int64(line))
				continue
			}
			return stream.Rec{}, false, fmt.Errorf("%s %s %d, %w", r.name, what, line, err)
		}
		r.skips.fields(int64(line))
		return stream.Rec{Row: row, Src: int64(line)}, true, nil
	}
}

func (r *csvReader) row(rec []string) (value.Row, error) {
	row := make(value.Row, len(r.t.Columns))
	for i, c := range r.t.Columns {
		at := r.at[i]
		if at < 0 || at >= len(rec) {
			continue
		}
		s := rec[at]
		if r.hasNull && s == r.null || s == "" && !c.Type.IsString() {
			continue
		}
		v, err := fieldValue(s, c.Type, r.arrSep)
		if err != nil && r.ignore {
			r.nulled++ // NULL, as Flink's CsvToRowDataConverters make it
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: %v", c.Name, err)
		}
		row[i] = v
	}
	return row, nil
}

// fieldValue reads a text field as a value of type t. Numbers and
// booleans are read as Flink's CsvToRowDataConverters read them, with
// Java's parsers (the json format's text converters): "3.7" is no INT and
// "yes" is FALSE, where a SQL CAST would take both.
func fieldValue(s string, t value.Type, arrSep string) (any, error) {
	switch t.Kind {
	case value.TinyInt, value.SmallInt, value.Int, value.BigInt, value.Float, value.Double, value.Decimal, value.Boolean:
		return textConverter(t, false)(s)
	case value.Timestamp, value.TimestampLTZ:
		ts, err := value.ParseLenient(s)
		if err != nil {
			return nil, err
		}
		return value.TruncTimestamp(ts, t.Precision), nil
	case value.Binary, value.Varbinary:
		return base64.StdEncoding.DecodeString(s)
	case value.ArrayKind:
		out := value.Array{}
		for _, p := range strings.Split(s, arrSep) {
			v, err := fieldValue(p, *t.Elem, arrSep)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return value.Cast(s, value.TString, t, nil)
}

func (r *csvReader) Close() error { return r.closer.Close() }
