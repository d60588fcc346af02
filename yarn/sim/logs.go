package sim

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Log files are generated, never stored: byte n of a file is a pure
// function of n, so a 200 MB log costs no memory and any range of it can
// be served (HTTP Range works through http.ServeContent).

const logLine = 160 // every generated line is this long, newline included

// logFile is one generated log file.
type logFile struct {
	seed  uint64
	size  int64
	start time.Time // time of the first line
	kind  string    // "jobmanager" or "taskmanager"
	out   bool      // a .out file (stdout) rather than log4j output
}

// lineAt renders line i, padded to logLine bytes.
func (f *logFile) lineAt(i int64) []byte {
	t := f.start.Add(time.Duration(i) * 250 * time.Millisecond).UTC()
	var text string
	if f.out {
		text = fmt.Sprintf("%s stdout: processed batch %d", t.Format("2006-01-02 15:04:05"), i)
	} else {
		n := noise(f.seed, uint64(i))
		tmpl := jmLogTemplates
		if f.kind == "taskmanager" {
			tmpl = tmLogTemplates
		}
		msg := tmpl[int(n*float64(len(tmpl)))]
		text = fmt.Sprintf("%s INFO  %s", t.Format("2006-01-02 15:04:05,000"), fmt.Sprintf(msg, i, int64(n*1e6)))
	}
	b := make([]byte, logLine)
	copy(b, text)
	for k := len(text); k < logLine-1; k++ {
		b[k] = ' '
	}
	if len(text) > logLine-1 {
		b[logLine-4], b[logLine-3], b[logLine-2] = '.', '.', '.'
	}
	b[logLine-1] = '\n'
	return b
}

var jmLogTemplates = []string{
	"org.apache.flink.runtime.checkpoint.CheckpointCoordinator    [] - Triggering checkpoint %d (type=CheckpointType{name='Checkpoint'}) @ %d.",
	"org.apache.flink.runtime.checkpoint.CheckpointCoordinator    [] - Completed checkpoint %d for job (%d bytes, checkpointDuration=412 ms).",
	"org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Worker container_%d is registered (%d).",
	"org.apache.flink.runtime.executiongraph.ExecutionGraph       [] - Source: orders[1] -> Calc[2] (1/2) switched from DEPLOYING to RUNNING (%d/%d).",
	"org.apache.flink.runtime.dispatcher.StandaloneDispatcher     [] - Job status request %d served in %d us.",
}

var tmLogTemplates = []string{
	"org.apache.flink.runtime.taskmanager.Task                    [] - Source: orders[1] -> Calc[2] (1/2)#0 checkpoint %d acknowledged (%d).",
	"org.apache.flink.connector.kafka.source.reader.KafkaSourceReader [] - Committing offsets for checkpoint %d (%d records).",
	"org.apache.flink.runtime.state.heap.HeapKeyedStateBackend    [] - Snapshot %d of keyed state took %d us.",
	"org.apache.flink.streaming.runtime.tasks.StreamTask          [] - Notify checkpoint %d complete on task (%d).",
}

// ReadAt fills p with the bytes at off.
func (f *logFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.size {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && off < f.size {
		line := f.lineAt(off / logLine)
		k := copy(p[n:], line[off%logLine:])
		if rest := f.size - off; int64(k) > rest {
			k = int(rest)
		}
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// logReader adapts a logFile to io.ReadSeeker for http.ServeContent.
type logReader struct {
	f   *logFile
	off int64
}

func (r *logReader) Read(p []byte) (int, error) {
	n, err := r.f.ReadAt(p, r.off)
	r.off += int64(n)
	if errors.Is(err, io.EOF) && n > 0 {
		err = nil
	}
	return n, err
}

func (r *logReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.f.size
	}
	if offset < 0 {
		return 0, errors.New("sim: negative seek")
	}
	r.off = offset
	return offset, nil
}

// logFiles lists the files in a JobManager's or TaskManager's log directory.
func (c *Cluster) logFiles(a *app, kind string, owner uint64, start time.Time) map[string]*logFile {
	size := c.opts.LogSize / logLine * logLine
	return map[string]*logFile{
		kind + ".log": {seed: a.seed ^ owner, size: size, start: start, kind: kind},
		kind + ".out": {seed: a.seed ^ owner, size: 16 * logLine, start: start, kind: kind, out: true},
		kind + ".err": {size: 0, start: start, kind: kind},
	}
}

func logList(x *jmReq, kind string) map[string]any {
	out := []map[string]any{}
	files := x.c.logFiles(x.a, kind, 0, x.jm.started)
	for _, name := range sortedKeys(files) {
		out = append(out, map[string]any{"name": name, "size": files[name].size, "mtime": x.now.UnixMilli()})
	}
	return map[string]any{"logs": out}
}

// jmLogFile serves one log file as plain text, with Range support. name is
// fixed, or taken from the {name} path value when empty.
func (c *Cluster) jmLogFile(jm *jobManager, kind, tmParam, name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		file := name
		if file == "" {
			file = r.PathValue("name")
		}
		c.mu.Lock()
		now := c.clock.Now()
		a := jm.app
		c.advance(a, now)
		if a.jm != jm {
			c.mu.Unlock()
			resetConn(w)
			return
		}
		var owner uint64
		if tmParam != "" {
			x := &jmReq{c: c, jm: jm, a: a, now: now, r: r}
			tm := r.PathValue("tmid")
			found := false
			for i, id := range x.taskManagerIDs() {
				if id == tm {
					found, owner = true, uint64(i+1)
				}
			}
			if !found {
				c.mu.Unlock()
				writeFlinkError(w, http.StatusNotFound, "org.apache.flink.runtime.rest.NotFoundException: Could not find TaskExecutor "+tm+".")
				return
			}
		}
		files := c.logFiles(a, kind, owner, jm.started)
		c.mu.Unlock()
		f, ok := files[file]
		if !ok || strings.Contains(file, "/") {
			writeFlinkError(w, http.StatusNotFound, "org.apache.flink.runtime.rest.NotFoundException: File "+file+" does not exist.")
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		http.ServeContent(w, r, file, now, &logReader{f: f})
	})
}
