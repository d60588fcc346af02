package debug

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/join"
)

// scan is the stage that reads a source table: from its data file, or
// from the datagen connector's options.
func (d *runner) scan(ctx context.Context, g *group, t *tableDef, alias string) (*stream, error) {
	types := make([]join.Type, len(t.physical))
	physical := make(scope, len(t.physical))
	for i, c := range t.physical {
		ct, err := join.ParseType(c.Type)
		if err != nil {
			return nil, refuse(t.node, "table %s column %s: %v", t.name, c.Name, err)
		}
		types[i] = ct
		physical[i] = field{table: alias, name: c.Name, typ: ct}
	}
	// Computed columns read the physical ones; the relation has every column in DDL order.
	computed := make([]evalFn, len(t.computed))
	out := make(scope, 0, len(t.order))
	from := make([]int, 0, len(t.order)) // ≥ 0: physical column; < 0: -1-computed
	for _, name := range t.order {
		if i := join.ColumnIndex(t.physical, name); i >= 0 {
			out = append(out, physical[i])
			from = append(from, i)
			continue
		}
		for k, c := range t.computed {
			if c.name == name {
				f, ct, err := physical.compile(c.expr)
				if err != nil {
					return nil, fmt.Errorf("table %s column %s: %w", t.name, name, err)
				}
				computed[k] = f
				out = append(out, field{table: alias, name: name, typ: ct})
				from = append(from, -1-k)
			}
		}
	}
	read, err := d.reader(t, types)
	if err != nil {
		return nil, err
	}
	ch := make(chan join.Element[drow], 64)
	g.go_(func() error {
		defer close(ch)
		return read(ctx, func(src int64, vals join.Row) error {
			if d.opts.OnRead != nil {
				d.opts.OnRead(t.name, src)
			}
			env := &evalEnv{now: d.opts.Now()}
			in := internalRow(vals, physical)
			row := make(join.Row, len(from))
			for i, at := range from {
				if at >= 0 {
					row[i] = in[at]
					continue
				}
				v, err := computed[-1-at](env, in)
				if err != nil {
					return fmt.Errorf("table %s row %d, column %s: %w", t.name, src, out[i].name, err)
				}
				row[i] = v
			}
			return send(ctx, ch, join.Element[drow]{Value: drow{vals: row, src: src}, Timestamp: src})
		})
	})
	return &stream{scope: out, ch: ch}, nil
}

// CountRows counts the rows of a data file as a debug run reads them: its
// non-blank lines, less a CSV's header.
func CountRows(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
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

// readFunc calls emit for each row of a source, with its number.
type readFunc func(ctx context.Context, emit func(src int64, vals join.Row) error) error

func (d *runner) reader(t *tableDef, types []join.Type) (readFunc, error) {
	path := ""
	for k, v := range d.opts.Data {
		if strings.EqualFold(k, t.name) {
			path = v
		}
	}
	if path == "" {
		if strings.EqualFold(t.with["connector"], "datagen") {
			return d.datagen(t, types)
		}
		return nil, refuse(t.node, "source table %s (connector '%s'): give its rows with --data %s=FILE (JSON lines or CSV)",
			t.name, t.with["connector"], t.name)
	}
	open := func() (io.ReadCloser, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("data for table %s: %w", t.name, err)
		}
		return f, nil
	}
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		return func(ctx context.Context, emit func(int64, join.Row) error) error {
			f, err := open()
			if err != nil {
				return err
			}
			defer f.Close()
			return readCSV(f, path, t.physical, types, emit)
		}, nil
	}
	return func(ctx context.Context, emit func(int64, join.Row) error) error {
		f, err := open()
		if err != nil {
			return err
		}
		defer f.Close()
		return readJSONLines(f, path, t.physical, types, emit)
	}, nil
}

// readJSONLines reads one JSON object a line; fields the DDL does not
// declare are ignored and missing ones are NULL, as Flink's json format does.
func readJSONLines(r io.Reader, name string, cols []join.Column, types []join.Type, emit func(int64, join.Row) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	var line int64
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			return fmt.Errorf("%s line %d: %w", name, line, err)
		}
		row := make(join.Row, len(cols))
		for i, c := range cols {
			v, ok := obj[c.Name]
			if !ok {
				for k, w := range obj {
					if strings.EqualFold(k, c.Name) {
						v = w
					}
				}
			}
			if n, ok := v.(json.Number); ok {
				v = string(n)
			}
			cv, err := join.Canonical(v, types[i])
			if err != nil {
				return fmt.Errorf("%s line %d, column %s: %w", name, line, c.Name, err)
			}
			row[i] = cv
		}
		if err := emit(line, row); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// readCSV reads a CSV file whose header names the columns; an empty field
// is NULL, except for a string column, where it is the empty string.
func readCSV(r io.Reader, name string, cols []join.Column, types []join.Type, emit func(int64, join.Row) error) error {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s: header: %w", name, err)
	}
	at := make([]int, len(cols))
	for i, c := range cols {
		at[i] = -1
		for j, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), c.Name) {
				at[i] = j
			}
		}
		if at[i] < 0 {
			return fmt.Errorf("%s: the header has no column %s (it has %s)", name, c.Name, strings.Join(header, ", "))
		}
	}
	var line int64
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		line++
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		row := make(join.Row, len(cols))
		for i, c := range cols {
			s := rec[at[i]]
			if s == "" && types[i].Kind != join.KindString {
				continue
			}
			v, err := join.Canonical(s, types[i])
			if err != nil {
				return fmt.Errorf("%s row %d, column %s: %w", name, line, c.Name, err)
			}
			row[i] = v
		}
		if err := emit(line, row); err != nil {
			return err
		}
	}
}

// datagen generates rows as Flink's datagen connector does, from a fixed
// seed so that a debug run is repeatable.
func (d *runner) datagen(t *tableDef, types []join.Type) (readFunc, error) {
	opt := func(key string) (string, bool) {
		v, ok := t.with[key]
		return v, ok
	}
	rows := int64(-1)
	if v, ok := opt("number-of-rows"); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, refuse(t.node, "table %s: 'number-of-rows' = '%s'", t.name, v)
		}
		rows = n
	}
	perSecond := 10000.0
	if v, ok := opt("rows-per-second"); ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			return nil, refuse(t.node, "table %s: 'rows-per-second' = '%s'", t.name, v)
		}
		perSecond = f
	}
	gens := make([]generator, len(t.physical))
	for i, c := range t.physical {
		g, n, err := fieldGenerator(t, c, types[i])
		if err != nil {
			return nil, refuse(t.node, "table %s column %s: %v", t.name, c.Name, err)
		}
		gens[i] = g
		if n >= 0 && (rows < 0 || n < rows) {
			rows = n // a sequence ends the table
		}
	}
	if rows < 0 && d.opts.Limit == 0 {
		return nil, refuse(t.node, "datagen table %s is unbounded: set 'number-of-rows' or run with a row limit", t.name)
	}
	return func(ctx context.Context, emit func(int64, join.Row) error) error {
		r := rand.New(rand.NewPCG(1, uint64(len(t.name))))
		began := time.Now()
		for i := int64(0); rows < 0 || i < rows; i++ {
			if wait := time.Until(began.Add(time.Duration(float64(i) / perSecond * float64(time.Second)))); wait > 0 {
				timer := time.NewTimer(wait)
				select {
				case <-timer.C:
				case <-ctx.Done():
					timer.Stop()
					return ctx.Err()
				}
			}
			now := d.opts.Now()
			row := make(join.Row, len(gens))
			for k, g := range gens {
				row[k] = g(r, i, now)
			}
			if err := emit(i+1, row); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// generator gives a generated column's value for row i (from 0) at now.
type generator func(r *rand.Rand, i int64, now time.Time) any

// fieldGenerator reads the 'fields.<name>.*' options of a column; n is the
// length of a sequence, -1 for random values.
func fieldGenerator(t *tableDef, c join.Column, ct join.Type) (generator, int64, error) {
	opt := func(key string) (string, bool) {
		v, ok := t.with["fields."+c.Name+"."+key]
		return v, ok
	}
	nullRate := 0.0
	if v, ok := opt("null-rate"); ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1 {
			return nil, 0, fmt.Errorf("'null-rate' = '%s'", v)
		}
		nullRate = f
	}
	kind, _ := opt("kind")
	if strings.EqualFold(kind, "sequence") {
		s, ok1 := opt("start")
		e, ok2 := opt("end")
		if !ok1 || !ok2 {
			return nil, 0, errors.New("a sequence needs 'start' and 'end'")
		}
		start, err1 := strconv.ParseInt(s, 10, 64)
		end, err2 := strconv.ParseInt(e, 10, 64)
		if err := errors.Join(err1, err2); err != nil || end < start {
			return nil, 0, fmt.Errorf("sequence %s to %s", s, e)
		}
		return func(_ *rand.Rand, i int64, _ time.Time) any {
			v, _ := join.Canonical(strconv.FormatInt(start+i, 10), ct)
			return v
		}, end - start + 1, nil
	}
	if kind != "" && !strings.EqualFold(kind, "random") {
		return nil, 0, fmt.Errorf("'kind' = '%s': want random or sequence", kind)
	}
	g, err := randomGenerator(c, ct, opt)
	if err != nil || nullRate == 0 {
		return g, -1, err
	}
	return func(r *rand.Rand, i int64, now time.Time) any {
		if r.Float64() < nullRate {
			return nil
		}
		return g(r, i, now)
	}, -1, nil
}

// randomGenerator gives random values of the column's type within its
// options: 'min' and 'max', 'length', 'max-past'.
func randomGenerator(c join.Column, ct join.Type, opt func(key string) (string, bool)) (generator, error) {
	bound := func(key string, def float64) (float64, error) {
		v, ok := opt(key)
		if !ok {
			return def, nil
		}
		return strconv.ParseFloat(v, 64)
	}
	switch ct.Kind {
	case join.KindInt:
		a, b := intRange(c.Type)
		var err1, err2 error
		if v, ok := opt("min"); ok {
			a, err1 = strconv.ParseInt(v, 10, 64)
		}
		if v, ok := opt("max"); ok {
			b, err2 = strconv.ParseInt(v, 10, 64)
		}
		if err := errors.Join(err1, err2); err != nil || b < a {
			return nil, fmt.Errorf("min/max: %v", err)
		}
		return func(r *rand.Rand, _ int64, _ time.Time) any {
			span := uint64(b - a)
			if span == math.MaxUint64 {
				return int64(r.Uint64())
			}
			return a + int64(r.Uint64N(span+1))
		}, nil
	case join.KindFloat, join.KindDecimal:
		mn, err1 := bound("min", 0)
		mx, err2 := bound("max", 1000)
		if err := errors.Join(err1, err2); err != nil || mx < mn {
			return nil, fmt.Errorf("min/max: %v", err)
		}
		return func(r *rand.Rand, _ int64, _ time.Time) any {
			f := mn + r.Float64()*(mx-mn)
			if ct.Kind == join.KindDecimal {
				return new(big.Rat).SetFloat64(f).FloatString(ct.Scale)
			}
			return f
		}, nil
	case join.KindBool:
		return func(r *rand.Rand, _ int64, _ time.Time) any { return r.IntN(2) == 1 }, nil
	case join.KindString, join.KindBytes:
		n, err := bound("length", 100)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("'length': %v", err)
		}
		const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
		return func(r *rand.Rand, _ int64, _ time.Time) any {
			b := make([]byte, int(n))
			for i := range b {
				b[i] = letters[r.IntN(len(letters))]
			}
			if ct.Kind == join.KindBytes {
				return b
			}
			return string(b)
		}, nil
	case join.KindDate, join.KindTimestamp, join.KindTime:
		past := time.Duration(0)
		if v, ok := opt("max-past"); ok {
			p, err := join.ParseFlinkDuration(v)
			if err != nil {
				return nil, fmt.Errorf("'max-past': %v", err)
			}
			past = p
		}
		return func(r *rand.Rand, _ int64, now time.Time) any {
			ts := now
			if past > 0 {
				ts = now.Add(-time.Duration(r.Int64N(int64(past))))
			}
			v, _ := join.Canonical(ts.UTC(), ct)
			return v
		}, nil
	}
	return nil, fmt.Errorf("datagen cannot generate %s", c.Type)
}

func intRange(typ string) (int64, int64) {
	switch u := strings.ToUpper(typ); {
	case strings.HasPrefix(u, "TINYINT"):
		return math.MinInt8, math.MaxInt8
	case strings.HasPrefix(u, "SMALLINT"):
		return math.MinInt16, math.MaxInt16
	case strings.HasPrefix(u, "BIGINT"):
		return math.MinInt64, math.MaxInt64
	}
	return math.MinInt32, math.MaxInt32
}
