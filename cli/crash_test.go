package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestCrashDuringSubmit kills palink (SIGKILL) while its SUBMIT is DOING,
// after the application was created but before the command ended. After a
// restart exactly one YARN application exists for the job, and the command
// ends SUCCEEDED by adopting it; no command and no event is lost.
func TestCrashDuringSubmit(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	faults, err := sim.ParseFaults("gateway:latency=400ms")
	if err != nil {
		t.Fatal(err)
	}
	e := newCLIEnv(t, sim.Options{Faults: faults}, nil)
	sqlFile := filepath.Join(t.TempDir(), "job.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	e.mustRun("job", "create", "--name", "crashy", "--sql", sqlFile)
	jobID := e.job("crashy").Job.ID

	cmd := exec.Command(os.Args[0], "--config", e.config, "job", "submit", "crashy", "--wait")
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it the moment its application exists on YARN: the gateway is
	// slow, so the submitting process is still inside the deploy.
	deadline := time.Now().Add(60 * time.Second)
	for len(e.appsOf(jobID)) == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no application appeared; palink said:\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if strings.Contains(out.String(), "SUCCEEDED") {
		t.Fatalf("the process finished before it was killed; the test proves nothing:\n%s", out.String())
	}
	d := e.job("crashy")
	if len(d.Commands) != 1 || d.Commands[0].State != model.CmdDoing {
		t.Fatalf("after the crash the command should be DOING: %+v", d.Commands)
	}

	// Restart palink: the agent reclaims the command once its lease expires.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(ctx, "agent"); agentDone <- err }()
	var final model.Command
	for ctx.Err() == nil {
		time.Sleep(200 * time.Millisecond)
		if c, err := e.commandViaAgent(ctx, "1"); err == nil && c.State.Final() {
			final = c
			break
		}
	}
	cancel()
	<-agentDone
	if final.State != model.CmdSucceeded {
		t.Fatalf("command after restart: %s %s\n%v", final.State, final.Error, final.Log)
	}
	if n := len(e.appsOf(jobID)); n != 1 {
		t.Fatalf("%d YARN applications for the job after the crash, want exactly 1", n)
	}
	adopted := false
	for _, l := range final.Log {
		if strings.Contains(l.Text, "adopting it, not submitting again") {
			adopted = true
		}
	}
	if !adopted || final.Attempts < 2 {
		t.Errorf("the command was not reconciled (attempts %d): %v", final.Attempts, final.Log)
	}
	d = e.job("crashy")
	if len(d.Commands) != 1 {
		t.Errorf("%d commands, want 1", len(d.Commands))
	}
	var states []string
	for _, ev := range d.Events {
		states = append(states, ev.To.String())
	}
	if got := strings.Join(states, ","); !strings.HasPrefix(got, "CREATED,DEPLOYING,DEPLOY_SUCCEEDED") {
		t.Errorf("events %s, want CREATED,DEPLOYING,DEPLOY_SUCCEEDED…", got)
	}
	if d.Job.AppID != e.appsOf(jobID)[0].ID {
		t.Errorf("job records %s, the cluster has %s", d.Job.AppID, e.appsOf(jobID)[0].ID)
	}
}

func (e *cliEnv) commandViaAgent(ctx context.Context, id string) (model.Command, error) {
	cs, err := e.commandsJSON(ctx)
	if err != nil {
		return model.Command{}, err
	}
	for _, c := range cs {
		if c.ID == id || strconv.FormatInt(c.Seq, 10) == id {
			return c, nil
		}
	}
	return model.Command{}, os.ErrNotExist
}

// TestCrashDuringPause kills palink (SIGKILL) after Flink completed its
// stop-with-savepoint but before palink read the result: the restarted
// palink resumes polling the persisted trigger instead of stopping again,
// and records the savepoint.
func TestCrashDuringPause(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	e := newCLIEnv(t, sim.Options{Speed: 5}, nil)
	sqlFile := filepath.Join(t.TempDir(), "job.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		t.Fatal(err)
	}
	e.mustRun("job", "create", "--name", "pausy", "--sql", sqlFile)
	e.mustRun("job", "submit", "pausy", "--wait")
	j := e.syncUntil("pausy", "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })
	// JobManager answers slow from now on, so the status poll is in flight
	// when the savepoint completes.
	faults, _ := sim.ParseFaults("jm:latency=700ms")
	if err := e.sim.SetFaults(faults); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "--config", e.config, "job", "pause", "pausy", "--wait")
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	savepoints := func() []string {
		a, _ := e.sim.App(j.AppID)
		for _, fj := range a.Jobs {
			if fj.ID == j.FlinkJobID {
				return fj.Savepoints
			}
		}
		return nil
	}
	for deadline := time.Now().Add(60 * time.Second); len(savepoints()) == 0; {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the savepoint never completed:\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if strings.Contains(out.String(), "SUCCEEDED") {
		t.Fatalf("the pause finished before the kill; the test proves nothing:\n%s", out.String())
	}
	_ = e.sim.SetFaults(sim.Faults{})

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(ctx, "agent"); agentDone <- err }()
	var final model.Command
	for ctx.Err() == nil {
		time.Sleep(200 * time.Millisecond)
		if cs, err := e.commandsJSON(ctx); err == nil && len(cs) == 2 && cs[1].State.Final() {
			final = cs[1]
			break
		}
	}
	cancel()
	<-agentDone
	if final.Kind != model.CmdPause || final.State != model.CmdSucceeded {
		t.Fatalf("pause after the crash: %s %s %s\n%v", final.Kind, final.State, final.Error, final.Log)
	}
	resumed := false
	for _, l := range final.Log {
		resumed = resumed || strings.Contains(l.Text, "resuming stop-with-savepoint "+final.Params.TriggerID)
	}
	if !resumed {
		t.Errorf("the command did not resume its trigger: %v", final.Log)
	}
	if sps := savepoints(); len(sps) != 1 {
		t.Errorf("Flink took %d savepoints, want 1 (the job was stopped twice?)", len(sps))
	}
	d := e.job("pausy")
	if d.Job.State != model.StateFinished || d.Job.LatestSavepoint == nil || d.Job.LatestSavepoint.Path != savepoints()[0] {
		t.Errorf("job after the resumed pause: %s savepoint %+v, Flink's %v", d.Job.State, d.Job.LatestSavepoint, savepoints())
	}
}
