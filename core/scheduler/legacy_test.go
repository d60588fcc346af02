package scheduler

import (
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// legacyTags are the tags a palink from before store ids gave the
// submission of command legacyCmd of job j1: no store tag.
const legacyCmd = "c000000001"

func legacyTags() []string {
	return []string{clusters.TagPalink, clusters.JobTag("j1"), clusters.CmdTag(legacyCmd)}
}

// TestFindOwnSubmissionOfALegacyCommand: a command from before store ids
// (its id has no random part) that runs again adopts an application
// without a store tag only when this store recorded that application's id,
// on the command or on the job, and says so; otherwise it neither adopts
// nor lets the deploy go on to submit, and says why and what to do.
func TestFindOwnSubmissionOfALegacyCommand(t *testing.T) {
	const app = "application_1_0009"
	for _, tc := range []struct {
		name  string
		onCmd string // the application id recorded on the command
		onJob string // and on the job
		setup func(b *bed, x *execution)
		adopt string
		err   string
		log   string
		nolog string
	}{
		{"recorded on the command", app, "", func(b *bed, x *execution) {
			b.f.add(app, yarn.AppRunning, legacyTags())
		}, app, "", app + " is ours: it is the application id this store recorded for this command or its job, and carries this job's and this command's tags but no store tag (submitted by a palink before store ids); it is RUNNING", "this store's ("},
		{"recorded on the job", "", app, func(b *bed, x *execution) {
			b.f.add(app, yarn.AppRunning, legacyTags())
		}, app, "", app + " is ours: it is the application id this store recorded", "this store's ("},
		{"nothing recorded", "", "", func(b *bed, x *execution) {
			b.f.add(app, yarn.AppRunning, legacyTags())
		}, "", app + " carries this job's and this command's tags but no store tag (submitted by a palink before store ids); this store did not record its id, so it may be another copy's: not adopted; adopt it explicitly with `palink adopt --cluster fake " + app + "` if it is this job's", "", "is ours"},
		{"another application recorded", "application_1_0001", "", func(b *bed, x *execution) {
			b.f.add(app, yarn.AppRunning, legacyTags())
		}, "", app + " carries this job's and this command's tags but no store tag", "", "is ours"},
		{"recorded, and it ended", app, "", func(b *bed, x *execution) {
			a := b.f.add(app, yarn.AppKilled, legacyTags())
			a.app.FinalStatus = "KILLED"
		}, "", "an earlier attempt of this command submitted " + app + ", which already ended (KILLED/KILLED): not submitting again", "", ""},
		{"not recorded, and it ended", "", "", func(b *bed, x *execution) {
			a := b.f.add(app, yarn.AppKilled, legacyTags())
			a.app.FinalStatus = "KILLED"
		}, "", app + " carries this job's and this command's tags but no store tag (submitted by a palink before store ids); this store did not record its id, so it may be another copy's, and it already ended (KILLED/KILLED): not adopted, and not submitting again", "", ""},
		{"this store's own submission of the legacy command wins", "", "", func(b *bed, x *execution) {
			b.f.add(app, yarn.AppRunning, legacyTags())
			own := b.f.add("application_1_0010", yarn.AppRunning, clusters.SubmissionTags(b.s.storeID, "j1", legacyCmd))
			own.app.StartedTime = 1
		}, "application_1_0010", "", "application_1_0010 is ours: it carries this store's (", ""},
		{"another store's application is not a legacy one", "", "", func(b *bed, x *execution) {
			b.f.add(app, yarn.AppRunning, append(legacyTags(), clusters.StoreTag("ffffffffffff")))
		}, "", "", "carries this command's tag but not all of this store's", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, model.Job{AppID: tc.onJob}, nil)
			x := b.exec(model.CmdSubmit, model.CommandParams{Restore: model.RestoreNone, AppID: tc.onCmd})
			// Named as a store an older palink wrote names it (the stored
			// command keeps its own id, under which its log is saved).
			stored := x.id
			x.id = legacyCmd
			x.cmd.Attempts = 2
			tc.setup(b, x)
			d, found, err := x.findOwnSubmission(b.ctx, b.cl, false)
			x.id = stored
			_, c := b.stored(x)
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("findOwnSubmission = %v; want %q", err, tc.err)
			case tc.err == "" && err != nil:
				t.Fatalf("findOwnSubmission = %v\n%s", err, logOf(c))
			case found != (tc.adopt != "") || d.app.ID != tc.adopt:
				t.Fatalf("findOwnSubmission adopts %q (found %v); want %q\n%s", d.app.ID, found, tc.adopt, logOf(c))
			}
			if tc.log != "" && !strings.Contains(logOf(c), tc.log) {
				t.Errorf("the log does not say %q:\n%s", tc.log, logOf(c))
			}
			if tc.nolog != "" && strings.Contains(logOf(c), tc.nolog) {
				t.Errorf("the log says %q:\n%s", tc.nolog, logOf(c))
			}
		})
	}
}

// TestRefuseIfAliveNamesALegacyApplication: a live application that a
// palink from before store ids submitted for the job, and that this store
// never recorded, still refuses a deploy (never two live applications),
// and the refusal says what this store can do about it: not kill it, but
// adopt it if it is this job's.
func TestRefuseIfAliveNamesALegacyApplication(t *testing.T) {
	const app = "application_1_0009"
	t.Run("not recorded", func(t *testing.T) {
		b := newBed(t, model.Job{}, nil)
		b.f.add(app, yarn.AppRunning, legacyTags(), job("RUNNING"))
		c, err := b.refuse(model.CmdSubmit, 5*time.Second)
		want := "refusing to start orders: application " + app + ", which a palink from before store ids submitted for this job and whose id this store did not record (it may be another copy's), is still RUNNING; adopt it with `palink adopt --cluster fake " + app + "` if it is this job's, or stop it from the store that owns it"
		if err == nil || err.Error() != want {
			t.Fatalf("refuseIfAlive = %v; want %q\n%s", err, want, logOf(c))
		}
	})
	t.Run("recorded on the job", func(t *testing.T) {
		b := newBed(t, model.Job{AppID: app}, nil)
		b.f.add(app, yarn.AppRunning, legacyTags(), job("RUNNING"))
		c, err := b.refuse(model.CmdSubmit, 5*time.Second)
		if want := "refusing to start orders: its application " + app + " is still RUNNING; pause or kill it first"; err == nil || err.Error() != want {
			t.Fatalf("refuseIfAlive = %v; want %q\n%s", err, want, logOf(c))
		}
	})
}
