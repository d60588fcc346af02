package stream

import "github.com/palink/palink/join/debug/value"

// Normalize is Flink's ChangelogNormalize: it turns an upsert stream (the
// latest row per key, a deletion by key) into a changelog, keeping the last
// row of each key. An insert for a key it holds becomes -U of the old row
// and +U of the new; an unchanged row is dropped; a deletion of a key it
// does not hold is dropped.
type Normalize struct {
	key  []int
	rows map[string]value.Row
	Out  Fan
}

// NewNormalize is a ChangelogNormalize keyed by the columns key.
func NewNormalize(key []int) *Normalize {
	return &Normalize{key: key, rows: map[string]value.Row{}}
}

// Push takes one upsert.
func (n *Normalize) Push(r Rec) error {
	k := value.Key(r.Row, n.key)
	old, ok := n.rows[k]
	if r.Kind == Delete || r.Kind == UpdateBefore {
		if !ok {
			return nil
		}
		delete(n.rows, k)
		return n.Out.Emit(Delete, old, r)
	}
	n.rows[k] = r.Row
	if !ok {
		return n.Out.Emit(Insert, r.Row, r)
	}
	if value.Key(old, nil) == value.Key(r.Row, nil) {
		return nil
	}
	if err := n.Out.Emit(UpdateBefore, old, r); err != nil {
		return err
	}
	return n.Out.Emit(UpdateAfter, r.Row, r)
}

// Watermark passes the watermark on.
func (n *Normalize) Watermark(ts int64) error { return n.Out.Watermark(ts) }

// State is the rows held.
func (n *Normalize) State() State {
	s := State{Rows: int64(len(n.rows))}
	for _, r := range n.rows {
		s.Bytes += int64(value.SizeRow(r))
	}
	return s
}
