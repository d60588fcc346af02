package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// crashSubmit creates a job and SIGKILLs a `palink job submit --wait` the
// moment the job's application exists on YARN, leaving its SUBMIT DOING
// with no process behind it and no agent running. It returns the job id.
func (e *cliEnv) crashSubmit(name string) string {
	e.t.Helper()
	sqlFile := filepath.Join(e.t.TempDir(), "job.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		e.t.Fatal(err)
	}
	e.mustRun("job", "create", "--name", name, "--sql", sqlFile)
	jobID := e.job(name).Job.ID
	cmd := exec.Command(os.Args[0], "--config", e.config, "job", "submit", name, "--wait")
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); len(e.appsOf(jobID)) == 0; {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			e.t.Fatalf("no application appeared; palink said:\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	d := e.job(name)
	if len(d.Commands) != 1 || d.Commands[0].State != model.CmdDoing {
		e.t.Fatalf("after the crash the SUBMIT should be DOING: %+v\n%s", d.Commands, out.String())
	}
	return jobID
}

func liveApps(apps []sim.App) []sim.App {
	var out []sim.App
	for _, a := range apps {
		if a.State != "FINISHED" && a.State != "FAILED" && a.State != "KILLED" {
			out = append(out, a)
		}
	}
	return out
}

// TestKillSupersedesAnOrphanedSubmit: a CLI killed during `job submit
// --wait`, with no agent running, leaves its SUBMIT DOING. An emergency
// kill right after is not refused: it supersedes the orphan (which ends
// FAILED, saying so) and kills the application the orphan created.
func TestKillSupersedesAnOrphanedSubmit(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	faults, err := sim.ParseFaults("gateway:latency=400ms")
	if err != nil {
		t.Fatal(err)
	}
	e := newCLIEnv(t, sim.Options{Faults: faults}, nil)
	jobID := e.crashSubmit("stuck")

	start := time.Now()
	out := e.mustRun("job", "kill", "stuck", "--yes", "--wait")
	took := time.Since(start)
	if !strings.Contains(out, "KILL #2 SUCCEEDED") {
		t.Fatalf("kill: %s", out)
	}
	// The dead submitter's lease (2s in this config) is not waited out:
	// its process is known to be gone.
	if took > 15*time.Second {
		t.Errorf("the kill took %s", took)
	}
	d := e.job("stuck")
	if d.Job.State != model.StateKilled {
		t.Errorf("job is %s, want KILLED", d.Job.State)
	}
	if live := liveApps(e.appsOf(jobID)); len(live) != 0 {
		t.Errorf("live applications after the kill: %+v", live)
	}
	if len(d.Commands) != 2 {
		t.Fatalf("commands: %+v", d.Commands)
	}
	sub, kill := d.Commands[0], d.Commands[1]
	if sub.State != model.CmdFailed || sub.SupersededBy != kill.ID || !strings.Contains(sub.Error, "superseded by KILL #2") {
		t.Errorf("the orphaned SUBMIT: %s %q superseded by %q", sub.State, sub.Error, sub.SupersededBy)
	}
	if kill.Params.Supersedes != sub.ID {
		t.Errorf("the kill does not name what it superseded: %+v", kill.Params)
	}
	// Nothing resumes the superseded submit afterwards.
	e.mustRun("sync", "--once")
	if live := liveApps(e.appsOf(jobID)); len(live) != 0 {
		t.Errorf("an application came back: %+v", live)
	}
}

// TestNextCLICallResumesAnOrphan: once the dead submitter's lease has
// expired, the next CLI call that opens the store as a writer resumes the
// orphaned SUBMIT (adopting the application it created, never submitting
// again) and says so; a plain read names the orphan without running it.
func TestNextCLICallResumesAnOrphan(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	faults, err := sim.ParseFaults("gateway:latency=400ms")
	if err != nil {
		t.Fatal(err)
	}
	e := newCLIEnv(t, sim.Options{Faults: faults}, nil)
	jobID := e.crashSubmit("orphan")
	time.Sleep(2500 * time.Millisecond) // the config's lease is 2s

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, stderr := e.runBoth(ctx, "jobs")
	if !strings.Contains(stderr, "SUBMIT #1 of orphan is orphaned") {
		t.Errorf("jobs did not name the orphan: %q", stderr)
	}
	if c := e.job("orphan").Commands[0]; c.State != model.CmdDoing {
		t.Errorf("a read ran the orphan: %s", c.State)
	}

	_, stderr = e.runBoth(ctx, "sync", "--once")
	if !strings.Contains(stderr, "resuming SUBMIT #1 of orphan") || !strings.Contains(stderr, "SUBMIT #1 SUCCEEDED") {
		t.Errorf("sync --once did not resume the orphan: %q", stderr)
	}
	c := e.job("orphan").Commands[0]
	if c.State != model.CmdSucceeded {
		t.Fatalf("the orphan ended %s: %s\n%v", c.State, c.Error, c.Log)
	}
	adopted := false
	for _, l := range c.Log {
		adopted = adopted || strings.Contains(l.Text, "adopting it, not submitting again")
	}
	if !adopted {
		t.Errorf("the orphan was not reconciled by adoption: %v", c.Log)
	}
	if n := len(e.appsOf(jobID)); n != 1 {
		t.Errorf("%d applications for the job, want exactly 1", n)
	}
}

// TestClusterFailsWhenNoResourceManagerAnswers: `palink cluster` exits
// non-zero (with the cause) when every call to the RM failed, instead of
// printing an empty overview and exit 0.
func TestClusterFailsWhenNoResourceManagerAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	faults, _ := sim.ParseFaults("rm:5xx=1")
	e := newCLIEnv(t, sim.Options{Faults: faults}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := e.run(ctx, "cluster")
	if err == nil || !strings.Contains(err.Error(), "no ResourceManager answered") {
		t.Fatalf("palink cluster with its RM down: %v\n%s", err, out)
	}
	if strings.Contains(out, "apps      0 running") {
		t.Errorf("an empty overview was printed as if fetched:\n%s", out)
	}
}

// TestSubmitWaitReturnsAtRunning: `job submit --wait` without an agent
// waits for the job to run, not only for YARN to take the application, and
// says once that background sync needs an agent.
func TestSubmitWaitReturnsAtRunning(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	e.createJob("waited")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, stderr := e.runBoth(ctx, "job", "submit", "waited", "--wait")
	if !strings.Contains(out, "SUBMIT #1 SUCCEEDED") || !strings.Contains(out, "waited is RUNNING (application_") {
		t.Fatalf("submit --wait:\n%s", out)
	}
	if !strings.Contains(stderr, "no palink agent runs for this store") {
		t.Errorf("no word of the missing agent: %q", stderr)
	}
	// The job's record says so too.
	if j := e.job("waited").Job; j.State != model.StateRunning {
		t.Errorf("job is %s after submit --wait", j.State)
	}
}
