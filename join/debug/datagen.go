package debug

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/join"
	"github.com/palink/palink/join/debug/format"
	"github.com/palink/palink/join/debug/stream"
	"github.com/palink/palink/join/debug/value"
)

// datagen generates rows as Flink's datagen connector does, from a fixed
// seed so that a debug run is repeatable, at most 'rows-per-second'.
func (d sources) datagen(t *tableDef, cols []format.Column) (stream.Reader, error) {
	rows := int64(-1)
	if v, ok := t.with["number-of-rows"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, errorAt(t.node, "table %s: 'number-of-rows' = '%s'", t.name, v)
		}
		rows = n
	}
	perSecond := 10000.0
	if v, ok := t.with["rows-per-second"]; ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			return nil, errorAt(t.node, "table %s: 'rows-per-second' = '%s'", t.name, v)
		}
		perSecond = f
	}
	gens := make([]generator, len(cols))
	for i, c := range cols {
		g, n, err := fieldGenerator(t, c)
		if err != nil {
			return nil, errorAt(t.node, "table %s column %s: %v", t.name, c.Name, err)
		}
		gens[i] = g
		if n >= 0 && (rows < 0 || n < rows) {
			rows = n // a sequence ends the table
		}
	}
	if rows < 0 && d.unbounded == "" {
		d.unbounded = t.name
	}
	return &datagenReader{ctx: d.ctx, rows: rows, perSecond: perSecond, gens: gens, now: d.clock,
		rnd: rand.New(rand.NewPCG(1, uint64(len(t.name))))}, nil
}

type datagenReader struct {
	ctx       context.Context
	rows      int64
	perSecond float64
	gens      []generator
	now       func() time.Time
	rnd       *rand.Rand
	i         int64
	began     time.Time
}

func (g *datagenReader) Next() (stream.Rec, bool, error) {
	if g.rows >= 0 && g.i >= g.rows {
		return stream.Rec{}, false, nil
	}
	if g.i == 0 {
		g.began = time.Now()
	}
	if wait := time.Until(g.began.Add(time.Duration(float64(g.i) / g.perSecond * float64(time.Second)))); wait > 0 {
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-g.ctx.Done():
			timer.Stop()
			return stream.Rec{}, false, g.ctx.Err()
		}
	} else if err := g.ctx.Err(); err != nil && g.i%256 == 0 {
		return stream.Rec{}, false, err
	}
	now := g.now()
	row := make(value.Row, len(g.gens))
	for k, gen := range g.gens {
		row[k] = gen(g.rnd, g.i, now)
	}
	g.i++
	return stream.Rec{Row: row, Src: g.i}, true, nil
}

func (g *datagenReader) Close() error { return nil }

// generator gives a generated column's value for row i (from 0) at now.
type generator func(r *rand.Rand, i int64, now time.Time) any

// fieldGenerator reads the 'fields.<name>.*' options of a column; n is the
// length of a sequence, -1 for random values.
func fieldGenerator(t *tableDef, c format.Column) (generator, int64, error) {
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
			v, _ := value.Cast(start+i, value.TBigInt, c.Type, time.UTC)
			return v
		}, end - start + 1, nil
	}
	if kind != "" && !strings.EqualFold(kind, "random") {
		return nil, 0, fmt.Errorf("'kind' = '%s': want random or sequence", kind)
	}
	g, err := randomGenerator(c.Type, opt)
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
func randomGenerator(ct value.Type, opt func(key string) (string, bool)) (generator, error) {
	bound := func(key string, def float64) (float64, error) {
		v, ok := opt(key)
		if !ok {
			return def, nil
		}
		return strconv.ParseFloat(v, 64)
	}
	switch {
	case ct.IsInteger():
		a, b := value.IntRange(ct)
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
	case ct.Kind == value.Float || ct.Kind == value.Double || ct.Kind == value.Decimal:
		mn, err1 := bound("min", 0)
		mx, err2 := bound("max", 1000)
		if err := errors.Join(err1, err2); err != nil || mx < mn {
			return nil, fmt.Errorf("min/max: %v", err)
		}
		return func(r *rand.Rand, _ int64, _ time.Time) any {
			f := mn + r.Float64()*(mx-mn)
			switch ct.Kind {
			case value.Decimal:
				return value.Round(new(big.Rat).SetFloat64(f), ct)
			case value.Float:
				return float64(float32(f))
			}
			return f
		}, nil
	case ct.Kind == value.Boolean:
		return func(r *rand.Rand, _ int64, _ time.Time) any { return r.IntN(2) == 1 }, nil
	case ct.IsString() || ct.Kind == value.Binary || ct.Kind == value.Varbinary:
		n, err := bound("length", 100)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("'length': %v", err)
		}
		if ct.Kind == value.Char || ct.Kind == value.Binary {
			n = float64(ct.Precision)
		}
		const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
		return func(r *rand.Rand, _ int64, _ time.Time) any {
			b := make([]byte, int(n))
			for i := range b {
				b[i] = letters[r.IntN(len(letters))]
			}
			if !ct.IsString() {
				return b
			}
			return string(b)
		}, nil
	case ct.Kind == value.Date || ct.Kind == value.Time || ct.IsTimestamp():
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
			v, _ := value.Cast(ts.UTC(), value.LTZ(3), ct, time.UTC)
			return v
		}, nil
	}
	return nil, fmt.Errorf("datagen cannot generate %s", ct)
}
