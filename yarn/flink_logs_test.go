package yarn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// genLog is a deterministic log of any size that is never held in memory:
// line n is "%013d\n" (14 bytes).
type genLog struct{ size, pos int64 }

const lineLen = 14

func logBytes(from, to int64) []byte {
	var b bytes.Buffer
	for i := from; i < to; i++ {
		b.WriteByte(fmt.Sprintf("%013d\n", i/lineLen)[i%lineLen])
	}
	return b.Bytes()
}

func (g *genLog) Read(p []byte) (int, error) {
	if g.pos >= g.size {
		return 0, io.EOF
	}
	var line [lineLen]byte
	line[lineLen-1] = '\n'
	n := 0
	for n < len(p) && g.pos < g.size {
		for i, v := lineLen-2, g.pos/lineLen; i >= 0; i, v = i-1, v/10 {
			line[i] = byte('0' + v%10)
		}
		k := copy(p[n:], line[g.pos%lineLen:])
		if rem := g.size - g.pos; int64(k) > rem {
			k = int(rem)
		}
		n += k
		g.pos += int64(k)
	}
	return n, nil
}

func (g *genLog) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		g.pos = off
	case io.SeekCurrent:
		g.pos += off
	case io.SeekEnd:
		g.pos = g.size + off
	}
	return g.pos, nil
}

// rangedLog serves the log with Range support (http.ServeContent).
func rangedLog(size int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		http.ServeContent(w, r, "", time.Time{}, &genLog{size: size})
	}
}

// wholeLog ignores Range, as Flink's file handlers and the YARN proxy do;
// withLength decides whether Content-Length is sent.
func wholeLog(size int64, withLength bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		if withLength {
			w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
		}
		io.Copy(w, &genLog{size: size})
	}
}

func TestReadLogRanges(t *testing.T) {
	ctx := context.Background()
	const size = 14 * 1000 // 1000 lines
	for _, srv := range []struct {
		name string
		h    http.HandlerFunc
	}{
		{"server honours Range", rangedLog(size)},
		{"whole file with length", wholeLog(size, true)},
		{"whole file chunked", wholeLog(size, false)},
	} {
		t.Run(srv.name, func(t *testing.T) {
			jm := newFake(t)
			jm.on("GET", "/jobmanager/log", srv.h).times(4)
			c := newFlink(t, jm.URL(), "", fastOpts())

			ch, err := c.ReadLog(ctx, LogFile{}, LogRange{Offset: 140, Limit: 28})
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "head data", string(ch.Data), "0000000000010\n0000000000011\n")
			mustEqual(t, "head offset", ch.Offset, int64(140))
			mustEqual(t, "head more", ch.More, true)
			mustEqual(t, "Range sent", jm.lastHeader("GET", "/jobmanager/log").Get("Range"), "bytes=140-167")

			ch, err = c.ReadLog(ctx, LogFile{}, LogRange{Tail: true, Limit: 28})
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "tail data", string(ch.Data), "0000000000998\n0000000000999\n")
			mustEqual(t, "tail offset", ch.Offset, int64(size-28))
			mustEqual(t, "tail size", ch.Size, int64(size))
			mustEqual(t, "tail more", ch.More, false)

			ch, err = c.ReadLog(ctx, LogFile{}, LogRange{Offset: size - 5, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "end data", string(ch.Data), "0999\n")
			mustEqual(t, "end more", ch.More, false)

			ch, err = c.ReadLog(ctx, LogFile{}, LogRange{Offset: size + 100, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			if len(ch.Data) != 0 || ch.More {
				t.Errorf("past the end: %+v", ch)
			}
		})
	}
}

func TestReadLogTailOfLargeLogStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 16 MiB")
	}
	const size = 16 << 20
	const limit = 64 << 10
	jm := newFake(t)
	jm.on("GET", proxy+"/taskmanagers/container_1_01_000002/logs/taskmanager.log", wholeLog(size, false))
	c := newFlink(t, jm.URL()+proxy, "", fastOpts())

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ch, err := c.ReadLog(context.Background(), LogFile{TaskManager: "container_1_01_000002", Name: "taskmanager.log"},
		LogRange{Tail: true, Limit: limit})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ch.Data, logBytes(size-limit, size)) || ch.Offset != size-limit || ch.Size != size {
		t.Fatalf("tail wrong: offset %d size %d len %d", ch.Offset, ch.Size, len(ch.Data))
	}
	// Everything allocated while 16 MiB went through, server side included.
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB while streaming %d MiB", alloc>>10, size>>20)
	if alloc > 4<<20 {
		t.Errorf("allocated %d KiB to tail a %d MiB log: not bounded", alloc>>10, size>>20)
	}
}

func TestOpenLogStreamsPastTheRequestTimeout(t *testing.T) {
	jm := newFake(t)
	jm.on("GET", "/jobmanager/stdout", func(w http.ResponseWriter, r *http.Request) {
		for i := range 5 {
			fmt.Fprintf(w, "line %d\n", i)
			w.(http.Flusher).Flush()
			time.Sleep(30 * time.Millisecond)
		}
	})
	o := fastOpts()
	o.Timeout = 50 * time.Millisecond
	rc, err := newFlink(t, jm.URL(), "", o).OpenLog(context.Background(), LogFile{Stdout: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("stream cut: %v after %q", err, b)
	}
	mustEqual(t, "content", string(b), "line 0\nline 1\nline 2\nline 3\nline 4\n")
}

func TestLogListsAndPaths(t *testing.T) {
	ctx := context.Background()
	jm := newFake(t)
	jm.json("GET", "/jobmanager/logs", 200, `{"logs":[{"name":"jobmanager.log","size":10240,"mtime":1732863600000},{"name":"jobmanager.out","size":0,"mtime":1732860000000}]}`)
	jm.json("GET", "/taskmanagers/container_1_01_000002/logs", 200, `{"logs":[{"name":"taskmanager.log","size":2048,"mtime":1732863600000}]}`)
	jm.on("GET", "/jobmanager/logs/jobmanager.log", rangedLog(28))
	jm.json("GET", "/jobmanager/logs/missing.log", 404, `{"errors":["Not found."]}`)
	c := newFlink(t, jm.URL(), "", fastOpts())

	logs, err := c.JobManagerLogs(ctx)
	if err != nil || len(logs) != 2 || logs[0] != (LogInfo{"jobmanager.log", 10240, 1732863600000}) {
		t.Fatalf("logs %+v err %v", logs, err)
	}
	tl, err := c.TaskManagerLogs(ctx, "container_1_01_000002")
	if err != nil || len(tl) != 1 {
		t.Fatalf("tm logs %+v err %v", tl, err)
	}
	ch, err := c.ReadLog(ctx, LogFile{Name: "jobmanager.log"}, LogRange{})
	if err != nil || string(ch.Data) != "0000000000000\n0000000000001\n" {
		t.Fatalf("chunk %q err %v", ch.Data, err)
	}
	_, err = c.ReadLog(ctx, LogFile{Name: "missing.log"}, LogRange{})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	mustEqual(t, "message", err.Error(), "read JobManager log missing.log: GET /jobmanager/logs/missing.log on "+jm.Host()+": not found: Not found.")
}

func TestReadEmptyLog(t *testing.T) {
	jm := newFake(t)
	jm.on("GET", "/jobmanager/logs/jobmanager.err", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Range", "bytes 0--1/0") // a ranged answer over nothing
		w.WriteHeader(http.StatusPartialContent)
	})
	jm.on("GET", "/jobmanager/logs/jobmanager.out", rangedLog(0))
	c := newFlink(t, jm.URL(), "", fastOpts())
	for _, name := range []string{"jobmanager.err", "jobmanager.out"} {
		ch, err := c.ReadLog(context.Background(), LogFile{Name: name}, LogRange{Tail: true, Limit: 100})
		if err != nil || len(ch.Data) != 0 || ch.More || ch.Size != 0 {
			t.Errorf("%s: chunk %+v err %v", name, ch, err)
		}
	}
}

func TestParseContentRange(t *testing.T) {
	for _, tc := range []struct {
		in                string
		start, end, total int64
		ok                bool
	}{
		{"bytes 0-99/1000", 0, 99, 1000, true},
		{"bytes 10-19/*", 10, 19, -1, true},
		{"bytes */1000", 0, -1, 1000, true},
		{"bytes 9-1/10", 0, 0, 0, false},
		{"items 0-1/2", 0, 0, 0, false},
		{"bytes 0-x/2", 0, 0, 0, false},
		{"", 0, 0, 0, false},
	} {
		s, e, total, ok := parseContentRange(tc.in)
		if ok != tc.ok || ok && (s != tc.start || e != tc.end || total != tc.total) {
			t.Errorf("parseContentRange(%q) = %d %d %d %v", tc.in, s, e, total, ok)
		}
	}
}
