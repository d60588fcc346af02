// Package logtime reads the timestamps log lines start with (log4j's, as
// Flink writes them) and finds where the lines of a log's last duration
// begin: `palink logs --since` and the TUI log viewer's since presets use
// the same rules. It reads a log only through the ReadFunc its caller
// gives (both read through core's API); it imports only the standard
// library.
package logtime

import (
	"bytes"
	"errors"
	"time"
)

// ReadFunc returns the bytes [off, off+n) of a log, fewer at its end.
type ReadFunc func(off, n int64) ([]byte, error)

// ErrNoStamp is why Since cannot answer: the log's last lines carry no
// timestamp to measure from.
var ErrNoStamp = errors.New("no line of the log's last MiB starts with a timestamp (yyyy-mm-dd hh:mm:ss)")

const (
	// probe is how much of a log one step of the bisection reads.
	probe = 64 << 10
	// span is how much Since reads at once past the bisection, and how far
	// back it looks for the last stamped line.
	span = 1 << 20
)

// Since is where the lines of a log's last d start, by the log's own
// timestamps: d before its last stamped line (end is the log's size).
// Log4j's timestamps carry no time zone, so they are measured against one
// another, never against this host's clock. Lines without a stamp (a
// stack trace) go with the stamped line before them. The search is a
// bisection: a few probes, whatever the log's size. cutoff is the time
// the lines start at: the last stamp less d.
func Since(read ReadFunc, end int64, d time.Duration) (off int64, cutoff time.Time, err error) {
	last, ok, err := lastStamp(read, end)
	if err != nil {
		return 0, time.Time{}, err
	}
	if !ok {
		return 0, time.Time{}, ErrNoStamp
	}
	cutoff = last.Add(-d)
	lo, hi := int64(0), end // every stamped line before lo is older than cutoff
	for hi-lo > probe {
		mid := lo + (hi-lo)/2
		var at int64
		var t time.Time
		ok, err := stamps(read, mid, min(mid+probe, end), end, func(o int64, ts time.Time) bool {
			at, t = o, ts
			return true
		})
		if err != nil {
			return 0, cutoff, err
		}
		if ok && t.Before(cutoff) {
			lo = at + 1
		} else {
			hi = mid
		}
	}
	// Then line by line, each span read once.
	for pos := lo; pos < end; pos += span {
		ok, err := stamps(read, pos, min(pos+span, end), end, func(o int64, ts time.Time) bool {
			off = o
			return !ts.Before(cutoff)
		})
		if err != nil || ok {
			return off, cutoff, err
		}
	}
	return end, cutoff, nil
}

// stampLen is the length of the longest timestamp Stamp reads.
const stampLen int64 = int64(len("2006-01-02 15:04:05,000"))

// stamps calls fn with each stamped line that starts in [from, to), in
// order, until fn says stop (ok true); one read, a little past to, so
// that a line starting just before to has its whole stamp.
func stamps(read ReadFunc, from, to, end int64, fn func(off int64, t time.Time) (stop bool)) (ok bool, err error) {
	at := max(from-1, 0) // the byte before from says whether from starts a line
	b, err := read(at, min(to+stampLen, end)-at)
	if err != nil {
		return false, err
	}
	i := 0
	if from > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return false, nil
		}
		i = nl + 1
	}
	for i < len(b) && at+int64(i) < to {
		if t, ok := Stamp(b[i:]); ok && fn(at+int64(i), t) {
			return true, nil
		}
		nl := bytes.IndexByte(b[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return false, nil
}

// lastStamp is the timestamp of the last stamped line in the log's last MiB.
func lastStamp(read ReadFunc, end int64) (time.Time, bool, error) {
	start := max(end-span, 0)
	b, err := read(start, end-start)
	if err != nil {
		return time.Time{}, false, err
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	for len(b) > 0 {
		i := bytes.LastIndexByte(b, '\n')
		if i < 0 && start > 0 {
			break // a cut line
		}
		if t, ok := Stamp(b[i+1:]); ok {
			return t, true, nil
		}
		if i < 0 {
			break
		}
		b = b[:i]
	}
	return time.Time{}, false, nil
}

// Stamp reads the timestamp a log line starts with: log4j's
// "2006-01-02 15:04:05,000" (Flink's default), with a dot, a T or no
// fraction. The zone is unknown, so the time is read as UTC.
func Stamp(line []byte) (time.Time, bool) {
	const layout = "2006-01-02 15:04:05"
	if len(line) < len(layout) {
		return time.Time{}, false
	}
	var s [len(layout)]byte
	copy(s[:], line)
	if s[10] == 'T' {
		s[10] = ' '
	}
	t, err := time.Parse(layout, string(s[:]))
	if err != nil {
		return time.Time{}, false
	}
	if rest := line[len(layout):]; len(rest) >= 4 && (rest[0] == ',' || rest[0] == '.') {
		ms := 0
		for _, c := range rest[1:4] {
			if c < '0' || c > '9' {
				return t, true
			}
			ms = ms*10 + int(c-'0')
		}
		t = t.Add(time.Duration(ms) * time.Millisecond)
	}
	return t, true
}
