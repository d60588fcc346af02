package cli

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/palink/palink/core/api"
)

// defaultLogTail is what `palink logs JOB LOG` prints without --tail,
// --tail-bytes, --since or --all: the log's last bytes, from a line start.
const defaultLogTail = 64 << 10

// logProbe is how much of a log one step of the --since search reads.
const logProbe = 64 << 10

// logWindow is the part of a log `palink logs` prints: the last lines, the
// last bytes, the last duration by the log's timestamps, or all of it.
type logWindow struct {
	lines int    // -1: not asked
	bytes string // "": not asked
	since string // "": not asked
	all   bool
}

// logStart resolves w to the offset of the first line to print.
func logStart(ctx context.Context, e *env, job string, ref api.LogRef, w logWindow) (int64, error) {
	asked := 0
	for _, b := range []bool{w.lines >= 0, w.bytes != "", w.since != "", w.all} {
		if b {
			asked++
		}
	}
	if asked > 1 {
		return 0, usageError("logs: give one of --tail, --tail-bytes, --since and --all")
	}
	if w.lines < -1 {
		return 0, usageError("logs --tail %d: want a number of lines, 0 or more", w.lines)
	}
	if w.all {
		return 0, nil
	}
	var d time.Duration
	if w.since != "" {
		var err error
		if d, err = time.ParseDuration(w.since); err != nil || d <= 0 {
			return 0, usageError("logs --since %q: want a duration such as 30s, 5m or 2h", w.since)
		}
	}
	n := int64(defaultLogTail)
	if w.bytes != "" {
		var err error
		if n, err = parseSize(w.bytes); err != nil {
			return 0, usageError("logs --tail-bytes: %v", err)
		}
	}
	r := logRanger{ctx: ctx, e: e, job: job, ref: ref}
	end, err := r.end()
	if err != nil {
		return 0, err
	}
	switch {
	case w.lines >= 0:
		return r.lastLines(end, int64(w.lines))
	case w.since != "":
		return r.since(end, d)
	}
	return r.lineStartAfter(max(end-n, 0), end)
}

// logRanger reads ranges of one log through the service.
type logRanger struct {
	ctx context.Context
	e   *env
	job string
	ref api.LogRef
}

// end is the log's size: where its last chunk ends.
func (r logRanger) end() (int64, error) {
	ch, err := r.e.svc.ReadLog(r.ctx, api.LogRequest{JobRef: r.job, Log: r.ref, Tail: true, Limit: 1})
	if err != nil {
		return 0, err
	}
	if ch.Size >= 0 {
		return ch.Size, nil
	}
	return ch.Offset + int64(len(ch.Data)), nil
}

// read returns the bytes [off, off+n) of the log, fewer at its end, in as
// many reads as the service needs.
func (r logRanger) read(off, n int64) ([]byte, error) {
	var out []byte
	for int64(len(out)) < n {
		at := off + int64(len(out))
		ch, err := r.e.svc.ReadLog(r.ctx, api.LogRequest{JobRef: r.job, Log: r.ref, Offset: at, Limit: min(n-int64(len(out)), api.MaxLogChunk)})
		if err != nil {
			return nil, err
		}
		if len(ch.Data) == 0 {
			break
		}
		out = append(out, ch.Data...)
	}
	return out, nil
}

// lineStartAfter is the first line start at or after off (end when none).
func (r logRanger) lineStartAfter(off, end int64) (int64, error) {
	if off == 0 {
		return 0, nil
	}
	for pos := off - 1; pos < end; {
		b, err := r.read(pos, min(api.MaxLogChunk, end-pos))
		if err != nil {
			return 0, err
		}
		if len(b) == 0 {
			break
		}
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return pos + int64(i) + 1, nil
		}
		pos += int64(len(b))
	}
	return end, nil
}

// lastLines is where the log's last n lines start, as tail -n counts them:
// a last line without a newline is a line.
func (r logRanger) lastLines(end, n int64) (int64, error) {
	if n == 0 {
		return end, nil
	}
	seen := int64(0) // newlines that end one of the last lines
	for pos := end; pos > 0; {
		start := max(pos-api.MaxLogChunk, 0)
		b, err := r.read(start, pos-start)
		if err != nil {
			return 0, err
		}
		if int64(len(b)) != pos-start {
			return 0, fmt.Errorf("read the log's end: it shrank under the read (rotated?)")
		}
		for i := len(b) - 1; i >= 0; i-- {
			if b[i] != '\n' {
				continue
			}
			if start+int64(i) == end-1 {
				continue // the last line's own newline
			}
			seen++
			if seen == n {
				return start + int64(i) + 1, nil
			}
		}
		pos = start
	}
	return 0, nil
}

// since is where the lines of the log's last d start, by the log's own
// timestamps: d before its last stamped line. Log4j's timestamps carry no
// time zone, so they are measured against one another, never against this
// host's clock. Lines without a stamp (a stack trace) go with the stamped
// line before them. The search is a bisection: a few probes, whatever the
// log's size.
func (r logRanger) since(end int64, d time.Duration) (int64, error) {
	last, ok, err := r.lastStamp(end)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("logs --since: no line of the log's last MiB starts with a timestamp (yyyy-mm-dd hh:mm:ss)")
	}
	cutoff := last.Add(-d)
	lo, hi := int64(0), end // every stamped line before lo is older than cutoff
	for hi-lo > logProbe {
		mid := lo + (hi-lo)/2
		off, t, ok, err := r.firstStamp(mid, min(mid+logProbe, end))
		if err != nil {
			return 0, err
		}
		if ok && t.Before(cutoff) {
			lo = off + 1
		} else {
			hi = mid
		}
	}
	for pos := lo; pos < end; {
		off, t, ok, err := r.firstStamp(pos, min(pos+api.MaxLogChunk, end))
		if err != nil {
			return 0, err
		}
		if !ok {
			pos += api.MaxLogChunk
			continue
		}
		if !t.Before(cutoff) {
			return off, nil
		}
		pos = off + 1
	}
	return end, nil
}

// firstStamp finds the first stamped line that starts in [from, to).
func (r logRanger) firstStamp(from, to int64) (int64, time.Time, bool, error) {
	at := max(from-1, 0) // the byte before from says whether from starts a line
	b, err := r.read(at, to-at)
	if err != nil {
		return 0, time.Time{}, false, err
	}
	i := 0
	if from > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return 0, time.Time{}, false, nil
		}
		i = nl + 1
	}
	for i < len(b) {
		if t, ok := logStamp(b[i:]); ok {
			return at + int64(i), t, true, nil
		}
		nl := bytes.IndexByte(b[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return 0, time.Time{}, false, nil
}

// lastStamp is the timestamp of the last stamped line in the log's last MiB.
func (r logRanger) lastStamp(end int64) (time.Time, bool, error) {
	start := max(end-api.MaxLogChunk, 0)
	b, err := r.read(start, end-start)
	if err != nil {
		return time.Time{}, false, err
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	for len(b) > 0 {
		i := bytes.LastIndexByte(b, '\n')
		if i < 0 && start > 0 {
			break // a cut line
		}
		if t, ok := logStamp(b[i+1:]); ok {
			return t, true, nil
		}
		if i < 0 {
			break
		}
		b = b[:i]
	}
	return time.Time{}, false, nil
}

// logStamp reads the timestamp a log line starts with: log4j's
// "2006-01-02 15:04:05,000" (Flink's default), with a dot, a T or no
// fraction. The zone is unknown, so the time is read as UTC.
func logStamp(line []byte) (time.Time, bool) {
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
