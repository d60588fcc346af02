package api

import (
	"bytes"
	"context"
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"
)

// LogService reads the logs of a job's Flink cluster through the
// JobManager's REST API, always in bounded chunks (a log may be hundreds of
// megabytes; no call ever holds a whole one), and lists the YARN
// containers' log links.
type LogService interface {
	// Logs lists what a job's application offers: the JobManager's and each
	// TaskManager's main log, stdout and other files, and the YARN
	// containers' log pages. Flink's logs exist only while the application
	// runs; LogList.FlinkError then says why they are missing.
	//palink:api role=viewer on=job(ref)
	Logs(ctx context.Context, ref string) (LogList, error)
	// ReadLog reads one chunk of a log, from an offset or its tail, of at
	// most MaxLogChunk bytes.
	//palink:api role=viewer on=job(r.JobRef)
	ReadLog(ctx context.Context, r LogRequest) (LogChunk, error)
	// FindInLog scans a log for the next line a query matches, forward or
	// backward from an offset, chunk by chunk. One call scans at most
	// MaxScan bytes, so that a caller can show progress and stop.
	//palink:api role=viewer on=job(r.JobRef)
	FindInLog(ctx context.Context, r LogSearch) (LogMatch, error)
	// SaveLog copies a whole log into a new file, chunk by chunk. The file
	// is written by the calling process (a client of `palink agent` writes
	// its own file; the agent never writes files for a client).
	//palink:api role=viewer local on=job(r.JobRef)
	SaveLog(ctx context.Context, r SaveLogRequest) (SavedLog, error)
}

// Chunk sizes of ReadLog.
const (
	// DefaultLogChunk is what ReadLog returns when LogRequest.Limit is 0.
	DefaultLogChunk = 256 << 10
	// MaxLogChunk caps LogRequest.Limit.
	MaxLogChunk = 1 << 20
	// DefaultLogScan is what FindInLog scans when LogSearch.MaxScan is 0.
	DefaultLogScan = 64 << 20
)

// LogRef names one log of a job's Flink cluster.
type LogRef struct {
	// TaskManager is the TaskManager's id (on YARN, its container id);
	// empty for the JobManager.
	TaskManager string
	// Name is a file of the log directory, as Logs lists it; empty for the
	// main log (or stdout).
	Name string
	// Stdout selects the process's standard output instead of its log.
	Stdout bool
	// Container selects a YARN container's log file Name (from
	// ContainerLogs) instead of Flink's: read from its NodeManager, or
	// from the log server once the application ended. TaskManager and
	// Stdout are then unused.
	Container string
}

// LogSourceKind says what kind of log a LogSource is.
type LogSourceKind int

// Log source kinds.
const (
	// LogJobManager and LogTaskManager are read through Flink's REST API.
	LogJobManager LogSourceKind = iota + 1
	LogTaskManager
	// LogContainer is a YARN container's log: in Logs, a link to its page
	// on the NodeManager for a browser or `yarn logs`; in ContainerLogs, a
	// file palink reads (Ref.Container set).
	LogContainer
)

// String names the kind.
func (k LogSourceKind) String() string {
	switch k {
	case LogJobManager:
		return "JobManager"
	case LogTaskManager:
		return "TaskManager"
	case LogContainer:
		return "YARN container"
	}
	return "unknown"
}

// MarshalText names the kind in scriptable output.
func (k LogSourceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText is the inverse of MarshalText.
func (k *LogSourceKind) UnmarshalText(b []byte) error {
	for _, c := range []LogSourceKind{LogJobManager, LogTaskManager, LogContainer} {
		if c.String() == string(b) {
			*k = c
			return nil
		}
	}
	return fmt.Errorf("unknown log source kind %q", b)
}

// LogSource is one entry of LogList.
type LogSource struct {
	Kind LogSourceKind
	// Ref is what ReadLog takes (JobManager and TaskManager logs).
	Ref LogRef
	// Title names the log for people: "JobManager log", "TaskManager
	// container_…_000002 stdout", "AM container, attempt 1".
	Title string
	// Size is the file's size in bytes when known, else -1.
	Size  int64
	MTime time.Time
	// URL is a YARN container's log page (LogContainer only).
	URL string
}

// LogList is what Logs returns.
type LogList struct {
	JobID   string
	JobName string
	AppID   string
	// Sources lists the JobManager's logs, then each TaskManager's, then
	// the YARN containers' links.
	Sources []LogSource
	// FlinkError says why the JobManager and TaskManager logs are missing
	// or incomplete ("" when every list answered).
	FlinkError string
	FetchedAt  time.Time
}

// LogRequest asks ReadLog for one chunk.
type LogRequest struct {
	JobRef string
	Log    LogRef
	// Offset is where the chunk starts; ignored when Tail is set.
	Offset int64
	// Tail asks for the last Limit bytes instead.
	Tail bool
	// Limit caps the chunk: 0 means DefaultLogChunk; more than MaxLogChunk
	// is cut to MaxLogChunk.
	Limit int64
}

// LogChunk is a contiguous part of a log.
type LogChunk struct {
	Data []byte
	// Offset is the position of Data[0] in the file.
	Offset int64
	// Size is the file's size when the chunk was read, or -1 when unknown.
	Size int64
	// More reports bytes after the chunk.
	More bool
}

// LogQuery is what a log search looks for. The zero value matches nothing.
type LogQuery struct {
	// Text is found anywhere in a line, ignoring case unless Text has an
	// upper-case letter ("smart case", as in less and vim).
	Text string
	// Errors matches the lines that report a failure instead: the log level
	// ERROR or FATAL, or a Java exception or error class name
	// (java.io.IOException, OutOfMemoryError) as in a stack trace.
	Errors bool
}

// Match returns where q first matches line (a line without its newline),
// as a byte range. It is the one definition of a match, so that the TUI's
// highlighting and the service's scan always agree.
func (q LogQuery) Match(line []byte) (start, end int, ok bool) {
	if q.Errors {
		return matchError(line)
	}
	if q.Text == "" {
		return 0, 0, false
	}
	if hasUpper(q.Text) {
		i := bytes.Index(line, []byte(q.Text))
		return i, i + len(q.Text), i >= 0
	}
	return indexFold(line, q.Text)
}

// String describes the query for people.
func (q LogQuery) String() string {
	if q.Errors {
		return "ERROR/exception"
	}
	return q.Text
}

func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// indexFold finds lower-case pattern p in s ignoring case, rune by rune, so
// that byte offsets stay those of s.
func indexFold(s []byte, p string) (int, int, bool) {
	if p == "" {
		return 0, 0, false
	}
	first, _ := utf8.DecodeRuneInString(p)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRune(s[i:])
		if unicode.ToLower(r) == unicode.ToLower(first) {
			if end, ok := hasPrefixFold(s[i:], p); ok {
				return i, i + end, true
			}
		}
		i += n
	}
	return 0, 0, false
}

// hasPrefixFold reports whether s starts with p ignoring case, and how many
// bytes of s that prefix takes.
func hasPrefixFold(s []byte, p string) (int, bool) {
	i := 0
	for _, pr := range p {
		if i >= len(s) {
			return 0, false
		}
		r, n := utf8.DecodeRune(s[i:])
		if r != pr && unicode.ToLower(r) != unicode.ToLower(pr) {
			return 0, false
		}
		i += n
	}
	return i, true
}

// matchError finds a log level ERROR or FATAL, or a word that names a Java
// exception or error class.
func matchError(line []byte) (int, int, bool) {
	for i := 0; i < len(line); {
		if !isWordByte(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && isWordByte(line[j]) {
			j++
		}
		if w := line[i:j]; isErrorWord(w) {
			return i, j, true
		}
		i = j
	}
	return 0, 0, false
}

// isWordByte says whether b belongs to a Java qualified name.
func isWordByte(b byte) bool {
	return b == '_' || b == '$' || b == '.' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

func isErrorWord(w []byte) bool {
	w = bytes.Trim(w, ".")
	switch string(w) {
	case "ERROR", "FATAL":
		return true
	}
	simple := w[bytes.LastIndexByte(w, '.')+1:]
	if len(simple) == 0 || simple[0] < 'A' || simple[0] > 'Z' {
		return false // a class name starts with a capital
	}
	return bytes.HasSuffix(simple, []byte("Exception")) ||
		(bytes.HasSuffix(simple, []byte("Error")) && (len(simple) > len("Error") || len(simple) < len(w)))
}

// LogSearch asks FindInLog for the next matching line.
type LogSearch struct {
	JobRef string
	Log    LogRef
	Query  LogQuery
	// From is where the scan starts: forward, the lines that start at or
	// after From, the nearest first (a From inside a line skips the rest
	// of that line); backward, the lines that start before
	// From, the nearest first.
	From     int64
	Backward bool
	// MaxScan bounds the bytes one call scans: 0 means DefaultLogScan.
	MaxScan int64
}

// LogMatch is FindInLog's answer.
type LogMatch struct {
	Found bool
	// Offset is where the matching line starts; Line is that line (cut to
	// 4 KiB) and Start/End where the query matched in it.
	Offset     int64
	Line       string
	Start, End int
	// Next is where a further search in the same direction starts, when
	// nothing was found within MaxScan.
	Next int64
	// Exhausted reports that the scan reached the end (or the start) of
	// the file without a match.
	Exhausted bool
	// Size is the file's size as last seen, or -1.
	Size int64
	// Lines counts the lines a forward scan passed: those that start at or
	// after From and before Offset (or Next, when nothing was found). A
	// caller that starts at 0 and continues from Offset+1 or Next numbers
	// the lines it finds by adding them up. Backward scans leave it 0.
	Lines int64
}

// SaveLogRequest asks SaveLog to copy a log into a file.
type SaveLogRequest struct {
	JobRef string
	Log    LogRef
	// Path is the file to create, relative to the calling process's working
	// directory or starting with ~/. An existing file is never overwritten.
	Path string
}

// SavedLog is SaveLog's answer.
type SavedLog struct {
	Path  string // absolute
	Bytes int64
}

// ContainerLogList is the YARN containers of a job's application and their
// log files.
type ContainerLogList struct {
	JobID, JobName, AppID string
	FetchedAt             time.Time
	// Aggregated reports logs read from the log server (the application
	// ended) rather than from the NodeManagers.
	Aggregated bool
	Containers []ContainerLog
	// Notes say what could not be listed, and what a cluster lacks ("no
	// log server: yarn.log.server.web-service.url is not set").
	Notes []string
}

// ContainerLog is one container and its log files.
type ContainerLog struct {
	ID string
	// Role is "JobManager" (the application master) or "TaskManager".
	Role    string
	Attempt int
	Node    string // the NodeManager's id
	// Files are readable with ReadLog (Kind LogContainer, Ref.Container).
	Files []LogSource
}
