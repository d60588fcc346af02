package debug

import (
	"bufio"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/palink/palink/join"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// Sink is what one sink received: its changelog and the table it ends up
// holding.
type Sink struct {
	Name    string
	Columns []join.Column
	// Key is the sink's primary key, by column name: its final table is
	// upserted by it. Empty without one.
	Key []string
	// Rows is the table the sink ends up holding: for an append-only
	// stream the rows received (at most Options.Keep); for an updating one
	// the rows left once every change is applied (upserted by Key, else a
	// retraction takes away an equal row), in the order their keys first
	// came. Values are join.Row's canonical ones.
	Rows []join.Row
	// Changes is the changelog received (at most Options.Keep of it).
	Changes []Change
	// Updating says the stream carried (or could carry) updates and deletes.
	Updating bool
	// Counts are the changes received by kind: +I, -U, +U, -D.
	Counts [4]int64

	cols  scope
	coll  *stream.Collector
	zone  *time.Location
	out   *os.File
	w     *bufio.Writer
	path  string // where the changelog goes, "" if nowhere
	final string // where the final table goes, "" if nowhere
	mask  func(string) string
}

// Change is one change a sink received.
type Change struct {
	Kind string // +I, -U, +U or -D
	Row  join.Row
}

// types are the sink columns' types.
func (s *Sink) types() []value.Type {
	out := make([]value.Type, len(s.cols))
	for i, c := range s.cols {
		out[i] = c.typ
	}
	return out
}

// print is a row as Flink's SQL client prints its values.
func (s *Sink) print(row value.Row) []string {
	out := make([]string, len(row))
	for i, v := range row {
		out[i] = value.Print(v, s.cols[i].typ, s.zone)
	}
	return out
}

// open names the columns and creates the sink's changelog file, if the run
// writes them (Options.Out).
func (s *Sink) open(out string, n, of int) error {
	for _, c := range s.cols {
		s.Columns = append(s.Columns, join.Column{Name: c.name, Type: c.typ.String()})
	}
	if out == "" {
		return nil
	}
	path := out
	ext := filepath.Ext(out)
	base := strings.TrimSuffix(out, ext)
	if of > 1 {
		path = base + "." + fileName(s.Name) + ext
	}
	s.path, s.final = path, strings.TrimSuffix(path, ext)+".final"+ext
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("sink %s: %w", s.Name, err)
	}
	s.out, s.w = f, bufio.NewWriterSize(f, 64<<10)
	return nil
}

// fileName turns a sink name ("cat.db.sink", "SELECT #1") into a file
// name part.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// write streams one change to the changelog file: {"op": "+I", …columns}.
func (s *Sink) write(rec stream.Rec) error {
	if s.w == nil {
		return nil
	}
	if s.mask != nil {
		var b strings.Builder
		s.writeRec(&b, rec)
		_, err := s.w.WriteString(s.mask(b.String()))
		return err
	}
	// Straight into the file's buffer: this runs for every row a sink
	// receives.
	s.writeRec(s.w, rec)
	return nil
}

// writeRec writes one change as a JSON line: an append-only sink's file is
// its rows; an updating one's, its changelog.
func (s *Sink) writeRec(w jsonOut, rec stream.Rec) {
	w.WriteByte('{')
	if !s.coll.AppendOnly {
		w.WriteString(`"op":"`)
		w.WriteString(rec.Kind.String())
		w.WriteByte('"')
	}
	for i, c := range s.cols {
		if i > 0 || !s.coll.AppendOnly {
			w.WriteByte(',')
		}
		writeJSONString(w, c.name)
		w.WriteByte(':')
		writeJSONValue(w, rec.Row[i], c.typ, s.zone)
	}
	w.WriteString("}\n")
}

// rowJSON is a row as a JSON object of the sink's columns, masked.
func (s *Sink) rowJSON(row value.Row) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, c := range s.cols {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, c.name)
		b.WriteByte(':')
		writeJSONValue(&b, row[i], c.typ, s.zone)
	}
	b.WriteByte('}')
	if s.mask != nil {
		return s.mask(b.String())
	}
	return b.String()
}

// close takes the changelog and the final table from the collector and
// finishes the files.
func (s *Sink) close() error {
	if s.coll == nil {
		return nil
	}
	types := s.types()
	s.Updating = !s.coll.AppendOnly
	s.Counts = s.coll.Count
	for _, r := range s.coll.Changes {
		s.Changes = append(s.Changes, Change{Kind: r.Kind.String(), Row: toJoinRow(r.Row, types)})
	}
	final := s.coll.Final()
	s.Rows = make([]join.Row, len(final))
	for i, r := range final {
		s.Rows[i] = toJoinRow(r, types)
	}
	if s.w == nil {
		return nil
	}
	err := s.w.Flush()
	if cerr := s.out.Close(); err == nil {
		err = cerr
	}
	s.w = nil
	if err != nil || !s.Updating {
		return err
	}
	f, err := os.Create(s.final)
	if err != nil {
		return fmt.Errorf("sink %s: %w", s.Name, err)
	}
	w := bufio.NewWriter(f)
	for _, r := range final {
		var b strings.Builder
		b.WriteByte('{')
		for i, c := range s.cols {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(&b, c.name)
			b.WriteByte(':')
			writeJSONValue(&b, r[i], c.typ, s.zone)
		}
		b.WriteString("}\n")
		line := b.String()
		if s.mask != nil {
			line = s.mask(line)
		}
		w.WriteString(line)
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// toJoinRow is a runtime row as join.Row's canonical values: DECIMAL as a
// string with its scale, TIME as "15:04:05", other non-scalar values as
// Flink writes them.
func toJoinRow(r value.Row, types []value.Type) join.Row {
	out := make(join.Row, len(r))
	for i, v := range r {
		t := value.Type{}
		if i < len(types) {
			t = types[i]
		}
		out[i] = toJoin(v, t)
	}
	return out
}

func toJoin(v any, t value.Type) any {
	switch x := v.(type) {
	case nil, bool, int64, float64, string, []byte, time.Time:
		return x
	case *big.Rat:
		if t.Kind == value.Decimal {
			return x.FloatString(t.Scale)
		}
		return value.Guess(x, time.UTC)
	}
	if t.Kind == value.Null && t.Precision == 0 {
		return value.Guess(v, time.UTC)
	}
	return value.String(v, t, time.UTC)
}

// fromJoin is a join.Row value (a lookup table's) as the runtime holds it.
func fromJoin(v any, t value.Type) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		if t.Kind == value.Decimal || t.Kind == value.Time {
			return value.Cast(x, value.TString, t, time.UTC)
		}
	case float64:
		if t.Kind == value.Float {
			return float64(float32(x)), nil
		}
	case int64:
		if t.IsInteger() {
			return value.Wrap(x, t), nil
		}
	}
	return v, nil
}

// Percentile is the latency of the lookups of inputs at or under which
// fraction p (0.5, 0.99) of them finished; 0 before any.
func (l *LookupReport) Percentile(p float64) time.Duration {
	if len(l.Latency) == 0 {
		return 0
	}
	s := slices.Clone(l.Latency)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}
