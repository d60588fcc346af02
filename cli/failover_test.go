package cli

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/options"
	"github.com/palink/palink/internal/etcdtest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// EnvFailoverRounds sets how many times TestFailover disrupts the leader:
// `make failover` (and CI) runs 20; `make test` the short default.
const EnvFailoverRounds = "PALINK_FAILOVER_ROUNDS"

// failoverTTL is the agents' election TTL: etcd's shortest lease, so that
// many failovers fit in a test.
const failoverTTL = 2 * time.Second

// memberPause is how long one etcd member of three is paused: longer than
// a client takes to give up on it (store: the gRPC keepalive) and turn to
// the others.
const memberPause = 15 * time.Second

// takeoverSlack is what a takeover may take beyond the TTL: the waiting
// candidate hears of the deleted key, confirms its lead and proclaims it,
// and the test's poll of the election sees it — on a loaded CI machine.
const takeoverSlack = 1500 * time.Millisecond

// TestFailover: three `palink agent` processes of the built binary share a
// store on a three-member etcd, in front of a simulated cluster, while
// submits, pauses and restarts of three jobs are issued in a loop. The
// leader is killed (SIGKILL) or frozen (SIGSTOP, then SIGCONT) at random
// moments. After each disruption another agent leads within the election
// TTL (plus takeoverSlack); a frozen leader that wakes steps down; at no
// moment does the simulator run two live applications of one job; and at
// the end every command issued has ended exactly once (one end in its
// log). The writes the fence refused to deposed leaders are counted and
// reported. PALINK_FAILOVER_ROUNDS sets the number of disruptions (3 kills
// and 1 freeze by default; `make failover` runs 20).
func TestFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: real processes on a real etcd")
	}
	rounds := 4
	if s := os.Getenv(EnvFailoverRounds); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a number of rounds", EnvFailoverRounds, s)
		}
		rounds = n
	}
	began := time.Now()
	etcd := etcdtest.Start(t, 3, etcdtest.Options{})
	bin := buildPalink(t)
	t.Logf("3 etcd members started and palink built in %s", time.Since(began).Round(time.Millisecond))

	cl, err := sim.New(sim.Options{Speed: 30, Seed: 25})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := cl.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	url := "etcd://" + strings.Join(etcd.Endpoints(), ",") + "/palink-failover"
	onEtcd := func(cfg *config.Config) {
		cfg.Store = url
		cfg.Etcd.ElectionTTL = config.Duration(failoverTTL)
		cfg.Etcd.DialTimeout = config.Duration(2 * time.Second)
	}
	driver := newCLIEnvOn(t, cl, onEtcd)
	sqlFile := writeTemp(t, "job.sql", e2eSQL)
	names := []string{"orders", "clicks", "payments"}
	for _, n := range names {
		driver.mustRun("job", "create", "--name", n, "--sql", sqlFile)
	}
	cfg, _, err := config.Load(driver.config)
	if err != nil {
		t.Fatal(err)
	}
	// The test's own palink records the actions, as a follower's CLI
	// does, and reads the election; it never campaigns.
	svc, err := core.Open(url, options.FromConfig(cfg))
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()

	agents := make([]*agentProc, 3)
	for i := range agents {
		env := newCLIEnvOn(t, cl, onEtcd)
		agents[i] = &agentProc{t: t, bin: bin, config: env.config, dir: filepath.Dir(env.config), name: fmt.Sprintf("agent%d", i+1)}
		agents[i].start()
		defer agents[i].stop()
	}
	first := waitLeader(t, svc, 30*time.Second, func(m *api.Member) bool { return true })
	t.Logf("%s pid %d leads", first.Host, first.PID)

	// Never two live applications of a job, looked at every 50ms.
	var doubles []string
	var watchMu sync.Mutex
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			live := map[string][]string{}
			for _, a := range cl.Apps() {
				if !slices.Contains(yarnLive, a.State) {
					continue
				}
				for _, tag := range a.Tags {
					if strings.HasPrefix(tag, "palink-job-") {
						live[tag] = append(live[tag], a.ID)
					}
				}
			}
			for tag, apps := range live {
				if len(apps) > 1 {
					watchMu.Lock()
					doubles = append(doubles, fmt.Sprintf("%s: %v", tag, apps))
					watchMu.Unlock()
				}
			}
		}
	}()

	// The work: each job, when no command of it is pending, gets a submit,
	// pause or restart, whichever its state allows.
	issued := map[string]model.Command{}
	var issuedMu sync.Mutex
	workCtx, stopWork := context.WithCancel(ctx)
	workDone := make(chan struct{})
	go func() {
		defer close(workDone)
		rnd := rand.New(rand.NewPCG(25, 1))
		kinds := []model.CommandKind{model.CmdSubmit, model.CmdPause, model.CmdRestart}
		for workCtx.Err() == nil {
			for _, n := range names {
				order := slices.Clone(kinds)
				rnd.Shuffle(len(order), func(i, k int) { order[i], order[k] = order[k], order[i] })
				for _, k := range order {
					req := api.ActionRequest{JobRef: n, Kind: k}
					if k == model.CmdRestart {
						req.Restore = model.RestoreLatest
					}
					p, err := svc.Plan(workCtx, req)
					if err != nil || !p.Allowed {
						continue
					}
					c, err := svc.Act(workCtx, req)
					if err != nil {
						continue // one pending already, or etcd busy electing: not acknowledged
					}
					issuedMu.Lock()
					issued[c.ID] = c
					issuedMu.Unlock()
					break
				}
			}
			select {
			case <-workCtx.Done():
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()

	// The disruptions.
	rnd := rand.New(rand.NewPCG(25, 2))
	var takeovers []time.Duration
	kills, stops := 0, 0
	for r := range rounds {
		time.Sleep(time.Duration(1000+rnd.IntN(3000)) * time.Millisecond) // work in flight
		lead := waitLeader(t, svc, 30*time.Second, func(m *api.Member) bool { return true })
		a := agentOf(agents, lead.PID)
		if a == nil {
			t.Fatalf("round %d: the leader, %s pid %d, is none of the agents", r+1, lead.Host, lead.PID)
		}
		stop := r%4 == 3 // one freeze in four
		disrupted := time.Now()
		if stop {
			stops++
			a.signal(syscall.SIGSTOP)
		} else {
			kills++
			a.kill()
		}
		next := waitLeader(t, svc, 30*time.Second, func(m *api.Member) bool { return m.PID != lead.PID })
		took := time.Since(disrupted)
		takeovers = append(takeovers, took)
		what := "killed"
		if stop {
			what = "frozen"
		}
		t.Logf("round %d: %s (%s pid %d) %s; %s pid %d leads after %s", r+1, a.name, lead.Host, lead.PID, what, next.Host, next.PID, took.Round(time.Millisecond))
		if took > failoverTTL+takeoverSlack {
			t.Errorf("round %d: the new leader took %s after the leader was %s (election TTL %s)", r+1, took.Round(time.Millisecond), what, failoverTTL)
		}
		if stop {
			time.Sleep(time.Duration(500+rnd.IntN(1500)) * time.Millisecond) // the new leader acts meanwhile
			a.signal(syscall.SIGCONT)
			// It wakes believing it leads: it must step down, its writes
			// fenced off, without deposing the new leader.
			if !a.waitLog(10*time.Second, "no longer leads") {
				t.Errorf("round %d: the frozen leader %s did not step down once woken:\n%s", r+1, a.name, a.output())
			}
			if l := waitLeader(t, svc, 10*time.Second, func(*api.Member) bool { return true }); l.PID == lead.PID {
				t.Errorf("round %d: the woken leader %s pid %d leads again at once", r+1, a.name, lead.PID)
			}
		} else {
			a.start() // another agent in its place
		}
	}
	// One etcd member of three paused, as a partitioned member would be:
	// the quorum goes on, and so does the work, under one leader.
	m := etcd.Members()[rnd.IntN(3)]
	m.Pause()
	time.Sleep(memberPause)
	l := waitLeader(t, svc, 30*time.Second, func(*api.Member) bool { return true })
	m.Resume()
	t.Logf("etcd member %s paused for %s: %s pid %d leads", m.Name, memberPause, l.Host, l.PID)
	stopWork()
	<-workDone
	t.Logf("disruptions done after %s", time.Since(began).Round(time.Millisecond))

	// Every command ends, exactly once.
	deadline := time.Now().Add(2 * time.Minute)
	var open, failed []string
	ended := map[model.CommandState]int{}
	for {
		open, failed, ended = nil, nil, map[model.CommandState]int{}
		issuedMu.Lock()
		ids := slices.Sorted(mapsKeys(issued))
		issuedMu.Unlock()
		for _, id := range ids {
			c, err := svc.Command(ctx, id)
			if err != nil {
				t.Fatalf("read command %s: %v", id, err)
			}
			if !c.State.Final() {
				open = append(open, fmt.Sprintf("%s %s #%d (%s)", c.Kind, c.JobID, c.Seq, c.State))
				continue
			}
			ended[c.State]++
			if n := endsIn(c); n != 1 {
				t.Errorf("%s #%d of %s ended %d times:\n%s", c.Kind, c.Seq, c.JobID, n, commandLog(c))
			}
			if c.State == model.CmdFailed {
				failed = append(failed, fmt.Sprintf("%s #%d of %s FAILED: %s", c.Kind, c.Seq, c.JobID, c.Error))
			}
		}
		if len(open) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("commands ended after %s", time.Since(began).Round(time.Millisecond))
	for _, f := range failed {
		t.Log(f) // an end, but one to read: the cluster's or the store's error
	}
	if len(open) > 0 {
		t.Errorf("%d commands never ended: %s", len(open), strings.Join(open, "; "))
	}
	cancel()
	<-watchDone
	if len(doubles) > 0 {
		t.Errorf("two live applications of one job seen %d times, first: %s", len(doubles), doubles[0])
	}
	for _, a := range agents {
		a.stop()
	}
	fenced, notActing := 0, 0
	for _, a := range agents {
		fenced += a.count("write fenced off")
		notActing += a.count("not acting")
	}
	slices.Sort(takeovers)
	t.Logf("failover: %d disruptions (%d SIGKILL, %d SIGSTOP) of the leader, takeover median %s, max %s (TTL %s); %d commands issued, %d SUCCEEDED, %d FAILED; %d writes of deposed leaders refused by the fence, %d acts withheld by MayAct; %d times two live applications of a job",
		rounds, kills, stops, takeovers[len(takeovers)/2].Round(time.Millisecond), takeovers[len(takeovers)-1].Round(time.Millisecond), failoverTTL,
		len(issued), ended[model.CmdSucceeded], ended[model.CmdFailed], fenced, notActing, len(doubles))
}

// mapsKeys returns m's keys (for slices.Sorted).
func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// endsIn counts the ends in a command's log: the scheduler writes
// "succeeded" or "failed: …" once when it ends it.
func endsIn(c model.Command) int {
	n := 0
	for _, l := range c.Log {
		if l.Text == "succeeded" || strings.HasPrefix(l.Text, "failed: ") {
			n++
		}
	}
	return n
}

func commandLog(c model.Command) string {
	var b strings.Builder
	for _, l := range c.Log {
		fmt.Fprintf(&b, "  %s %s\n", l.Time.Format("15:04:05.000"), l.Text)
	}
	return b.String()
}

// waitLeader polls the election until a leader ok accepts leads.
func waitLeader(t *testing.T, svc *core.Local, limit time.Duration, ok func(*api.Member) bool) *api.Member {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		l, err := svc.Leadership(context.Background())
		if err == nil && l.Unreachable == "" && l.Leader != nil && ok(l.Leader) {
			return l.Leader
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new leader within %s: %+v %v", limit, l, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// EnvBinary names a palink binary built from this tree for the tests that
// run it as processes (`make test` builds it first); without it they build
// one.
const EnvBinary = "PALINK_BIN"

// buildPalink is the palink binary for the test's processes.
func buildPalink(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv(EnvBinary); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "palink")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/palink/palink")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build palink: %v\n%s", err, out)
	}
	return bin
}

// agentProc is one `palink agent` process, started again in the same slot
// after it was killed.
type agentProc struct {
	t                  *testing.T
	bin, config, dir   string
	name               string
	mu                 sync.Mutex
	cmd                *exec.Cmd
	exited             chan struct{}
	starts             int
	logFiles, outFiles []string
}

func (a *agentProc) start() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.starts++
	out := filepath.Join(a.dir, fmt.Sprintf("%s-%d.out", a.name, a.starts))
	log := filepath.Join(a.dir, fmt.Sprintf("%s-%d.log", a.name, a.starts))
	f, err := os.Create(out)
	if err != nil {
		a.t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(a.bin, "--config", a.config, "--log-file", log, "agent")
	cmd.Dir = a.dir
	cmd.Env = append(os.Environ(), "HOME="+a.dir, "XDG_DATA_HOME="+a.dir, "XDG_STATE_HOME="+a.dir, "XDG_RUNTIME_DIR="+a.dir)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		a.t.Fatalf("start %s: %v", a.name, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	a.cmd, a.exited = cmd, exited
	a.logFiles, a.outFiles = append(a.logFiles, log), append(a.outFiles, out)
}

func (a *agentProc) pid() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cmd == nil {
		return 0
	}
	return a.cmd.Process.Pid
}

func (a *agentProc) signal(s syscall.Signal) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cmd != nil {
		_ = a.cmd.Process.Signal(s)
	}
}

// kill kills it at once, as a crash of its host would.
func (a *agentProc) kill() {
	a.mu.Lock()
	cmd, exited := a.cmd, a.exited
	a.cmd = nil
	a.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-exited
}

// stop ends it as an operator would (SIGTERM), killing it if it lingers.
func (a *agentProc) stop() {
	a.mu.Lock()
	cmd, exited := a.cmd, a.exited
	a.cmd = nil
	a.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGCONT)
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
}

// output is what its current process wrote on stderr, and its log.
func (a *agentProc) output() string {
	a.mu.Lock()
	files := []string{a.outFiles[len(a.outFiles)-1], a.logFiles[len(a.logFiles)-1]}
	a.mu.Unlock()
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.Write(data)
	}
	return b.String()
}

// waitLog waits until its current process said s.
func (a *agentProc) waitLog(limit time.Duration, s string) bool {
	deadline := time.Now().Add(limit)
	for !strings.Contains(a.output(), s) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
	return true
}

// count counts the lines of all its processes' logs that contain s.
func (a *agentProc) count(s string) int {
	a.mu.Lock()
	files := slices.Clone(a.logFiles)
	a.mu.Unlock()
	n := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, s) {
				n++
			}
		}
	}
	return n
}

// agentOf is the agent whose process has pid.
func agentOf(agents []*agentProc, pid int) *agentProc {
	for _, a := range agents {
		if a.pid() == pid {
			return a
		}
	}
	return nil
}

// yarnLive are the YARN application states that may still run (the RM's
// YarnApplicationState before FINISHED, FAILED and KILLED): the oracle's own
// list, not core's.
var yarnLive = []string{"NEW", "NEW_SAVING", "SUBMITTED", "ACCEPTED", "RUNNING"}
