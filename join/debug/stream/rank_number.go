package stream

import (
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// pushRetractNumber ranks one change of an updating input with the row
// number in the output (Flink's RetractableTopNFunction with the rank
// number): the number is the output's key, so each rank whose row changes
// is updated (-U of the row it held, +U of the row it holds now), a rank
// filled for the first time inserted (+I), and a rank left empty deleted
// (-D).
func (r *Rank) pushRetractNumber(in Rec) error {
	k := value.Key(in.Row, r.Partition)
	old := r.parts[k]
	var buf []value.Row
	from := 0 // the first rank whose row may change
	if in.Kind.Adds() {
		p := sort.Search(len(old), func(i int) bool { return r.Sort.Compare(in.Row, old[i]) < 0 })
		buf = make([]value.Row, 0, len(old)+1)
		buf = append(append(append(buf, old[:p]...), in.Row), old[p:]...)
		from = p
	} else {
		id := value.Key(in.Row, nil)
		at := -1
		for i, row := range old {
			if value.Key(row, nil) == id {
				at = i
				break
			}
		}
		if at < 0 {
			return nil
		}
		buf = append(append([]value.Row(nil), old[:at]...), old[at+1:]...)
		from = at
	}
	if len(buf) == 0 {
		delete(r.parts, k)
	} else {
		r.parts[k] = buf
	}
	for i := from; int64(i) < r.N && (i < len(old) || i < len(buf)); i++ {
		rank := int64(i + 1)
		switch {
		case i >= len(old):
			if err := r.Out.Emit(Insert, withRank(buf[i], rank), in); err != nil {
				return err
			}
		case i >= len(buf):
			if err := r.Out.Emit(Delete, withRank(old[i], rank), in); err != nil {
				return err
			}
		case value.Key(old[i], nil) != value.Key(buf[i], nil):
			if err := r.Out.Emit(UpdateBefore, withRank(old[i], rank), in); err != nil {
				return err
			}
			if err := r.Out.Emit(UpdateAfter, withRank(buf[i], rank), in); err != nil {
				return err
			}
		}
	}
	return nil
}
