package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/internal/logtime"
)

// defaultLogTail is what `palink logs JOB LOG` prints without --tail,
// --tail-bytes, --since or --all: the log's last bytes, from a line start.
const defaultLogTail = 64 << 10

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
		off, _, err := logtime.Since(r.read, end, d)
		if errors.Is(err, logtime.ErrNoStamp) {
			return 0, fmt.Errorf("logs --since: %w", err)
		}
		return off, err
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
