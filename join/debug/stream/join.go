package stream

import (
	"github.com/palink/palink/join/debug/value"
)

// Join is Flink's regular join (StreamingJoinOperator): each side's rows
// are kept by join key, and each change of one side is joined with the
// other side's rows as they are. An inner join passes the input's kind on
// (+I/+U, -U/-D); an outer join sends +I and -D only: a row of an outer
// side without a match is sent padded with NULLs (+I[row, null]), and that
// row is taken back (-D[row, null]) when its first match comes, sent again
// when its last match goes.
type Join struct {
	// Outer says which sides are outer: a LEFT join's left (0), a RIGHT
	// join's right (1), both for FULL.
	Outer [2]bool
	// Key gives each side's join key of a row (nil: one key for all rows);
	// ok is false when it holds a NULL, which matches nothing.
	Key [2]func(value.Row) (string, bool, error)
	// Cond is the rest of the ON clause over the joined row; nil: none.
	Cond  func(value.Row) (bool, error)
	Width [2]int
	Out   Fan

	state [2]map[string][]*joinRec
	merge *Merge
}

type joinRec struct {
	row   value.Row
	id    string
	n     int64 // copies of the row
	assoc int64 // for an outer side: rows of the other side it joins
}

// NewJoin is a regular join.
func NewJoin() *Join {
	return &Join{state: [2]map[string][]*joinRec{{}, {}}, merge: NewMerge(2)}
}

// Input is the side i of the join (0 left, 1 right).
func (j *Join) Input(i int) Out { return joinInput{j, i} }

type joinInput struct {
	j *Join
	i int
}

func (in joinInput) Push(r Rec) error { return in.j.push(in.i, r) }

func (in joinInput) Watermark(ts int64) error {
	if wm, ok := in.j.merge.Set(in.i, ts); ok {
		return in.j.Out.Watermark(wm)
	}
	return nil
}

// joined is the output row of a left row and a right one (nil: NULLs).
func (j *Join) joined(side int, row, other value.Row) value.Row {
	out := make(value.Row, j.Width[0]+j.Width[1])
	l, r := row, other
	if side == 1 {
		l, r = other, row
	}
	copy(out, l)
	copy(out[j.Width[0]:], r)
	return out
}

// matches are the other side's rows that join row.
func (j *Join) matches(side int, key string, row value.Row) ([]*joinRec, error) {
	var out []*joinRec
	for _, o := range j.state[1-side][key] {
		if j.Cond != nil {
			ok, err := j.Cond(j.joined(side, row, o.row))
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		out = append(out, o)
	}
	return out, nil
}

func (j *Join) push(side int, r Rec) error {
	key, ok, err := "", true, error(nil)
	if j.Key[side] != nil {
		key, ok, err = j.Key[side](r.Row)
		if err != nil {
			return err
		}
	}
	outer, otherOuter := j.Outer[side], j.Outer[1-side]
	var matched []*joinRec
	if ok {
		if matched, err = j.matches(side, key, r.Row); err != nil {
			return err
		}
	} else {
		key = "\x00null" // kept apart: a NULL key matches nothing
	}
	emit := func(k Kind, row value.Row) error { return j.Out.Emit(k, row, r) }
	if r.Kind.Adds() {
		if otherOuter {
			for _, o := range matched {
				if o.assoc == 0 {
					if err := emit(Delete, j.joined(1-side, o.row, nil)); err != nil {
						return err
					}
				}
				o.assoc++
			}
		}
		var assoc int64
		for _, o := range matched {
			assoc += o.n
		}
		j.add(side, key, r.Row, assoc)
		if outer && len(matched) == 0 {
			return emit(Insert, j.joined(side, r.Row, nil))
		}
		kind := Insert
		if !outer && !otherOuter {
			kind = r.Kind
		}
		for _, o := range matched {
			for c := int64(0); c < o.n; c++ {
				if err := emit(kind, j.joined(side, r.Row, o.row)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	j.retract(side, key, r.Row)
	if len(matched) == 0 {
		if outer {
			return emit(Delete, j.joined(side, r.Row, nil))
		}
		return nil
	}
	kind := Delete
	if !outer && !otherOuter {
		kind = r.Kind
	}
	for _, o := range matched {
		for c := int64(0); c < o.n; c++ {
			if err := emit(kind, j.joined(side, r.Row, o.row)); err != nil {
				return err
			}
		}
		if otherOuter {
			if o.assoc == 1 {
				if err := emit(Insert, j.joined(1-side, o.row, nil)); err != nil {
					return err
				}
			}
			o.assoc--
		}
	}
	return nil
}

func (j *Join) add(side int, key string, row value.Row, assoc int64) {
	id := value.Key(row, nil)
	for _, e := range j.state[side][key] {
		if e.id == id {
			e.n++
			return
		}
	}
	j.state[side][key] = append(j.state[side][key], &joinRec{row: row, id: id, n: 1, assoc: assoc})
}

func (j *Join) retract(side int, key string, row value.Row) {
	id := value.Key(row, nil)
	list := j.state[side][key]
	for i, e := range list {
		if e.id != id {
			continue
		}
		if e.n--; e.n <= 0 {
			list = append(list[:i:i], list[i+1:]...)
			if len(list) == 0 {
				delete(j.state[side], key)
			} else {
				j.state[side][key] = list
			}
		}
		return
	}
}

// State is the rows both sides hold.
func (j *Join) State() State {
	var s State
	for _, side := range j.state {
		for k, list := range side {
			for _, e := range list {
				s.Rows += e.n
				s.Bytes += int64(len(k)) + int64(value.SizeRow(e.row))
			}
		}
	}
	return s
}
