package jobs

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
)

// A sort by any column ends, on ties, in the order of the name and the id
// (lessFunc). Comparing those strings is what made sorting 100,000 jobs
// take longer than a frame, so the index keeps every job in that order
// (nameOrder: taken once per full load, kept by each change) and a sort walks
// it, turning each job's value into an integer key whose order is
// lessFunc's. A stable radix sort of those keys then leaves equal keys in
// name-and-id order, which is lessFunc's order exactly, with no string
// compared at all (strings are ranked the same way, strRanks).

// keyed is a job's sort key and its place in the input.
type keyed struct {
	key uint64
	i   uint32
}

// sorter sorts jobs by a column (sort). It keeps its buffers from one
// sort to the next: at 100,000 jobs they are megabytes, and allocating
// them for every sort would have the collector mark every job again.
type sorter struct {
	es, tmp []keyed  // the keys being sorted; the radix sort's other half
	ss      []string // a string column's values, by place in byName
	ranks   []uint64 // their ranks (strRanks)
	next    uint64   // the next rank strRanks gives
	waiting []uint32 // the jobs of liveRank 1, by place in byName
	dead    []uint32 // and of liveRank 2
}

// radix sorts es by key, stably: a least-significant-byte-first radix
// sort, which skips the bytes in which every key is the same.
func (s *sorter) radix(es []keyed) {
	if len(es) < 2 {
		return
	}
	var counts [8][256]int
	for _, e := range es {
		for b := range 8 {
			counts[b][byte(e.key>>(8*b))]++
		}
	}
	s.tmp = slices.Grow(s.tmp[:0], len(es))[:len(es)]
	src, dst := es, s.tmp
	for b := range 8 {
		c := &counts[b]
		if c[byte(src[0].key>>(8*b))] == len(src) {
			continue // one value in this byte: nothing moves
		}
		pos := 0
		for v, n := range c {
			c[v] = pos
			pos += n
		}
		for _, e := range src {
			v := byte(e.key >> (8 * b))
			dst[c[v]] = e
			c[v]++
		}
		src, dst = dst, src
	}
	if &src[0] != &es[0] {
		copy(es, src)
	}
}

// chunk is the key of s[d:] that orders it by its next 7 bytes: those
// bytes (zero-padded) and then how many of them s has, 8 for more than 7,
// so that a string sorts before its own extensions. Two strings whose
// chunks are equal and below 8 are equal.
func chunk(s string, d int) uint64 {
	if len(s) > d+7 { // the usual case, in one go
		_ = s[d+7]
		return uint64(s[d])<<56 | uint64(s[d+1])<<48 | uint64(s[d+2])<<40 | uint64(s[d+3])<<32 |
			uint64(s[d+4])<<24 | uint64(s[d+5])<<16 | uint64(s[d+6])<<8 | 8
	}
	var k uint64
	n := 0
	for ; n < 7 && d+n < len(s); n++ {
		k |= uint64(s[d+n]) << (8 * (7 - n))
	}
	if d+n < len(s) {
		n++
	}
	return k | uint64(n)
}

// strRanks gives each string of ss a rank in strings.Compare's order,
// equal for equal strings, and returns them (valid until the sorter's
// next use); it leaves s.es in the order of the strings, then their places
// in ss. A radix sort by 7-byte chunks, most significant first from
// the strings' common prefix on, does it comparing only the few strings
// that share a chunk.
func (s *sorter) strRanks(ss []string) []uint64 {
	s.ranks = slices.Grow(s.ranks[:0], len(ss))[:len(ss)]
	if len(ss) == 0 {
		return s.ranks
	}
	prefix := ss[0] // the strings' common prefix
	for _, v := range ss[1:] {
		if strings.HasPrefix(v, prefix) {
			continue
		}
		n := 0
		for n < len(prefix) && n < len(v) && v[n] == prefix[n] {
			n++
		}
		prefix = prefix[:n]
	}
	s.es = slices.Grow(s.es[:0], len(ss))[:len(ss)]
	for i := range s.es {
		s.es[i].i = uint32(i)
	}
	s.next = 0
	s.rankChunks(ss, s.es, len(prefix))
	return s.ranks
}

// rankChunks sorts es, strings of ss that are equal in their first d
// bytes, by the rest (stably), and ranks them from s.next on.
func (s *sorter) rankChunks(ss []string, es []keyed, d int) {
	if len(es) < 32 { // too few for a radix pass to pay
		slices.SortStableFunc(es, func(a, b keyed) int { return strings.Compare(ss[a.i][d:], ss[b.i][d:]) })
		for k, e := range es {
			if k > 0 && ss[e.i] != ss[es[k-1].i] {
				s.next++
			}
			s.ranks[e.i] = s.next
		}
		s.next++
		return
	}
	for k := range es {
		es[k].key = chunk(ss[es[k].i], d)
	}
	s.radix(es)
	for lo := 0; lo < len(es); {
		hi := lo + 1
		for hi < len(es) && es[hi].key == es[lo].key {
			hi++
		}
		if hi-lo > 1 && es[lo].key&0xff == 8 {
			s.rankChunks(ss, es[lo:hi], d+7) // equal so far, and longer
		} else {
			for _, e := range es[lo:hi] { // equal strings
				s.ranks[e.i] = s.next
			}
			s.next++
		}
		lo = hi
	}
}

// cmpNameID is the order every sort ends in: name, then id.
func cmpNameID(a, b *api.JobView) int {
	if r := strings.Compare(a.Name, b.Name); r != 0 {
		return r
	}
	return strings.Compare(a.ID, b.ID)
}

// nameOrder is every job by name, then id (cmpNameID): the order each
// sort ends in on ties. first tells, for each, that its name is not the
// one before's: what a sort by name counts its ranks by, without
// comparing names.
type nameOrder struct {
	jobs  []*api.JobView
	first []bool
}

// newNameOrder sorts jobs by name, then id, comparing ranks, not strings,
// and is their nameOrder.
func newNameOrder(jobs []*api.JobView) nameOrder {
	var s sorter
	ss := make([]string, len(jobs))
	for i, j := range jobs {
		ss[i] = j.Name
	}
	names := slices.Clone(s.strRanks(ss))
	for i, j := range jobs {
		ss[i] = j.ID
	}
	ids := s.strRanks(ss)
	es := make([]keyed, len(jobs))
	for i := range es {
		es[i] = keyed{key: names[i]<<32 | ids[i], i: uint32(i)}
	}
	s.radix(es)
	orig := slices.Clone(jobs)
	o := nameOrder{jobs: jobs, first: make([]bool, len(jobs))}
	for k, e := range es {
		jobs[k] = orig[e.i]
		o.first[k] = k == 0 || names[e.i] != names[es[k-1].i]
	}
	return o
}

// place adds j where its name and id sort.
func (o *nameOrder) place(j *api.JobView) {
	i, _ := slices.BinarySearchFunc(o.jobs, j, cmpNameID)
	o.jobs = slices.Insert(o.jobs, i, j)
	o.first = slices.Insert(o.first, i, false)
	o.mark(i)
	o.mark(i + 1)
}

// unplace takes j, as its name and id still are, out.
func (o *nameOrder) unplace(j *api.JobView) {
	if i, found := slices.BinarySearchFunc(o.jobs, j, cmpNameID); found {
		o.jobs = slices.Delete(o.jobs, i, i+1)
		o.first = slices.Delete(o.first, i, i+1)
		o.mark(i)
	}
}

// mark sets first[i] after a neighbour of job i changed.
func (o *nameOrder) mark(i int) {
	if i < len(o.jobs) {
		o.first[i] = i == 0 || o.jobs[i].Name != o.jobs[i-1].Name
	}
}

// signBit turns an int64's order into a uint64's.
const signBit = 1 << 63

func intKey(n int) uint64 { return uint64(int64(n)) ^ signBit }

// floatKey orders floats as cmp.Compare does: NaN below everything, -0
// equal to 0.
func floatKey(f float64) uint64 {
	switch {
	case f != f:
		return 0
	case f == 0:
		f = 0
	}
	b := math.Float64bits(f)
	if b&signBit != 0 {
		return ^b
	}
	return b | signBit
}

// nanoRange is the range of seconds whose instants a nanosecond count
// holds with room to spare (about the years 1685 to 2255).
const nanoRange = 9e9

// timeKey orders instants as time.Time.Compare does: the zero time first.
// ok is false for an instant a nanosecond count cannot hold.
func timeKey(t time.Time) (key uint64, ok bool) {
	if t.IsZero() {
		return 0, true
	}
	if s := t.Unix(); s < -nanoRange || s > nanoRange {
		return 0, false
	}
	return uint64(t.UnixNano()) ^ signBit, true
}

// sort appends to dst the jobs sorted by column c in lessFunc(c, desc)'s
// order, and returns it.
func (s *sorter) sort(dst []*api.JobView, o nameOrder, c column, desc bool) []*api.JobView {
	byName := o.jobs
	if c == colCluster || c == colApp {
		return s.byString(dst, byName, c, desc)
	}
	// liveRank 0 is sorted by key; the other groups keep the name-and-id
	// order whatever the direction, as lessFunc says.
	s.es, s.waiting, s.dead = s.es[:0], s.waiting[:0], s.dead[:0]
	var name uint64 // the rank of the name, counted along byName
	for i, j := range byName {
		if i > 0 && o.first[i] {
			name++
		}
		switch liveRank(c, j) {
		case 1:
			s.waiting = append(s.waiting, uint32(i))
			continue
		case 2:
			s.dead = append(s.dead, uint32(i))
			continue
		}
		var k uint64
		ok := true
		switch c {
		case colKind:
			k = intKey(int(j.Kind))
		case colState:
			k = intKey(stateRank(j.State))
		case colUp:
			k, ok = timeKey(j.StartedAt)
			k = ^k // ascending uptime: the latest start first
		case colRestarts:
			k = intKey(j.PlatformRestarts + j.FlinkRestarts)
		case colCkpt:
			k, ok = timeKey(ckptTime(j))
			k = ^k // the latest first
		case colIn:
			k = floatKey(j.Figures.RecordsInPerSec)
		case colOut:
			k = floatKey(j.Figures.RecordsOutPerS)
		case colBP:
			k = floatKey(j.Figures.Backpressure)
		case colLag:
			lag, _ := lagOf(j)
			k = floatKey(lag)
		default:
			k = name
		}
		if !ok { // rare enough to sort the slow way
			dst = append(dst, byName...)
			slices.SortFunc(dst[len(dst)-len(byName):], lessFunc(c, desc))
			return dst
		}
		if desc {
			k = ^k
		}
		s.es = append(s.es, keyed{key: k, i: uint32(i)})
	}
	s.radix(s.es)
	dst = slices.Grow(dst, len(byName))
	for _, e := range s.es {
		dst = append(dst, byName[e.i])
	}
	for _, i := range s.waiting {
		dst = append(dst, byName[i])
	}
	for _, i := range s.dead {
		dst = append(dst, byName[i])
	}
	return dst
}

// byString appends to dst the jobs in byName sorted by a string column
// (CLUSTER, APP: every job shows one, liveRank 0), in lessFunc's order:
// strRanks leaves them by string and then place in byName, which is the
// ascending order; descending takes the runs of equal strings from the
// last, each in its order.
func (s *sorter) byString(dst, byName []*api.JobView, c column, desc bool) []*api.JobView {
	s.ss = slices.Grow(s.ss[:0], len(byName))[:len(byName)]
	for i, j := range byName {
		s.ss[i] = j.Cluster
		if c == colApp {
			s.ss[i] = j.AppID
		}
	}
	ranks := s.strRanks(s.ss)
	clear(s.ss) // holds no job's strings past the sort
	dst = slices.Grow(dst, len(byName))
	if !desc {
		for _, e := range s.es {
			dst = append(dst, byName[e.i])
		}
		return dst
	}
	for hi := len(s.es); hi > 0; {
		lo := hi - 1
		for lo > 0 && ranks[s.es[lo-1].i] == ranks[s.es[lo].i] {
			lo--
		}
		for _, e := range s.es[lo:hi] {
			dst = append(dst, byName[e.i])
		}
		hi = lo
	}
	return dst
}
