package diagnose

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// MaxLiveExceptions is how many entries one call asks the JobManager for.
const MaxLiveExceptions = 50

// Exceptions implements api.DiagnoseService: the JobManager's history while
// the application runs, merged with what state sync kept (which is all
// there is once the application ended).
func (rd *Inspector) Exceptions(ctx context.Context, ref string) (api.ExceptionHistory, error) {
	t, err := rd.resolve(ctx, ref, "exceptions")
	if err != nil {
		return api.ExceptionHistory{}, err
	}
	out := api.ExceptionHistory{JobID: t.job.ID, JobName: t.job.Name, FlinkJobID: t.job.FlinkJobID, FetchedAt: rd.now()}
	var kept []model.JobException
	err = rd.st.View(ctx, func(tx store.ReadTx) error {
		var err error
		kept, err = tx.Exceptions(t.job.ID)
		return err
	})
	if err != nil {
		return out, fmt.Errorf("exceptions of job %s: %w", t.job.Name, err)
	}
	var live []api.ExceptionEntry
	switch {
	case t.flink == nil || t.job.FlinkJobID == "":
		state := "has none yet"
		if t.app != nil {
			state = "is " + t.app.State
		}
		out.Notes = append(out.Notes, fmt.Sprintf("the JobManager is gone (the application %s): the history palink kept at sync time", state))
	default:
		ex, err := t.flink.Exceptions(ctx, t.job.FlinkJobID, MaxLiveExceptions)
		if err != nil {
			out.Notes = append(out.Notes, "the JobManager's history: "+shortCause(err)+": the history palink kept at sync time")
			break
		}
		out.Live = true
		out.Truncated = ex.History.Truncated
		live = LiveEntries(ex)
	}
	out.Entries = mergeExceptions(live, kept)
	return out, nil
}

// LiveEntries are a JobManager's exception history as entries: 2.x's
// history, or 1.x's root exception when its history is empty.
func LiveEntries(ex yarn.JobExceptions) []api.ExceptionEntry {
	var out []api.ExceptionEntry
	for _, e := range ex.History.Entries {
		entry := entryOf(e.ExceptionEntry)
		for _, c := range e.ConcurrentExceptions {
			entry.Concurrent = append(entry.Concurrent, entryOf(c))
		}
		out = append(out, entry)
	}
	if len(out) == 0 && ex.RootException != "" {
		out = append(out, withChain(api.ExceptionEntry{Time: ms(ex.Timestamp), Stacktrace: ex.RootException,
			Name: className(model.FirstLine(ex.RootException))}))
	}
	return out
}

func entryOf(e yarn.ExceptionEntry) api.ExceptionEntry {
	endpoint := e.Endpoint
	if endpoint == "" {
		endpoint = e.Location // 1.x
	}
	return withChain(api.ExceptionEntry{Time: ms(e.Timestamp), Name: e.ExceptionName, Stacktrace: e.Stacktrace,
		Task: e.TaskName, Endpoint: endpoint, TaskManager: e.TaskManagerID, Labels: e.FailureLabels})
}

// StoredEntry is an exception palink kept, as an entry.
func StoredEntry(e model.JobException) api.ExceptionEntry {
	entry := withChain(api.ExceptionEntry{Time: e.Time, Name: e.Name, Stacktrace: e.Stacktrace, Task: e.Task,
		Endpoint: e.Endpoint, TaskManager: e.TaskManager, Labels: e.Labels, Stored: true})
	for _, c := range e.Concurrent {
		entry.Concurrent = append(entry.Concurrent, StoredEntry(c))
	}
	return entry
}

func withChain(e api.ExceptionEntry) api.ExceptionEntry {
	e.Chain = Chain(e.Stacktrace, e.Name)
	if n := len(e.Chain); n > 0 {
		e.RootCause = e.Chain[n-1].String()
	}
	return e
}

// mergeExceptions joins the JobManager's entries with the kept ones (by
// time and name, the store's key), newest first; a kept entry the
// JobManager no longer has is marked Stored.
func mergeExceptions(live []api.ExceptionEntry, kept []model.JobException) []api.ExceptionEntry {
	seen := map[string]bool{}
	out := make([]api.ExceptionEntry, 0, len(live)+len(kept))
	for _, e := range live {
		seen[model.JobException{Time: e.Time, Name: e.Name}.Key()] = true
		out = append(out, e)
	}
	for _, k := range kept {
		if !seen[k.Key()] {
			out = append(out, StoredEntry(k))
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Time.After(out[b].Time) })
	return out
}

// Chain reads the exceptions of a Java stack trace, the outermost first:
// its first line and each "Caused by:" line, with a message that runs on
// over the lines before the next frame. A trace without one is name alone.
func Chain(trace, name string) []api.ExceptionCause {
	var out []api.ExceptionCause
	var cur []string // the lines of the exception being read
	flush := func() {
		if len(cur) == 0 {
			return
		}
		out = append(out, cause(strings.Join(cur, "\n")))
		cur = nil
	}
	inFrames := false
	for i, line := range strings.Split(strings.ReplaceAll(trace, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case i == 0 && t != "":
			cur = []string{t}
		case strings.HasPrefix(t, "Caused by: "):
			flush()
			cur, inFrames = []string{strings.TrimPrefix(t, "Caused by: ")}, false
		case strings.HasPrefix(t, "at ") || strings.HasPrefix(t, "... ") || strings.HasPrefix(t, "Suppressed: ") ||
			strings.HasPrefix(t, "- ") || t == "":
			if len(cur) > 0 {
				flush()
			}
			inFrames = true
		case !inFrames && len(cur) > 0:
			cur = append(cur, t) // a message on several lines
		}
	}
	flush()
	if len(out) == 0 && name != "" {
		out = append(out, cause(name))
	}
	return out
}

// cause splits "class: message" (a class has no spaces; a message may).
func cause(s string) api.ExceptionCause {
	c := className(s)
	msg := strings.TrimSpace(strings.TrimPrefix(s[len(c):], ":"))
	return api.ExceptionCause{Class: c, Message: msg}
}

// className is the exception class a "class: message" line starts with.
func className(s string) string {
	end := len(s)
	if i := strings.Index(s, ":"); i >= 0 {
		end = i
	}
	if i := strings.IndexAny(s[:end], " \t"); i >= 0 {
		end = i
	}
	return s[:end]
}
