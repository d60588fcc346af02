// Command scalecheck is `make scale`: palink at fleet size, measured from
// outside as an operator would run it. It starts `palink sim` with N
// running Flink applications in one process and `palink agent` in another,
// adopts every application with `palink adopt --all`, and checks that
// within two sync intervals every adopted job shows RUNNING with a
// checkpoint no older than Flink's latest when the adoption ended. Then it
// measures the agent in its steady state over a few sync cycles: its CPU
// per job per cycle (the simulator's apart), the requests and write
// transactions a cycle makes (from the agent's debug log), its RSS, and
// the store's size.
//
// It is a development tool on the standard library alone, like the
// mutation tester: it drives palink's binary, not its packages.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type options struct {
	bin      string
	jobs     int
	interval time.Duration
	measure  int
	keep     bool
	// stateAlerts keeps only the alert rules that judge the state sync
	// records (job_failed, drift): the agent's CPU is then state sync's.
	stateAlerts bool
	// profiles records the agent's CPU profiles, which costs it CPU too.
	profiles bool
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "./palink", "the palink binary")
	flag.IntVar(&o.jobs, "jobs", 10_000, "running Flink applications on the simulated cluster")
	flag.DurationVar(&o.interval, "interval", 10*time.Second, "the agent's sync interval")
	// 12: a running job's checkpoint statistics are read every 12th cycle
	// (sync.CheckpointEvery), each job on its turn by id; fewer cycles
	// would weigh the turns unevenly at a hundred jobs.
	flag.IntVar(&o.measure, "measure", 12, "sync cycles to measure in the steady state (12: every job's turn for its checkpoints once)")
	flag.BoolVar(&o.keep, "keep", false, "keep the working directory (logs, store, profiles)")
	flag.BoolVar(&o.profiles, "profiles", true, "record the agent's CPU profiles (adoption.pprof.*, steady.pprof.*); profiling costs the agent a few % of its CPU")
	flag.BoolVar(&o.stateAlerts, "state-alerts", false, "keep only the alert rules that need no metrics (job_failed, drift): the agent's CPU is state sync's")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "scalecheck:", err)
		os.Exit(1)
	}
}

// proc is a palink process this check started.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
}

func start(dir, name string, env []string, bin string, args ...string) (*proc, error) {
	log := filepath.Join(dir, name+".out")
	f, err := os.Create(log)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	f.Close()
	return &proc{name: name, cmd: cmd, log: log}, nil
}

func (p *proc) stop() {
	if p == nil || p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// cpu is the process's user+system CPU time so far, from /proc.
func (p *proc) cpu() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces: fields count from its closing ')'.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", p.cmd.Process.Pid, len(f))
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	const hz = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / hz, nil
}

// rss is the process's resident memory, from /proc.
func (p *proc) rss() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func waitFor(what string, d time.Duration, ok func() bool) error {
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: not within %v", what, d)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

func run(o options) (err error) {
	bin, err := filepath.Abs(o.bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "palink-scale-")
	if err != nil {
		return err
	}
	defer func() {
		if o.keep || err != nil {
			fmt.Printf("working directory kept: %s\n", dir)
			return
		}
		os.RemoveAll(dir)
	}()
	rmAddr, err := freePort()
	if err != nil {
		return err
	}
	pprofAddr, err := freePort()
	if err != nil {
		return err
	}
	cfg := filepath.Join(dir, "sim.yaml")

	fmt.Printf("== palink sim: %d running Flink applications (its own process)\n", o.jobs)
	t0 := time.Now()
	sim, err := start(dir, "sim", nil, bin, "sim", "--addr", rmAddr, "--jobs", strconv.Itoa(o.jobs), "--running",
		"--seed", "1", "--config-out", cfg)
	if err != nil {
		return err
	}
	defer sim.stop()
	if err := waitFor("the simulator's config", time.Minute, func() bool { _, err := os.Stat(cfg); return err == nil }); err != nil {
		return err
	}
	fmt.Printf("   up in %.1f s\n", time.Since(t0).Seconds())
	if err := setInterval(cfg, o.interval, o.stateAlerts); err != nil {
		return err
	}

	fmt.Printf("== palink agent: sync every %v, profiles on %s\n", o.interval, pprofAddr)
	agentLog := filepath.Join(dir, "agent.log")
	syncLog := &cycleLog{path: agentLog}
	agent, err := start(dir, "agent", []string{"PALINK_LOG_LEVEL=debug"}, bin, "--config", cfg, "--log-file", agentLog,
		"agent", "--pprof", pprofAddr)
	if err != nil {
		return err
	}
	defer agent.stop()
	if err := waitFor("the agent's first sync cycle", time.Minute, func() bool { return len(syncLog.cycles()) > 0 }); err != nil {
		return errors.Join(err, tail(agent.log))
	}

	fmt.Println("== palink adopt --all")
	t0 = time.Now()
	out, err := exec.Command(bin, "--config", cfg, "adopt", "--all", "--yes", "-o", "json").Output()
	if err != nil {
		return fmt.Errorf("adopt --all: %w: %s", err, stderrOf(err))
	}
	took := time.Since(t0)
	adoptedAt := time.Now()
	var adopted struct {
		Adopted []struct {
			AppID string `json:"app_id"`
			JobID string `json:"job_id"`
		} `json:"adopted"`
		Transactions int `json:"transactions"`
	}
	if err := json.Unmarshal(out, &adopted); err != nil {
		return fmt.Errorf("adopt --all -o json: %w", err)
	}
	n := len(adopted.Adopted)
	fmt.Printf("   %d applications in %.2f s (%.0f/s), %d transactions\n", n, took.Seconds(), float64(n)/took.Seconds(), adopted.Transactions)
	if n < o.jobs {
		return fmt.Errorf("adopted %d applications of %d running", n, o.jobs)
	}
	flinkLatest, err := latestCheckpoints("http://" + rmAddr)
	if err != nil {
		return err
	}

	stopProfile := func() {}
	if o.profiles {
		stopProfile = profile(pprofAddr, filepath.Join(dir, "adoption.pprof"))
	}
	fmt.Printf("== within two sync intervals (%v): every adopted job RUNNING with its latest checkpoint\n", 2*o.interval)
	deadline := adoptedAt.Add(2 * o.interval)
	var bad []string
	var checkedAt time.Time
	time.Sleep(o.interval)
	for {
		checkedAt = time.Now()
		bad, err = checkJobs(bin, cfg, adopted.Adopted, flinkLatest)
		if err != nil {
			return err
		}
		if len(bad) == 0 || time.Now().After(deadline) {
			break
		}
		// A check reads every job through the agent (a second or two at
		// 10,000): look again at the deadline, not sooner.
		time.Sleep(time.Until(deadline))
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("%d of %d jobs not RUNNING with their latest checkpoint %.1f s after adoption, e.g.:\n  %s",
			len(bad), n, time.Since(adoptedAt).Seconds(), strings.Join(bad[:min(len(bad), 10)], "\n  "))
	}
	fmt.Printf("   all %d in the list read %.1f s after the adoption\n", n, checkedAt.Sub(adoptedAt).Seconds())
	stopProfile()

	// The cycle after a job's first reads its details: steady is after it.
	warm := len(syncLog.cycles()) + 2
	if err := waitFor("two more sync cycles", 8*o.interval, func() bool { return len(syncLog.cycles()) >= warm }); err != nil {
		return err
	}
	fmt.Printf("== steady state: %d sync cycles\n", o.measure)
	first := len(syncLog.cycles())
	a0, err := agent.cpu()
	if err != nil {
		return err
	}
	s0, err := sim.cpu()
	if err != nil {
		return err
	}
	w0 := time.Now()
	if o.profiles {
		stopProfile = profile(pprofAddr, filepath.Join(dir, "steady.pprof"))
	}
	if err := waitFor("the steady-state cycles", time.Duration(o.measure+4)*o.interval*4, func() bool {
		return len(syncLog.cycles()) >= first+o.measure
	}); err != nil {
		return err
	}
	a1, _ := agent.cpu()
	s1, _ := sim.cpu()
	wall := time.Since(w0)
	stopProfile()
	cs := syncLog.cycles()[first : first+o.measure]
	var jobs, changed, rm, flink, txns int
	var cycleTime time.Duration
	for _, c := range cs {
		jobs += c.jobs
		changed += c.changed
		rm += c.rm
		flink += c.flink
		txns += c.txns
		cycleTime += c.took
	}
	perJob := (a1 - a0) / time.Duration(max(jobs, 1))
	fmt.Printf("   %d cycles in %.1f s, %d jobs a cycle, each cycle %.2f s on average\n", len(cs), wall.Seconds(), jobs/len(cs),
		(cycleTime / time.Duration(len(cs))).Seconds())
	fmt.Printf("   agent CPU   %.2f s = %.3f ms per job per cycle (%.0f %% of a core)\n", (a1 - a0).Seconds(),
		float64(perJob.Microseconds())/1000, 100*(a1-a0).Seconds()/wall.Seconds())
	fmt.Printf("   simulator   %.2f s (%.0f %% of a core; not palink's)\n", (s1 - s0).Seconds(), 100*(s1-s0).Seconds()/wall.Seconds())
	fmt.Printf("   requests    %.3f per job per cycle (%d RM lists, %d JobManager requests)\n", float64(rm+flink)/float64(max(jobs, 1)), rm, flink)
	fmt.Printf("   writes      %.1f transactions per cycle, %d jobs changed\n", float64(txns)/float64(len(cs)), changed)
	fmt.Printf("   agent RSS   %.0f MB\n", float64(agent.rss())/(1<<20))
	if st, err := os.Stat(filepath.Join(dir, "palink-sim.db")); err == nil {
		fmt.Printf("   store file  %.1f MB (%.1f KB per job)\n", float64(st.Size())/(1<<20), float64(st.Size())/1024/float64(n))
	}
	if o.profiles && o.keep {
		fmt.Printf("   profiles    go tool pprof -top %s %s/{adoption,steady}.pprof.* (slices of 5 s)\n", bin, dir)
	}
	return nil
}

// profile records the agent's CPU profile into file until the function it
// returns is called.
func profile(addr, file string) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The endpoint answers nothing for a profile cut short: record
		// slices of 5 s (file.0, file.1, …; go tool pprof merges them).
		for i := 0; ; i++ {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/debug/pprof/profile?seconds=5", nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || ctx.Err() != nil {
				return
			}
			_ = os.WriteFile(fmt.Sprintf("%s.%d", file, i), b, 0o600)
		}
	}()
	return func() { cancel(); <-done }
}

// setInterval sets the sync interval of the config the simulator wrote
// and, with stateOnly, drops its alert rules that measure metrics.
func setInterval(cfg string, d time.Duration, stateOnly bool) error {
	b, err := os.ReadFile(cfg)
	if err != nil {
		return err
	}
	re := regexp.MustCompile(`(?m)^sync:\n  interval: \S+`)
	if !re.Match(b) {
		return fmt.Errorf("%s: no sync interval to set", cfg)
	}
	b = re.ReplaceAll(b, []byte("sync:\n  interval: "+d.String()))
	if stateOnly {
		b = regexp.MustCompile(`(?m)^    - \{name: [^,]+, kind: (backpressure|lag|checkpoint_age|failed_checkpoints|restarts)\b.*\n`).ReplaceAll(b, nil)
	}
	return os.WriteFile(cfg, b, 0o600)
}

type cycle struct {
	jobs, changed, rm, flink, txns int
	took                           time.Duration
}

var cycleLine = regexp.MustCompile(`msg="sync cycle" jobs=(\d+) changed=(\d+) rm=(\d+) flink=(\d+)(?: txns=(\d+))? took=(\S+)`)

// cycleLog follows the agent's debug log for its sync cycles. The check
// polls it ten times a second while the agent runs: each read takes up
// where the last stopped, rather than scanning a log that grows with
// every metrics round again.
type cycleLog struct {
	path    string
	off     int64
	partial []byte // a line the agent had not finished writing
	seen    []cycle
}

// cycles are the sync cycles the log records so far.
func (l *cycleLog) cycles() []cycle {
	f, err := os.Open(l.path)
	if err != nil {
		return l.seen
	}
	defer f.Close()
	if _, err := f.Seek(l.off, io.SeekStart); err != nil {
		return l.seen
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return l.seen
	}
	l.off += int64(len(b))
	b = append(l.partial, b...)
	end := bytes.LastIndexByte(b, '\n') + 1
	l.partial = append([]byte(nil), b[end:]...)
	for _, line := range bytes.Split(b[:end], []byte("\n")) {
		m := cycleLine.FindSubmatch(line)
		if m == nil {
			continue
		}
		var c cycle
		c.jobs, _ = strconv.Atoi(string(m[1]))
		c.changed, _ = strconv.Atoi(string(m[2]))
		c.rm, _ = strconv.Atoi(string(m[3]))
		c.flink, _ = strconv.Atoi(string(m[4]))
		c.txns, _ = strconv.Atoi(string(m[5]))
		c.took, _ = time.ParseDuration(string(m[6]))
		l.seen = append(l.seen, c)
	}
	return l.seen
}

var chkN = regexp.MustCompile(`/chk-(\d+)$`)

// latestCheckpoints are the number of each application's newest completed
// checkpoint, as the simulator's admin API tells it.
func latestCheckpoints(rm string) (map[string]int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, rm+"/sim/state", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var st struct {
		Apps []struct {
			ID   string `json:"id"`
			Jobs []struct {
				LatestCheckpoint string `json:"latestCheckpoint"`
			} `json:"jobs"`
		} `json:"apps"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return nil, fmt.Errorf("/sim/state: %w", err)
	}
	out := map[string]int{}
	for _, a := range st.Apps {
		if len(a.Jobs) == 1 {
			if m := chkN.FindStringSubmatch(a.Jobs[0].LatestCheckpoint); m != nil {
				out[a.ID], _ = strconv.Atoi(m[1])
			}
		}
	}
	return out, nil
}

// checkJobs lists the adopted jobs that do not show RUNNING with a
// checkpoint at least as new as Flink's latest at adoption.
func checkJobs(bin, cfg string, adopted []struct {
	AppID string `json:"app_id"`
	JobID string `json:"job_id"`
}, flinkLatest map[string]int) ([]string, error) {
	out, err := exec.Command(bin, "--config", cfg, "jobs", "-o", "json").Output()
	if err != nil {
		return nil, fmt.Errorf("jobs -o json: %w: %s", err, stderrOf(err))
	}
	var jobs []struct {
		ID               string `json:"id"`
		AppID            string `json:"app_id"`
		State            string `json:"state"`
		LatestCheckpoint *struct {
			Path string `json:"path"`
		} `json:"latest_checkpoint"`
	}
	if err := json.Unmarshal(out, &jobs); err != nil {
		return nil, fmt.Errorf("jobs -o json: %w", err)
	}
	byApp := map[string]int{}
	for i, j := range jobs {
		byApp[j.AppID] = i
	}
	var bad []string
	for _, a := range adopted {
		i, ok := byApp[a.AppID]
		if !ok {
			bad = append(bad, a.AppID+": no job")
			continue
		}
		j := jobs[i]
		switch {
		case j.State != "RUNNING":
			bad = append(bad, fmt.Sprintf("%s: %s", a.AppID, j.State))
		case j.LatestCheckpoint == nil:
			bad = append(bad, a.AppID+": no checkpoint")
		default:
			m := chkN.FindStringSubmatch(j.LatestCheckpoint.Path)
			if m == nil {
				bad = append(bad, fmt.Sprintf("%s: checkpoint %s", a.AppID, j.LatestCheckpoint.Path))
				break
			}
			if n, _ := strconv.Atoi(m[1]); n < flinkLatest[a.AppID] {
				bad = append(bad, fmt.Sprintf("%s: chk-%d, Flink had chk-%d at adoption", a.AppID, n, flinkLatest[a.AppID]))
			}
		}
	}
	return bad, nil
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}

func tail(path string) error {
	b, _ := os.ReadFile(path)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return fmt.Errorf("%s:\n%s", filepath.Base(path), b)
}
