package yarn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/palink/palink/internal/jsonscan"
)

// Flame graphs and thread dumps can be huge (a flame graph of a busy
// vertex with deep stacks runs to tens of thousands of frames; a thread dump
// of a TaskManager with thousands of threads to tens of megabytes), so
// they are decoded as a stream, within a cap on what is read and kept:
// past it, what was read is returned with Truncated set, never an error
// and never the whole body in memory.

// Flame graph states, from VertexFlameGraph's endTimestamp: a real sample
// has the time it ended; Flink answers 200 with no data and a negative
// timestamp otherwise.
const (
	FlameReady = "ready"
	// FlameDisabled: rest.flamegraph.enabled is false (endTimestamp -2).
	FlameDisabled = "disabled"
	// FlameWaiting: the first samples are still being taken (-3); ask again.
	FlameWaiting = "waiting"
	// FlameTerminated: the vertex's tasks are no longer running (-1).
	FlameTerminated = "terminated"
)

// Flame graph types of the type query parameter (ThreadStates).
const (
	FlameFull   = "FULL"
	FlameOnCPU  = "ON_CPU"
	FlameOffCPU = "OFF_CPU"
)

// Limits of what one flame graph or thread dump may cost.
const (
	// DefaultMaxFlameFrames caps the frames kept of one flame graph.
	DefaultMaxFlameFrames = 200_000
	// MaxFlameDepth caps a stack's depth; deeper frames are dropped.
	MaxFlameDepth = 2048
	// DefaultMaxFlameBytes caps the body read of one flame graph.
	DefaultMaxFlameBytes = 64 << 20
	// DefaultMaxThreadDumpBytes caps the body read of one thread dump.
	DefaultMaxThreadDumpBytes = 8 << 20
)

// FlameGraph is a vertex's flame graph (VertexFlameGraph), flattened: Frames
// in pre-order, the root first, each with its depth and its parent's
// index, so that it costs one slice whatever its shape and crosses any
// encoding without recursion.
type FlameGraph struct {
	Status       string // FlameReady, FlameDisabled, FlameWaiting or FlameTerminated
	EndTimestamp int64  // ms, when the sample ended (Status FlameReady)
	Frames       []FlameFrame
	// Truncated reports that frames were dropped: more than the cap, deeper
	// than MaxFlameDepth, or a body cut at its byte cap. Why says which.
	Truncated bool
	Why       string
}

// FlameFrame is one node of a flame graph: a stack frame
// ("class.method:line", the root "root") and the samples that passed
// through it.
type FlameFrame struct {
	Name   string
	Value  int64
	Depth  int
	Parent int // index in Frames; -1 for the root
}

// flameStatus names a VertexFlameGraph's state from its endTimestamp.
func flameStatus(end int64, hasData bool) string {
	switch {
	case end == -1:
		return FlameTerminated
	case end == -2:
		return FlameDisabled
	case end == -3:
		return FlameWaiting
	case !hasData:
		return FlameWaiting
	}
	return FlameReady
}

// capReader reports whether a read stopped at its cap.
type capReader struct {
	r   io.Reader
	n   int64 // bytes left
	hit bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		c.hit = true
		return 0, io.EOF
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	n, err := c.r.Read(p)
	c.n -= int64(n)
	return n, err
}

// flameDecoder reads a VertexFlameGraph into frames.
type flameDecoder struct {
	s         *jsonscan.Scanner
	frames    []FlameFrame
	max       int
	truncated bool
	why       string
	names     map[string]string // one copy of each frame name
}

// decodeFlameGraph reads a VertexFlameGraph from r, keeping at most
// maxFrames frames and reading at most maxBytes.
func decodeFlameGraph(r io.Reader, maxFrames int, maxBytes int64) (FlameGraph, error) {
	if maxFrames <= 0 {
		maxFrames = DefaultMaxFlameFrames
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxFlameBytes
	}
	cr := &capReader{r: r, n: maxBytes}
	s := jsonscan.NewReader(cr)
	// A frame is two levels (its object, its children); under the deepest
	// kept, a stack is skipped as deep as a JSON text may nest.
	s.MaxDepth = 2*MaxFlameDepth + jsonscan.DefaultMaxDepth
	d := &flameDecoder{s: s, max: maxFrames, names: map[string]string{}}
	g := FlameGraph{EndTimestamp: -3}
	hasData := false
	err := s.Object(func(key []byte) error {
		switch string(key) {
		case "endTimestamp":
			n, err := s.Int()
			g.EndTimestamp = n
			return err
		case "data":
			if null, err := s.Null(); null || err != nil {
				return err
			}
			if c, err := s.Peek(); err != nil || c != '{' {
				return orErr(err, fmt.Errorf("flame graph data: want an object, got %q", c))
			}
			hasData = true
			return d.node(0, -1)
		}
		return s.Skip()
	})
	if err != nil {
		if !cr.hit || len(d.frames) == 0 {
			return g, err
		}
		d.truncated, d.why = true, fmt.Sprintf("more than %d bytes", maxBytes)
	}
	g.Status = flameStatus(g.EndTimestamp, hasData)
	fixValues(d.frames)
	g.Frames, g.Truncated, g.Why = d.frames, d.truncated, d.why
	return g, nil
}

// node reads one Node, an object.
func (d *flameDecoder) node(depth, parent int) error {
	s := d.s
	if depth > MaxFlameDepth || len(d.frames) >= d.max {
		d.truncated = true
		if d.why == "" {
			if depth > MaxFlameDepth {
				d.why = fmt.Sprintf("stacks deeper than %d frames", MaxFlameDepth)
			} else {
				d.why = fmt.Sprintf("more than %d frames", d.max)
			}
		}
		return s.Skip()
	}
	idx := len(d.frames)
	d.frames = append(d.frames, FlameFrame{Depth: depth, Parent: parent})
	return s.Object(func(key []byte) error {
		switch string(key) {
		case "name":
			if c, err := s.Peek(); err != nil || c != '"' {
				return orErr(err, s.Skip())
			}
			b, err := s.String()
			if err != nil {
				return err
			}
			name, ok := d.names[string(b)]
			if !ok {
				name = string(b)
				d.names[name] = name
			}
			d.frames[idx].Name = name
			return nil
		case "value":
			n, err := s.Int()
			d.frames[idx].Value = n
			return err
		case "children":
			if null, err := s.Null(); null || err != nil {
				return err
			}
			if c, err := s.Peek(); err != nil || c != '[' {
				return orErr(err, fmt.Errorf("flame graph children: want an array, got %q", c))
			}
			return s.Array(func() error {
				if c, err := s.Peek(); err != nil || c != '{' {
					return orErr(err, fmt.Errorf("flame graph children: want an object, got %q", c))
				}
				return d.node(depth+1, idx)
			})
		}
		return s.Skip()
	})
}

// fixValues makes every frame's value at least the sum of its children's:
// a body cut short may hold a frame whose value came after its children.
func fixValues(frames []FlameFrame) {
	sums := make([]int64, len(frames))
	for i := len(frames) - 1; i > 0; i-- {
		f := frames[i]
		if f.Value < sums[i] {
			frames[i].Value = sums[i]
		}
		if f.Parent >= 0 {
			sums[f.Parent] += frames[i].Value
		}
	}
	if len(frames) > 0 && frames[0].Value < sums[0] {
		frames[0].Value = sums[0]
	}
}

func orErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// ThreadDump is GET /taskmanagers/:id/thread-dump (ThreadDumpInfo), read
// up to a byte cap.
type ThreadDump struct {
	Threads []ThreadInfo
	// Truncated reports that the dump was longer than the cap: Threads
	// are those read before it.
	Truncated bool
	// Bytes is what was read of the body.
	Bytes int64
}

// ThreadInfo is one thread: its name and its state and stack as Java
// prints them.
type ThreadInfo struct {
	ThreadName            string `json:"threadName"`
	StringifiedThreadInfo string `json:"stringifiedThreadInfo"`
}

// decodeThreadDump reads {"threadInfos":[…]} element by element, stopping
// at maxBytes.
func decodeThreadDump(r io.Reader, maxBytes int64) (ThreadDump, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxThreadDumpBytes
	}
	cr := &capReader{r: r, n: maxBytes}
	dec := json.NewDecoder(cr)
	var td ThreadDump
	err := func() error {
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return orErr(err, fmt.Errorf("thread dump: want an object, got %v", t))
		}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return err
			}
			if t != "threadInfos" {
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return err
				}
				continue
			}
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				return orErr(err, fmt.Errorf("threadInfos: want an array, got %v", t))
			}
			for dec.More() {
				var ti ThreadInfo
				if err := dec.Decode(&ti); err != nil {
					return err
				}
				td.Threads = append(td.Threads, ti)
			}
			if _, err := dec.Token(); err != nil { // ']'
				return err
			}
		}
		_, err := dec.Token() // '}'
		return err
	}()
	td.Bytes = maxBytes - cr.n
	if err != nil {
		if cr.hit || errors.Is(err, io.ErrUnexpectedEOF) && cr.n <= 0 {
			td.Truncated = true
			return td, nil
		}
		return td, err
	}
	return td, nil
}
