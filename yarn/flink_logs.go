package yarn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-resty/resty/v2"
)

// LogFile names a log of a JobManager or TaskManager. These are plain-text
// routes Flink serves outside its OpenAPI spec.
type LogFile struct {
	// TaskManager is the TaskManager id (on YARN, its container id); empty
	// for the JobManager.
	TaskManager string
	// Name is a file name from JobManagerLogs/TaskManagerLogs; empty for the
	// main log (…/log).
	Name string
	// Stdout selects the process's standard output (…/stdout) instead.
	Stdout bool
}

func (l LogFile) path() string {
	p := "jobmanager"
	if l.TaskManager != "" {
		p = "taskmanagers/" + pathEscape(l.TaskManager)
	}
	switch {
	case l.Stdout:
		return p + "/stdout"
	case l.Name != "":
		return p + "/logs/" + pathEscape(l.Name)
	}
	return p + "/log"
}

// String names the file for messages ("TaskManager c_01 log taskmanager.log").
func (l LogFile) String() string {
	who := "JobManager"
	if l.TaskManager != "" {
		who = "TaskManager " + l.TaskManager
	}
	switch {
	case l.Stdout:
		return who + " stdout"
	case l.Name != "":
		return who + " log " + l.Name
	}
	return who + " log"
}

// OpenLog streams a whole log file; the caller must Close the reader. Only
// ctx bounds the read, so a huge log can be consumed piece by piece.
func (c *Flink) OpenLog(ctx context.Context, f LogFile) (io.ReadCloser, error) {
	resp, err := c.openLog(ctx, f, "")
	if err != nil {
		return nil, err
	}
	return resp.stream, nil
}

func (c *Flink) openLog(ctx context.Context, f LogFile, rangeHeader string) (*response, error) {
	r := request{method: http.MethodGet, path: f.path(), stream: true, prepare: func(req *resty.Request) {
		req.SetHeader("Accept", "text/plain, */*")
		if rangeHeader != "" {
			req.SetHeader("Range", rangeHeader)
			// A range of a gzip-encoded body could not be decompressed.
			req.SetHeader("Accept-Encoding", "identity")
		}
	}}
	resp, err := c.t.do(ctx, c.readURL(), r)
	if err != nil {
		return nil, err
	}
	if resp.status == http.StatusOK || resp.status == http.StatusPartialContent {
		return resp, nil
	}
	if resp.stream != nil {
		resp.stream.Close()
	}
	if resp.status == http.StatusRequestedRangeNotSatisfiable {
		return resp, nil
	}
	return nil, respError(r.method, resp)
}

// DefaultLogLimit is the most ReadLog returns when LogRange.Limit is 0.
const DefaultLogLimit = 1 << 20

// LogRange selects the part of a log ReadLog returns.
type LogRange struct {
	// Offset is where to start, from the beginning of the file. Ignored
	// when Tail is set.
	Offset int64
	// Tail selects the last Limit bytes instead.
	Tail bool
	// Limit caps the bytes returned; 0 means DefaultLogLimit.
	Limit int64
}

// LogChunk is part of a log file.
type LogChunk struct {
	Data   []byte
	Offset int64 // position of Data[0] in the file
	Size   int64 // the file's size, or -1 when the server did not say
	// More reports bytes after the chunk (also when unknown but likely).
	More bool
}

// ReadLog reads at most r.Limit bytes of a log: from r.Offset, or the
// tail. It asks for an HTTP range; when the server (or the YARN proxy, which
// drops the Range header) sends the whole file instead, it skips and
// discards on the fly, so memory stays bounded by Limit whatever the size.
func (c *Flink) ReadLog(ctx context.Context, f LogFile, r LogRange) (LogChunk, error) {
	limit := r.Limit
	if limit <= 0 {
		limit = DefaultLogLimit
	}
	offset := max(r.Offset, 0)
	rh := fmt.Sprintf("bytes=%d-%d", offset, offset+limit-1)
	if r.Tail {
		rh = fmt.Sprintf("bytes=-%d", limit)
	}
	resp, err := c.openLog(ctx, f, rh)
	if err != nil {
		return LogChunk{}, fmt.Errorf("read %s: %w", f, err)
	}
	if resp.status == http.StatusRequestedRangeNotSatisfiable {
		// The offset is at or past the end: nothing (new) to read.
		size := int64(-1)
		if _, _, total, ok := parseContentRange(resp.header.Get("Content-Range")); ok {
			size = total
		}
		return LogChunk{Offset: offset, Size: size}, nil
	}
	defer resp.stream.Close()

	if resp.status == http.StatusPartialContent {
		cr := resp.header.Get("Content-Range")
		start, _, total, ok := parseContentRange(cr)
		if !ok && strings.HasSuffix(cr, "/0") {
			// An empty file has no byte to range over; some servers still
			// answer 206 with a span like "0--1".
			return LogChunk{Size: 0}, nil
		}
		if !ok {
			return LogChunk{}, fmt.Errorf("read %s: %w", f, &DecodeError{Method: http.MethodGet, URL: resp.url,
				Status: resp.status, What: "Content-Range", Err: errors.New("missing or malformed"),
				Excerpt: cr})
		}
		data, err := readUpTo(resp.stream, limit)
		if err != nil {
			return LogChunk{}, readErr(f, resp, err)
		}
		ch := LogChunk{Data: data, Offset: start, Size: total}
		ch.More = total < 0 || start+int64(len(data)) < total
		return ch, nil
	}

	// 200: the whole file is coming.
	size := int64(-1)
	if cl := resp.header.Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil && n >= 0 {
			size = n
		}
	}
	if r.Tail && size < 0 {
		data, total, err := tail(resp.stream, limit)
		if err != nil {
			return LogChunk{}, readErr(f, resp, err)
		}
		return LogChunk{Data: data, Offset: total - int64(len(data)), Size: total}, nil
	}
	if r.Tail {
		offset = max(size-limit, 0)
	}
	skipped, err := io.CopyN(io.Discard, resp.stream, offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return LogChunk{}, readErr(f, resp, err)
	}
	if skipped < offset { // the file is shorter than the offset
		return LogChunk{Offset: offset, Size: skipped}, nil
	}
	data, err := readUpTo(resp.stream, limit+1)
	if err != nil {
		return LogChunk{}, readErr(f, resp, err)
	}
	ch := LogChunk{Data: data, Offset: offset, Size: size}
	if int64(len(data)) > limit {
		ch.Data, ch.More = data[:limit], true
	} else if size < 0 {
		ch.Size = offset + int64(len(data))
	}
	if size >= 0 {
		ch.More = offset+int64(len(ch.Data)) < size
	}
	return ch, nil
}

func readErr(f LogFile, resp *response, err error) error {
	return fmt.Errorf("read %s: %w", f, &RequestError{Method: http.MethodGet, URL: resp.url,
		Kind: ErrUnavailable, Err: err})
}

// readUpTo reads until EOF or n bytes.
func readUpTo(r io.Reader, n int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, n))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// tail reads r to the end keeping only its last n bytes in a ring, and
// returns them with the total length read.
func tail(r io.Reader, n int64) ([]byte, int64, error) {
	ring := make([]byte, n)
	var total int64
	buf := make([]byte, 32<<10)
	for {
		k, err := r.Read(buf)
		chunk := buf[:k]
		for len(chunk) > 0 {
			pos := total % n
			m := copy(ring[pos:], chunk)
			chunk = chunk[m:]
			total += int64(m)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, total, err
		}
	}
	if total <= n {
		return ring[:total], total, nil
	}
	pos := total % n
	out := make([]byte, 0, n)
	out = append(out, ring[pos:]...)
	out = append(out, ring[:pos]...)
	return out, total, nil
}

// parseContentRange reads "bytes START-END/TOTAL" (TOTAL may be "*", then
// -1) and "bytes */TOTAL".
func parseContentRange(h string) (start, end, total int64, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(h), "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	span, tot, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, 0, false
	}
	total = -1
	if tot != "*" {
		t, err := strconv.ParseInt(tot, 10, 64)
		if err != nil {
			return 0, 0, 0, false
		}
		total = t
	}
	if span == "*" {
		return 0, -1, total, true
	}
	a, b, found := strings.Cut(span, "-")
	if !found {
		return 0, 0, 0, false
	}
	s, err1 := strconv.ParseInt(a, 10, 64)
	e, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || s < 0 || e < s {
		return 0, 0, 0, false
	}
	return s, e, total, true
}
