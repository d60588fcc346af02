package yarn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
)

// ContainerLogs reads YARN container logs through one of two servers that
// answer the same paths (Hadoop's NMWebServices and LogServlet):
//
//   - a NodeManager, for the containers of a running application:
//     http://<nodeHttpAddress>/ws/v1/node (NodeManagerBase);
//   - the log server, for an application that ended and whose logs were
//     aggregated: the RM's yarn.log.server.web-service.url, usually the
//     timeline server's http://host:8188/ws/v1/applicationhistory (or the
//     MapReduce JobHistory server's /ws/v1/history).
//
// Below the base, GET containers/{id}/logs lists a container's log files
// (ContainerLogsInfo, LOCAL from the NodeManager's disks and AGGREGATED
// from HDFS), and GET containers/{id}/logs/{file}?size=N returns a file as
// plain text framed by a header ("LogType:…", "LogLength:…",
// "LogContents:") and a trailer ("End of LogType:…"). size > 0 asks for the
// first N bytes, size < 0 for the last -N: the servers take no offset, so a
// read from the middle of a file discards what comes before it as it
// streams, never holding more than the chunk asked for.
//
// yarn.log.server.url, by contrast, is the JobHistory server's HTML page
// (/jobhistory/logs), for browsers: palink does not read it.
type ContainerLogs struct {
	t    *transport
	base *url.URL
}

// NewContainerLogs makes a client of a NodeManager or log server at base.
func NewContainerLogs(base string, o Options) (*ContainerLogs, error) {
	t, err := newTransport(o, true)
	if err != nil {
		return nil, fmt.Errorf("new container log client: %w", err)
	}
	return (&ContainerLogs{t: t}).WithBase(base)
}

// WithBase returns a client of another server that shares this one's
// options and connections.
func (c *ContainerLogs) WithBase(base string) (*ContainerLogs, error) {
	u, err := parseBase(base)
	if err != nil {
		return nil, fmt.Errorf("container log server: %w", err)
	}
	return &ContainerLogs{t: c.t, base: u}, nil
}

// Base is the server's base URL.
func (c *ContainerLogs) Base() string { return redactURL(c.base) }

// NodeManagerBase is the web services base of the NodeManager at a node's
// HTTP address as the RM gives it ("host:8042" or "http://host:8042").
func NodeManagerBase(nodeHTTPAddress string) string {
	a := strings.TrimRight(strings.TrimSpace(nodeHTTPAddress), "/")
	if a == "" {
		return ""
	}
	if !strings.Contains(a, "://") {
		a = "http://" + a
	}
	return a + "/ws/v1/node"
}

// Log aggregation types of ContainerLogFiles.
const (
	LogLocal      = "LOCAL"
	LogAggregated = "AGGREGATED"
)

// ContainerLogFiles is the log files of one container at one place
// (ContainerLogsInfo).
type ContainerLogFiles struct {
	ContainerID string
	NodeID      string
	// Aggregation is LogLocal (the NodeManager's disks) or LogAggregated.
	Aggregation string
	Files       []ContainerLogFile
}

// ContainerLogFile is one file (ContainerLogFileInfo). Size is -1 when the
// server did not say; Modified is the server's text (Times.format).
type ContainerLogFile struct {
	Name     string
	Size     int64
	Modified string
}

// Files lists a container's log files. nodeID is the node the container
// ran on (the log server's nm.id; ignored by a NodeManager; optional).
func (c *ContainerLogs) Files(ctx context.Context, containerID, nodeID string) ([]ContainerLogFiles, error) {
	r := request{method: http.MethodGet, path: "containers/" + pathEscape(containerID) + "/logs", query: nmQuery(nodeID)}
	resp, err := c.t.do(ctx, c.base, r)
	if err != nil {
		return nil, err
	}
	if err := expect(r.method, resp, http.StatusOK); err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := decode(r.method, resp, "container log list", &raw); err != nil {
		return nil, err
	}
	out, err := parseContainerLogsInfo(raw)
	if err != nil {
		return nil, &DecodeError{Method: r.method, URL: resp.url, Status: resp.status, What: "container log list",
			Err: err, Excerpt: excerpt(resp.body, 200)}
	}
	return out, nil
}

func nmQuery(nodeID string) url.Values {
	if nodeID == "" {
		return nil
	}
	return url.Values{"nm.id": {nodeID}}
}

// containerLogsInfoWire is one ContainerLogsInfo as Jersey renders it: the
// file list is an array, or a lone object when it has one element.
type containerLogsInfoWire struct {
	Files       listOf[containerLogFileWire] `json:"containerLogInfo"`
	Aggregation string                       `json:"logAggregationType"`
	ContainerID string                       `json:"containerId"`
	NodeID      string                       `json:"nodeId"`
}

type containerLogFileWire struct {
	FileName         string     `json:"fileName"`
	FileSize         flexString `json:"fileSize"` // a string in Hadoop's DAO
	LastModifiedTime string     `json:"lastModifiedTime"`
}

// parseContainerLogsInfo reads the list in each shape Hadoop has sent: a
// bare array; {"containerLogsInfo": object or array} (Jersey 1, Hadoop
// 3.3); {"containerLogsInfoes": {"containerLogsInfo": …}} (Jersey 2,
// Hadoop 3.4+).
func parseContainerLogsInfo(raw json.RawMessage) ([]ContainerLogFiles, error) {
	raw = bytes.TrimSpace(raw)
	var list listOf[containerLogsInfoWire]
	switch {
	case len(raw) > 0 && raw[0] == '[':
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
	default:
		var w struct {
			Info  *listOf[containerLogsInfoWire] `json:"containerLogsInfo"`
			Infoe *struct {
				Info listOf[containerLogsInfoWire] `json:"containerLogsInfo"`
			} `json:"containerLogsInfoes"`
		}
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, err
		}
		switch {
		case w.Info != nil:
			list = *w.Info
		case w.Infoe != nil:
			list = w.Infoe.Info
		default:
			return nil, errors.New(`no "containerLogsInfo"`)
		}
	}
	out := make([]ContainerLogFiles, 0, len(list))
	for _, l := range list {
		f := ContainerLogFiles{ContainerID: l.ContainerID, NodeID: l.NodeID, Aggregation: l.Aggregation}
		for _, x := range l.Files {
			size, err := strconv.ParseInt(strings.TrimSpace(string(x.FileSize)), 10, 64)
			if err != nil {
				size = -1
			}
			f.Files = append(f.Files, ContainerLogFile{Name: x.FileName, Size: size, Modified: x.LastModifiedTime})
		}
		out = append(out, f)
	}
	return out, nil
}

// ContainerLogRead asks Read for part of a container's log file.
type ContainerLogRead struct {
	ContainerID string
	File        string
	NodeID      string // the log server's nm.id; optional
	// Offset, Tail and Limit are as in LogRange (Limit 0: DefaultLogLimit).
	Offset int64
	Tail   bool
	Limit  int64
	// SizeHint is the file's size when known (from Files): a read near the
	// end of a large file then asks for its tail instead of streaming
	// through everything before it.
	SizeHint int64
}

// headerMax bounds the header a log file's text starts with.
const headerMax = 64 << 10

// Read returns part of a container's log file: the bytes after the
// server's header, at most Limit of them. Size is the file's length as the
// header states it.
func (c *ContainerLogs) Read(ctx context.Context, r ContainerLogRead) (LogChunk, error) {
	limit := r.Limit
	if limit <= 0 {
		limit = DefaultLogLimit
	}
	r.Limit = limit
	st, err := c.Open(ctx, r)
	if err != nil {
		return LogChunk{}, err
	}
	defer st.Close()
	data := make([]byte, min(limit, max(st.Size-st.Offset, 0)))
	got, err := io.ReadFull(st, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return LogChunk{}, st.err(ctx, err)
	}
	data = data[:got]
	return LogChunk{Data: data, Offset: st.Offset, Size: st.Size, More: st.Offset+int64(got) < st.Size}, nil
}

// ContainerLogStream is an open container log file: its bytes from Offset
// on (to the end of what was asked), read as they arrive.
type ContainerLogStream struct {
	io.Reader
	// Offset is the position in the file of the first byte; Size the
	// file's length as the server's header states it.
	Offset, Size int64
	body         io.Closer
	resp         *response
}

// Close ends the request.
func (s *ContainerLogStream) Close() error { return s.body.Close() }

func (s *ContainerLogStream) err(ctx context.Context, err error) error {
	return streamErr(ctx, s.resp, "container log", err)
}

// Open starts reading a container's log file at r.Offset (or its last
// r.Limit bytes with r.Tail), to its end, or r.Limit bytes when set. Only
// ctx bounds the reading: a caller that reads the whole file (a search,
// a copy) makes one request, not one per chunk.
func (c *ContainerLogs) Open(ctx context.Context, r ContainerLogRead) (*ContainerLogStream, error) {
	if r.Offset < 0 {
		r.Offset = 0
	}
	// What to ask for: the tail; the head up to offset+limit (all of it
	// without a limit); or, near the end of a known size, a tail that
	// starts a little before offset, so that a file that grew meanwhile
	// still covers it.
	size, fromTail, whole := r.Offset+r.Limit, r.Tail, r.Limit <= 0
	switch {
	case r.Tail:
		size = -max(r.Limit, 1)
	case r.SizeHint > 0 && r.Offset > r.SizeHint-r.Offset:
		size, fromTail, whole = -(r.SizeHint - r.Offset + 1<<20), true, false
	}
	q := nmQuery(r.NodeID)
	if q == nil {
		q = url.Values{}
	}
	if !whole {
		q.Set("size", strconv.FormatInt(size, 10))
	}
	p := "containers/" + pathEscape(r.ContainerID) + "/logs/" + pathEscape(r.File)
	req := request{method: http.MethodGet, path: p, query: q, stream: true, prepare: func(rq *resty.Request) {
		rq.SetHeader("Accept", "text/plain, */*")
	}}
	resp, err := c.t.do(ctx, c.base, req)
	if err != nil {
		return nil, err
	}
	if resp.status != http.StatusOK {
		if resp.stream != nil {
			resp.stream.Close()
		}
		return nil, respError(req.method, resp)
	}
	st := &ContainerLogStream{body: resp.stream, resp: resp}
	br := bufio.NewReaderSize(resp.stream, 32<<10)
	length, err := readLogHeader(br)
	if err != nil {
		st.Close()
		return nil, st.err(ctx, err)
	}
	// The content is min(|size|, length) bytes, from the file's start or
	// its end.
	n := length
	if !whole {
		n = min(abs64(size), length)
	}
	start := int64(0)
	if fromTail {
		start = length - n
	}
	skip := int64(0)
	switch {
	case r.Tail:
	case r.Offset >= start:
		skip = min(r.Offset-start, n)
	default:
		// The file grew past the margin: read from its head instead.
		st.Close()
		r.SizeHint = 0
		return c.Open(ctx, r)
	}
	if _, err := io.CopyN(io.Discard, br, skip); err != nil {
		st.Close()
		return nil, st.err(ctx, err)
	}
	rest := n - skip
	if r.Limit > 0 && !r.Tail {
		rest = min(rest, r.Limit)
	}
	st.Reader, st.Offset, st.Size = io.LimitReader(br, rest), start+skip, length
	return st, nil
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// readLogHeader reads the header Hadoop writes before a log's contents
// (LogToolUtils.formatContainerLogHeader) and returns LogLength.
func readLogHeader(br *bufio.Reader) (int64, error) {
	length := int64(-1)
	read := 0
	for {
		line, err := br.ReadString('\n')
		read += len(line)
		if err != nil {
			if errors.Is(err, io.EOF) && read == 0 {
				return 0, nil // an empty answer: an empty file
			}
			return 0, fmt.Errorf("log header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if v, ok := strings.CutPrefix(line, "LogLength:"); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				length = n
			}
		}
		if strings.HasPrefix(line, "End of LogType:") {
			return 0, nil // an empty file: the servers may send no header for it
		}
		if line == "LogContents:" {
			if length < 0 {
				return 0, errors.New("log header without LogLength")
			}
			return length, nil
		}
		if read > headerMax {
			return 0, fmt.Errorf("log header: no LogContents line in the first %d bytes", headerMax)
		}
	}
}

// ModifiedTime parses a file's Modified text (Hadoop's Times.format,
// "EEE MMM dd HH:mm:ss Z yyyy"), zero when it cannot.
func (f ContainerLogFile) ModifiedTime() time.Time {
	for _, layout := range []string{"Mon Jan 02 15:04:05 -0700 2006", "Mon Jan 2 15:04:05 -0700 2006", time.RFC1123Z, time.RFC3339} {
		if t, err := time.Parse(layout, strings.TrimSpace(f.Modified)); err == nil {
			return t
		}
	}
	return time.Time{}
}

// CloseIdleConnections closes the client's idle keep-alive connections.
func (c *ContainerLogs) CloseIdleConnections() { c.t.closeIdle() }
