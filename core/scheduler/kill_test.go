package scheduler

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/decide"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// What a KILL records of the job's checkpoints: the JobManager's last
// word, heard while the kill lands, and how the run ended.

const (
	chk4            = "hdfs:///flink/checkpoints/orders/chk-4"
	chk9            = "hdfs:///flink/checkpoints/orders/chk-9"
	checkpointsPath = "/jm/" + prevApp + "/jobs/" + prevJob + "/checkpoints"
	killPath        = "/ws/v1/cluster/apps/" + prevApp + "/state"
)

// killable is a RUNNING job of the fake's application prevApp, run with
// RETAIN_ON_CANCELLATION, whose newest checkpoint palink knows is chk-5
// (its run's end not yet seen); sync last saw Flink say RESTARTING while
// palink expected RUNNING.
func killable() model.Job {
	j := running()
	j.Config = map[string]string{decide.RetentionKey: "RETAIN_ON_CANCELLATION"}
	j.FlinkState = "RESTARTING"
	j.Drift = &model.Drift{Expected: "RUNNING", Observed: "RESTARTING", Since: time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)}
	return j
}

func discarded(id int64, path string) *yarn.Checkpoint {
	cp := completed(id, path, false)
	cp.Discarded = true
	return cp
}

// pathless is a completed checkpoint whose JobManager names no external
// path: nothing a restore could name.
func pathless(id int64) *yarn.Checkpoint { return completed(id, "", false) }

// statsOf is what a JobManager reports of a job whose newest completed
// checkpoint is cp (none: nil).
func statsOf(cp *yarn.Checkpoint) yarn.CheckpointStats {
	return yarn.CheckpointStats{Latest: yarn.LatestCheckpoints{Completed: cp}}
}

// lastWord is the log line of a kill that heard of cp after it read
// before (nil: it read nothing before).
func lastWord(cp, before *yarn.Checkpoint) string {
	if before == nil {
		return "the JobManager's last word: checkpoint " + itoa(cp.ID) + " at " + cp.ExternalPath
	}
	return "the JobManager's last word: checkpoint " + itoa(cp.ID) + " at " + cp.ExternalPath +
		", completed after checkpoint " + itoa(before.ID) + " read before the kill (which it may have subsumed)"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// lastWords are the command's log lines about the JobManager's last word.
func lastWords(c model.Command) []string {
	var out []string
	for _, l := range logTexts(c) {
		if strings.Contains(l, "last word") {
			out = append(out, l)
		}
	}
	return out
}

// pointPaths are the paths of the job's restore points as the store
// records them: what restart, resubmit and the policy may choose from.
func (b *bed) pointPaths() []string {
	b.t.Helper()
	var rps []model.RestorePoint
	if err := b.st.View(b.ctx, func(tx store.ReadTx) error {
		var err error
		rps, err = tx.RestorePoints(b.job.ID)
		return err
	}); err != nil {
		b.t.Fatal(err)
	}
	var out []string
	for _, rp := range rps {
		out = append(out, rp.Path)
	}
	return out
}

// TestKillRecordsTheJobManagersLastWord: a kill of a per-job cluster reads
// the newest checkpoint, then watches the JobManager until the kill lands;
// a newer checkpoint completed meanwhile (which may have subsumed the one
// read first) becomes the job's latest, stamped KILLED_BY_YARN with the
// job's retention, and the log says so. A discarded or path-less one is
// never recorded; one no newer changes nothing.
func TestKillRecordsTheJobManagersLastWord(t *testing.T) {
	for _, tc := range []struct {
		name           string
		before, during *yarn.Checkpoint // what the JobManager reports when the kill reads it first, and while it lands
		latest         string           // the job's latest checkpoint after the kill
		log            string           // the log's line of the last word ("" none)
	}{
		{"a newer checkpoint completed while the kill was on its way", completed(5, chk5, false), completed(7, chk7, false),
			chk7, lastWord(completed(7, chk7, false), completed(5, chk5, false))},
		{"the job's first checkpoint completed while the kill was on its way", nil, completed(7, chk7, false),
			chk7, lastWord(completed(7, chk7, false), nil)},
		{"nothing newer", completed(5, chk5, false), completed(5, chk5, false), chk5, ""},
		{"the newer one was discarded", completed(5, chk5, false), discarded(7, chk7), chk5, ""},
		{"the newer one has no path", completed(5, chk5, false), pathless(7), chk5, ""},
		// Without a checkpoint directory (JobManagerCheckpointStorage) Flink
		// names every checkpoint so: it lives in the JobManager's memory
		// and dies with it.
		{"the newer one lived in the JobManager's memory", completed(5, chk5, false),
			completed(7, "<checkpoint-not-externally-addressable>", false), chk5, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := killable()
			if tc.before == nil {
				j.LatestCheckpoint = nil
			}
			b := newBed(t, j, nil)
			a := b.f.add(prevApp, yarn.AppRunning, nil, yarn.JobOverview{ID: prevJob, State: "RUNNING"})
			a.stats[prevJob] = statsOf(tc.before)
			b.f.onRequest(http.MethodPut, killPath, func(int, http.ResponseWriter, *http.Request) bool {
				b.f.mu.Lock()
				a.stats[prevJob] = statsOf(tc.during)
				n := len(b.f.hits["GET "+checkpointsPath])
				b.f.mu.Unlock()
				// The kill lands once the JobManager told the watch what
				// it reports now: its second poll after the change began
				// after the first had its answer.
				for deadline := time.Now().Add(10 * time.Second); b.f.asked(checkpointsPath) < n+2 && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
				return false
			})
			x := b.exec(model.CmdKill, model.CommandParams{AppID: prevApp, FlinkJobID: prevJob})
			err := x.runKill(b.ctx)
			b.s.finish(x, err)
			got, c := b.stored(x)
			if err != nil || c.State != model.CmdSucceeded || got.State != model.StateKilled {
				t.Fatalf("kill: %v; command %s, job %s\n%s", err, c.State, got.State, logOf(c))
			}
			if a.snapshot(false).State != yarn.AppKilled {
				t.Fatalf("the application is %s, not killed", a.snapshot(false).State)
			}
			cp := got.LatestCheckpoint
			if cp == nil || cp.Path != tc.latest || cp.RunEnd != model.EndKilled || cp.Retention != model.RetainOnCancellation {
				t.Errorf("latest checkpoint %+v; want %s, KILLED_BY_YARN under RETAIN_ON_CANCELLATION\n%s", cp, tc.latest, logOf(c))
			}
			var want []string
			if tc.log != "" {
				want = []string{tc.log}
			}
			if words := lastWords(c); !slices.Equal(words, want) {
				t.Errorf("the log's last word: %q, want %q\n%s", words, want, logOf(c))
			}
			if tc.during != nil && tc.latest != tc.during.ExternalPath && slices.Contains(b.pointPaths(), tc.during.ExternalPath) {
				t.Errorf("%q is recorded as a restore point: %q", tc.during.ExternalPath, b.pointPaths())
			}
		})
	}
}

// TestKillOfASessionJobEndsItsRunCanceled: a session job's kill cancels
// only its Flink job; the newest checkpoint its JobManager reports after
// the cancel is recorded, stamped CANCELED (its retention decides whether
// Flink kept it), and the session application keeps running.
func TestKillOfASessionJobEndsItsRunCanceled(t *testing.T) {
	j := killable()
	j.Session = true
	b := newBed(t, j, nil)
	a := b.f.add(prevApp, yarn.AppRunning, nil, yarn.JobOverview{ID: prevJob, State: "RUNNING"})
	a.stats[prevJob] = statsOf(completed(5, chk5, false))
	b.f.onRequest(http.MethodPatch, "/jm/"+prevApp+"/jobs/"+prevJob, func(int, http.ResponseWriter, *http.Request) bool {
		// Checkpoint 7 completed between the read and the cancel.
		b.f.mu.Lock()
		a.stats[prevJob] = statsOf(completed(7, chk7, false))
		b.f.mu.Unlock()
		return false
	})
	x := b.exec(model.CmdKill, model.CommandParams{AppID: prevApp, FlinkJobID: prevJob})
	err := x.runKill(b.ctx)
	b.s.finish(x, err)
	got, c := b.stored(x)
	if err != nil || c.State != model.CmdSucceeded || got.State != model.StateKilled {
		t.Fatalf("kill: %v; command %s, job %s\n%s", err, c.State, got.State, logOf(c))
	}
	if n := b.f.sent(http.MethodPut, killPath); n != 0 || a.snapshot(false).State != yarn.AppRunning {
		t.Errorf("the session application was killed (%d kills; %s)", n, a.snapshot(false).State)
	}
	cp := got.LatestCheckpoint
	if cp == nil || cp.Path != chk7 || cp.RunEnd != model.EndCanceled || cp.Retention != model.RetainOnCancellation {
		t.Errorf("latest checkpoint %+v; want %s, CANCELED under RETAIN_ON_CANCELLATION\n%s", cp, chk7, logOf(c))
	}
	if words, want := lastWords(c), []string{lastWord(completed(7, chk7, false), completed(5, chk5, false))}; !slices.Equal(words, want) {
		t.Errorf("the log's last word: %q, want %q", words, want)
	}
}

// TestNoteLastWord: of what the JobManager last said, only a completed
// checkpoint with a path, not discarded and newer than the one read before
// the kill, replaces it as the job's latest; the log says which, and after
// which. Anything else leaves the record and the log as they were.
func TestNoteLastWord(t *testing.T) {
	c5, c7 := completed(5, chk5, false), completed(7, chk7, false)
	for _, tc := range []struct {
		name          string
		before, heard *yarn.Checkpoint
		latest, log   string
		notRecorded   string // a path that must not be a restore point
		latestCheckID int64
	}{
		{"newer than the one read before", c5, c7, chk7, lastWord(c7, c5), "", 7},
		{"nothing read before", nil, c7, chk7, lastWord(c7, nil), "", 7},
		{"the JobManager said nothing", c5, nil, chk5, "", "", 5},
		{"the same one", c5, completed(5, chk5, false), chk5, "", "", 5},
		{"an older one", c5, completed(4, chk4, false), chk5, "", chk4, 5},
		{"a discarded one", c5, discarded(7, chk7), chk5, "", chk7, 5},
		{"a discarded one, nothing read before", nil, discarded(7, chk7), chk5, "", chk7, 5},
		{"one without a path", c5, pathless(7), chk5, "", "", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, killable(), nil)
			x := b.exec(model.CmdKill, model.CommandParams{AppID: prevApp, FlinkJobID: prevJob})
			if tc.before != nil {
				x.eff.setPoints([]*yarn.Checkpoint{tc.before, nil})
			}
			noteLastWord(b.ctx, x, tc.heard)
			x.outcome = killedOutcome(x.eff.lastPoints(), false, 1)
			b.s.finish(x, nil)
			j, c := b.stored(x)
			cp := j.LatestCheckpoint
			if cp == nil || cp.Path != tc.latest || cp.CheckID != tc.latestCheckID || cp.RunEnd != model.EndKilled {
				t.Errorf("latest checkpoint %+v; want %s (id %d), KILLED_BY_YARN", cp, tc.latest, tc.latestCheckID)
			}
			var want []string
			if tc.log != "" {
				want = []string{tc.log}
			}
			if words := lastWords(c); !slices.Equal(words, want) {
				t.Errorf("the log's last word: %q, want %q\n%s", words, want, logOf(c))
			}
			if tc.notRecorded != "" && slices.Contains(b.pointPaths(), tc.notRecorded) {
				t.Errorf("%s is recorded as a restore point: %q", tc.notRecorded, b.pointPaths())
			}
		})
	}
}

// TestKilledOutcome: a kill that took effect ends the job KILLED with
// Flink's state and any drift cleared, and stamps how the run ended on its
// newest checkpoint — KILLED_BY_YARN for a per-job cluster, CANCELED for a
// session job, with the job's retention — but only for a run that was
// deployed: a kill of a deploy in progress vouches for no checkpoint of an
// earlier run.
func TestKilledOutcome(t *testing.T) {
	for _, tc := range []struct {
		name    string
		state   model.JobState
		session bool
		end     model.RunEnd
	}{
		{"a running per-job cluster", model.StateRunning, false, model.EndKilled},
		{"a running session job", model.StateRunning, true, model.EndCanceled},
		{"a deployed per-job cluster not yet seen running", model.StateDeploySucceeded, false, model.EndKilled},
		{"a deployed session job not yet seen running", model.StateDeploySucceeded, true, model.EndCanceled},
		{"a deploy in progress", model.StateDeploying, false, model.EndUnknown},
		{"a session deploy in progress", model.StateDeploying, true, model.EndUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := killable()
			j.State, j.Session = tc.state, tc.session
			b := newBed(t, j, nil)
			x := b.exec(model.CmdKill, model.CommandParams{AppID: prevApp, FlinkJobID: prevJob})
			x.outcome = killedOutcome([]*yarn.Checkpoint{completed(7, chk7, false), nil}, tc.session, 1)
			b.s.finish(x, nil)
			got, c := b.stored(x)
			if c.State != model.CmdSucceeded || got.State != model.StateKilled {
				t.Fatalf("command %s, job %s\n%s", c.State, got.State, logOf(c))
			}
			if got.FlinkState != "" || got.Drift != nil {
				t.Errorf("the killed job still shows Flink state %q and drift %+v", got.FlinkState, got.Drift)
			}
			cp := got.LatestCheckpoint
			wantRet := model.RetainOnCancellation
			if tc.end == model.EndUnknown {
				wantRet = model.RetentionUnknown
			}
			if cp == nil || cp.Path != chk7 || cp.RunEnd != tc.end || cp.Retention != wantRet {
				t.Errorf("latest checkpoint %+v; want %s ended %s under %s", cp, chk7, tc.end, wantRet)
			}
		})
	}
}

// TestAFailedKillRecordsNothing: a kill that failed leaves the job as it
// was — RUNNING, its Flink state, its checkpoint unstamped — records no
// checkpoint it heard of, and notes the failure on the job's timeline.
func TestAFailedKillRecordsNothing(t *testing.T) {
	b := newBed(t, killable(), nil)
	x := b.exec(model.CmdKill, model.CommandParams{AppID: prevApp, FlinkJobID: prevJob})
	x.outcome = killedOutcome([]*yarn.Checkpoint{completed(7, chk7, false), nil}, false, 1)
	b.s.finish(x, errors.New("kill application_1_0001: 403 Forbidden"))
	got, c := b.stored(x)
	if c.State != model.CmdFailed || got.State != model.StateRunning || got.FlinkState != "RESTARTING" || got.Drift == nil {
		t.Fatalf("command %s, job %s (Flink %q, drift %+v); want FAILED and the job as it was", c.State, got.State, got.FlinkState, got.Drift)
	}
	if cp := got.LatestCheckpoint; cp == nil || cp.Path != chk5 || cp.RunEnd != model.EndUnknown {
		t.Errorf("latest checkpoint %+v; want %s, its run's end unknown", cp, chk5)
	}
	if slices.Contains(b.pointPaths(), chk7) {
		t.Errorf("a failed kill recorded %s", chk7)
	}
	var evs []model.Event
	if err := b.st.View(b.ctx, func(tx store.ReadTx) error {
		var err error
		evs, err = tx.Events(b.job.ID, 0, 0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 || !strings.Contains(evs[len(evs)-1].Reason, "failed: kill application_1_0001: 403 Forbidden") {
		t.Errorf("the timeline does not note the failure: %+v", evs)
	}
}

// TestAKillWhoseRecordFailsEndsNothing: when the store fails to record the
// kill's checkpoint, or to stamp its run's end, the command's end and the
// job's are not written half: the command stays DOING for its lease (to be
// reconciled) and the job RUNNING.
func TestAKillWhoseRecordFailsEndsNothing(t *testing.T) {
	broken := errors.New("store: disk full")
	for _, tc := range []struct {
		name   string
		fs     failingStore
		points []*yarn.Checkpoint
	}{
		{"recording the checkpoint", failingStore{addErr: broken}, []*yarn.Checkpoint{completed(7, chk7, false), nil}},
		{"stamping the run's end", failingStore{rewriteErr: broken}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, killable(), func(o *Options) {
				fs := tc.fs
				fs.Store = o.Store
				o.Store = fs
			})
			x := b.exec(model.CmdKill, model.CommandParams{AppID: prevApp, FlinkJobID: prevJob})
			x.outcome = killedOutcome(tc.points, false, 1)
			b.s.finish(x, nil)
			got, c := b.stored(x)
			if c.State != model.CmdDoing || got.State != model.StateRunning {
				t.Errorf("command %s, job %s; want DOING and RUNNING: nothing written", c.State, got.State)
			}
			if cp := got.LatestCheckpoint; cp == nil || cp.Path != chk5 || cp.RunEnd != model.EndUnknown {
				t.Errorf("latest checkpoint %+v; want %s as it was", cp, chk5)
			}
		})
	}
}

// jmAnswer is one answer of a JobManager to GET …/checkpoints.
type jmAnswer func(w http.ResponseWriter, r *http.Request)

func says(cp *yarn.Checkpoint) jmAnswer {
	return func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, statsOf(cp)) }
}

func failsWith(status int) jmAnswer {
	return func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"errors":["Internal server error."]}`, status)
	}
}

// garbled names cp as the newest completed checkpoint in a body that does
// not follow the spec (counts is no object): an answer palink cannot read.
func garbled(cp *yarn.Checkpoint) jmAnswer {
	return func(w http.ResponseWriter, _ *http.Request) {
		b, _ := json.Marshal(statsOf(cp).Latest)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"latest":` + string(b) + `,"counts":"truncated"}`))
	}
}

// late answers as then does, after d; not at all if palink gave up first.
func late(d time.Duration, then jmAnswer) jmAnswer {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(d):
			then(w, r)
		case <-r.Context().Done():
		}
	}
}

// scripted makes the JobManager of prevApp answer the checkpoints of
// prevJob, request by request, as script says; past its end with 404, as
// for an application that is gone.
func (b *bed) scripted(script ...jmAnswer) {
	b.f.onRequest(http.MethodGet, checkpointsPath, func(n int, w http.ResponseWriter, r *http.Request) bool {
		if n <= len(script) {
			script[n-1](w, r)
		} else {
			notFound(w, "application "+prevApp)
		}
		return true
	})
}

// watch runs the kill's watch of prevJob on app until it returns; it
// fails the test if the watch polls more than maxPolls times, or does not
// stop within a minute.
func (b *bed) watch(ctx context.Context, cl *clusters.Cluster, app yarn.Application, maxPolls int) *yarn.Checkpoint {
	b.t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	b.t.Cleanup(cancel)
	done := make(chan *yarn.Checkpoint, 1)
	go func() { done <- b.s.watchCheckpoints(ctx, cl, app, prevJob) }()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for deadline := time.Now().Add(time.Minute); ; {
		select {
		case cp := <-done:
			return cp
		case <-tick.C:
		}
		if n := b.f.asked(checkpointsPath); n > maxPolls || time.Now().After(deadline) {
			b.t.Fatalf("the watch does not stop: %d polls", n)
		}
	}
}

// TestWatchCheckpointsHearsTheLastWord: the watch keeps the newest
// completed checkpoint the JobManager reported, polling through errors
// until it answers 404 (the application is gone); an answer without a
// completed checkpoint, or one that did not decode, takes nothing back.
func TestWatchCheckpointsHearsTheLastWord(t *testing.T) {
	c7 := completed(7, chk7, false)
	for _, tc := range []struct {
		name   string
		script []jmAnswer
		want   *yarn.Checkpoint
	}{
		{"gone at once", nil, nil},
		{"the checkpoint, then gone", []jmAnswer{says(c7)}, c7},
		{"errors, then the checkpoint", []jmAnswer{failsWith(500), failsWith(500), says(c7)}, c7},
		{"the checkpoint, then errors", []jmAnswer{says(c7), failsWith(500), failsWith(500)}, c7},
		{"the checkpoint, then none completed", []jmAnswer{says(c7), says(nil)}, c7},
		{"the checkpoint, then an answer that did not decode", []jmAnswer{says(c7), garbled(completed(9, chk9, false))}, c7},
		{"only answers that did not decode", []jmAnswer{garbled(completed(9, chk9, false))}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, killable(), func(o *Options) { o.Poll = 10 * time.Millisecond })
			a := b.f.add(prevApp, yarn.AppRunning, nil)
			b.scripted(tc.script...)
			got := b.watch(b.ctx, b.cl, a.app, len(tc.script)+1)
			if (got == nil) != (tc.want == nil) || (got != nil && (got.ID != tc.want.ID || got.ExternalPath != tc.want.ExternalPath)) {
				t.Errorf("the watch heard %+v, want %+v", got, tc.want)
			}
			// Every answer was asked for, then the 404 ended it.
			if n, want := b.f.asked(checkpointsPath), len(tc.script)+1; n != want {
				t.Errorf("the watch polled %d times, want %d: through every answer, up to the 404 and no further", n, want)
			}
		})
	}
}

// TestWatchCheckpointsStopsWithTheKill: the watch ends when the kill's
// context does, with the newest checkpoint it heard, though the JobManager
// still answers.
func TestWatchCheckpointsStopsWithTheKill(t *testing.T) {
	b := newBed(t, killable(), func(o *Options) { o.Poll = 10 * time.Millisecond })
	a := b.f.add(prevApp, yarn.AppRunning, nil)
	a.stats[prevJob] = statsOf(completed(7, chk7, false))
	ctx, landed := context.WithCancel(b.ctx)
	b.f.onRequest(http.MethodGet, checkpointsPath, func(n int, _ http.ResponseWriter, _ *http.Request) bool {
		if n == 3 {
			landed() // the kill landed while this poll was on its way
		}
		return false
	})
	got := b.watch(ctx, b.cl, a.app, 3)
	if got == nil || got.ID != 7 || got.ExternalPath != chk7 {
		t.Errorf("the watch heard %+v, want checkpoint 7", got)
	}
	if n := b.f.asked(checkpointsPath); n != 3 {
		t.Errorf("the watch polled %d times; it should stop once the kill landed, at the 3rd", n)
	}
}

// TestWatchCheckpointsPollsOncePerPoll: the watch pauses a Poll between
// its polls, never hammering a JobManager that is going down, and the
// kill landing during a pause ends it.
func TestWatchCheckpointsPollsOncePerPoll(t *testing.T) {
	const poll = 300 * time.Millisecond
	b := newBed(t, killable(), func(o *Options) { o.Poll = poll })
	a := b.f.add(prevApp, yarn.AppRunning, nil)
	a.stats[prevJob] = statsOf(completed(7, chk7, false))
	ctx, landed := context.WithCancel(b.ctx)
	b.f.onRequest(http.MethodGet, checkpointsPath, func(n int, _ http.ResponseWriter, _ *http.Request) bool {
		if n == 3 {
			// The kill lands a third of a Poll after the third poll was
			// answered: while the watch pauses.
			time.AfterFunc(poll/3, landed)
		}
		return false
	})
	got := b.watch(ctx, b.cl, a.app, 3)
	if got == nil || got.ID != 7 {
		t.Errorf("the watch heard %+v, want checkpoint 7", got)
	}
	// A poll starts a Poll at least after the one before it was asked (a
	// loaded machine only makes the pause longer).
	at := b.f.askedAt(checkpointsPath)
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < poll-time.Millisecond {
			t.Errorf("poll %d came %s after the one before; want at least %s", i+1, gap, poll)
		}
	}
}

// TestWatchCheckpointsWaitsForASlowJobManager: each poll waits for the
// JobManager max(4 polls, 1s): a JobManager under the load of its job's
// end answers late, and its answer still counts; one that does not answer
// at all is given up on, and asked again.
func TestWatchCheckpointsWaitsForASlowJobManager(t *testing.T) {
	c7 := completed(7, chk7, false)
	for _, tc := range []struct {
		name   string
		poll   time.Duration
		script []jmAnswer
		want   *yarn.Checkpoint
	}{
		{"300ms late, polls of 10ms: within the floor of 1s", 10 * time.Millisecond, []jmAnswer{late(300*time.Millisecond, says(c7))}, c7},
		{"2s late, polls of 1s: within 4 polls", time.Second, []jmAnswer{late(2*time.Second, says(c7))}, c7},
		{"never, polls of 10ms: given up on", 10 * time.Millisecond, []jmAnswer{late(time.Hour, says(c7))}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, killable(), func(o *Options) { o.Poll = tc.poll })
			a := b.f.add(prevApp, yarn.AppRunning, nil)
			// The clients' own timeout is far longer: the bound is the watch's.
			cl, err := clusters.NewCluster(clusters.Spec{Name: "fake", RM: []string{b.f.rm.URL}, FlinkAccess: "direct",
				Poll: time.Millisecond, Timeout: 5 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			b.scripted(tc.script...)
			start := time.Now()
			got := b.watch(b.ctx, cl, a.app, len(tc.script)+1)
			if (got == nil) != (tc.want == nil) || (got != nil && got.ID != tc.want.ID) {
				t.Errorf("the watch heard %+v, want %+v", got, tc.want)
			}
			// Bounded by the watch (at most 4s here), not by the clients'
			// 5 minutes: generous for a loaded machine.
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("the watch took %s", took)
			}
			if n := b.f.asked(checkpointsPath); n != 2 {
				t.Errorf("the watch polled %d times, want 2: the slow answer, then the 404", n)
			}
		})
	}
}

// TestWatchCheckpointsWithoutAJobManagerAddress: an application whose
// JobManager palink cannot address (no amRPCAddress yet) is not watched.
func TestWatchCheckpointsWithoutAJobManagerAddress(t *testing.T) {
	b := newBed(t, killable(), func(o *Options) { o.Poll = 10 * time.Millisecond })
	a := b.f.add(prevApp, yarn.AppAccepted, nil)
	app := a.app
	app.AMRPCAddress = ""
	if got := b.watch(b.ctx, b.cl, app, 0); got != nil {
		t.Errorf("the watch heard %+v of a JobManager it cannot address", got)
	}
	if n := b.f.asked(checkpointsPath); n != 0 {
		t.Errorf("the JobManager was asked %d times", n)
	}
}
