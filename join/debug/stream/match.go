package stream

import (
	"fmt"
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// Match is MATCH_RECOGNIZE as Flink runs it on its CEP library: per
// partition, rows in time order (by event time once the watermark passes
// them; late rows dropped), each row both starting a new partial match and
// extending every live one. A pattern is a sequence of variables with
// quantifiers, strictly contiguous. A greedy loop that can take a row does
// not also try the next variable (CEP's greedy); every other choice keeps
// all its branches. The matches a row completes are emitted in the order
// of their first rows, each one pruning, by the AFTER MATCH SKIP strategy,
// the partial and complete matches that start too early.
type Match struct {
	Partition []int
	// Time is the rowtime column; -1: processing time (rows as they come).
	Time int
	// Sort orders the rows of one event time (ORDER BY's keys after the
	// time attribute); rows it ties keep their arrival order.
	Sort  SortKey
	Elems []MatchElem
	// Define is each variable's condition over the match with the
	// candidate row last; nil: always true.
	Define []func(MatchRows) (bool, error)
	// Measure is the output row of a complete match.
	Measure func(MatchRows) (value.Row, error)
	Skip    Skip
	SkipVar int
	// Within bounds a match's span: a partial match is dropped at the
	// first row Within or more milliseconds after its first (CEP's window),
	// by processing time as the clock (Now) passes that.
	Within int64
	Now    func() int64
	Out    Fan

	parts map[string]*matchPart
	order []string
	wm    int64
	late  int64
	seq   int64
}

// MatchElem is a pattern variable with its quantifier: Min to Max rows
// (Max -1: unbounded), greedy or reluctant.
type MatchElem struct {
	Var      int
	Min, Max int
	Greedy   bool
}

// Skip is an AFTER MATCH SKIP strategy.
type Skip uint8

// The strategies.
const (
	SkipToNextRow Skip = iota
	SkipPastLastRow
	SkipToFirst
	SkipToLast
)

// MatchRows is a (partial) match: its rows in order, the variable each is
// mapped to, and their positions in the partition's sequence.
type MatchRows struct {
	Rows []value.Row
	Vars []int
	Seqs []int64
}

type partial struct {
	MatchRows
	elem, count int
	start       int64 // event time of the first row
	startSeq    int64
	src         int64 // the input row that came last
}

type matchPart struct {
	live    []*partial
	done    []*partial // complete, waiting for earlier partial matches
	pending []Rec
}

// NewMatch is a MATCH_RECOGNIZE operator.
func NewMatch() *Match { return &Match{parts: map[string]*matchPart{}, wm: MinTime} }

func (m *Match) part(r Rec) *matchPart {
	k := value.Key(r.Row, m.Partition)
	p, ok := m.parts[k]
	if !ok {
		p = &matchPart{}
		m.parts[k] = p
		m.order = append(m.order, k)
	}
	return p
}

func (m *Match) ts(r Rec) int64 {
	if m.Time < 0 {
		if m.Now != nil {
			return m.Now()
		}
		return 0
	}
	t, _ := Millis(r.Row[m.Time])
	return t
}

// Push takes one row: by processing time it is matched at once, by event
// time it waits for the watermark.
func (m *Match) Push(r Rec) error {
	if m.Time < 0 {
		return m.process(m.part(r), r)
	}
	if _, ok := Millis(r.Row[m.Time]); !ok || m.ts(r) <= m.wm {
		m.late++
		return nil
	}
	p := m.part(r)
	p.pending = append(p.pending, r)
	return nil
}

// Watermark matches the rows it passes, in time order, then passes it on.
func (m *Match) Watermark(ts int64) error {
	if ts == Idle || m.Time < 0 {
		return m.Out.Watermark(ts)
	}
	m.wm = max(m.wm, ts)
	for _, k := range m.order {
		p := m.parts[k]
		var due, keep []Rec
		for _, r := range p.pending {
			if m.ts(r) <= ts {
				due = append(due, r)
			} else {
				keep = append(keep, r)
			}
		}
		p.pending = keep
		sort.SliceStable(due, func(i, j int) bool {
			if ti, tj := m.ts(due[i]), m.ts(due[j]); ti != tj {
				return ti < tj
			}
			return m.Sort.Compare(due[i].Row, due[j].Row) < 0
		})
		for _, r := range due {
			if err := m.process(p, r); err != nil {
				return err
			}
		}
		m.timeout(p, ts)
		if err := m.flush(p); err != nil {
			return err
		}
	}
	return m.Out.Watermark(ts)
}

// process extends the partition's partial matches by one row.
func (m *Match) process(p *matchPart, r Rec) error {
	m.seq++
	seq, ts := m.seq, m.ts(r)
	m.timeout(p, ts)
	live := append(p.live, &partial{start: ts, startSeq: seq})
	p.live = nil
	for _, pm := range live {
		outs, err := m.step(pm, r.Row, seq)
		if err != nil {
			return fmt.Errorf("MATCH_RECOGNIZE, input row %d: %w", r.Src, err)
		}
		for _, o := range outs {
			o.src = r.Src
			if m.complete(o) {
				p.done = append(p.done, o)
			} else {
				p.live = append(p.live, o)
			}
		}
	}
	sort.SliceStable(p.done, func(i, j int) bool { return p.done[i].startSeq < p.done[j].startSeq })
	return m.flush(p)
}

// ProcTime drops the partial matches by processing time WITHIN says are
// over, and emits the matches that waited for them.
func (m *Match) ProcTime(now int64) error {
	if m.Time >= 0 || m.Within <= 0 {
		return nil
	}
	for _, k := range m.order {
		p := m.parts[k]
		m.timeout(p, now)
		if err := m.flush(p); err != nil {
			return err
		}
	}
	return nil
}

// timeout drops the partial matches WITHIN says are over at time ts.
func (m *Match) timeout(p *matchPart, ts int64) {
	if m.Within <= 0 {
		return
	}
	live := p.live[:0]
	for _, pm := range p.live {
		if ts-pm.start < m.Within {
			live = append(live, pm)
		}
	}
	p.live = live
}

// flush emits the complete matches no live partial match starts before,
// in the order of their first rows (CEP holds a match back while one that
// started earlier may still complete), each pruning by the strategy.
func (m *Match) flush(p *matchPart) error {
	for len(p.done) > 0 {
		d := p.done[0]
		for _, pm := range p.live {
			if pm.startSeq < d.startSeq {
				return nil
			}
		}
		p.done = p.done[1:]
		row, err := m.Measure(d.MatchRows)
		if err != nil {
			return fmt.Errorf("MATCH_RECOGNIZE MEASURES, input row %d: %w", d.src, err)
		}
		if err := m.Out.Push(Rec{Kind: Insert, Row: row, Src: d.src}); err != nil {
			return err
		}
		keep, err := m.skipFrom(d)
		if err != nil {
			return err
		}
		p.live, p.done = pruneBefore(p.live, keep), pruneBefore(p.done, keep)
	}
	return nil
}

// skipFrom is where the next match may start after d, by the strategy.
func (m *Match) skipFrom(d *partial) (int64, error) {
	switch m.Skip {
	case SkipPastLastRow:
		return d.Seqs[len(d.Seqs)-1] + 1, nil
	case SkipToNextRow:
		return d.startSeq + 1, nil
	}
	at := int64(-1)
	for i, v := range d.Vars {
		if v == m.SkipVar {
			at = d.Seqs[i]
			if m.Skip == SkipToFirst {
				break
			}
		}
	}
	if at < 0 {
		return 0, fmt.Errorf("MATCH_RECOGNIZE: could not skip to a variable no row of the match is mapped to (AFTER MATCH SKIP TO FIRST/LAST)")
	}
	if at == d.startSeq {
		return 0, fmt.Errorf("MATCH_RECOGNIZE: could not skip to the first row of the match: AFTER MATCH SKIP TO FIRST would start the same match again")
	}
	return at, nil
}

// complete says whether every variable after the partial's position may be
// left empty and its own has its rows.
func (m *Match) complete(p *partial) bool {
	if p.elem >= len(m.Elems) {
		return true
	}
	if p.count < m.Elems[p.elem].Min {
		return false
	}
	for _, e := range m.Elems[p.elem+1:] {
		if e.Min > 0 {
			return false
		}
	}
	return true
}

// step is what one partial match becomes with one more row: one partial
// per way the row can be mapped, none when it cannot.
func (m *Match) step(p *partial, row value.Row, seq int64) ([]*partial, error) {
	var out []*partial
	try := func(elem, count int) (bool, error) {
		e := m.Elems[elem]
		cand := p.with(row, e.Var, seq)
		if def := m.Define[e.Var]; def != nil {
			ok, err := def(cand)
			if err != nil || !ok {
				return false, err
			}
		}
		np := &partial{MatchRows: cand, elem: elem, count: count, start: p.start, startSeq: p.startSeq}
		if len(p.Rows) == 0 {
			np.start, np.startSeq = m.ts(Rec{Row: row}), seq
		}
		out = append(out, np)
		return true, nil
	}
	i, c := p.elem, p.count
	if len(p.Rows) == 0 {
		i, c = -1, 0
	}
	if i >= 0 {
		e := m.Elems[i]
		if e.Max < 0 || c < e.Max {
			took, err := try(i, c+1)
			if err != nil {
				return nil, err
			}
			if took && greedy(e) {
				return out, nil
			}
		}
		if c < e.Min {
			return out, nil
		}
	}
	// The row may go to the next variable, or past it while they may be empty.
	for j := i + 1; j < len(m.Elems); j++ {
		took, err := try(j, 1)
		if err != nil {
			return nil, err
		}
		if e := m.Elems[j]; e.Min > 0 || took && greedy(e) {
			break
		}
	}
	return out, nil
}

// greedy says whether CEP marks a loop greedy: then a row it can take is
// not also tried on what follows it.
func greedy(e MatchElem) bool { return e.Greedy && e.Min != e.Max && !(e.Min == 0 && e.Max == 1) }

func (p *partial) with(row value.Row, v int, seq int64) MatchRows {
	n := len(p.Rows)
	return MatchRows{
		Rows: append(p.Rows[:n:n], row),
		Vars: append(p.Vars[:n:n], v),
		Seqs: append(p.Seqs[:n:n], seq),
	}
}

// State is the rows waiting, the partial matches' rows and the late rows
// dropped.
func (m *Match) State() State {
	s := State{Late: m.late}
	for _, p := range m.parts {
		for _, r := range p.pending {
			s.Rows++
			s.Bytes += int64(value.SizeRow(r.Row))
		}
		for _, pm := range p.live {
			s.Rows += int64(len(pm.Rows))
			s.Bytes += int64(len(pm.Rows)) * 24
		}
	}
	if n, w := m.partials(); n > 0 {
		s.Open = fmt.Sprintf("%d partial matches not completed, %d complete matches waiting for them", n, w)
	}
	return s
}

func (m *Match) partials() (live, waiting int) {
	for _, p := range m.parts {
		live += len(p.live)
		waiting += len(p.done)
	}
	return live, waiting
}

// Fold is an aggregate over values (MATCH_RECOGNIZE's aggregates over the
// rows of a variable).
func Fold(s AggSpec, vals []any) (any, error) {
	a := newAcc(s)
	for _, v := range vals {
		if err := a.add(v); err != nil {
			return nil, err
		}
	}
	return a.result(), nil
}

// pruneBefore drops the matches that start before seq.
func pruneBefore(ps []*partial, seq int64) []*partial {
	out := ps[:0]
	for _, p := range ps {
		if p.startSeq >= seq {
			out = append(out, p)
		}
	}
	return out
}
