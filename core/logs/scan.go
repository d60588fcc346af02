package logs

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/palink/palink/core/api"
)

// maxMatchLine caps LogMatch.Line.
const maxMatchLine = 4 << 10

// scanLog is FindInLog over any reader: forward or backward from s.From,
// a chunk at a time, for at most s.MaxScan bytes. It holds one chunk and
// one unfinished line at a time.
func scanLog(ctx context.Context, read ReadFunc, s api.LogSearch) (api.LogMatch, error) {
	if s.Query == (api.LogQuery{}) {
		return api.LogMatch{}, errors.New("empty query")
	}
	budget := s.MaxScan
	if budget <= 0 {
		budget = api.DefaultLogScan
	}
	if s.Backward {
		return scanBackward(ctx, read, s.Query, max(s.From, 0), budget)
	}
	return scanForward(ctx, read, s.Query, max(s.From, 0), budget)
}

func found(q api.LogQuery, line []byte, off int64) (api.LogMatch, bool) {
	start, end, ok := q.Match(line)
	if !ok {
		return api.LogMatch{}, false
	}
	m := api.LogMatch{Found: true, Offset: off, Start: start, End: end}
	if len(line) > maxMatchLine {
		line = line[:maxMatchLine]
		m.End = min(m.End, maxMatchLine)
		m.Start = min(m.Start, m.End)
	}
	m.Line = string(line)
	return m, true
}

func scanForward(ctx context.Context, read ReadFunc, q api.LogQuery, from, budget int64) (api.LogMatch, error) {
	var (
		buf     []byte // the unfinished line, then the new chunk
		bufOff  = from // file offset of buf[0]
		pos     = from // next byte to read
		scanned int64
		size    = int64(-1)
		lines   int64 // lines that start at or after from, checked
		// partial: buf starts inside a line that began before from (or
		// one too long to hold), whose rest is skipped, not matched.
		partial bool
	)
	if from > 0 {
		// Read the byte before from: a newline there makes from a line
		// start; anything else puts from inside a line, skipped.
		bufOff, pos, partial = from-1, from-1, true
	}
	// The budget is soft: a call ends at a line boundary past it, so that
	// every call makes progress whatever the budget.
	for scanned < budget || bufOff <= from {
		if err := ctx.Err(); err != nil {
			return api.LogMatch{}, err
		}
		ch, err := read(ctx, pos, false, api.MaxLogChunk)
		if err != nil {
			return api.LogMatch{}, err
		}
		size = ch.Size
		if ch.Offset != pos && len(ch.Data) > 0 {
			return api.LogMatch{}, fmt.Errorf("asked for offset %d, got %d", pos, ch.Offset)
		}
		buf = append(buf, ch.Data...)
		pos += int64(len(ch.Data))
		scanned += int64(len(ch.Data))
		start := 0
		for {
			i := indexByteFrom(buf, '\n', start)
			if i < 0 {
				break
			}
			if partial {
				partial = false
			} else if m, ok := found(q, buf[start:i], bufOff+int64(start)); ok {
				m.Size, m.Lines = size, lines
				return m, nil
			} else {
				lines++
			}
			start = i + 1
		}
		n := copy(buf, buf[start:])
		buf = buf[:n]
		bufOff += int64(start)
		end := len(ch.Data) == 0 || !ch.More
		if end || len(buf) > api.MaxLogChunk {
			// The last line has no newline, or a line is too long to
			// hold: match what there is, and skip the rest of the line.
			if !partial && len(buf) > 0 {
				if m, ok := found(q, buf, bufOff); ok {
					m.Size, m.Lines = size, lines
					return m, nil
				}
				lines++
			}
			if end {
				return api.LogMatch{Exhausted: true, Next: pos, Size: size, Lines: lines}, nil
			}
			bufOff += int64(len(buf))
			buf = buf[:0]
			partial = true
		}
	}
	return api.LogMatch{Next: bufOff, Size: size, Lines: lines}, nil
}

func indexByteFrom(b []byte, c byte, from int) int {
	i := slices.Index(b[from:], c)
	if i < 0 {
		return -1
	}
	return from + i
}

func scanBackward(ctx context.Context, read ReadFunc, q api.LogQuery, from, budget int64) (api.LogMatch, error) {
	var (
		carry    []byte // the start of the line that continues after pos
		pos      = from // bytes before pos are still to read
		resolved = from // every line starting at or after it was checked
		scanned  int64
		size     = int64(-1)
	)
	for (scanned < budget || resolved == from) && pos > 0 {
		if err := ctx.Err(); err != nil {
			return api.LogMatch{}, err
		}
		start := max(pos-api.MaxLogChunk, 0)
		data, sz, err := readFull(ctx, read, start, pos-start)
		if err != nil {
			return api.LogMatch{}, err
		}
		size = sz
		if int64(len(data)) != pos-start {
			// The file shrank (rotated) under the search.
			return api.LogMatch{Exhausted: true, Next: resolved, Size: size}, nil
		}
		scanned += pos - start
		buf := append(data, carry...)
		end := len(buf)
		for {
			i := lastIndexByteBefore(buf, '\n', end)
			if i < 0 {
				break
			}
			off := start + int64(i) + 1
			if m, ok := found(q, buf[i+1:end], off); ok {
				m.Size = size
				return m, nil
			}
			resolved = off
			end = i
		}
		pos = start
		carry = append(carry[:0], buf[:end]...)
		if pos == 0 || len(carry) > api.MaxLogChunk {
			if m, ok := found(q, carry, pos); ok {
				m.Size = size
				return m, nil
			}
			resolved = pos
			carry = carry[:0]
		}
	}
	return api.LogMatch{Next: resolved, Exhausted: resolved == 0, Size: size}, nil
}

// readFull reads n bytes at off, in as many reads as the reader needs; it
// returns fewer only at the end of the file.
func readFull(ctx context.Context, read ReadFunc, off, n int64) ([]byte, int64, error) {
	var out []byte
	size := int64(-1)
	for int64(len(out)) < n {
		at := off + int64(len(out))
		ch, err := read(ctx, at, false, n-int64(len(out)))
		if err != nil {
			return nil, size, err
		}
		size = ch.Size
		if len(ch.Data) == 0 {
			break
		}
		if ch.Offset != at {
			return nil, size, fmt.Errorf("asked for offset %d, got %d", at, ch.Offset)
		}
		if out == nil && int64(len(ch.Data)) == n {
			return ch.Data, size, nil
		}
		out = append(out, ch.Data...)
	}
	return out, size, nil
}

func lastIndexByteBefore(b []byte, c byte, end int) int {
	for i := end - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}
