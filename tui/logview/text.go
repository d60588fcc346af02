package logview

import (
	"bytes"
	"context"
	"errors"

	"github.com/palink/palink/core/api"
)

// textLog is text palink already holds, served as a log: a thread dump is
// read and searched through the viewer's own chunked calls, so that it
// scrolls, searches and highlights as any log does.
type textLog struct{ data []byte }

// textService answers the viewer's log calls from a textLog and leaves
// every other call to the service.
type textService struct {
	Service
	text *textLog
}

// ReadLog serves a chunk of the text, as the service serves a file.
func (s textService) ReadLog(_ context.Context, r api.LogRequest) (api.LogChunk, error) {
	data := s.text.data
	limit := r.Limit
	if limit <= 0 {
		limit = api.DefaultLogChunk
	}
	limit = min(limit, api.MaxLogChunk)
	size := int64(len(data))
	off := min(max(r.Offset, 0), size)
	if r.Tail {
		off = max(size-limit, 0)
	}
	end := min(off+limit, size)
	return api.LogChunk{Data: bytes.Clone(data[off:end]), Offset: off, Size: size, More: end < size}, nil
}

// FindInLog scans the text's lines from s.From, as the service does.
func (s textService) FindInLog(_ context.Context, q api.LogSearch) (api.LogMatch, error) {
	data := s.text.data
	size := int64(len(data))
	lineAt := func(st int64) []byte {
		end := bytes.IndexByte(data[st:], '\n')
		if end < 0 {
			return data[st:]
		}
		return data[st : st+int64(end)]
	}
	var starts []int64
	for off := int64(0); off < size; {
		starts = append(starts, off)
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += int64(i) + 1
	}
	try := func(st int64) (api.LogMatch, bool) {
		line := lineAt(st)
		a, b, ok := q.Query.Match(line)
		return api.LogMatch{Found: ok, Offset: st, Line: string(line), Start: a, End: b, Size: size}, ok
	}
	if q.Backward {
		for i := len(starts) - 1; i >= 0; i-- {
			if starts[i] < q.From {
				if m, ok := try(starts[i]); ok {
					return m, nil
				}
			}
		}
	} else {
		for _, st := range starts {
			if st >= q.From {
				if m, ok := try(st); ok {
					return m, nil
				}
			}
		}
	}
	return api.LogMatch{Exhausted: true, Size: size}, nil
}

// errTextNotSaved is why ctrl-s does nothing for a text: palink holds it,
// and the CLI writes it (palink diagnose tm --thread-dump).
var errTextNotSaved = errors.New("this view is not a file: `palink diagnose` prints it to save")

// SaveLog refuses: see errTextNotSaved.
func (s textService) SaveLog(context.Context, api.SaveLogRequest) (api.SavedLog, error) {
	return api.SavedLog{}, errTextNotSaved
}
