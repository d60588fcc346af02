package scheduler

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

const (
	oldApp  = "application_1_0007"
	flinkID = "00000000000000000000000000000007"
)

func job(state string) yarn.JobOverview {
	return yarn.JobOverview{ID: flinkID, Name: "orders", State: state}
}

// refuse runs the deploy's check for live applications of the bed's job
// as a command of kind k, bounded by limit: a check that would wait for
// ever fails the test quickly instead.
func (b *bed) refuse(k model.CommandKind, limit time.Duration) (model.Command, error) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, limit)
	defer cancel()
	return b.refuseCtx(ctx, k)
}

func (b *bed) refuseCtx(ctx context.Context, k model.CommandKind) (model.Command, error) {
	b.t.Helper()
	x := b.exec(k, model.CommandParams{Restore: model.RestoreNone})
	err := x.refuseIfAlive(ctx, b.cl, b.job, b.job.Session)
	_, c := b.stored(x)
	return c, err
}

func tagged(jobID string) []string { return []string{clusters.JobTag(jobID)} }

const stillRunning = "refusing to start orders: its application " + oldApp + " is still RUNNING; pause or kill it first"

// TestRefuseIfAliveFindsTheApplicationBothWays: a live application of the
// job is found by its tag, or by the AppID palink recorded (an adopted
// application has no tags), and either refuses the deploy; one that ended
// or that YARN no longer knows does not.
func TestRefuseIfAliveFindsTheApplicationBothWays(t *testing.T) {
	for _, tc := range []struct {
		name   string
		appID  string // recorded on the job
		setup  func(f *fakeCluster)
		refuse bool
	}{
		{"tagged, not recorded", "", func(f *fakeCluster) { f.add(oldApp, yarn.AppRunning, tagged("j1"), job("RUNNING")) }, true},
		{"recorded, not tagged", oldApp, func(f *fakeCluster) { f.add(oldApp, yarn.AppRunning, nil, job("RUNNING")) }, true},
		{"recorded and tagged", oldApp, func(f *fakeCluster) { f.add(oldApp, yarn.AppRunning, tagged("j1"), job("RUNNING")) }, true},
		{"recorded, and another tagged one that is ending", oldApp, func(f *fakeCluster) {
			ending := f.add("application_1_0006", yarn.AppRunning, tagged("j1"), job("FINISHED"))
			ending.endsAfter = 2
			f.add(oldApp, yarn.AppRunning, nil, job("RUNNING"))
		}, true},
		{"another job's application", "", func(f *fakeCluster) { f.add(oldApp, yarn.AppRunning, tagged("j2"), job("RUNNING")) }, false},
		{"recorded, ended", oldApp, func(f *fakeCluster) { f.add(oldApp, yarn.AppFinished, nil, job("RUNNING")) }, false},
		{"recorded, unknown to YARN", oldApp, func(f *fakeCluster) {}, false},
		{"nothing recorded, nothing tagged", "", func(f *fakeCluster) { f.add(oldApp, yarn.AppRunning, nil, job("RUNNING")) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, model.Job{AppID: tc.appID, FlinkJobID: flinkID}, nil)
			tc.setup(b.f)
			c, err := b.refuse(model.CmdSubmit, 5*time.Second)
			switch {
			case tc.refuse && (err == nil || err.Error() != stillRunning):
				t.Fatalf("refuseIfAlive = %v; want %q\n%s", err, stillRunning, logOf(c))
			case !tc.refuse && err != nil:
				t.Fatalf("refuseIfAlive = %v; want no refusal\n%s", err, logOf(c))
			case !tc.refuse && !strings.Contains(logOf(c), "no live application of orders: submitting"):
				t.Errorf("the log does not say why it submits:\n%s", logOf(c))
			}
		})
	}
}

// TestRefuseIfAliveWhenYARNFails: one request failing stops the deploy
// with a refusal that names the request's application, never a submit on
// a guess.
func TestRefuseIfAliveWhenYARNFails(t *testing.T) {
	for _, tc := range []struct {
		name  string
		appID string
		path  string
		want  string
	}{
		{"the listing by tag", "", "/ws/v1/cluster/apps", "check for live applications of orders: "},
		{"the recorded application's lookup", oldApp, "/ws/v1/cluster/apps/" + oldApp, "check application " + oldApp + " of orders: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, model.Job{AppID: tc.appID, FlinkJobID: flinkID}, nil)
			b.f.add(oldApp, yarn.AppFinished, nil)
			b.f.failing(tc.path, http.StatusInternalServerError)
			c, err := b.refuse(model.CmdSubmit, 5*time.Second)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !strings.Contains(err.Error(), "500") {
				t.Fatalf("refuseIfAlive = %v; want %q… naming the failure", err, tc.want)
			}
			if strings.Contains(logOf(c), "submitting") {
				t.Errorf("the log says it submits:\n%s", logOf(c))
			}
		})
	}
	t.Run("a job never submitted asks for no application", func(t *testing.T) {
		b := newBed(t, model.Job{}, nil)
		if c, err := b.refuse(model.CmdSubmit, 5*time.Second); err != nil {
			t.Fatalf("refuseIfAlive = %v\n%s", err, logOf(c))
		}
	})
}

// TestRefuseIfAliveSessionJob: on a session cluster the application is
// shared, so what refuses is the job's own Flink job still running there.
func TestRefuseIfAliveSessionJob(t *testing.T) {
	const session = "application_1_0001"
	for _, tc := range []struct {
		name       string
		flinkJobID string
		appState   string
		jobState   string // "" : the JobManager does not know the job
		refuse     bool
	}{
		{"its job runs", flinkID, yarn.AppRunning, "RUNNING", true},
		{"its job restarts", flinkID, yarn.AppRunning, "RESTARTING", true},
		{"its job finished", flinkID, yarn.AppRunning, "FINISHED", false},
		{"its job is unknown to the JobManager", flinkID, yarn.AppRunning, "", false},
		{"the session ended", flinkID, yarn.AppFinished, "RUNNING", false},
		{"no Flink job recorded", "", yarn.AppRunning, "RUNNING", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, model.Job{AppID: session, FlinkJobID: tc.flinkJobID, Session: true}, nil)
			var jobs []yarn.JobOverview
			if tc.jobState != "" {
				jobs = append(jobs, job(tc.jobState))
			}
			b.f.add(session, tc.appState, nil, jobs...)
			c, err := b.refuse(model.CmdRestart, 5*time.Second)
			want := "refusing to start orders: its Flink job " + flinkID + " is still " + tc.jobState + " in session " + session + "; pause or kill it first"
			switch {
			case tc.refuse && (err == nil || err.Error() != want):
				t.Fatalf("refuseIfAlive = %v; want %q\n%s", err, want, logOf(c))
			case !tc.refuse && err != nil:
				t.Fatalf("refuseIfAlive = %v; want no refusal\n%s", err, logOf(c))
			}
			if n := b.f.asked("/jm/" + session + "/jobs//status"); n != 0 {
				t.Errorf("asked the session's JobManager %d times for the status of job \"\"", n)
			}
		})
	}
}

// TestAwaitEnding: an application whose Flink job ended is waited for
// until YARN reports it ended; a restart or resubmit also waits out, for
// EndingGrace, a JobManager that still lists the ended job as running;
// anything else alive is refused at once.
func TestAwaitEnding(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  model.CommandKind
		setup func(f *fakeCluster)
		grace time.Duration
		limit time.Duration // how long the check may take; 0: 5s
		want  string        // "" : no refusal
		log   string        // a line the log must have ("" : none)
		never string        // a line the log must not have
	}{
		{"a submit meets a running job", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("RUNNING"))
		}, time.Second, 0, stillRunning, "", "still lists a job as running"},
		{"a submit meets an application still starting", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppAccepted, tagged("j1"))
		}, time.Second, 0, "refusing to start orders: its application " + oldApp + " is still ACCEPTED; pause or kill it first", "", "waiting for it to shut down"},
		{"a submit meets a cluster shutting down", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED")).endsAfter = 4
		}, time.Second, 0, "", "application " + oldApp + " has no running job left; waiting for it to shut down", ""},
		{"a cluster shutting down that never ends", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("CANCELED"))
		}, time.Second, 500 * time.Millisecond, "refusing to start orders: its application " + oldApp + " is still RUNNING; pause or kill it first (it did not shut down: ", "", ""},
		{"the application ended since the listing", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("RUNNING")).endsAfter = 1
		}, time.Second, 0, "", "", "waiting"},
		{"the application vanished since the listing", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("RUNNING"))
			f.failing("/ws/v1/cluster/apps/"+oldApp, http.StatusNotFound)
		}, time.Second, 0, "", "no live application of orders", ""},
		{"its lookup fails", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED"))
			f.failing("/ws/v1/cluster/apps/"+oldApp, http.StatusInternalServerError)
		}, time.Second, 0, stillRunning + " (", "", "submitting"},
		{"its JobManager fails to list the jobs", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED"))
			f.failing("/jm/"+oldApp+"/jobs/overview", http.StatusInternalServerError)
		}, time.Second, 0, stillRunning, "", "waiting"},
		{"its JobManager has no address", model.CmdSubmit, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED")).app.AMRPCAddress = ""
		}, time.Second, 0, stillRunning, "", "waiting"},
		{"a restart waits out a stale JobManager", model.CmdRestart, func(f *fakeCluster) {
			a := f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED"))
			a.staleFor, a.endsAfter = 3, 8
		}, 10 * time.Second, 0, "", "the JobManager of " + oldApp + " still lists a job as running although orders ended; waiting up to 10s for it to catch up", ""},
		{"a resubmit waits out a stale JobManager", model.CmdResubmit, func(f *fakeCluster) {
			a := f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FAILED"))
			a.staleFor, a.endsAfter = 3, 8
		}, 10 * time.Second, 0, "", "still lists a job as running although orders ended", ""},
		{"a restart refuses a JobManager stale past the grace", model.CmdRestart, func(f *fakeCluster) {
			f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED")).staleFor = 1 << 30
		}, 300 * time.Millisecond, 0, stillRunning, "waiting up to 300ms", ""},
		{"a submit does not wait out a stale JobManager", model.CmdSubmit, func(f *fakeCluster) {
			a := f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED"))
			a.staleFor, a.endsAfter = 3, 8
		}, 10 * time.Second, 0, stillRunning, "", "still lists a job as running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, model.Job{FlinkJobID: flinkID}, func(o *Options) { o.EndingGrace = tc.grace })
			tc.setup(b.f)
			if tc.limit == 0 {
				tc.limit = 5 * time.Second
			}
			c, err := b.refuse(tc.kind, tc.limit)
			log := logOf(c)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refuseIfAlive = %v; want no refusal\n%s", err, log)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Fatalf("refuseIfAlive = %v; want %q…\n%s", err, tc.want, log)
			case tc.want == stillRunning && err.Error() != stillRunning:
				t.Fatalf("refuseIfAlive = %q; want exactly %q", err, stillRunning)
			}
			if tc.log != "" && strings.Count(log, tc.log) != 1 {
				t.Errorf("the log says %q %d times, want once:\n%s", tc.log, strings.Count(log, tc.log), log)
			}
			if tc.never != "" && strings.Contains(log, tc.never) {
				t.Errorf("the log says %q:\n%s", tc.never, log)
			}
		})
	}
}

// TestAwaitEndingBacksOff: while it waits out a stale JobManager, the
// deploy asks it less and less often.
func TestAwaitEndingBacksOff(t *testing.T) {
	b := newBed(t, model.Job{FlinkJobID: flinkID}, func(o *Options) { o.EndingGrace = time.Minute })
	b.f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED")).staleFor = 1 << 30
	if c, err := b.refuse(model.CmdRestart, 600*time.Millisecond); err == nil {
		t.Fatalf("refuseIfAlive ended without a refusal while the JobManager still lists the job\n%s", logOf(c))
	}
	// 1, 2, 4, … 256 ms: about ten listings in 600 ms, not hundreds.
	if n := b.f.asked("/jm/" + oldApp + "/jobs/overview"); n < 3 || n > 20 {
		t.Errorf("the JobManager was asked %d times in 600ms; want a backoff from 1ms", n)
	}
}

// TestAwaitEndingStopsWhenCancelled: palink quitting while a restart waits
// out a stale JobManager stops the wait with the cancellation (the
// command is resumed later), not with a refusal that would fail it.
func TestAwaitEndingStopsWhenCancelled(t *testing.T) {
	b := newBed(t, model.Job{FlinkJobID: flinkID}, func(o *Options) { o.EndingGrace = time.Minute })
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	a := b.f.add(oldApp, yarn.AppRunning, tagged("j1"), job("FINISHED"))
	a.staleFor, a.onList = 1<<30, func(n int) {
		if n == 3 {
			cancel()
		}
	}
	if c, err := b.refuseCtx(ctx, model.CmdRestart); !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "refusing") {
		t.Fatalf("refuseIfAlive = %v; want the cancellation alone\n%s", err, logOf(c))
	}
}
