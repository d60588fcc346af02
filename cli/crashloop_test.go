package cli

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// failRunAt fails the job's run, as soon as its Flink job runs, with
// cause while its newest checkpoint is at ("" for none since it
// started), and syncs until palink has it FAILED.
func (e *cliEnv) failRunAt(name, cause, at string) {
	e.t.Helper()
	j := e.job(name).Job
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if a, err := e.sim.App(j.AppID); err == nil && len(a.Jobs) > 0 && a.Jobs[0].State == "RUNNING" {
			break
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: the Flink job of %s never ran", name, j.AppID)
		}
	}
	if failed, err := e.sim.FailJobAs(j.AppID, sim.Failure{Cause: cause, OnlyAt: true, At: at}); err != nil || !failed {
		e.t.Fatalf("%s: not failed (%v): a checkpoint completed first", name, err)
	}
	e.syncUntil(name, "FAILED", func(j model.Job) bool { return j.State == model.StateFailed })
}

// TestJobShowSaysTheCrashLoop: a job that failed three times on the same
// record, each time restored from the same checkpoint, is shown crash-
// looping by `job show` (a warning line) and `job show -o json`
// (crash_loop: cause, restore point, count, record), and `job restart`
// warns before it replays it.
func TestJobShowSaysTheCrashLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	off := false
	// Restarts are the test's: no policy.
	e := newCLIEnv(t, sim.Options{}, func(c *config.Config) { c.Restart.Enabled = &off })
	sqlFile := filepath.Join(t.TempDir(), "job.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	// A checkpoint every two simulated minutes: a run restored from one
	// dies before it takes the next. Flink retries each failure ten times,
	// which leaves sync the time to read the exceptions.
	e.mustRun("job", "create", "--name", "poison", "--sql", sqlFile,
		"--set", "execution.checkpointing.interval=2min",
		"--set", "execution.checkpointing.externalized-checkpoint-retention=RETAIN_ON_CANCELLATION",
		"--set", "restart-strategy.fixed-delay.attempts=10")
	e.mustRun("job", "submit", "poison", "--wait")
	p := e.syncUntil("poison", "a checkpoint", func(j model.Job) bool {
		return j.State == model.StateRunning && j.LatestCheckpoint != nil
	}).LatestCheckpoint.Path
	const cause = "java.util.concurrent.TimeoutException: Async function call has timed out."
	e.failRunAt("poison", cause, p)
	for range 3 {
		e.mustRun("job", "restart", "poison", "--wait")
		e.failRunAt("poison", cause, "")
	}

	var doc struct {
		Job struct {
			CrashLoop map[string]any `json:"crash_loop"`
		} `json:"job"`
	}
	out := e.mustRun("job", "show", "poison", "-o", "json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	loop := doc.Job.CrashLoop
	if loop["count"] != 3.0 || loop["cause"] != cause || loop["restore_point"] != p || loop["record"] != "+I(1042,42.50,2024-11-28T09:01:02)" {
		t.Errorf("job show -o json: crash_loop %v\n%s", loop, out)
	}

	chk := path.Base(p)
	warning := "3 restarts from " + chk + " failed with the same TimeoutException on +I(1042,…) — restoring " + chk + " again will replay it"
	if out := e.mustRun("job", "show", "poison"); !strings.Contains(out, "CRASH LOOP  "+warning) {
		t.Errorf("job show does not warn %q:\n%s", warning, out)
	}
	// The restart is not refused (the person may know better), but said.
	if _, errOut := e.runBoth(t.Context(), "job", "restart", "poison", "--wait"); !strings.Contains(errOut, warning) {
		t.Errorf("job restart does not warn %q:\n%s", warning, errOut)
	}
}
