//go:build unix

package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn/sim"
)

// The agent's socket: whom a client trusts there, which store an agent
// serves, and what a viewer may do through it. The tests run as root (CI
// too) and start processes as nobody (uid 65534) to play other users.

const nobody = 65534

func needRoot(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if os.Getuid() != 0 {
		t.Skip("needs root, to run processes as another user")
	}
}

// sharedDir makes a directory with mode outside the test's temporary
// directory, which other users cannot enter.
func sharedDir(t *testing.T, mode os.FileMode) string {
	t.Helper()
	d, err := os.MkdirTemp("", "palink-t-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, mode); err != nil {
		t.Fatal(err)
	}
	return d
}

// nobodyBinary copies this test binary where nobody may run it.
func nobodyBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(sharedDir(t, 0o755), "palink")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// asNobody is bin run as uid and gid 65534 with env.
func asNobody(bin string, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"HOME=/nonexistent", "PATH=" + os.Getenv("PATH")}, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return cmd
}

// startImpostor runs an impostor as nobody on sock and returns its reports.
func startImpostor(t *testing.T, bin, sock string) <-chan string {
	t.Helper()
	cmd := asNobody(bin, []string{"PALINK_IMPOSTOR=" + sock})
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	if l := nextLine(t, lines); l != "listening" {
		t.Fatalf("impostor: %s", l)
	}
	return lines
}

func nextLine(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the impostor quit")
		}
		return l
	case <-time.After(time.Minute):
		t.Fatal("the impostor said nothing for a minute")
	}
	return ""
}

// connections are what the impostor received before a probe of ours:
// connections are served in turn, so every earlier one is reported first.
func connections(t *testing.T, sock string, lines <-chan string) []string {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(c, "probe")
	c.Close()
	var got []string
	for {
		l := nextLine(t, lines)
		if l == "conn 5" {
			return got
		}
		got = append(got, l)
	}
}

// TestAgentSocketRefusesAnImpostor: another user listens first on the
// socket a root palink is configured to use. In a root-owned sticky
// directory (like /tmp) the client connects, sees who listens (SO_PEERCRED)
// and hangs up before sending a byte; in a directory anyone may write to it
// does not even connect. Either way it says why and does not open the store
// instead, and an agent will not start there either.
func TestAgentSocketRefusesAnImpostor(t *testing.T) {
	needRoot(t)
	bin := nobodyBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("sticky directory", func(t *testing.T) {
		sock := filepath.Join(sharedDir(t, 0o777|os.ModeSticky), "agent.sock")
		e := newCLIEnv(t, sim.Options{}, func(c *config.Config) { c.Socket = sock })
		cfg, _, err := config.Load(e.config)
		if err != nil {
			t.Fatal(err)
		}
		lines := startImpostor(t, bin, sock)

		// No store yet: only an agent of root's would do.
		_, err = e.run(ctx, "jobs")
		for _, want := range []string{"refusing the agent socket " + sock, "served by nobody (uid 65534)", "only an agent running as root is trusted"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("palink jobs: want an error with %q, got %v", want, err)
			}
		}
		if _, err := os.Stat(cfg.Store); err == nil {
			t.Error("palink opened the store itself after refusing the socket")
		}
		// A store of root's: only root's agent would do.
		st, err := store.Open(cfg.Store, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		_, err = e.run(ctx, "jobs")
		for _, want := range []string{"served by nobody (uid 65534)", "the store " + cfg.Store + " belongs to root (uid 0)"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("palink jobs: want an error with %q, got %v", want, err)
			}
		}
		if _, err := e.run(ctx, "agent"); err == nil || !strings.Contains(err.Error(), "served by nobody") {
			t.Errorf("palink agent on an impostor's socket: %v", err)
		}
		got := connections(t, sock, lines)
		if len(got) != 3 || slices.ContainsFunc(got, func(l string) bool { return l != "conn 0" }) {
			t.Errorf("the impostor received %q, want three connections of 0 bytes", got)
		}
	})

	t.Run("open directory", func(t *testing.T) {
		sock := filepath.Join(sharedDir(t, 0o777), "agent.sock")
		e := newCLIEnv(t, sim.Options{}, func(c *config.Config) { c.Socket = sock })
		lines := startImpostor(t, bin, sock)
		_, err := e.run(ctx, "jobs")
		want := "lets others remove or rename the agent's socket and put theirs in its place"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("palink jobs: want an error with %q, got %v", want, err)
		}
		if got := connections(t, sock, lines); len(got) != 0 {
			t.Errorf("the client connected to a socket in a directory anyone may write to: %q", got)
		}
	})
}

// startAgent runs `palink [args] agent` until the test ends or stop is
// called, and waits until it answers on sock.
func (e *cliEnv) startAgent(sock string, args ...string) (stop func()) {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := e.run(ctx, append(args, "agent")...); done <- err }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	e.t.Cleanup(stop)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if fi, err := os.Stat(sock); err == nil && fi.Mode().Type() == os.ModeSocket {
			return stop
		}
		select {
		case err := <-done:
			e.t.Fatalf("palink %s agent: %v", strings.Join(args, " "), err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("palink %s agent: no socket at %s", strings.Join(args, " "), sock)
		}
	}
}

// jobNames runs `palink [args] jobs -o json` and returns the jobs' names.
func (e *cliEnv) jobNames(args ...string) []string {
	e.t.Helper()
	var jobs []struct{ Name string }
	out := e.mustRun(append(args, "jobs", "-o", "json")...)
	if err := decodeWire([]byte(out), &jobs); err != nil {
		e.t.Fatalf("jobs -o json: %v\n%s", err, out)
	}
	var names []string
	for _, j := range jobs {
		names = append(names, j.Name)
	}
	return names
}

// locked reports whether a palink holds the store.
func locked(t *testing.T, path string) bool {
	t.Helper()
	st, err := store.Open(path, store.Options{LockTimeout: -1})
	if err != nil {
		return true
	}
	st.Close()
	return false
}

func writeSQL(t *testing.T) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "job.sql")
	if err := os.WriteFile(f, []byte(e2eSQL), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestTwoAgentsServeTwoStores: agents of two stores run side by side, each
// on its own default socket, and each client reaches the agent of its store.
func TestTwoAgentsServeTwoStores(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	e := newCLIEnv(t, sim.Options{}, func(c *config.Config) { c.Socket = "" })
	cfg, _, err := config.Load(e.config)
	if err != nil {
		t.Fatal(err)
	}
	a, b := cfg.Store, filepath.Join(t.TempDir(), "b.db")
	if agent.DefaultSocket(a) == agent.DefaultSocket(b) {
		t.Fatalf("two stores, one socket: %s", agent.DefaultSocket(a))
	}
	e.startAgent(agent.DefaultSocket(a))
	e.startAgent(agent.DefaultSocket(b), "--db", b)
	if !locked(t, a) || !locked(t, b) {
		t.Fatal("the agents do not hold their stores")
	}
	sql := writeSQL(t)
	e.mustRun("job", "create", "--name", "alpha", "--sql", sql)
	e.mustRun("--db", b, "job", "create", "--name", "beta", "--sql", sql)
	if got := e.jobNames(); !slices.Equal(got, []string{"alpha"}) {
		t.Errorf("the config's store's agent lists %q, want [alpha]", got)
	}
	if got := e.jobNames("--db", b); !slices.Equal(got, []string{"beta"}) {
		t.Errorf("the agent of --db %s lists %q, want [beta]", b, got)
	}
}

// TestDBFlagIsTheStoreEverywhere: `palink --db X agent` serves X on X's
// socket, `palink --db X` talks to it, and `palink --db Y` does not; the
// config's store's agent answers `--db` of that same store too.
func TestDBFlagIsTheStoreEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	e := newCLIEnv(t, sim.Options{}, nil) // socket: in the config
	cfg, _, err := config.Load(e.config)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	x, y := filepath.Join(dir, "x.db"), filepath.Join(dir, "y.db")
	sql := writeSQL(t)

	stop := e.startAgent(agent.DefaultSocket(x), "--db", x)
	if !locked(t, x) {
		t.Fatal("palink --db X agent does not hold X")
	}
	if _, err := os.Stat(cfg.Socket); err == nil {
		t.Error("the agent of --db X answers on the config's socket, which is its store's")
	}
	e.mustRun("--db", x, "job", "create", "--name", "xjob", "--sql", sql)
	if got := e.jobNames("--db", x); !slices.Equal(got, []string{"xjob"}) {
		t.Errorf("palink --db X jobs: %q, want [xjob]", got)
	}
	if got := e.jobNames("--db", y); len(got) != 0 {
		t.Errorf("palink --db Y jobs: %q, want none", got)
	}
	if got := e.jobNames(); len(got) != 0 {
		t.Errorf("palink jobs (the config's store): %q, want none", got)
	}
	stop()

	e.startAgent(cfg.Socket) // the config's store, on the config's socket
	e.mustRun("--db", cfg.Store, "job", "create", "--name", "zjob", "--sql", sql)
	if got := e.jobNames(); !slices.Equal(got, []string{"zjob"}) {
		t.Errorf("palink jobs: %q, want [zjob]", got)
	}
	if got := e.jobNames("--db", x); !slices.Equal(got, []string{"xjob"}) {
		t.Errorf("palink --db X jobs with the config's agent up: %q, want [xjob]", got)
	}
}

// teamAgent starts an agent as root on a store in a directory nobody may
// enter, its socket in the group of nobody, with the config edited by
// edit; as runs palink as nobody against it. out is a directory nobody may
// write to.
func teamAgent(t *testing.T, edit func(*config.Config)) (e *cliEnv, cfg *config.Config, out string, as func(args ...string) (string, error)) {
	t.Helper()
	needRoot(t)
	g, err := user.LookupGroupId(fmt.Sprint(nobody))
	if err != nil {
		t.Skip("no group", nobody)
	}
	bin := nobodyBinary(t)
	team := sharedDir(t, 0o755)
	out = filepath.Join(team, "out")
	if err := os.Mkdir(out, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o777); err != nil {
		t.Fatal(err)
	}
	e = newCLIEnv(t, sim.Options{}, func(c *config.Config) {
		c.Store = filepath.Join(team, "palink.db")
		c.Socket = filepath.Join(team, "agent.sock")
		c.Agent.Group = g.Name
		edit(c)
	})
	cfg, _, err = config.Load(e.config)
	if err != nil {
		t.Fatal(err)
	}
	e.config = filepath.Join(team, "config.yaml")
	if err := cfg.Write(e.config); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(e.config, 0o644); err != nil {
		t.Fatal(err)
	}
	e.startAgent(cfg.Socket)
	if fi, err := os.Stat(cfg.Socket); err != nil || fi.Mode().Perm() != 0o660 || fi.Sys().(*syscall.Stat_t).Gid != nobody {
		t.Errorf("agent.group %s: the socket is %v, want 0660 and that group", g.Name, fi.Mode())
	}
	as = func(args ...string) (string, error) {
		b, err := asNobody(bin, []string{"PALINK_BE_MAIN=1"}, append([]string{"--config", e.config}, args...)...).CombinedOutput()
		return string(b), err
	}
	return e, cfg, out, as
}

// TestViewerCannotCopyTheStore: with operators: [root] and agent.group the
// viewer's group, a viewer (nobody) reaches the agent and lists and shows
// jobs, but its `store backup` is refused and writes no file; root's works.
func TestViewerCannotCopyTheStore(t *testing.T) {
	e, _, out, viewer := teamAgent(t, func(c *config.Config) { c.Operators = []string{"root"} })
	e.mustRun("job", "create", "--name", "secret-sql", "--sql", writeSQL(t))

	backup := filepath.Join(out, "viewer.db")
	o, err := viewer("store", "backup", backup)
	if err == nil || !strings.Contains(o, "back up the store: user nobody is a viewer on this agent") {
		t.Errorf("a viewer's store backup: %v\n%s", err, o)
	}
	if _, err := os.Stat(backup); err == nil {
		t.Error("a viewer's refused backup left a file")
	}
	if o, err := viewer("jobs"); err != nil || !strings.Contains(o, "secret-sql") {
		t.Errorf("a viewer's palink jobs: %v\n%s", err, o)
	}
	if o, err := viewer("job", "show", "secret-sql"); err != nil || !strings.Contains(o, "secret-sql") {
		t.Errorf("a viewer's palink job show: %v\n%s", err, o)
	}
	if o, err := viewer("job", "kill", "secret-sql", "--yes"); err == nil || !strings.Contains(o, "viewer") {
		t.Errorf("a viewer's kill: %v\n%s", err, o)
	}
	if o := e.mustRun("store", "backup", filepath.Join(out, "root.db")); !strings.Contains(o, "backed up") {
		t.Errorf("root's backup: %s", o)
	}
}

// TestAnOperatorDefinesNothingThatRuns: an operator (nobody, in operators:)
// acts on jobs through the agent, but defining what the agent runs —
// a project's repository and build command, a variable's secret command,
// the catalog, a UDF — is an admin's: refused, naming the role, and
// nothing is kept. The agent's own user (root) is the admin when admins:
// is empty; a user named in admins: is one too.
func TestAnOperatorDefinesNothingThatRuns(t *testing.T) {
	e, _, out, op := teamAgent(t, func(c *config.Config) { c.Operators = []string{"root", "nobody"} })
	repo := filepath.Join(t.TempDir(), "r.git")
	table, job := filepath.Join(out, "t.sql"), filepath.Join(out, "job.sql")
	for f, text := range map[string]string{table: "CREATE TABLE t (id BIGINT) WITH ('connector' = 'datagen')", job: e2eSQL} {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refused := [][]string{
		{"project", "add", "envleak", "--repo", repo, "--ref", "main", "--build", "id; env", "--artifact", "out.txt"},
		{"var", "set", "leak", "--secret-cmd", "id; env", "--cluster", "sim"},
		{"var", "set", "plain", "1", "--cluster", "sim"},
		{"table", "add", "t", "--cluster", "sim", "--sql", table},
	}
	for _, args := range refused {
		o, err := op(args...)
		if err == nil || !strings.Contains(o, "user nobody is an operator on this agent; it needs an admin") {
			t.Errorf("an operator's palink %s: %v\n%s", strings.Join(args, " "), err, o)
		}
	}
	if o := e.mustRun("project", "list", "-o", "json"); strings.Contains(o, "envleak") {
		t.Errorf("a refused project was kept: %s", o)
	}
	if o := e.mustRun("var", "list", "--cluster", "sim", "-o", "json"); strings.Contains(o, "leak") || strings.Contains(o, "plain") {
		t.Errorf("a refused variable was kept: %s", o)
	}
	// An operator still acts on jobs.
	if o, err := op("job", "create", "--name", "ops-job", "--sql", job); err != nil {
		t.Errorf("an operator's job create: %v\n%s", err, o)
	}
	// root, the agent's own user, is an admin.
	e.mustRun("project", "add", "built-by-admin", "--repo", repo, "--ref", "main", "--build", "true", "--artifact", "x.jar")
	e.mustRun("var", "set", "plain", "1", "--cluster", "sim")
}

// TestAdminsMayDefine: a user named in admins: defines projects and
// variables through the agent.
func TestAdminsMayDefine(t *testing.T) {
	e, _, _, admin := teamAgent(t, func(c *config.Config) {
		c.Operators = []string{"root"}
		c.Admins = []string{"nobody"}
	})
	if o, err := admin("var", "set", "plain", "1", "--cluster", "sim"); err != nil {
		t.Errorf("an admin's var set: %v\n%s", err, o)
	}
	if o := e.mustRun("var", "list", "--cluster", "sim", "-o", "json"); !strings.Contains(o, "plain") {
		t.Errorf("the admin's variable is missing: %s", o)
	}
}
