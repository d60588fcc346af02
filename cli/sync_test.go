package cli

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// childOutput collects a child process's output lines as they come.
type childOutput struct {
	mu   sync.Mutex
	text strings.Builder
}

func (l *childOutput) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text.String()
}

// startPalink runs this test binary as palink with args in a process of
// its own, its standard error collected; stdout is discarded.
func (e *cliEnv) startPalink(args ...string) (*exec.Cmd, *childOutput, <-chan error) {
	e.t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--config", e.config}, args...)...)
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	out := &childOutput{}
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			out.mu.Lock()
			out.text.WriteString(sc.Text() + "\n")
			out.mu.Unlock()
		}
	}()
	done := make(chan error, 1)
	go func() { <-read; done <- cmd.Wait() }()
	e.t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, out, done
}

// TestLongRunningSyncResumesAnOrphan: a palink SIGKILLed in the middle of
// `job submit` leaves its SUBMIT DOING; a `palink sync` started right
// after (its lease not yet expired) says it runs until interrupted,
// resumes the orphan once the lease expires (adopting the application,
// never submitting again), keeps syncing the job so that its state follows
// the application when it ends, and exits 0 at once on SIGINT. While it
// runs, the CLI works through it.
func TestLongRunningSyncResumesAnOrphan(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	faults, err := sim.ParseFaults("gateway:latency=400ms")
	if err != nil {
		t.Fatal(err)
	}
	e := newCLIEnv(t, sim.Options{Faults: faults}, nil)
	jobID := e.crashSubmit("orphan")

	cmd, stderr, done := e.startPalink("sync")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// show reads the job through the running sync (it owns the store).
	var last error
	show := func() (api.JobDetail, bool) {
		out, err := e.run(ctx, "job", "show", "orphan", "-o", "json")
		if err != nil {
			last = err
			return api.JobDetail{}, false
		}
		var d api.JobDetail
		if err := decodeWire([]byte(out), &d); err != nil {
			t.Fatalf("job show -o json: %v", err)
		}
		return d, true
	}
	waitFor := func(what string, cond func(api.JobDetail) bool) api.JobDetail {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			select {
			case err := <-done:
				t.Fatalf("palink sync ended before %s: %v\n%s", what, err, stderr)
			default:
			}
			d, ok := show()
			if ok && cond(d) {
				return d
			}
			if time.Now().After(deadline) {
				t.Fatalf("while palink sync ran, %s never happened: job %s, commands %+v (last error: %v)\nsync said:\n%s",
					what, d.Job.State, d.Commands, last, stderr)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}

	d := waitFor("the orphaned SUBMIT ended and the job runs", func(d api.JobDetail) bool {
		return len(d.Commands) == 1 && d.Commands[0].State.Final() && d.Job.State == model.StateRunning
	})
	c := d.Commands[0]
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
	apps := e.appsOf(jobID)
	if len(apps) != 1 {
		t.Fatalf("%d applications for the job, want exactly 1", len(apps))
	}

	// The application ends outside palink: the job's record follows.
	if err := e.sim.KillApp(apps[0].ID); err != nil {
		t.Fatal(err)
	}
	waitFor("the job KILLED as its application", func(d api.JobDetail) bool { return d.Job.State == model.StateKilled })

	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("palink sync on SIGINT: %v\n%s", err, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("palink sync still runs 10s after SIGINT\n%s", stderr)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("palink sync took %s to stop on SIGINT", took)
	}
	said := stderr.String()
	t.Log(said)
	for _, want := range []string{"until interrupted", "resuming SUBMIT #1 of orphan", "SUBMIT #1 of orphan SUCCEEDED"} {
		if !strings.Contains(said, want) {
			t.Errorf("palink sync did not say %q:\n%s", want, said)
		}
	}
}
