package stream

import (
	"sort"

	"github.com/palink/palink/join/debug/value"
)

// WindowRank is Flink's window top-N (and window deduplication): rows
// partitioned by keys that include a window's start and end wait for the
// watermark to pass the window's end; then the first N of each partition
// by the sort key are emitted (+I), in rank order, with their number when
// Number is set. A row for a window already fired is late and dropped.
type WindowRank struct {
	Partition []int
	End       int // the window_end column
	Sort      SortKey
	N         int64
	Number    bool
	// Millis reads window_end in epoch milliseconds; nil: Millis.
	Millis func(any) (int64, bool)
	Out    Fan

	parts map[string]*winPart
	seq   int64
	wm    int64
	late  int64
}

type winPart struct {
	seq  int64
	end  int64
	rows []value.Row
}

// NewWindowRank is a window top-N.
func NewWindowRank(partition []int, end int, sort SortKey, n int64, number bool) *WindowRank {
	return &WindowRank{Partition: partition, End: end, Sort: sort, N: n, Number: number, parts: map[string]*winPart{}, wm: MinTime}
}

// Push keeps one row until its window fires.
func (w *WindowRank) Push(r Rec) error {
	millis := w.Millis
	if millis == nil {
		millis = Millis
	}
	end, ok := millis(r.Row[w.End])
	if !ok {
		return nil
	}
	if end-1 <= w.wm {
		w.late++
		return nil
	}
	k := value.Key(r.Row, w.Partition)
	p, ok := w.parts[k]
	if !ok {
		p = &winPart{seq: w.seq, end: end}
		w.seq++
		w.parts[k] = p
	}
	p.rows = append(p.rows, r.Row)
	return nil
}

// Watermark fires the windows it passes, then passes it on.
func (w *WindowRank) Watermark(ts int64) error {
	if ts == Idle {
		return w.Out.Watermark(ts)
	}
	w.wm = max(w.wm, ts)
	var due []*winPart
	for k, p := range w.parts {
		if p.end-1 <= ts {
			due = append(due, p)
			delete(w.parts, k)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		if due[i].end != due[j].end {
			return due[i].end < due[j].end
		}
		return due[i].seq < due[j].seq
	})
	for _, p := range due {
		sort.SliceStable(p.rows, func(i, j int) bool { return w.Sort.Compare(p.rows[i], p.rows[j]) < 0 })
		for i, row := range p.rows {
			if int64(i) >= w.N {
				break
			}
			if w.Number {
				row = withRank(row, int64(i+1))
			}
			if err := w.Out.Push(Rec{Kind: Insert, Row: row}); err != nil {
				return err
			}
		}
	}
	return w.Out.Watermark(ts)
}

// State is the rows waiting and the late rows dropped.
func (w *WindowRank) State() State {
	s := State{Late: w.late}
	for _, p := range w.parts {
		for _, r := range p.rows {
			s.Rows++
			s.Bytes += int64(value.SizeRow(r))
		}
	}
	return s
}
