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
