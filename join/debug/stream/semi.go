package stream

import "github.com/palink/palink/join/debug/value"

// SemiJoin is Flink's semi and anti join (StreamingSemiAntiJoinOperator),
// as `x IN (SELECT …)` and NOT EXISTS plan to: a left row passes (semi)
// while the right side has a row of its key, or (anti) while it has none.
// A left change passes with its kind when it passes; a right row that
// gives a left row its first match inserts it (semi) or deletes it
// (anti), and one that takes its last match away does the reverse.
type SemiJoin struct {
	Anti bool
	// Key gives each side's key; ok false for a NULL, which matches nothing.
	Key [2]func(value.Row) (string, bool, error)
	Out Fan

	left  map[string][]*joinRec
	right map[string]int64
	merge *Merge
}

// NewSemiJoin is a semi (or anti) join.
func NewSemiJoin(anti bool) *SemiJoin {
	return &SemiJoin{Anti: anti, left: map[string][]*joinRec{}, right: map[string]int64{}, merge: NewMerge(2)}
}

// Input is side i (0 the rows that pass, 1 the subquery's).
func (j *SemiJoin) Input(i int) Out { return semiInput{j, i} }

type semiInput struct {
	j *SemiJoin
	i int
}

func (in semiInput) Push(r Rec) error {
	if in.i == 0 {
		return in.j.pushLeft(r)
	}
	return in.j.pushRight(r)
}

func (in semiInput) Watermark(ts int64) error {
	if wm, ok := in.j.merge.Set(in.i, ts); ok {
		return in.j.Out.Watermark(wm)
	}
	return nil
}

func (j *SemiJoin) pushLeft(r Rec) error {
	key, ok, err := j.Key[0](r.Row)
	if err != nil {
		return err
	}
	var n int64
	if ok {
		n = j.right[key]
	} else {
		key = "\x00null"
	}
	id := value.Key(r.Row, nil)
	if r.Kind.Adds() {
		found := false
		for _, e := range j.left[key] {
			if e.id == id {
				e.n++
				found = true
				break
			}
		}
		if !found {
			j.left[key] = append(j.left[key], &joinRec{row: r.Row, id: id, n: 1})
		}
	} else {
		list := j.left[key]
		for i, e := range list {
			if e.id == id {
				if e.n--; e.n <= 0 {
					j.left[key] = append(list[:i:i], list[i+1:]...)
				}
				break
			}
		}
	}
	if (n > 0) != j.Anti {
		return j.Out.Push(r)
	}
	return nil
}

func (j *SemiJoin) pushRight(r Rec) error {
	key, ok, err := j.Key[1](r.Row)
	if err != nil || !ok {
		return err
	}
	before := j.right[key]
	if r.Kind.Adds() {
		j.right[key] = before + 1
	} else if before > 0 {
		j.right[key] = before - 1
		if before == 1 {
			delete(j.right, key)
		}
	} else {
		return nil
	}
	after := j.right[key]
	var kind Kind
	switch {
	case before == 0 && after > 0: // the first match
		kind = Insert
		if j.Anti {
			kind = Delete
		}
	case before > 0 && after == 0: // the last match gone
		kind = Delete
		if j.Anti {
			kind = Insert
		}
	default:
		return nil
	}
	for _, e := range j.left[key] {
		for c := int64(0); c < e.n; c++ {
			if err := j.Out.Emit(kind, e.row, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// State is the rows both sides hold.
func (j *SemiJoin) State() State {
	s := State{Rows: int64(len(j.right))}
	for _, list := range j.left {
		for _, e := range list {
			s.Rows += e.n
			s.Bytes += int64(value.SizeRow(e.row))
		}
	}
	return s
}

// NotIn is `x NOT IN (SELECT y …)` with SQL's NULLs, as Flink's null-aware
// anti join: a left row passes while the subquery is empty, or while x is
// not NULL, no y equals it and no y is NULL. A right change that flips a
// left row's answer deletes (-D) or inserts (+I) it.
type NotIn struct {
	// Key gives each side's value's key; ok false for NULL.
	Key [2]func(value.Row) (string, bool, error)
	Out Fan

	left  []*joinRec
	lkeys []string // "" for a NULL x
	right map[string]int64
	nulls int64
	total int64
	merge *Merge
}

// NewNotIn is a NOT IN.
func NewNotIn() *NotIn { return &NotIn{right: map[string]int64{}, merge: NewMerge(2)} }

// Input is side i (0 the rows that pass, 1 the subquery's).
func (n *NotIn) Input(i int) Out { return notInInput{n, i} }

type notInInput struct {
	n *NotIn
	i int
}

func (in notInInput) Push(r Rec) error {
	if in.i == 0 {
		return in.n.pushLeft(r)
	}
	return in.n.pushRight(r)
}

func (in notInInput) Watermark(ts int64) error {
	if wm, ok := in.n.merge.Set(in.i, ts); ok {
		return in.n.Out.Watermark(wm)
	}
	return nil
}

func (n *NotIn) passes(key string, null bool) bool {
	if n.total == 0 {
		return true
	}
	return !null && n.nulls == 0 && n.right[key] == 0
}

func (n *NotIn) pushLeft(r Rec) error {
	key, ok, err := n.Key[0](r.Row)
	if err != nil {
		return err
	}
	id := value.Key(r.Row, nil)
	if r.Kind.Adds() {
		n.left = append(n.left, &joinRec{row: r.Row, id: id, n: 1})
		n.lkeys = append(n.lkeys, key)
		if !ok {
			n.lkeys[len(n.lkeys)-1] = "\x00null"
		}
	} else {
		for i, e := range n.left {
			if e.id == id {
				n.left = append(n.left[:i:i], n.left[i+1:]...)
				n.lkeys = append(n.lkeys[:i:i], n.lkeys[i+1:]...)
				break
			}
		}
	}
	if n.passes(key, !ok) {
		return n.Out.Push(r)
	}
	return nil
}

func (n *NotIn) pushRight(r Rec) error {
	before := make([]bool, len(n.left))
	for i, k := range n.lkeys {
		before[i] = n.passes(k, k == "\x00null")
	}
	key, ok, err := n.Key[1](r.Row)
	if err != nil {
		return err
	}
	step := int64(1)
	if !r.Kind.Adds() {
		step = -1
	}
	n.total += step
	if !ok {
		n.nulls += step
	} else if n.right[key] += step; n.right[key] <= 0 {
		delete(n.right, key)
	}
	for i, k := range n.lkeys {
		after := n.passes(k, k == "\x00null")
		if after == before[i] {
			continue
		}
		kind := Insert
		if !after {
			kind = Delete
		}
		if err := n.Out.Emit(kind, n.left[i].row, r); err != nil {
			return err
		}
	}
	return nil
}

// State is the rows both sides hold.
func (n *NotIn) State() State {
	s := State{Rows: int64(len(n.left)) + n.total}
	for _, e := range n.left {
		s.Bytes += int64(value.SizeRow(e.row))
	}
	return s
}
