package scheduler

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// TestFindOwnSubmission: a deploy that runs again (its process died, or
// it retries) first looks for the application it may already have
// submitted — by this command's tag, and only if it carries this store's
// and this job's tags too — and adopts it instead of submitting twice; one
// that already ended stops the deploy for a person to decide.
func TestFindOwnSubmission(t *testing.T) {
	const (
		first  = 1 // the command's attempts
		second = 2
	)
	ours := func(b *bed, x *execution) []string { return clusters.SubmissionTags(b.s.storeID, b.job.ID, x.id) }
	for _, tc := range []struct {
		name     string
		attempts int
		retries  int
		appID    string // recorded on the command
		setup    func(b *bed, x *execution)
		adopt    string // the application adopted; "" none
		err      string // the start of the error; "" none
		listings int    // how often the RM is asked for the tag; -1: any
		log      string
	}{
		{"a first attempt looks for nothing", first, 0, "", func(b *bed, x *execution) {
			b.f.add("application_1_0009", yarn.AppRunning, ours(b, x))
		}, "", "", 0, ""},
		{"a reclaimed attempt adopts its running application", second, 0, "", func(b *bed, x *execution) {
			b.f.add("application_1_0009", yarn.AppRunning, ours(b, x))
		}, "application_1_0009", "", 1, "application_1_0009 is ours: it carries this store's (" + clusters.StoreTag("") + ""},
		{"a retry adopts it too", first, 1, "", func(b *bed, x *execution) {
			b.f.add("application_1_0009", yarn.AppAccepted, ours(b, x))
		}, "application_1_0009", "", 1, "is ours"},
		{"a recorded AppID makes even a first attempt look", first, 0, "application_1_0009", func(b *bed, x *execution) {
			b.f.add("application_1_0009", yarn.AppRunning, ours(b, x))
		}, "application_1_0009", "", 1, "is ours"},
		{"the newest of several", second, 0, "", func(b *bed, x *execution) {
			for i, started := range []int64{200, 300, 100} {
				a := b.f.add("application_1_000"+string(rune('1'+i)), yarn.AppRunning, ours(b, x))
				a.app.StartedTime = started
			}
		}, "application_1_0002", "", 1, ""},
		{"one that ended is not submitted again", second, 0, "", func(b *bed, x *execution) {
			a := b.f.add("application_1_0009", yarn.AppFailed, ours(b, x))
			a.app.FinalStatus, a.app.Diagnostics = "FAILED", "out of memory\nat …"
		}, "", "an earlier attempt of this command submitted application_1_0009, which already ended (FAILED/FAILED): not submitting again; restart or resubmit the job when its cause is known: out of memory", 1, ""},
		{"another store's application with this command's tag is left alone", second, 0, "", func(b *bed, x *execution) {
			b.f.add("application_1_0009", yarn.AppRunning, []string{clusters.StoreTag("other"), clusters.JobTag(b.job.ID), clusters.CmdTag(x.id)})
		}, "", "", 2, "application application_1_0009 carries this command's tag but not all of this store's"},
		{"nothing submitted: looked for twice", second, 0, "", func(b *bed, x *execution) {}, "", "", 2, ""},
		{"the listing fails", second, 0, "", func(b *bed, x *execution) {
			b.f.failing("/ws/v1/cluster/apps", http.StatusInternalServerError)
		}, "", "look for applications tagged palink-cmd-", -1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, model.Job{}, nil)
			x := b.exec(model.CmdSubmit, model.CommandParams{Restore: model.RestoreNone, AppID: tc.appID})
			x.cmd.Attempts, x.retries = tc.attempts, tc.retries
			tc.setup(b, x)
			d, found, err := x.findOwnSubmission(b.ctx, b.cl, false)
			_, c := b.stored(x)
			switch {
			case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
				t.Fatalf("findOwnSubmission = %v; want %q…", err, tc.err)
			case tc.err == "" && err != nil:
				t.Fatalf("findOwnSubmission = %v\n%s", err, logOf(c))
			case found != (tc.adopt != "") || d.app.ID != tc.adopt:
				t.Fatalf("findOwnSubmission adopts %q (found %v); want %q\n%s", d.app.ID, found, tc.adopt, logOf(c))
			case found && d.session:
				t.Errorf("a per-job application adopted as a session job")
			}
			if n := b.f.asked("/ws/v1/cluster/apps"); tc.listings >= 0 && n != tc.listings {
				t.Errorf("asked the RM %d times for applications tagged %s, want %d", n, clusters.CmdTag(x.id), tc.listings)
			}
			if tc.log != "" && !strings.Contains(logOf(c), strings.Replace(tc.log, clusters.StoreTag(""), clusters.StoreTag(b.s.storeID), 1)) {
				t.Errorf("the log does not say %q:\n%s", tc.log, logOf(c))
			}
		})
	}
}

// TestFindOwnSubmissionLooksTwice: a submission may still be reaching the
// RM when the process died, so the second look comes a pause later; and
// palink quitting during that pause stops it there.
func TestFindOwnSubmissionLooksTwice(t *testing.T) {
	const poll = 100 * time.Millisecond
	b := newBed(t, model.Job{}, func(o *Options) { o.Poll = poll })
	x := b.exec(model.CmdSubmit, model.CommandParams{Restore: model.RestoreNone})
	x.cmd.Attempts = 2
	if _, found, err := x.findOwnSubmission(b.ctx, b.cl, false); err != nil || found {
		t.Fatalf("findOwnSubmission = %v, %v; want nothing found", found, err)
	}
	at := b.f.askedAt("/ws/v1/cluster/apps")
	if len(at) != 2 || at[1].Sub(at[0]) < 2*poll {
		t.Fatalf("the RM was asked at %v; want twice, %s apart", at, 2*poll)
	}

	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	// Cancelled once the first answer is on its way: inside the pause.
	b.f.onListApps = func() { time.AfterFunc(poll/2, cancel) }
	x = b.exec(model.CmdSubmit, model.CommandParams{Restore: model.RestoreNone})
	x.cmd.Attempts = 2
	if _, found, err := x.findOwnSubmission(ctx, b.cl, false); found || err != context.Canceled {
		t.Fatalf("findOwnSubmission cancelled during its pause = %v, %v; want the cancellation alone", found, err)
	}
}

// TestFindOwnSubmissionInASession: on a session cluster a command's Flink
// job has an id derived from the command, so a deploy that runs again finds
// it by that id on the session's JobManager.
func TestFindOwnSubmissionInASession(t *testing.T) {
	const session = "application_1_0001"
	for _, tc := range []struct {
		name   string
		setup  func(b *bed, x *execution)
		adopt  bool
		err    string
		noAddr bool
	}{
		{"its job is there", func(b *bed, x *execution) {
			b.f.add(session, yarn.AppRunning, nil, yarn.JobOverview{ID: fixedJobID(x.id), State: "RUNNING"})
		}, true, "", false},
		{"its job is not", func(b *bed, x *execution) {
			b.f.add(session, yarn.AppRunning, nil, yarn.JobOverview{ID: flinkID, State: "RUNNING"})
		}, false, "", false},
		{"the JobManager fails", func(b *bed, x *execution) {
			b.f.add(session, yarn.AppRunning, nil)
			b.f.failing("/jm/"+session+"/jobs/"+fixedJobID(x.id), http.StatusInternalServerError)
		}, false, "look for job ", false},
		{"the session is unknown", func(b *bed, x *execution) {}, false, "session cluster " + session + ": ", false},
		{"the session's JobManager has no address", func(b *bed, x *execution) {
			b.f.add(session, yarn.AppRunning, nil).app.AMRPCAddress = ""
		}, false, "JobManager of " + session, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, model.Job{Session: true}, nil)
			b.cl.Cfg.Deploy.Mode, b.cl.Cfg.Deploy.SessionApp = "yarn-session", session
			x := b.exec(model.CmdSubmit, model.CommandParams{Restore: model.RestoreNone})
			x.cmd.Attempts = 2
			tc.setup(b, x)
			d, found, err := x.findOwnSubmission(b.ctx, b.cl, true)
			switch {
			case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
				t.Fatalf("findOwnSubmission = %v; want %q…", err, tc.err)
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case found != tc.adopt:
				t.Fatalf("findOwnSubmission found %v, want %v", found, tc.adopt)
			case found && (d.app.ID != session || d.jobID != fixedJobID(x.id) || !d.session):
				t.Errorf("adopted %+v; want job %s of session %s", d, fixedJobID(x.id), session)
			}
		})
	}
}
