package join

// entry is one element in the operator's queue: a record in flight or done,
// or a watermark.
type entry[I, O any] struct {
	in       Element[I]
	index    int64 // position among the records of the input
	results  []O   // set by the worker, read by Run after the hand-back
	err      error // set by the worker
	finished bool
	next     *entry[I, O]   // link in a segment's finished list
	seg      *segment[I, O] // the unordered queue's segment holding the record

	ctx          *lookupCtx // nil without a timeout; else &lc
	lc           lookupCtx
	older, newer *entry[I, O] // links in the run's list of records that may time out
}

// queue decides which finished element leaves next. The operator owns the
// slots; a queue only orders.
type queue[I, O any] interface {
	push(e *entry[I, O])      // admit an element (a watermark arrives finished)
	completed(e *entry[I, O]) // a record has finished
	peek() *entry[I, O]       // the finished element that may leave now, or nil
	pop()                     // remove the element peek returned
}

// orderedQueue is Flink's OrderedStreamElementQueue: only the head may leave,
// so a finished element behind a slow head waits, holding its slot.
type orderedQueue[I, O any] struct {
	ring  []*entry[I, O]
	head  int
	count int
}

func newOrderedQueue[I, O any](capacity int) *orderedQueue[I, O] {
	return &orderedQueue[I, O]{ring: make([]*entry[I, O], capacity)}
}

func (q *orderedQueue[I, O]) push(e *entry[I, O]) {
	q.ring[(q.head+q.count)%len(q.ring)] = e
	q.count++
}

func (q *orderedQueue[I, O]) completed(*entry[I, O]) {}

func (q *orderedQueue[I, O]) peek() *entry[I, O] {
	if q.count == 0 || !q.ring[q.head].finished {
		return nil
	}
	return q.ring[q.head]
}

func (q *orderedQueue[I, O]) pop() {
	q.ring[q.head] = nil
	q.head = (q.head + 1) % len(q.ring)
	q.count--
}

// unorderedQueue is Flink's UnorderedStreamElementQueue. Watermarks cut the
// queue into segments: records of the first segment leave in the order they
// finish; a watermark leaves when everything before it has; records after a
// watermark wait for it. So records move freely between two watermarks and
// never across one.
type unorderedQueue[I, O any] struct {
	first, last *segment[I, O]
	spare       *segment[I, O] // free list
}

// segment is a watermark alone, or a run of records between two watermarks.
type segment[I, O any] struct {
	wm         *entry[I, O]
	head, tail *entry[I, O] // finished records not yet emitted, in finishing order
	size       int          // records not yet emitted
	next       *segment[I, O]
}

func (q *unorderedQueue[I, O]) newSegment() *segment[I, O] {
	s := q.spare
	if s == nil {
		s = new(segment[I, O])
	} else {
		q.spare = s.next
		*s = segment[I, O]{}
	}
	if q.last == nil {
		q.first = s
	} else {
		q.last.next = s
	}
	q.last = s
	return s
}

func (q *unorderedQueue[I, O]) push(e *entry[I, O]) {
	if e.in.Watermark {
		q.newSegment().wm = e
		return
	}
	s := q.last
	if s == nil || s.wm != nil {
		s = q.newSegment()
	}
	s.size++
	e.seg = s
}

func (q *unorderedQueue[I, O]) completed(e *entry[I, O]) {
	s := e.seg
	if s.tail == nil {
		s.head = e
	} else {
		s.tail.next = e
	}
	s.tail = e
}

func (q *unorderedQueue[I, O]) peek() *entry[I, O] {
	for s := q.first; s != nil; s = q.first {
		switch {
		case s.wm != nil:
			return s.wm
		case s.head != nil:
			return s.head
		case s.size == 0 && s != q.last:
			q.dropFirst() // an emptied run of records that a watermark follows
		default:
			return nil
		}
	}
	return nil
}

func (q *unorderedQueue[I, O]) pop() {
	s := q.first
	if s.wm != nil {
		q.dropFirst()
		return
	}
	e := s.head
	s.head = e.next
	if s.head == nil {
		s.tail = nil
	}
	e.next = nil
	s.size--
	if s.size == 0 && s != q.last {
		q.dropFirst()
	}
}

func (q *unorderedQueue[I, O]) dropFirst() {
	s := q.first
	q.first = s.next
	if q.first == nil {
		q.last = nil
	}
	s.next = q.spare
	q.spare = s
}
