package logs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// YARN container logs: while the application runs, its containers are
// the RM's (AttemptContainers) and their logs their NodeManagers'; once it
// ended, the RM knows only its attempts' AM containers, and the log server
// (yarn.log.server.web-service.url) has the aggregated logs. The
// TaskManagers' containers of an ended application are found by their
// ids: those the exception history kept, and those that follow the AM's
// (container numbers are sequential within an attempt), asked of the log
// server until maxMisses in a row are not there.

// Limits of one container list.
const (
	maxContainers = 64
	maxMisses     = 3
	// nodeTTL is how long a container's NodeManager is remembered, so that
	// reading a log chunk by chunk costs no RM request per chunk.
	nodeTTL = time.Minute
)

var reContainer = regexp.MustCompile(`^container_(?:e\d+_)?(\d+)_(\d+)_(\d+)_(\d+)$`)

// containerOf parses a container id: its application's cluster timestamp
// and sequence, its attempt and its number.
func containerOf(id string) (ts, seq string, attempt, n int, ok bool) {
	m := reContainer.FindStringSubmatch(id)
	if m == nil {
		return "", "", 0, 0, false
	}
	attempt, _ = strconv.Atoi(m[3])
	n, _ = strconv.Atoi(m[4])
	return m[1], m[2], attempt, n, true
}

// belongsTo reports whether container id is one of application appID's.
func belongsTo(id, appID string) bool {
	ts, seq, _, _, ok := containerOf(id)
	if !ok {
		return false
	}
	a, b, found := strings.Cut(strings.TrimPrefix(appID, "application_"), "_")
	if !found {
		return false
	}
	s1, err1 := strconv.Atoi(seq)
	s2, err2 := strconv.Atoi(b)
	return ts == a && err1 == nil && err2 == nil && s1 == s2
}

// sibling is container n of the same attempt as id.
func sibling(id string, n int) string {
	i := strings.LastIndexByte(id, '_')
	return fmt.Sprintf("%s_%06d", id[:i], n)
}

// where is where a container's logs are read: its NodeManager or the log
// server, and the node it ran on (the log server's nm.id).
type where struct {
	client  *yarn.ContainerLogs
	nodeID  string
	sizes   map[string]int64 // file sizes last seen
	expires time.Time
}

// nodes remembers where containers' logs are (nodeTTL).
type nodes struct {
	mu sync.Mutex
	m  map[string]*where
}

func (n *nodes) get(id string, now time.Time) *where {
	n.mu.Lock()
	defer n.mu.Unlock()
	if w := n.m[id]; w != nil && now.Before(w.expires) {
		return w
	}
	return nil
}

func (n *nodes) put(id string, w *where) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.m == nil || len(n.m) > 4096 {
		n.m = map[string]*where{}
	}
	n.m[id] = w
}

func (n *nodes) size(id, file string) int64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if w := n.m[id]; w != nil {
		return w.sizes[file]
	}
	return 0
}

func (n *nodes) setSize(id, file string, size int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if w := n.m[id]; w != nil && size > 0 {
		if w.sizes == nil {
			w.sizes = map[string]int64{}
		}
		w.sizes[file] = size
	}
}

// ContainerLogs implements api.DiagnoseService.
func (rd *Reader) ContainerLogs(ctx context.Context, ref string) (api.ContainerLogList, error) {
	j, cl, err := rd.logJob(ctx, ref)
	if err != nil {
		return api.ContainerLogList{}, err
	}
	out := api.ContainerLogList{JobID: j.ID, JobName: j.Name, AppID: j.AppID, FetchedAt: rd.now()}
	if j.AppID == "" {
		out.Notes = append(out.Notes, "the job has no YARN application yet")
		return out, nil
	}
	app, err := cl.RM.Application(ctx, j.AppID)
	cl.Observe(err, rd.now())
	if err != nil {
		return out, fmt.Errorf("container logs of job %s: application %s: %w", j.Name, j.AppID, err)
	}
	attempts, err := cl.RM.AppAttempts(ctx, app.ID)
	if err != nil || len(attempts) == 0 {
		return out, fmt.Errorf("container logs of job %s: attempts of %s: %w", j.Name, app.ID, orNone(err))
	}
	if app.State == yarn.AppRunning {
		rd.liveContainers(ctx, cl, app, attempts[len(attempts)-1], &out)
		return out, nil
	}
	out.Aggregated = true
	base, err := cl.LogServer(ctx, rd.now())
	if err != nil {
		out.Notes = append(out.Notes, err.Error()+"; `yarn logs -applicationId "+app.ID+"` reads them where HDFS is reachable")
		return out, nil
	}
	ls, err := cl.ContainerLogs(base)
	if err != nil {
		out.Notes = append(out.Notes, "log server "+base+": "+err.Error())
		return out, nil
	}
	rd.endedContainers(ctx, ls, j, app, attempts, &out)
	return out, nil
}

func orNone(err error) error {
	if err == nil {
		return errors.New("none")
	}
	return err
}

// liveContainers lists the current attempt's containers and their files
// from their NodeManagers.
func (rd *Reader) liveContainers(ctx context.Context, cl *clusters.Cluster, app yarn.Application, at yarn.AppAttempt, out *api.ContainerLogList) {
	conts, err := cl.RM.AttemptContainers(ctx, app.ID, at.ID)
	if err != nil {
		out.Notes = append(out.Notes, fmt.Sprintf("containers of attempt %s: %v", at.ID, err))
		return
	}
	if len(conts) > maxContainers {
		out.Notes = append(out.Notes, fmt.Sprintf("%d containers: the first %d listed", len(conts), maxContainers))
		conts = conts[:maxContainers]
	}
	list := make([]api.ContainerLog, len(conts))
	errs := make([]error, len(conts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, logListCalls)
	for i, c := range conts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			nm, err := cl.ContainerLogs(yarn.NodeManagerBase(c.NodeHTTPAddress))
			if err != nil {
				errs[i] = err
				return
			}
			w := &where{client: nm, nodeID: c.NodeID, expires: rd.now().Add(nodeTTL)}
			rd.nodes.put(c.ContainerID, w)
			files, err := nm.Files(ctx, c.ContainerID, "")
			list[i], errs[i] = rd.containerEntry(c.ContainerID, c.NodeID, files), err
		}()
	}
	wg.Wait()
	for i, c := range conts {
		if errs[i] != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("files of %s: %v", c.ContainerID, errs[i]))
			continue
		}
		out.Containers = append(out.Containers, list[i])
	}
}

// endedContainers lists an ended application's containers from the log
// server: the AM containers of its attempts, the TaskManagers the
// exception history names, and those that follow the last AM's.
func (rd *Reader) endedContainers(ctx context.Context, ls *yarn.ContainerLogs, j model.Job, app yarn.Application, attempts []yarn.AppAttempt, out *api.ContainerLogList) {
	nodeOf := map[string]string{}
	var ids []string
	add := func(id, node string) {
		if _, ok := nodeOf[id]; ok || !belongsTo(id, app.ID) || len(ids) >= maxContainers {
			return
		}
		nodeOf[id] = node
		ids = append(ids, id)
	}
	for _, a := range attempts {
		add(a.ContainerID, a.NodeID)
	}
	var kept []model.JobException
	_ = rd.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		kept, err = tx.Exceptions(j.ID)
		return err
	})
	for _, e := range kept {
		for _, x := range append([]model.JobException{e}, e.Concurrent...) {
			add(x.TaskManager, "")
		}
	}
	list := func(id string) (api.ContainerLog, error) {
		w := &where{client: ls, nodeID: nodeOf[id], expires: rd.now().Add(nodeTTL)}
		rd.nodes.put(id, w)
		files, err := ls.Files(ctx, id, nodeOf[id])
		return rd.containerEntry(id, nodeOf[id], files), err
	}
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
		c, err := list(id)
		if err != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("files of %s: %v", id, err))
			continue
		}
		out.Containers = append(out.Containers, c)
	}
	last := attempts[len(attempts)-1].ContainerID
	if _, _, _, _, ok := containerOf(last); !ok {
		return
	}
	for n, misses := 2, 0; misses < maxMisses && len(out.Containers) < maxContainers; n++ {
		id := sibling(last, n)
		if seen[id] {
			misses = 0
			continue
		}
		c, err := list(id)
		switch {
		case errors.Is(err, yarn.ErrNotFound):
			misses++
		case err != nil:
			out.Notes = append(out.Notes, fmt.Sprintf("files of %s: %v", id, err))
			return
		default:
			misses = 0
			out.Containers = append(out.Containers, c)
		}
	}
}

// containerEntry is one container's files, LOCAL before AGGREGATED when a
// NodeManager lists both, each file once.
func (rd *Reader) containerEntry(id, node string, lists []yarn.ContainerLogFiles) api.ContainerLog {
	_, _, attempt, n, _ := containerOf(id)
	c := api.ContainerLog{ID: id, Role: "TaskManager", Attempt: attempt, Node: node}
	if n == 1 {
		c.Role = "JobManager"
	}
	seen := map[string]bool{}
	for _, l := range lists {
		if c.Node == "" {
			c.Node = l.NodeID
		}
		for _, f := range l.Files {
			if seen[f.Name] {
				continue
			}
			seen[f.Name] = true
			rd.nodes.setSize(id, f.Name, f.Size)
			c.Files = append(c.Files, api.LogSource{Kind: api.LogContainer, Ref: api.LogRef{Container: id, Name: f.Name},
				Title: c.Role + " " + id + " " + f.Name, Size: f.Size, MTime: f.ModifiedTime()})
		}
	}
	return c
}

// containerSource finds where a container of the job's application has its
// logs now: its NodeManager while the application runs and the RM lists
// it, else the log server.
func (rd *Reader) containerSource(ctx context.Context, ref api.LogRef, jobRef string) (model.Job, *where, error) {
	j, cl, err := rd.logJob(ctx, jobRef)
	if err != nil {
		return j, nil, err
	}
	id := ref.Container
	if !belongsTo(id, j.AppID) {
		return j, nil, fmt.Errorf("container %q is not one of job %s's application %s: %w", id, j.Name, j.AppID, model.ErrNotFound)
	}
	if w := rd.nodes.get(id, rd.now()); w != nil {
		return j, w, nil
	}
	app, err := cl.RM.Application(ctx, j.AppID)
	cl.Observe(err, rd.now())
	if err != nil {
		return j, nil, fmt.Errorf("application %s: %w", j.AppID, err)
	}
	if app.State == yarn.AppRunning {
		_, _, attempt, _, _ := containerOf(id)
		conts, err := cl.RM.AttemptContainers(ctx, app.ID, strconv.Itoa(attempt))
		if err == nil {
			for _, c := range conts {
				if c.ContainerID == id {
					nm, err := cl.ContainerLogs(yarn.NodeManagerBase(c.NodeHTTPAddress))
					if err != nil {
						return j, nil, err
					}
					w := &where{client: nm, nodeID: c.NodeID, expires: rd.now().Add(nodeTTL)}
					rd.nodes.put(id, w)
					return j, w, nil
				}
			}
		}
	}
	base, err := cl.LogServer(ctx, rd.now())
	if err != nil {
		return j, nil, fmt.Errorf("container %s is no longer running and %w", id, err)
	}
	ls, err := cl.ContainerLogs(base)
	if err != nil {
		return j, nil, err
	}
	w := &where{client: ls, expires: rd.now().Add(nodeTTL)}
	rd.nodes.put(id, w)
	return j, w, nil
}

// containerReader reads one container log file. Reads that follow each
// other (a forward search, a copy) share one open stream, so that a whole
// file costs one request; other reads ask for just their chunk. Close ends
// the open stream.
type containerReader struct {
	rd   *Reader
	w    *where
	ref  api.LogRef
	st   *yarn.ContainerLogStream
	next int64 // the offset st is at
}

func (cr *containerReader) read(ctx context.Context, offset int64, tail bool, limit int64) (api.LogChunk, error) {
	limit = chunkLimit(limit)
	id, file := cr.ref.Container, cr.ref.Name
	if tail || cr.st == nil || offset != cr.next {
		cr.Close()
		r := yarn.ContainerLogRead{ContainerID: id, File: file, NodeID: cr.w.nodeID, Offset: offset, Tail: tail,
			SizeHint: cr.rd.nodes.size(id, file)}
		if tail {
			r.Limit = limit
			ch, err := cr.w.client.Read(ctx, r)
			cr.rd.nodes.setSize(id, file, ch.Size)
			return api.LogChunk{Data: ch.Data, Offset: ch.Offset, Size: ch.Size, More: ch.More}, err
		}
		st, err := cr.w.client.Open(ctx, r)
		if err != nil {
			return api.LogChunk{}, err
		}
		cr.st, cr.next = st, st.Offset
		cr.rd.nodes.setSize(id, file, st.Size)
	}
	data := make([]byte, min(limit, max(cr.st.Size-cr.next, 0)))
	n, err := io.ReadFull(cr.st, data)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		cr.Close()
		return api.LogChunk{}, err
	}
	ch := api.LogChunk{Data: data[:n], Offset: cr.next, Size: cr.st.Size}
	cr.next += int64(n)
	ch.More = cr.next < cr.st.Size
	return ch, nil
}

// Close ends the open stream, if any.
func (cr *containerReader) Close() {
	if cr.st != nil {
		cr.st.Close()
		cr.st = nil
	}
}

// readContainer is ReadLog for a container log: one chunk, one request.
func (rd *Reader) readContainer(ctx context.Context, r api.LogRequest) (api.LogChunk, error) {
	j, w, err := rd.containerSource(ctx, r.Log, r.JobRef)
	if err != nil {
		return api.LogChunk{}, fmt.Errorf("read %s of job %s: %w", Title(r.Log), r.JobRef, err)
	}
	id, file := r.Log.Container, r.Log.Name
	q := yarn.ContainerLogRead{ContainerID: id, File: file, NodeID: w.nodeID, Offset: max(r.Offset, 0), Tail: r.Tail,
		Limit: chunkLimit(r.Limit), SizeHint: rd.nodes.size(id, file)}
	ch, err := w.client.Read(ctx, q)
	if err != nil {
		return api.LogChunk{}, fmt.Errorf("read %s of job %s: %w", Title(r.Log), j.Name, err)
	}
	rd.nodes.setSize(id, file, ch.Size)
	return api.LogChunk{Data: ch.Data, Offset: ch.Offset, Size: ch.Size, More: ch.More}, nil
}

// openContainer resolves a container log for a reader that reads it
// through (a search, a copy); the caller closes it.
func (rd *Reader) openContainer(ctx context.Context, ref api.LogRef, jobRef string) (model.Job, *containerReader, error) {
	j, w, err := rd.containerSource(ctx, ref, jobRef)
	if err != nil {
		return j, nil, err
	}
	return j, &containerReader{rd: rd, w: w, ref: ref}, nil
}
