package sim

import (
	"errors"
	"io"
	"net/http"
	"sort"
	"strconv"
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
	// marks are lines that say what happened (a task's failure and its
	// stack trace), by line index, instead of the generated ones.
	marks map[int64]string
}

// lineInto renders line i into dst (len(dst) == logLine): a log4j-looking
// line padded with spaces, ending in a newline.
func (f *logFile) lineInto(dst []byte, i int64) {
	t := f.start.Add(time.Duration(i) * 250 * time.Millisecond).UTC()
	b := dst[:0]
	n := noise(f.seed, uint64(i))
	if m, ok := f.marks[i]; ok {
		b = append(b, m...)
	} else if f.out {
		b = t.AppendFormat(b, "2006-01-02 15:04:05")
		b = append(b, " stdout: processed batch "...)
		b = strconv.AppendInt(b, i, 10)
	} else {
		tmpl := jmLogTemplates
		if f.kind == "taskmanager" {
			tmpl = tmLogTemplates
		}
		l := tmpl[int(n*float64(len(tmpl)))]
		b = t.AppendFormat(b, "2006-01-02 15:04:05,000")
		b = append(b, " INFO  "...)
		b = append(b, l[0]...)
		b = strconv.AppendInt(b, i, 10)
		b = append(b, l[1]...)
		b = strconv.AppendInt(b, int64(n*1e6), 10)
		b = append(b, l[2]...)
	}
	// A long line outgrew dst's capacity and was reallocated: copy it back.
	written := copy(dst[:logLine-1], b)
	if len(b) > logLine-1 {
		copy(dst[logLine-4:], "...")
	}
	for k := written; k < logLine-1; k++ {
		dst[k] = ' '
	}
	dst[logLine-1] = '\n'
}

// Log line templates: text, a number, text, a number, text.
var jmLogTemplates = [][3]string{
	{"org.apache.flink.runtime.checkpoint.CheckpointCoordinator    [] - Triggering checkpoint ", " (type=CheckpointType{name='Checkpoint'}) @ ", "."},
	{"org.apache.flink.runtime.checkpoint.CheckpointCoordinator    [] - Completed checkpoint ", " for job (", " bytes, checkpointDuration=412 ms)."},
	{"org.apache.flink.runtime.resourcemanager.active.ActiveResourceManager [] - Worker container_", " is registered (", ")."},
	{"org.apache.flink.runtime.executiongraph.ExecutionGraph       [] - Source: orders[1] -> Calc[2] (1/2) switched from DEPLOYING to RUNNING (", "/", ")."},
	{"org.apache.flink.runtime.dispatcher.StandaloneDispatcher     [] - Job status request ", " served in ", " us."},
}

var tmLogTemplates = [][3]string{
	{"org.apache.flink.runtime.taskmanager.Task                    [] - Source: orders[1] -> Calc[2] (1/2)#0 checkpoint ", " acknowledged (", ")."},
	{"org.apache.flink.connector.kafka.source.reader.KafkaSourceReader [] - Committing offsets for checkpoint ", " (", " records)."},
	{"org.apache.flink.runtime.state.heap.HeapKeyedStateBackend    [] - Snapshot ", " of keyed state took ", " us."},
	{"org.apache.flink.streaming.runtime.tasks.StreamTask          [] - Notify checkpoint ", " complete on task (", ")."},
}

// ReadAt fills p with the bytes at off.
func (f *logFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.size {
		return 0, io.EOF
	}
	var line [logLine]byte
	n := 0
	for n < len(p) && off < f.size {
		i, within := off/logLine, off%logLine
		if within == 0 && len(p)-n >= logLine && f.size-off >= logLine {
			f.lineInto(p[n:n+logLine], i) // whole line: straight into p
			n += logLine
			off += logLine
			continue
		}
		f.lineInto(line[:], i)
		k := copy(p[n:], line[within:])
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
func (m *jobManagers) logFiles(a *app, kind string, owner uint64, start time.Time) map[string]*logFile {
	size := m.logSize / logLine * logLine
	var marks map[int64]string
	if kind == "taskmanager" && len(a.attempts) > 0 {
		marks = failureMarks(a, containerID(a, len(a.attempts), int(owner)+1), start, size/logLine)
	}
	return map[string]*logFile{
		kind + ".log": {seed: a.seed ^ owner, size: size, start: start, kind: kind, marks: marks},
		kind + ".out": {seed: a.seed ^ owner, size: 16 * logLine, start: start, kind: kind, out: true},
		kind + ".err": {size: 0, start: start, kind: kind},
	}
}

func logList(x *jmReq, kind string) map[string]any {
	out := []map[string]any{}
	files := x.m.logFiles(x.a, kind, 0, x.a.logStart(x.jm.attempt))
	for _, name := range sortedKeys(files) {
		out = append(out, map[string]any{"name": name, "size": files[name].size, "mtime": x.now.UnixMilli()})
	}
	return map[string]any{"logs": out}
}

// logFile serves one log file as plain text, with Range support. name is
// fixed, or taken from the {name} path value when empty.
func (m *jobManagers) logFile(kind, tmParam, name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jm := jmOf(r)
		file := name
		if file == "" {
			file = r.PathValue("name")
		}
		m.mu.Lock()
		now := m.clock.Now()
		a := jm.app
		m.yarn.advance(a, now)
		if a.jm != jm {
			m.mu.Unlock()
			resetConn(w)
			return
		}
		var owner uint64
		if tmParam != "" {
			x := &jmReq{m: m, jm: jm, a: a, now: now, r: r}
			tm := r.PathValue("tmid")
			found := false
			for i, id := range x.taskManagerIDs() {
				if id == tm {
					found, owner = true, uint64(i+1)
				}
			}
			if !found {
				m.mu.Unlock()
				writeFlinkError(w, http.StatusNotFound, "org.apache.flink.runtime.rest.NotFoundException: Could not find TaskExecutor "+tm+".")
				return
			}
		}
		files := m.logFiles(a, kind, owner, a.logStart(jm.attempt))
		m.mu.Unlock()
		f, ok := files[file]
		if !ok || strings.Contains(file, "/") {
			writeFlinkError(w, http.StatusNotFound, "org.apache.flink.runtime.rest.NotFoundException: File "+file+" does not exist.")
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		http.ServeContent(w, r, file, now, &logReader{f: f})
	})
}

// failureMarks are the lines a TaskManager's log shows for the task
// failures of the jobs of a that ran in container tm: the task switching to
// FAILED, then its stack trace, at the line of the failure's time. A
// failure later than the file's last line (the file has a fixed size) is
// written near its end, where it is found by time order if not by time.
func failureMarks(a *app, tm string, start time.Time, lines int64) map[int64]string {
	marks := map[int64]string{}
	var es []exception
	for _, j := range a.jobs {
		for _, e := range j.exceptions {
			for _, x := range append([]exception{e}, e.concurrent...) {
				if x.tm == tm && x.task != "" {
					es = append(es, x)
				}
			}
		}
	}
	// Oldest first, each at its time or after the one before it.
	sort.Slice(es, func(i, k int) bool { return es[i].at.Before(es[k].at) })
	next := int64(0)
	for k, e := range es {
		trace := strings.Split(strings.TrimRight(e.trace, "\n"), "\n")
		if len(trace) > 40 {
			trace = trace[:40]
		}
		span := int64(len(trace) + 1)
		i := max(int64(e.at.Sub(start)/(250*time.Millisecond)), next)
		if last := lines - span*int64(len(es)-k); i > last {
			i = max(last, next)
		}
		if i < 0 || i+span > lines {
			continue
		}
		// The logger abbreviated (log4j's %c{1.} style) so that the line
		// keeps its end within the fixed line width.
		marks[i] = e.at.UTC().Format("2006-01-02 15:04:05,000") + " WARN  o.a.f.runtime.taskmanager.Task [] - " +
			e.task + " switched from RUNNING to FAILED with failure cause:"
		for n, l := range trace {
			marks[i+1+int64(n)] = strings.ReplaceAll(l, "\t", "    ")
		}
		next = i + span
	}
	return marks
}

// logStart is when the logs of an attempt's JobManager and TaskManagers
// begin: when its JobManager came up. Flink's REST API and the
// NodeManagers serve the same files, so both take this.
func (a *app) logStart(attempt int) time.Time {
	if attempt < 1 || attempt > len(a.attempts) {
		return a.submitted
	}
	return a.attempts[attempt-1].start.Add(dAMRegistered)
}
