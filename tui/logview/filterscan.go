package logview

import (
	"bytes"
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// The filter's scan: the lines a query matches are found by reading the
// log a chunk at a time (ReadLog, never more than a chunk and one line
// held), newest first, back from the end to the floor (the start, or
// since's first line), one step of filterStepBytes per Cmd so that the
// viewer shows progress and a new query or esc drops the rest; then,
// while following, forward from where the scan began. Matching is
// api.LogQuery.Match, the one definition of a match.

const (
	// filterStepBytes is what one step of the filter's scan reads.
	filterStepBytes = 8 << 20
	// filterHeld caps the bytes of matching lines the filter holds: the
	// newest of them when more match.
	filterHeld = logWindowMax
	// filterLineMax caps the bytes kept of one matching line (the viewer
	// shows maxLineShown of it).
	filterLineMax = maxLineShown + 1
	// filterOverlap is how many bytes before the scan's end a forward
	// step reads again, to see that the file goes on from them.
	filterOverlap = 64
)

// filterLine is a matching line: where it starts in the file and its
// text (cut to filterLineMax).
type filterLine struct {
	off  int64
	text []byte
}

// filterStep is one step of the scan, and what the next goes on from.
type filterStep struct {
	req   api.LogRequest // the log: JobRef and Log
	query api.LogQuery
	// forward: a follow step, from hi; else back from lo.
	forward bool
	// lo: the lines that start at or after lo were checked, back to the
	// floor; carry is the end of the line that holds lo-1 (read, not yet
	// whole) and carryHit says that a part of it dropped matched.
	lo, floor int64
	carry     []byte
	carryHit  bool
	// hi is where the scan began (where the follow steps go on from);
	// tail is the file's last bytes before hi, as last read; -1 before
	// the first step.
	hi   int64
	tail []byte
	// room is how many bytes of matching lines the viewer still holds.
	room int
}

// filterResult is what a step found.
type filterResult struct {
	next filterStep
	// lines are the matching lines found, in the file's order.
	lines []filterLine
	// scanned counts the bytes the step read; size is the file's size.
	scanned, size int64
	// done: a backward scan reached the floor; full: it stopped because
	// the viewer holds as much as it may.
	done, full bool
	// rotated: the file is no longer the one scanned.
	rotated bool
}

// logReader reads one chunk of the log.
type logReader func(ctx context.Context, r api.LogRequest) (api.LogChunk, error)

// readSpan reads the bytes [from, to) of the log, in as many reads as it
// takes; fewer at the end of a file that shrank.
func readSpan(ctx context.Context, read logReader, req api.LogRequest, from, to int64) ([]byte, int64, error) {
	out := make([]byte, 0, to-from)
	size := int64(-1)
	for at := from; at < to; {
		req.Offset, req.Tail, req.Limit = at, false, min(to-at, api.MaxLogChunk)
		ch, err := read(ctx, req)
		if err != nil {
			return nil, size, err
		}
		size = ch.Size
		if len(ch.Data) == 0 || ch.Offset != at {
			break
		}
		out = append(out, ch.Data...)
		at += int64(len(ch.Data))
	}
	return out, size, nil
}

// filterScan runs one step.
func filterScan(ctx context.Context, read logReader, s filterStep) (filterResult, error) {
	if s.forward {
		return filterForward(ctx, read, s)
	}
	return filterBack(ctx, read, s)
}

// filterBack checks lines back from s.lo, newest first, until it has
// read filterStepBytes, filled the room or reached the floor.
func filterBack(ctx context.Context, read logReader, s filterStep) (filterResult, error) {
	res := filterResult{size: -1}
	first := s.hi < 0
	budget := int64(filterStepBytes)
	if first {
		// A chunk first, so that the newest matches show at once.
		budget = api.MaxLogChunk
		// The first step: the scan begins at the file's end.
		req := s.req
		req.Tail, req.Limit = true, filterOverlap
		ch, err := read(ctx, req)
		if err != nil {
			return res, err
		}
		end := ch.Offset + int64(len(ch.Data))
		s.lo, s.hi, s.tail = end, end, ch.Data
	}
	var found []filterLine // newest first
	take := func(off int64, line []byte, hit bool) bool {
		if !hit {
			if _, _, ok := s.query.Match(line); !ok {
				return true
			}
		}
		text := bytes.Clone(line[:min(len(line), filterLineMax)])
		found = append(found, filterLine{off: off, text: text})
		s.room -= len(text) + 1
		return s.room > 0
	}
	for res.scanned < budget && s.lo > s.floor {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		start := max(s.lo-api.MaxLogChunk, s.floor)
		data, size, err := readSpan(ctx, read, s.req, start, s.lo)
		if err != nil {
			return res, err
		}
		res.size = size
		if int64(len(data)) != s.lo-start {
			res.rotated = true
			return res, nil
		}
		res.scanned += int64(len(data))
		if first {
			// A last line without its newline is being written: it is
			// checked now, and the follow steps read it again from its
			// start (the viewer puts the line whole in its place).
			first = false
			h := len(data)
			if nl := bytes.LastIndexByte(data, '\n'); h > 0 && data[h-1] != '\n' && nl >= 0 {
				h = nl + 1
			}
			s.hi, s.tail = start+int64(h), bytes.Clone(data[max(h-filterOverlap, 0):h])
		}
		// The lines that end in this chunk, newest first: the last one
		// goes on in carry.
		end := len(data) // data[:end] is what is left to check
		lineEnd := append(data[:end:end], s.carry...)
		hit := s.carryHit
		for {
			nl := bytes.LastIndexByte(data[:end], '\n')
			if nl < 0 {
				break
			}
			var line []byte
			if end == len(data) {
				line = lineEnd[nl+1:]
			} else {
				line, hit = data[nl+1:end], false
			}
			if !take(start+int64(nl)+1, line, hit) {
				res.full = true
				s.lo = start + int64(nl) + 1
				break
			}
			end = nl
		}
		if res.full {
			break
		}
		// What precedes the first newline is the end of an older line.
		carry := lineEnd
		if end < len(data) {
			carry, hit = data[:end], false
		}
		if len(carry) > filterLineMax {
			// A line longer than what is kept of one: remember whether
			// the part let go matched, keep its start.
			if _, _, ok := s.query.Match(carry); ok {
				hit = true
			}
			carry = carry[:filterLineMax]
		}
		// A copy: the chunk is let go.
		s.carry, s.carryHit, s.lo = bytes.Clone(carry), hit, start
		if start == s.floor {
			// The floor starts a line: the carry is whole.
			if !take(start, s.carry, s.carryHit) {
				res.full = true
			}
			s.carry, s.carryHit = nil, false
		}
	}
	res.done = s.lo <= s.floor && !res.full
	res.next = s
	for i, j := 0, len(found)-1; i < j; i, j = i+1, j-1 {
		found[i], found[j] = found[j], found[i]
	}
	res.lines = found
	return res, nil
}

// filterForward checks the lines the file gained after hi: whole lines
// only, but for one longer than a chunk (checked cut). It reads again the
// bytes before hi: if they are gone or differ, the file was rotated.
func filterForward(ctx context.Context, read logReader, s filterStep) (filterResult, error) {
	res := filterResult{size: -1}
	back := int64(len(s.tail))
	req := s.req
	req.Offset, req.Limit = s.hi-back, api.MaxLogChunk
	ch, err := read(ctx, req)
	if err != nil {
		return res, err
	}
	res.size = ch.Size
	if (ch.Size >= 0 && ch.Size < s.hi) || ch.Offset != s.hi-back || int64(len(ch.Data)) < back || !bytes.Equal(ch.Data[:back], s.tail) {
		res.rotated = true
		return res, nil
	}
	data := ch.Data[back:]
	res.scanned = int64(len(data))
	used := bytes.LastIndexByte(data, '\n') + 1
	if used == 0 && int64(len(ch.Data)) >= api.MaxLogChunk {
		used = len(data) // one line longer than a chunk: checked cut
	}
	for at := 0; at < used; {
		nl := bytes.IndexByte(data[at:used], '\n')
		e := used
		if nl >= 0 {
			e = at + nl
		}
		if _, _, ok := s.query.Match(data[at:e]); ok {
			res.lines = append(res.lines, filterLine{off: s.hi + int64(at), text: bytes.Clone(data[at:min(e, at+filterLineMax)])})
		}
		at = e + 1
	}
	s.hi += int64(used)
	keep := min(int64(used)+back, filterOverlap)
	s.tail = bytes.Clone(ch.Data[back+int64(used)-keep : back+int64(used)])
	res.next = s
	res.done = !ch.More
	return res, nil
}

// logFilteredMsg is a step's answer.
type logFilteredMsg struct {
	viewer, seq int
	res         filterResult
	err         error
}

// filterCmd runs one step under ctx, which a new query, esc or leaving
// the viewer cancels.
func filterCmd(c kit.Call[Service], ctx context.Context, viewer, seq int, s filterStep) tea.Cmd {
	c.Ctx = ctx
	return func() tea.Msg {
		var res filterResult
		err := c.With(func(ctx context.Context) (err error) {
			res, err = filterScan(ctx, c.Service.ReadLog, s)
			return err
		})
		return logFilteredMsg{viewer: viewer, seq: seq, res: res, err: err}
	}
}
