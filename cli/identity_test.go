package cli

import (
	"bufio"
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

// crashEarly starts `palink job submit NAME --wait` and SIGKILLs it once
// its SUBMIT runs but before the slow gateway let it create an
// application: the command is left DOING with nothing on the cluster.
func (e *cliEnv) crashEarly(name string) {
	e.t.Helper()
	cmd := exec.Command(os.Args[0], "--config", e.config, "job", "submit", name, "--wait")
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	queued := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "queued for "+name) {
				queued <- true
			}
		}
		close(queued)
	}()
	select {
	case ok := <-queued:
		if !ok {
			e.t.Fatal("the submit ended before it queued its command")
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		e.t.Fatal("the submit never queued its command")
	}
	time.Sleep(150 * time.Millisecond) // claimed and DOING, inside the first gateway call
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
}

func (e *cliEnv) createJob(name string) string {
	e.t.Helper()
	sqlFile := filepath.Join(e.t.TempDir(), "job.sql")
	if err := os.WriteFile(sqlFile, []byte(e2eSQL), 0o600); err != nil {
		e.t.Fatal(err)
	}
	e.mustRun("job", "create", "--name", name, "--sql", sqlFile)
	return e.job(name).Job.ID
}

// runAgentUntil runs `palink agent` until the job's newest command ends.
func (e *cliEnv) runAgentUntil(name string) model.Command {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(ctx, "agent"); agentDone <- err }()
	var final model.Command
	for ctx.Err() == nil {
		time.Sleep(200 * time.Millisecond)
		cs, err := e.commandsJSON(ctx)
		if err == nil && len(cs) > 0 && cs[len(cs)-1].State.Final() {
			final = cs[len(cs)-1]
			break
		}
	}
	cancel()
	<-agentDone
	if !final.State.Final() {
		e.t.Fatal("the agent never ended the command")
	}
	return final
}

// TestTwoStoresNeverTouchEachOthersApplications reproduces the
// cross-store adoption: store A runs a job; store B (another team, same
// YARN, command ids counted from 1 as well) crashes in the middle of a
// submit; B's agent reclaims the command. B must not adopt A's application,
// and a kill in B must not kill it.
func TestTwoStoresNeverTouchEachOthersApplications(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	faults, _ := sim.ParseFaults("gateway:latency=400ms")
	a := newCLIEnv(t, sim.Options{Faults: faults}, nil)
	b := newCLIEnvOn(t, a.sim, nil)

	jobA := a.createJob("orders")
	a.mustRun("job", "submit", "orders", "--wait")
	appsA := a.appsOf(jobA)
	if len(appsA) != 1 {
		t.Fatalf("store A: %d applications", len(appsA))
	}
	appA := appsA[0].ID

	jobB := b.createJob("orders")
	b.crashEarly("orders")
	if n := len(b.appsOf(jobB)); n != 0 {
		t.Fatalf("store B's crashed submit already created %d applications: the case needs none", n)
	}
	if cs := b.job("orders").Commands; len(cs) != 1 || cs[0].State != model.CmdDoing {
		t.Fatalf("store B after the crash: %+v", cs)
	}
	final := b.runAgentUntil("orders")
	for _, l := range final.Log {
		if strings.Contains(l.Text, appA) {
			t.Errorf("store B's command speaks of store A's application %s: %s", appA, l.Text)
		}
	}
	if final.State != model.CmdSucceeded || final.Params.AppID == appA {
		t.Fatalf("store B's submit: %s %s app %s (A's is %s)\n%v", final.State, final.Error, final.Params.AppID, appA, final.Log)
	}
	b.mustRun("job", "kill", "orders", "--yes", "--wait")
	if got, _ := a.sim.App(appA); got.State != "RUNNING" {
		t.Fatalf("store A's application is %s after store B's kill", got.State)
	}
	if got, _ := a.sim.App(final.Params.AppID); got.State != "KILLED" {
		t.Errorf("store B's own application is %s after its kill", got.State)
	}
	j := a.syncUntil("orders", "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })
	if j.AppID != appA {
		t.Errorf("store A's job now records %s, want %s", j.AppID, appA)
	}
}

// TestRestoredStoreNeverAdoptsWhatItsPastSubmitted: a store is backed up,
// then submits a job, then is restored from the backup (which knows
// nothing of that submission) and crashes during a new submit of the same
// job. The same store id and the same sequence numbers come again, but the
// reclaimed command must not adopt the application the lost future
// submitted: it refuses to start while that application lives.
func TestRestoredStoreNeverAdoptsWhatItsPastSubmitted(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	faults, _ := sim.ParseFaults("gateway:latency=400ms")
	e := newCLIEnv(t, sim.Options{Faults: faults}, nil)
	jobID := e.createJob("orders")
	backup := filepath.Join(t.TempDir(), "before.db")
	e.mustRun("store", "backup", backup)
	e.mustRun("job", "submit", "orders", "--wait")
	first := e.job("orders")
	lost := first.Job.AppID
	if lost == "" {
		t.Fatal("no application after the submit")
	}
	e.mustRun("store", "restore", backup)
	if d := e.job("orders"); len(d.Commands) != 0 || d.Job.AppID != "" {
		t.Fatalf("the restore kept what came after the backup: %+v", d.Commands)
	}

	e.crashEarly("orders")
	final := e.runAgentUntil("orders")
	if final.ID == first.Commands[0].ID {
		t.Fatalf("the restored store reused command id %s", final.ID)
	}
	if final.State != model.CmdFailed || !strings.Contains(final.Error, "refusing to start orders: its application "+lost+" is still RUNNING") {
		t.Fatalf("the reclaimed submit: %s %q\n%v", final.State, final.Error, final.Log)
	}
	for _, l := range final.Log {
		if strings.Contains(l.Text, "adopting") {
			t.Errorf("it adopted: %s", l.Text)
		}
	}
	if got, _ := e.sim.App(lost); got.State != "RUNNING" {
		t.Errorf("the application of the lost submission is %s", got.State)
	}
	if n := len(e.appsOf(jobID)); n != 1 {
		t.Errorf("%d applications for the job, want the 1 of the lost submission", n)
	}
}
