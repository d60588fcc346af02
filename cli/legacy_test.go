package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// The store an older palink left behind (store/testdata/legacy/README.md):
// schema 2, before store ids; its SUBMIT of job orders was SIGKILLed once
// the application existed, so the command is DOING under an expired lease
// with no application id recorded.
const (
	legacyStore = "../store/testdata/legacy/orphaned-submit-v2.db"
	legacyJob   = "j1184b2543b76"
	legacyCmd   = "c000000001"
)

// storePath is the store file of the env's config.
func (e *cliEnv) storePath() string { return filepath.Join(filepath.Dir(e.config), "palink.db") }

// onLegacyStore makes the env's store a copy of the legacy store.
func (e *cliEnv) onLegacyStore() {
	e.t.Helper()
	data, err := os.ReadFile(legacyStore)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(e.storePath(), data, 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// legacyApp puts on the cluster the application the crashed submit left:
// named after the job and tagged as palink tagged before store ids, with
// the job and the command but no store. It returns its id once it runs.
func legacyApp(t *testing.T, c *sim.Cluster) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sub, err := c.Submit(ctx, sim.SubmitRequest{Name: "orders", JobName: "orders", User: "ops", Queue: "default",
		Tags: []string{"palink", "palink-job-" + legacyJob, "palink-cmd-" + legacyCmd}})
	if err != nil {
		t.Fatal(err)
	}
	for {
		if a, err := c.App(sub.AppID); err == nil && a.State == "RUNNING" {
			return sub.AppID
		}
		if ctx.Err() != nil {
			t.Fatalf("%s never ran", sub.AppID)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// recordAppID writes appID on the legacy SUBMIT, as the palink that ran it
// did when it learned the id before it died.
func recordAppID(t *testing.T, path, appID string) {
	t.Helper()
	st, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Update(context.Background(), func(tx store.Tx) error {
		c, err := tx.Command(legacyCmd)
		if err != nil {
			return err
		}
		c.Params.AppID = appID
		_, err = tx.PutCommand(c)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func logHas(c model.Command, s string) bool {
	for _, l := range c.Log {
		if strings.Contains(l.Text, s) {
			return true
		}
	}
	return false
}

// TestUpgradedStoreCopiesNeverTakeEachOthersApplication (issue 23, defect
// 2): copies of a store that an older palink wrote do not adopt or kill
// each other's applications. The application the crashed submit left
// carries the job's and the command's tags and no store tag, and every
// copy has that job and that command, so the tags cannot tell the copies
// apart; only what a copy recorded can.
//
// How copies come to differ: an operator copies the store file (a backup,
// or to set up a second ops host) while a submit is in flight, so the copy
// holds the SUBMIT DOING with no application id; the original palink goes
// on, records the application id on the command (a `flink run` deploy does
// so the moment the client prints it) and dies before it ends the command.
// Today's palink then opens each copy (each migration mints its own store
// id, which the application does not carry) and reconciles the orphaned
// SUBMIT: the original adopts the application by the id it recorded; the
// backup refuses, says why and how to adopt it by hand, and submits
// nothing; a third copy's `job kill` (which supersedes the orphan) leaves
// the application alone. A copy taken after the crash, as in the issue's
// repro, is the original byte for byte and holds what it holds: the
// fixture recorded no id, so such copies all refuse, and the operator
// adopts the application on the one that should own it
// (TestExplicitAdoptOfALegacyApplication).
func TestUpgradedStoreCopiesNeverTakeEachOthersApplication(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	orig := newCLIEnv(t, sim.Options{}, nil)
	backup := newCLIEnvOn(t, orig.sim, nil)
	third := newCLIEnvOn(t, orig.sim, nil)
	for _, e := range []*cliEnv{orig, backup, third} {
		e.onLegacyStore()
	}
	app := legacyApp(t, orig.sim)
	recordAppID(t, orig.storePath(), app)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	_, stderr := orig.runBoth(ctx, "sync", "--once")
	sub := orig.job("orders").Commands[0]
	if sub.State != model.CmdSucceeded || sub.Params.AppID != app {
		t.Fatalf("the original's SUBMIT: %s %q (app %s)\n%s\n%v", sub.State, sub.Error, sub.Params.AppID, stderr, sub.Log)
	}
	if !logHas(sub, app+" is ours: it is the application id this store recorded") || !logHas(sub, "no store tag") {
		t.Errorf("the original's log does not say what matched (the recorded application id, no store tag): %v", sub.Log)
	}
	if logHas(sub, "this store's (") {
		t.Errorf("the original's log claims a store tag matched: %v", sub.Log)
	}

	_, stderr = backup.runBoth(ctx, "sync", "--once")
	d := backup.job("orders")
	sub = d.Commands[0]
	reason := app + " carries this job's and this command's tags but no store tag (submitted by a palink before store ids); " +
		"this store did not record its id, so it may be another copy's: not adopted; " +
		"adopt it explicitly with `palink adopt --cluster sim " + app + "` if it is this job's"
	if sub.State != model.CmdFailed || !strings.Contains(sub.Error, reason) {
		t.Fatalf("the backup's SUBMIT: %s %q, want FAILED with\n%s\n%v", sub.State, sub.Error, reason, sub.Log)
	}
	if !strings.Contains(stderr, reason) {
		t.Errorf("sync --once did not say why it did not adopt: %q", stderr)
	}
	if d.Job.State != model.StateDeployFailed || d.Job.AppID != "" {
		t.Errorf("the backup's job is %s with application %q, want DEPLOY_FAILED with none", d.Job.State, d.Job.AppID)
	}
	if apps := backup.appsOf(legacyJob); len(apps) != 1 {
		t.Errorf("%d applications of the job on the cluster, want the one: %+v", len(apps), apps)
	}
	// It does not come back: nothing resumes or resubmits it.
	backup.mustRun("sync", "--once")
	if apps := backup.appsOf(legacyJob); len(apps) != 1 {
		t.Errorf("%d applications of the job after another sync, want the one", len(apps))
	}

	out := third.mustRun("job", "kill", "orders", "--yes", "--wait")
	if a, _ := orig.sim.App(app); a.State != "RUNNING" {
		t.Fatalf("%s is %s after a kill on a copy that never adopted it\n%s", app, a.State, out)
	}
	kill := third.job("orders").Commands[1]
	if kill.Kind != model.CmdKill || !logHas(kill, app+", tagged for SUBMIT #1, carries this job's and this command's tags but no store tag") || !logHas(kill, "left alone") {
		t.Errorf("the third copy's kill does not say why it left %s alone: %s %v", app, kill.Kind, kill.Log)
	}

	// The original still owns its application, and only it.
	j := orig.syncUntil("orders", "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })
	if j.AppID != app {
		t.Errorf("the original's job records %s, want %s", j.AppID, app)
	}
}

// TestExplicitAdoptOfALegacyApplication: a store upgraded from an older
// palink that did not record the id of the application its crashed submit
// left (the repro: every copy taken after the crash is in this
// state) does not adopt it by itself; `palink adopt`, as its refusal
// says, gives it to the job its tags name, after which the job runs on it
// and a kill kills it.
func TestExplicitAdoptOfALegacyApplication(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	e.onLegacyStore()
	app := legacyApp(t, e.sim)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	e.runBoth(ctx, "sync", "--once")
	if sub := e.job("orders").Commands[0]; sub.State != model.CmdFailed || !strings.Contains(sub.Error, "palink adopt --cluster sim "+app) {
		t.Fatalf("the SUBMIT: %s %q, want FAILED naming `palink adopt`\n%v", sub.State, sub.Error, sub.Log)
	}
	// The cluster view lists it among the applications no job owns.
	if out := e.mustRun("cluster"); !strings.Contains(out, app) {
		t.Errorf("palink cluster does not list %s for adoption:\n%s", app, out)
	}
	out, _ := e.runBoth(ctx, "adopt", "--cluster", "sim", app)
	if !strings.Contains(out, "adopted "+app+" as job orders ("+legacyJob+")") {
		t.Fatalf("adopt: %s", out)
	}
	j := e.syncUntil("orders", "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })
	if j.AppID != app || j.ID != legacyJob {
		t.Fatalf("job %s records %s, want %s", j.ID, j.AppID, app)
	}
	if d := e.job("orders"); d.Spec.SQL == "" {
		t.Errorf("the adopted job lost its SQL")
	}
	e.mustRun("job", "kill", "orders", "--yes", "--wait")
	if a, _ := e.sim.App(app); a.State != "KILLED" {
		t.Errorf("%s is %s after the kill of the job that adopted it", app, a.State)
	}
	if n := len(e.appsOf(legacyJob)); n != 1 {
		t.Errorf("%d applications of the job, want 1", n)
	}
}
