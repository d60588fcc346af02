package stream

import (
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// Collector is a captured sink: it sees the changelog the sink would
// receive and keeps the table the sink would end up holding.
type Collector struct {
	// Key is the sink's primary key columns: its table is upserted by them.
	// Without a key, a retraction takes away an equal row.
	Key []int
	// Upsert says the sink takes an upsert stream: Flink sends it no -U
	// (an upsert-kafka, JDBC or Elasticsearch sink with a primary key).
	Upsert bool
	// AppendOnly says the stream has only inserts: the table is the log,
	// and only the first Keep rows of it are kept.
	AppendOnly bool
	// Limit is the most changes the sink takes; 0: all.
	Limit int64
	// Keep is the most changes kept in memory (Changes); 0: all. The
	// changelog goes to OnChange in full.
	Keep int
	// OnChange, if set, sees each change as it comes.
	OnChange func(Rec) error

	Changes []Rec
	Count   [4]int64 // changes by kind

	table *ordered[*finalRow]
}

type finalRow struct {
	row   value.Row
	count int64
}

// Push takes one change.
func (c *Collector) Push(r Rec) error {
	if c.Done() {
		return nil
	}
	if c.Upsert && r.Kind == UpdateBefore {
		return nil
	}
	c.Count[r.Kind]++
	if c.Keep <= 0 || len(c.Changes) < c.Keep {
		c.Changes = append(c.Changes, r)
	}
	if !c.AppendOnly {
		c.apply(r)
	}
	if c.OnChange != nil {
		return c.OnChange(r)
	}
	return nil
}

func (c *Collector) apply(r Rec) {
	if c.table == nil {
		c.table = newOrdered[*finalRow]()
	}
	if c.Key != nil {
		k := value.Key(r.Row, c.Key)
		switch r.Kind {
		case Insert, UpdateAfter:
			if f, ok := c.table.get(k); ok {
				f.row = r.Row
				return
			}
			c.table.put(k, &finalRow{row: r.Row, count: 1})
		case Delete:
			c.table.del(k)
		}
		return
	}
	k := value.Key(r.Row, nil)
	f, ok := c.table.get(k)
	if r.Kind.Adds() {
		if ok {
			f.count++
			return
		}
		c.table.put(k, &finalRow{row: r.Row, count: 1})
		return
	}
	if ok {
		if f.count--; f.count <= 0 {
			c.table.del(k)
		}
	}
}

// Watermark is of no interest to a sink.
func (c *Collector) Watermark(int64) error { return nil }

// Done says whether the sink has all the changes its limit lets it take.
func (c *Collector) Done() bool { return c.Limit > 0 && c.Total() >= c.Limit }

// Total is the number of changes received.
func (c *Collector) Total() int64 { return c.Count[0] + c.Count[1] + c.Count[2] + c.Count[3] }

// Final is the table the sink ends up holding: by key in the order keys
// first came, or the rows with their multiplicity, in the order they first
// came. For an append-only sink, it is the rows kept.
func (c *Collector) Final() []value.Row {
	if c.AppendOnly {
		out := make([]value.Row, len(c.Changes))
		for i, r := range c.Changes {
			out[i] = r.Row
		}
		return out
	}
	if c.table == nil {
		return nil
	}
	keys := c.table.keys()
	var out []value.Row
	for _, k := range keys {
		f, _ := c.table.get(k)
		for i := int64(0); i < f.count; i++ {
			out = append(out, f.row)
		}
	}
	return out
}

// FinalRows is how many rows the final table has.
func (c *Collector) FinalRows() int64 {
	if c.AppendOnly {
		return c.Count[Insert]
	}
	if c.table == nil {
		return 0
	}
	var n int64
	for _, e := range c.table.m {
		n += e.v.count
	}
	return n
}

// State is the final table's size.
func (c *Collector) State() State {
	s := State{}
	if c.table != nil {
		for _, e := range c.table.m {
			s.Rows++
			s.Bytes += int64(value.SizeRow(e.v.row))
		}
	}
	return s
}

// SortRows orders rows by their values, NULLs first: for comparing tables
// whose order does not matter.
func SortRows(rows []value.Row) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		for k := 0; k < len(a) && k < len(b); k++ {
			switch {
			case a[k] == nil && b[k] == nil:
				continue
			case a[k] == nil:
				return true
			case b[k] == nil:
				return false
			}
			if c, err := value.Compare(a[k], b[k]); err == nil && c != 0 {
				return c < 0
			}
		}
		return len(a) < len(b)
	})
}
