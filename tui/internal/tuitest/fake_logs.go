package tuitest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

// logPart is the fake's logs: its part of api.Service and the setters of its logs.
type logPart struct{ f *Fake }

// fakeLog is one log of the fake service: its content, which tests may
// grow (for follow mode), served by range like the real service.
type fakeLog struct {
	data []byte
}

// logKey names a log of a job in the fake.
type logKey struct {
	job string
	ref api.LogRef
}

// fakeLogs is the fake's log state; the zero value has no logs.
type fakeLogs struct {
	files map[logKey]*fakeLog
	// lists are what Logs answers, by job id.
	lists map[string]api.LogList
	reads int // ReadLog calls
}

// SetLog installs a log of a job, listed with the given title.
func (p *logPart) SetLog(jobID string, kind api.LogSourceKind, ref api.LogRef, title string, data []byte) {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.logs.files == nil {
		f.logs.files = map[logKey]*fakeLog{}
		f.logs.lists = map[string]api.LogList{}
	}
	f.logs.files[logKey{jobID, ref}] = &fakeLog{data: data}
	l := f.logs.lists[jobID]
	l.JobID = jobID
	l.Sources = append(l.Sources, api.LogSource{Kind: kind, Ref: ref, Title: title, Size: int64(len(data)), MTime: Now})
	f.logs.lists[jobID] = l
}

// AppendLog grows a log, as a running process does.
func (p *logPart) AppendLog(jobID string, ref api.LogRef, data string) {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	lg := f.logs.files[logKey{jobID, ref}]
	lg.data = append(lg.data, data...)
}

// ReplaceLog puts new content in place of a log, as a rotation does: the
// process renames its file and starts a new one under the same name.
func (p *logPart) ReplaceLog(jobID string, ref api.LogRef, data []byte) {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.logs.files[logKey{jobID, ref}].data = bytes.Clone(data)
}

// LogReads counts ReadLog calls.
func (p *logPart) LogReads() int {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return f.logs.reads
}

func (p *logPart) logFile(ref string, r api.LogRef) (string, *fakeLog, error) {
	f := p.f
	i, err := f.find(ref)
	if err != nil {
		return "", nil, err
	}
	id := f.Jobs[i].ID
	lg := f.logs.files[logKey{id, r}]
	if lg == nil {
		return id, nil, fmt.Errorf("log %+v of job %s: not found", r, ref)
	}
	return id, lg, nil
}

// Logs implements api.Service.
func (p *logPart) Logs(ctx context.Context, ref string) (api.LogList, error) {
	f := p.f
	f.record("Logs %s", ref)
	if err := f.wait(ctx); err != nil {
		return api.LogList{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	i, err := f.find(ref)
	if err != nil {
		return api.LogList{}, err
	}
	j := f.Jobs[i]
	l, ok := f.logs.lists[j.ID]
	if !ok {
		// What core answers when the application ended, or when the
		// JobManager does not answer.
		app := "its application"
		if j.AppID != "" {
			app = "application " + j.AppID
		}
		why := fmt.Sprintf("%s is %s: its JobManager and TaskManagers are gone; the YARN container logs remain", app, j.State)
		if j.State == model.StateRunning {
			why = "JobManager logs: GET http://node7.prod:8081/jobmanager/logs: connection refused"
		}
		return api.LogList{JobID: j.ID, JobName: j.Name, AppID: j.AppID, FlinkError: why, FetchedAt: Now}, nil
	}
	l.JobName, l.AppID, l.FetchedAt = j.Name, j.AppID, Now
	for k, s := range l.Sources {
		if lg := f.logs.files[logKey{j.ID, s.Ref}]; lg != nil && s.Kind != api.LogContainer {
			l.Sources[k].Size = int64(len(lg.data))
		}
	}
	l.Sources = append([]api.LogSource(nil), l.Sources...)
	return l, nil
}

// ReadLog implements api.Service.
func (p *logPart) ReadLog(ctx context.Context, r api.LogRequest) (api.LogChunk, error) {
	f := p.f
	f.record("ReadLog %s %+v %d %v", r.JobRef, r.Log, r.Offset, r.Tail)
	if err := f.wait(ctx); err != nil {
		return api.LogChunk{}, err
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.logs.reads++
	_, lg, err := f.logFile(r.JobRef, r.Log)
	if err != nil {
		return api.LogChunk{}, err
	}
	return chunkOf(lg.data, r), nil
}

// chunkOf serves a range of data as the service does.
func chunkOf(data []byte, r api.LogRequest) api.LogChunk {
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
	return api.LogChunk{Data: bytes.Clone(data[off:end]), Offset: off, Size: size, More: end < size}
}

// FindInLog implements api.Service.
func (p *logPart) FindInLog(ctx context.Context, s api.LogSearch) (api.LogMatch, error) {
	f := p.f
	f.record("FindInLog %s %q from %d back=%v", s.JobRef, s.Query.String(), s.From, s.Backward)
	if err := f.wait(ctx); err != nil {
		return api.LogMatch{}, err
	}
	f.Mu.Lock()
	_, lg, err := f.logFile(s.JobRef, s.Log)
	var data []byte
	if err == nil {
		data = bytes.Clone(lg.data)
	}
	f.Mu.Unlock()
	if err != nil {
		return api.LogMatch{}, err
	}
	return findIn(data, s), nil
}

// findIn is a plain, whole-file FindInLog for the fake: a reference the
// viewer's chunked behaviour is checked against.
func findIn(data []byte, s api.LogSearch) api.LogMatch {
	size := int64(len(data))
	var starts []int64
	for off := int64(0); off < size; {
		starts = append(starts, off)
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += int64(i) + 1
	}
	check := func(st int64) (api.LogMatch, bool) {
		end := st + int64(bytes.IndexByte(data[st:], '\n'))
		if end < st {
			end = size
		}
		line := data[st:end]
		a, b, ok := s.Query.Match(line)
		return api.LogMatch{Found: ok, Offset: st, Line: string(line), Start: a, End: b, Size: size}, ok
	}
	if s.Backward {
		for i := len(starts) - 1; i >= 0; i-- {
			if starts[i] < s.From {
				if m, ok := check(starts[i]); ok {
					return m
				}
			}
		}
	} else {
		for _, st := range starts {
			if st >= s.From {
				if m, ok := check(st); ok {
					return m
				}
			}
		}
	}
	return api.LogMatch{Exhausted: true, Size: size}
}

// SaveLog implements api.Service.
func (p *logPart) SaveLog(ctx context.Context, r api.SaveLogRequest) (api.SavedLog, error) {
	f := p.f
	f.record("SaveLog %s %+v %s", r.JobRef, r.Log, r.Path)
	if err := f.wait(ctx); err != nil {
		return api.SavedLog{}, err
	}
	f.Mu.Lock()
	_, lg, err := f.logFile(r.JobRef, r.Log)
	var data []byte
	if err == nil {
		data = bytes.Clone(lg.data)
	}
	f.Mu.Unlock()
	if err != nil {
		return api.SavedLog{}, err
	}
	path, err := filepath.Abs(r.Path)
	if err != nil {
		return api.SavedLog{}, err
	}
	w, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return api.SavedLog{}, fmt.Errorf("save log of job %s: %w", r.JobRef, err)
	}
	defer w.Close()
	_, err = w.Write(data)
	return api.SavedLog{Path: path, Bytes: int64(len(data))}, err
}

// LogLines makes n log4j-looking lines starting at a time, with ERROR lines
// and a stack trace where errAt says (line numbers).
func LogLines(n int, errAt ...int) []byte {
	var b bytes.Buffer
	t := Now.Add(-time.Hour)
	isErr := map[int]bool{}
	for _, e := range errAt {
		isErr[e] = true
	}
	for i := range n {
		ts := t.Add(time.Duration(i) * time.Second).UTC().Format("2006-01-02 15:04:05,000")
		if isErr[i] {
			fmt.Fprintf(&b, "%s ERROR o.a.f.runtime.taskmanager.Task [] - Lookup failed (line %d)\n", ts, i)
			fmt.Fprintf(&b, "java.net.SocketTimeoutException: Read timed out\n\tat java.net.SocketInputStream.read(SocketInputStream.java:171)\n")
			continue
		}
		fmt.Fprintf(&b, "%s INFO  CheckpointCoordinator [] - Completed checkpoint %d (line %d)\n", ts, 8000+i, i)
	}
	return b.Bytes()
}

// SetLink lists a YARN container log page of a job.
func (p *logPart) SetLink(jobID, title, url string) {
	f := p.f
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.logs.lists == nil {
		f.logs.files = map[logKey]*fakeLog{}
		f.logs.lists = map[string]api.LogList{}
	}
	l := f.logs.lists[jobID]
	l.JobID = jobID
	l.Sources = append(l.Sources, api.LogSource{Kind: api.LogContainer, Title: title, URL: url, Size: -1})
	f.logs.lists[jobID] = l
}
