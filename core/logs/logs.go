package logs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/journal"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// Logs are read through the JobManager's REST API of the job's running
// application, in chunks of at most api.MaxLogChunk: no call holds a whole
// log, whatever its size. The application is looked up afresh for every
// call, since its tracking URL changes when the JobManager fails over.

// Reader reads the logs of jobs, in bounded chunks, through the cluster
// that runs them.
type Reader struct {
	st       store.Store
	clusters map[string]*clusters.Cluster
	now      func() time.Time
	nodes    nodes // where containers' logs are (containers.go)
}

// New builds a log reader. It does no I/O.
func New(st store.Store, cs map[string]*clusters.Cluster, now func() time.Time) *Reader {
	if now == nil {
		now = time.Now
	}
	return &Reader{st: st, clusters: cs, now: now}
}

// logListCalls bounds the TaskManager log lists fetched at once.
const logListCalls = 8

// logJob resolves a job and its cluster for a log call.
func (rd *Reader) logJob(ctx context.Context, ref string) (model.Job, *clusters.Cluster, error) {
	var j model.Job
	err := rd.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		j, err = journal.FindJob(tx, ref)
		return err
	})
	if err != nil {
		return j, nil, err
	}
	cl := rd.clusters[j.Cluster]
	if cl == nil {
		return j, nil, fmt.Errorf("logs of job %s: cluster %q is not configured", j.Name, j.Cluster)
	}
	return j, cl, nil
}

// logFlink returns the JobManager client of the job's running application.
func (rd *Reader) logFlink(ctx context.Context, ref string) (model.Job, *yarn.Flink, error) {
	j, cl, err := rd.logJob(ctx, ref)
	if err != nil {
		return j, nil, err
	}
	if j.AppID == "" {
		return j, nil, fmt.Errorf("logs of job %s: it has no YARN application yet", j.Name)
	}
	app, err := cl.RM.Application(ctx, j.AppID)
	cl.Observe(err, rd.now())
	if err != nil {
		return j, nil, fmt.Errorf("logs of job %s: application %s: %w", j.Name, j.AppID, err)
	}
	if app.State != yarn.AppRunning {
		return j, nil, fmt.Errorf("logs of job %s: %w", j.Name, notRunningError(app))
	}
	f, err := cl.Flink(app)
	if err != nil {
		return j, nil, fmt.Errorf("logs of job %s: %w", j.Name, err)
	}
	return j, f, nil
}

func notRunningError(app yarn.Application) error {
	return fmt.Errorf("application %s is %s: its JobManager and TaskManagers are gone; the YARN container logs remain", app.ID, app.State)
}

// Logs implements Service.
func (rd *Reader) Logs(ctx context.Context, ref string) (api.LogList, error) {
	j, cl, err := rd.logJob(ctx, ref)
	if err != nil {
		return api.LogList{}, err
	}
	out := api.LogList{JobID: j.ID, JobName: j.Name, AppID: j.AppID, FetchedAt: rd.now()}
	if j.AppID == "" {
		out.FlinkError = "the job has no YARN application yet"
		return out, nil
	}
	app, err := cl.RM.Application(ctx, j.AppID)
	cl.Observe(err, rd.now())
	if err != nil {
		return out, fmt.Errorf("logs of job %s: application %s: %w", j.Name, j.AppID, err)
	}
	var (
		wg       sync.WaitGroup
		attempts []yarn.AppAttempt
		attErr   error
		flink    []api.LogSource
		flinkErr error
	)
	wg.Add(1)
	go func() { defer wg.Done(); attempts, attErr = cl.RM.AppAttempts(ctx, app.ID) }()
	if app.State == yarn.AppRunning {
		f, err := cl.Flink(app)
		if err != nil {
			flinkErr = err
		} else {
			flink, flinkErr = flinkLogSources(ctx, f)
		}
	} else {
		flinkErr = notRunningError(app)
	}
	wg.Wait()
	out.Sources = append(flink, containerLogSources(app, attempts)...)
	var msgs []string
	if flinkErr != nil {
		msgs = append(msgs, flinkErr.Error())
	}
	if attErr != nil {
		msgs = append(msgs, fmt.Sprintf("application attempts of %s: %v", app.ID, attErr))
	}
	out.FlinkError = strings.Join(msgs, "; ")
	return out, nil
}

// flinkLogSources lists the JobManager's logs, then every TaskManager's.
// A list that fails still leaves the main log and stdout, which Flink
// serves on their own routes; the error says what is missing.
func flinkLogSources(ctx context.Context, f *yarn.Flink) ([]api.LogSource, error) {
	var (
		wg            sync.WaitGroup
		jmFiles       []yarn.LogInfo
		tms           []yarn.TaskManager
		jmErr, tmsErr error
	)
	wg.Add(2)
	go func() { defer wg.Done(); jmFiles, jmErr = f.JobManagerLogs(ctx) }()
	go func() { defer wg.Done(); tms, tmsErr = f.TaskManagers(ctx) }()
	wg.Wait()
	if jmErr != nil && tmsErr != nil && ctx.Err() == nil {
		// Nothing answered: the JobManager is unreachable.
		return nil, fmt.Errorf("JobManager logs: %w", jmErr)
	}
	errs := []error{}
	if jmErr != nil {
		errs = append(errs, fmt.Errorf("JobManager log list: %w", jmErr))
	}
	if tmsErr != nil {
		errs = append(errs, fmt.Errorf("TaskManager list: %w", tmsErr))
	}
	out := processLogSources(api.LogJobManager, "", "jobmanager", jmFiles)

	slices.SortFunc(tms, func(a, b yarn.TaskManager) int { return strings.Compare(a.ID, b.ID) })
	files := make([][]yarn.LogInfo, len(tms))
	fileErrs := make([]error, len(tms))
	sem := make(chan struct{}, logListCalls)
	for i, tm := range tms {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			files[i], fileErrs[i] = f.TaskManagerLogs(ctx, tm.ID)
		}()
	}
	wg.Wait()
	for i, tm := range tms {
		if fileErrs[i] != nil {
			errs = append(errs, fmt.Errorf("log list of TaskManager %s: %w", tm.ID, fileErrs[i]))
		}
		out = append(out, processLogSources(api.LogTaskManager, tm.ID, "taskmanager", files[i])...)
	}
	return out, errors.Join(errs...)
}

// processLogSources lists one process's logs: the main log and stdout first
// (sized from the directory listing when it has the usual file names), then
// the other files of its log directory.
func processLogSources(kind api.LogSourceKind, tm, base string, files []yarn.LogInfo) []api.LogSource {
	who := "JobManager"
	if tm != "" {
		who = "TaskManager " + tm
	}
	main := api.LogSource{Kind: kind, Ref: api.LogRef{TaskManager: tm}, Title: who + " log", Size: -1}
	stdout := api.LogSource{Kind: kind, Ref: api.LogRef{TaskManager: tm, Stdout: true}, Title: who + " stdout", Size: -1}
	var rest []api.LogSource
	for _, f := range files {
		mtime := msTime(f.MTime)
		switch f.Name {
		case base + ".log":
			main.Size, main.MTime = f.Size, mtime
		case base + ".out":
			stdout.Size, stdout.MTime = f.Size, mtime
		default:
			rest = append(rest, api.LogSource{Kind: kind, Ref: api.LogRef{TaskManager: tm, Name: f.Name},
				Title: who + " " + f.Name, Size: f.Size, MTime: mtime})
		}
	}
	slices.SortFunc(rest, func(a, b api.LogSource) int { return strings.Compare(a.Ref.Name, b.Ref.Name) })
	return append([]api.LogSource{main, stdout}, rest...)
}

// containerLogSources lists the YARN log pages: the AM container's (the
// JobManager's), then every attempt's that differs from it.
func containerLogSources(app yarn.Application, attempts []yarn.AppAttempt) []api.LogSource {
	var out []api.LogSource
	seen := map[string]bool{}
	add := func(title, url string, started int64) {
		if url == "" || seen[url] {
			return
		}
		seen[url] = true
		out = append(out, api.LogSource{Kind: api.LogContainer, Title: title, URL: url, Size: -1, MTime: msTime(started)})
	}
	add("AM container (JobManager), current attempt", app.AMContainerLogs, app.StartedTime)
	for i := len(attempts) - 1; i >= 0; i-- { // newest first
		a := attempts[i]
		add(fmt.Sprintf("AM container %s, attempt %s (%s)", a.ContainerID, a.ID, strings.ToLower(a.AppAttemptState)), a.LogsLink, a.StartTime)
	}
	return out
}

// checkLogRef refuses names that could leave the log directory.
func checkLogRef(r api.LogRef) error {
	if r.Container != "" {
		if _, _, _, _, ok := containerOf(r.Container); !ok {
			return fmt.Errorf("container %q: not a YARN container id", r.Container)
		}
		if r.Name == "" {
			return errors.New("a container log needs a file name from the container's list")
		}
	}
	if r.Name == "" {
		return nil
	}
	if r.Stdout {
		return errors.New("a log is either stdout or a named file, not both")
	}
	if r.Name == "." || r.Name == ".." || strings.ContainsAny(r.Name, "/\\") {
		return fmt.Errorf("log file name %q: give a name from the log list", r.Name)
	}
	return nil
}

func yarnLogFile(r api.LogRef) yarn.LogFile {
	return yarn.LogFile{TaskManager: r.TaskManager, Name: r.Name, Stdout: r.Stdout}
}

// chunkLimit applies LogRequest.Limit's default and cap.
func chunkLimit(n int64) int64 {
	switch {
	case n <= 0:
		return api.DefaultLogChunk
	case n > api.MaxLogChunk:
		return api.MaxLogChunk
	}
	return n
}

// ReadFunc reads one chunk of a log that a caller has already resolved.
type ReadFunc func(ctx context.Context, offset int64, tail bool, limit int64) (api.LogChunk, error)

// flinkReader reads one log of a resolved JobManager.
func flinkReader(f *yarn.Flink, r api.LogRef) ReadFunc {
	file := yarnLogFile(r)
	return func(ctx context.Context, offset int64, tail bool, limit int64) (api.LogChunk, error) {
		ch, err := f.ReadLog(ctx, file, yarn.LogRange{Offset: offset, Tail: tail, Limit: chunkLimit(limit)})
		return api.LogChunk{Data: ch.Data, Offset: ch.Offset, Size: ch.Size, More: ch.More}, err
	}
}

// ReadLog implements Service.
func (rd *Reader) ReadLog(ctx context.Context, r api.LogRequest) (api.LogChunk, error) {
	if err := checkLogRef(r.Log); err != nil {
		return api.LogChunk{}, fmt.Errorf("read log of job %s: %w", r.JobRef, err)
	}
	if r.Log.Container != "" {
		return rd.readContainer(ctx, r)
	}
	j, f, err := rd.logFlink(ctx, r.JobRef)
	if err != nil {
		return api.LogChunk{}, err
	}
	ch, err := flinkReader(f, r.Log)(ctx, max(r.Offset, 0), r.Tail, r.Limit)
	if err != nil {
		return api.LogChunk{}, fmt.Errorf("job %s: %w", j.Name, err)
	}
	return ch, nil
}

// FindInLog implements Service.
func (rd *Reader) FindInLog(ctx context.Context, s api.LogSearch) (api.LogMatch, error) {
	if err := checkLogRef(s.Log); err != nil {
		return api.LogMatch{}, fmt.Errorf("search log of job %s: %w", s.JobRef, err)
	}
	read, done, name, err := rd.resolveReader(ctx, s.Log, s.JobRef)
	if err != nil {
		return api.LogMatch{}, err
	}
	defer done()
	m, err := scanLog(ctx, read, s)
	if err != nil {
		return m, fmt.Errorf("search %q in a log of job %s: %w", s.Query, name, err)
	}
	return m, nil
}

// SaveLog implements Service: the JobManager client is resolved once, then
// the file is copied chunk by chunk.
func (rd *Reader) SaveLog(ctx context.Context, r api.SaveLogRequest) (api.SavedLog, error) {
	if err := checkLogRef(r.Log); err != nil {
		return api.SavedLog{}, fmt.Errorf("save log of job %s: %w", r.JobRef, err)
	}
	read, done, name, err := rd.resolveReader(ctx, r.Log, r.JobRef)
	if err != nil {
		return api.SavedLog{}, err
	}
	defer done()
	s, err := Save(ctx, read, r.Path)
	if err != nil {
		return s, fmt.Errorf("save %s of job %s: %w", Title(r.Log), name, err)
	}
	return s, nil
}

// resolveReader resolves a log once for a caller that reads it through:
// Flink's through the JobManager, a container's through its NodeManager
// or the log server (one stream for consecutive reads). done releases it.
func (rd *Reader) resolveReader(ctx context.Context, ref api.LogRef, jobRef string) (ReadFunc, func(), string, error) {
	if ref.Container != "" {
		j, cr, err := rd.openContainer(ctx, ref, jobRef)
		if err != nil {
			return nil, nil, j.Name, fmt.Errorf("%s of job %s: %w", Title(ref), jobRef, err)
		}
		return cr.read, cr.Close, j.Name, nil
	}
	j, f, err := rd.logFlink(ctx, jobRef)
	if err != nil {
		return nil, nil, j.Name, err
	}
	return flinkReader(f, ref), func() {}, j.Name, nil
}

// Title names a log in messages.
func Title(r api.LogRef) string {
	if r.Container != "" {
		return "container " + r.Container + " log " + r.Name
	}
	return yarnLogFile(r).String()
}

// Save copies a log into a new file at path, chunk by chunk, up to the
// size the file had when the copy began (a log that keeps growing would
// otherwise never end). A failed copy removes the partial file.
func Save(ctx context.Context, read ReadFunc, path string) (api.SavedLog, error) {
	path, err := expandPath(path)
	if err != nil {
		return api.SavedLog{}, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return api.SavedLog{}, err
	}
	n, err := copyLog(ctx, read, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return api.SavedLog{}, fmt.Errorf("%s: %w", path, err)
	}
	return api.SavedLog{Path: path, Bytes: n}, nil
}

func copyLog(ctx context.Context, read ReadFunc, w io.Writer) (int64, error) {
	var off int64
	limit := int64(-1)
	for {
		ask := int64(api.MaxLogChunk)
		if limit >= 0 {
			ask = min(ask, limit-off)
		}
		ch, err := read(ctx, off, false, ask)
		if err != nil {
			return off, err
		}
		if limit < 0 {
			limit = ch.Size
		}
		if len(ch.Data) > 0 && ch.Offset != off {
			return off, fmt.Errorf("asked for offset %d, got %d", off, ch.Offset)
		}
		if _, err := w.Write(ch.Data); err != nil {
			return off, err
		}
		off += int64(len(ch.Data))
		if len(ch.Data) == 0 || !ch.More || (limit >= 0 && off >= limit) {
			return off, nil
		}
	}
}

// expandPath makes a path absolute, expanding a leading ~/.
func expandPath(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", errors.New("no file name given")
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(home, p[1:])
	}
	return filepath.Abs(p)
}

// msTime is a wire time in milliseconds since the epoch; 0 is no time.
func msTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}
