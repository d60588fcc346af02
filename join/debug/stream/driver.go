package stream

import (
	"context"
	"fmt"

	"github.com/palink/palink/join/debug/value"
)

// Reader gives a source's rows one at a time.
type Reader interface {
	// Next is the next record; ok is false at the end of the input.
	Next() (r Rec, ok bool, err error)
	Close() error
}

// Source is a table scan: its reader, its computed columns and its
// watermark, and the Fan its rows go out through.
type Source struct {
	Name   string
	Reader Reader
	// Scan turns a record read into a row of the table (computed columns);
	// nil: as read.
	Scan func(Rec) (Rec, error)
	// Rowtime is the index of the column the WATERMARK is for; -1 when the
	// table has none.
	Rowtime int
	// Watermark is the WATERMARK expression's value for a row, in epoch
	// milliseconds; ok is false when it is NULL.
	Watermark func(value.Row) (ts int64, ok bool, err error)
	// OnRead, if set, is told of each row read, by its number in the input.
	OnRead func(src int64)
	Out    Fan

	head    Rec
	hasHead bool
	eof     bool
	maxWM   int64
	emitted int64
	since   int // rows since the last watermark emitted
	lastAt  int64
	idle    bool
	rows    int64
}

// Rows is how many rows the source gave.
func (s *Source) Rows() int64 { return s.rows }

// Policy says when a source's watermark is emitted.
type Policy int

// The watermark policies. EveryRow, the default, emits after each row:
// test rows stand for events that come at their event times, further
// apart than Flink's periodic emission (200 ms), so that in production
// the watermark would have moved between any two of them. AtEnd emits
// only the final watermark, as Flink's periodic watermark does when a
// small input is read within one interval. A positive Policy emits after
// every that many rows.
const (
	EveryRow Policy = 0
	AtEnd    Policy = -1
)

// The operators' state is sampled after each of the first sampleExact
// rows, then with at least sampleEvery rows between samples.
const (
	sampleExact = 1024
	sampleEvery = 4096
)

// Driver runs a graph over its sources.
type Driver struct {
	Sources []*Source
	Graph   *Graph
	Policy  Policy
	// Start is the processing-time clock's first reading, and Step how far
	// it moves before each row read, in epoch milliseconds.
	Start, Step int64
	// IdleTimeout marks a source idle when the clock has moved that far
	// since its last row (table.exec.source.idle-timeout); 0: never.
	IdleTimeout int64

	now int64
	rr  int // where the turns of the sources without a watermark go on
}

// Now is the processing-time clock's reading.
func (d *Driver) Now() int64 { return d.now }

// Run reads every source to its end (or until every sink is done) and
// pushes the rows through the graph. Sources without a WATERMARK are read
// first, a row from each in turn; then those with one, the row with the
// earliest event time among their next rows first (each source's own
// order is kept: a row late in its file stays late). At the end each
// source emits the final watermark, and the graph finishes.
func (d *Driver) Run(ctx context.Context) error {
	d.now = d.Start
	for _, s := range d.Sources {
		s.maxWM, s.emitted, s.lastAt = MinTime, MinTime, d.now
	}
	defer func() {
		for _, s := range d.Sources {
			s.Reader.Close()
		}
	}()
	// The operators' state is sampled as the rows go: after each of the
	// first rows (a test's input, whose peak is then exact), then at most
	// about once per four rows of state held, so that measuring costs O(1)
	// a row.
	nextSample := 1
	for n := 0; ; n++ {
		if n == nextSample {
			held := int(d.Graph.Sample())
			if nextSample++; n >= sampleExact {
				nextSample = n + max(sampleEvery, 4*held)
			}
		}
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if d.Graph.Done() {
			break
		}
		// The clock moves before the row is read, so that its PROCTIME()
		// is the time it is processed at; the timers it passed fire before
		// the row goes on. Without a row left it does not move.
		d.now += d.Step
		s, err := d.pick()
		if err != nil {
			return err
		}
		if s == nil {
			d.now -= d.Step
			break
		}
		if d.Step > 0 {
			if err := d.Graph.ProcTime(d.now); err != nil {
				return err
			}
		}
		if err := d.push(s); err != nil {
			return err
		}
		if err := d.idleCheck(); err != nil {
			return err
		}
	}
	d.Graph.Sample()
	if d.Graph.Done() {
		return d.Graph.Finish()
	}
	for _, s := range d.Sources {
		if err := s.Out.Watermark(MaxTime); err != nil {
			return err
		}
	}
	return d.Graph.Finish()
}

// push sends a source's head row through the graph and moves its
// watermark as the policy says.
func (d *Driver) push(s *Source) error {
	r := s.head
	s.hasHead = false
	s.rows++
	s.lastAt = d.now
	if s.idle {
		s.idle = false
		if err := s.Out.Watermark(s.emitted); err != nil {
			return err
		}
	}
	if s.OnRead != nil {
		s.OnRead(r.Src)
	}
	if err := s.Out.Push(r); err != nil {
		return err
	}
	if s.Watermark == nil {
		return nil
	}
	ts, ok, err := s.Watermark(r.Row)
	if err != nil {
		return fmt.Errorf("table %s row %d, WATERMARK: %w", s.Name, r.Src, err)
	}
	if ok && ts > s.maxWM {
		s.maxWM = ts
	}
	s.since++
	switch {
	case d.Policy == AtEnd:
		return nil
	case d.Policy > 0 && s.since < int(d.Policy):
		return nil
	}
	s.since = 0
	if s.maxWM > s.emitted {
		s.emitted = s.maxWM
		return s.Out.Watermark(s.maxWM)
	}
	return nil
}

// idleCheck marks idle the sources the clock has left behind.
func (d *Driver) idleCheck() error {
	if d.IdleTimeout <= 0 {
		return nil
	}
	for _, s := range d.Sources {
		if !s.idle && d.now-s.lastAt >= d.IdleTimeout {
			s.idle = true
			if err := s.Out.Watermark(Idle); err != nil {
				return err
			}
		}
	}
	return nil
}

// fill reads a source's next row if it has none waiting.
func (d *Driver) fill(s *Source) error {
	if s.hasHead || s.eof {
		return nil
	}
	for {
		r, ok, err := s.Reader.Next()
		if err != nil {
			return err
		}
		if !ok {
			s.eof = true
			return nil
		}
		if s.Scan != nil {
			if r, err = s.Scan(r); err != nil {
				return err
			}
		}
		s.head, s.hasHead = r, true
		return nil
	}
}

// pick is the source whose row comes next, nil when all are done.
func (d *Driver) pick() (*Source, error) {
	// Sources without a WATERMARK in turns, each read only when its turn
	// comes (its computed columns, PROCTIME(), at that moment).
	for k := range d.Sources {
		i := (d.rr + k) % len(d.Sources)
		s := d.Sources[i]
		if s.Rowtime >= 0 {
			continue
		}
		if err := d.fill(s); err != nil {
			return nil, err
		}
		if s.hasHead {
			d.rr = i + 1
			return s, nil
		}
	}
	for _, s := range d.Sources {
		if err := d.fill(s); err != nil {
			return nil, err
		}
	}
	var best *Source
	var bestTS int64
	for _, s := range d.Sources {
		if !s.hasHead {
			continue
		}
		ts, ok := Millis(s.head.Row[s.Rowtime])
		if !ok {
			ts = MinTime
		}
		if best == nil || ts < bestTS {
			best, bestTS = s, ts
		}
	}
	return best, nil
}
