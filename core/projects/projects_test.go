package projects

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/core/internal/sandbox"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// buildScript makes a jar (a zip with a manifest, written by git archive so
// that the test needs nothing but git) named after the commit count. A
// file "slow" beside the repository makes it announce itself and hang; a
// file "fail" makes it fail.
const buildScript = `#!/bin/sh
set -e
echo "building $(git rev-parse --short HEAD)"
if [ -f "$FLAGS/fail" ]; then echo "error: compilation failed" >&2; exit 3; fi
if [ -f "$FLAGS/slow" ]; then
	sleep 300 & echo $! > "$FLAGS/child.pid"
	touch "$FLAGS/started"
	wait
fi
mkdir -p out
n=$(git rev-list --count HEAD)
git archive --format=zip -o "out/app-$n.jar" HEAD META-INF
if [ -f "$FLAGS/twice" ]; then cp "out/app-$n.jar" out/app-extra.jar; fi
echo "BUILD SUCCESS"
`

type fixture struct {
	t      *testing.T
	bare   string // the repository palink clones
	work   string // a clone the test commits in
	flags  string
	cache  string
	dbPath string
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	f := &fixture{t: t, bare: filepath.Join(root, "dedup.git"), work: filepath.Join(root, "work"),
		flags: sharedDir(t), cache: filepath.Join(root, "cache"), dbPath: filepath.Join(root, "palink.db")}
	if err := os.MkdirAll(f.work, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, root, "init", "--quiet", "--bare", "--initial-branch=main", f.bare)
	git(t, f.work, "init", "--quiet", "--initial-branch=main")
	if err := os.MkdirAll(filepath.Join(f.work, "META-INF"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write("build.sh", buildScript)
	_ = os.Chmod(filepath.Join(f.work, "build.sh"), 0o755)
	f.commit("first", "Manifest-Version: 1.0\nMain-Class: com.acme.Dedup\n")
	git(t, f.work, "remote", "add", "origin", f.bare)
	git(t, f.work, "push", "--quiet", "origin", "main")
	return f
}

// sharedDir is a directory the build user may write too (the flags the
// build script reads and writes), removed after the test.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "palink-flags-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// policy is how the tests' builds run: as nobody where the tests run as
// root (CI does), else as the tester.
func policy() sandbox.Policy {
	if os.Geteuid() == 0 {
		return sandbox.Policy{User: "nobody"}
	}
	return sandbox.Policy{}
}

func (f *fixture) write(name, text string) {
	if err := os.WriteFile(filepath.Join(f.work, name), []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) commit(msg, manifest string) string {
	f.write("META-INF/MANIFEST.MF", manifest)
	git(f.t, f.work, "add", "-A")
	git(f.t, f.work, "commit", "--quiet", "-m", msg)
	return git(f.t, f.work, "rev-parse", "HEAD")
}

func (f *fixture) flag(name string, on bool) {
	p := filepath.Join(f.flags, name)
	if on {
		_ = os.WriteFile(p, nil, 0o644)
	} else {
		_ = os.Remove(p)
	}
}

func (f *fixture) open() (store.Store, *Builder) {
	f.t.Helper()
	st, err := store.Open(f.dbPath, store.Options{NoSync: true, LockTimeout: 10 * time.Second})
	if err != nil {
		f.t.Fatal(err)
	}
	return st, New(Options{Store: st, CacheDir: f.cache, Run: policy()})
}

// project builds the fixture's repository with its script, which finds
// its flags through a variable the project declares: the build sees no
// other of the test's.
func (f *fixture) project(timeout time.Duration) model.Project {
	return model.Project{Name: "dedup", Repo: f.bare, Ref: "main", Build: "./build.sh", Artifact: "out/*.jar", Timeout: timeout,
		Env: map[string]string{"FLAGS": f.flags}}
}

func artifacts(t *testing.T, st store.Store) []model.Artifact {
	t.Helper()
	var out []model.Artifact
	if err := st.View(context.Background(), func(tx store.ReadTx) (err error) { out, err = tx.Artifacts("dedup"); return err }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBuildFromGit: a build clones the bare repository, runs the script
// and records the jar with its commit, checksum and size; a rebuild at a
// new commit is version 2 and the first jar stays where its record says.
func TestBuildFromGit(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	ctx := context.Background()
	if _, err := b.Add(ctx, f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	first := git(t, f.work, "rev-parse", "HEAD")
	var log strings.Builder
	a1, err := b.Build(ctx, "dedup", "", "ana", &log)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, log.String())
	}
	raw, err := os.ReadFile(a1.Path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	if a1.Version != 1 || a1.Commit != first || a1.Subject != "first" || a1.SHA256 != hex.EncodeToString(sum[:]) ||
		a1.Size != int64(len(raw)) || a1.File != "out/app-1.jar" || a1.BuiltBy != "ana" || !strings.Contains(a1.Log, "BUILD SUCCESS") {
		t.Errorf("artifact 1: %+v", a1)
	}
	if !strings.HasPrefix(string(raw), "PK") {
		t.Errorf("the artifact is no zip: %q", raw[:min(len(raw), 8)])
	}

	second := f.commit("main class renamed", "Manifest-Version: 1.0\nMain-Class: com.acme.Dedup2\n")
	git(t, f.work, "push", "--quiet", "origin", "main")
	a2, err := b.Build(ctx, "dedup", "main", "bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a2.Version != 2 || a2.Commit != second || a2.SHA256 == a1.SHA256 || a2.File != "out/app-2.jar" {
		t.Errorf("artifact 2: %+v", a2)
	}
	if _, err := os.Stat(a1.Path); err != nil {
		t.Errorf("the first artifact is gone: %v", err)
	}
	// A build of an older commit by its hash.
	a3, err := b.Build(ctx, "dedup", first, "ana", nil)
	if err != nil || a3.Commit != first || a3.SHA256 != a1.SHA256 {
		t.Errorf("build at %s: %+v %v", first, a3, err)
	}
	if got := artifacts(t, st); len(got) != 3 {
		t.Errorf("%d artifacts recorded", len(got))
	}
}

// TestBuildFailures: a failing build, a hanging one, no matching file,
// several, an unknown ref and a repository that does not exist each fail
// with a clear reason and record nothing; the hanging one's process group
// is killed.
func TestBuildFailures(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	ctx := context.Background()
	if _, err := b.Add(ctx, f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	f.flag("fail", true)
	_, err := b.Build(ctx, "dedup", "", "ana", nil)
	if err == nil || !strings.Contains(err.Error(), "the build failed: exit status 3") || !strings.Contains(err.Error(), "(log: ") {
		t.Errorf("failing build: %v", err)
	} else {
		logFile := err.Error()[strings.LastIndex(err.Error(), "(log: ")+6 : len(err.Error())-1]
		if raw, _ := os.ReadFile(logFile); !strings.Contains(string(raw), "compilation failed") {
			t.Errorf("the kept log %s lacks the error: %q", logFile, raw)
		}
	}
	f.flag("fail", false)

	// The timeout bounds the fetch and the checkout too. On a loaded
	// machine those alone may use up a short one before the script starts;
	// then the kill of the script's process group was not tried, so the
	// test tries again with a longer timeout.
	f.flag("slow", true)
	pidFile := filepath.Join(f.flags, "child.pid")
	for _, timeout := range []time.Duration{5 * time.Second, 20 * time.Second, time.Minute} {
		if _, err := b.Add(ctx, f.project(timeout), "ana"); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = b.Build(ctx, "dedup", "", "ana", nil)
		if !errors.Is(err, model.ErrTimeout) || time.Since(start) > timeout+15*time.Second {
			t.Errorf("hanging build: %v after %s (timeout %s)", err, time.Since(start), timeout)
		}
		if _, err := os.Stat(pidFile); err == nil {
			break
		}
		t.Logf("the build script never started within %s; again with a longer timeout", timeout)
	}
	if pid := readPid(t, pidFile); !dies(pid) {
		t.Errorf("the build's background process %d outlived the timeout", pid)
	}
	f.flag("slow", false)

	f.flag("twice", true)
	if _, err := b.Build(ctx, "dedup", "", "ana", nil); err == nil || !strings.Contains(err.Error(), "2 files match") {
		t.Errorf("two jars: %v", err)
	}
	f.flag("twice", false)
	p := f.project(time.Minute)
	p.Artifact = "target/*.jar"
	if _, err := b.Add(ctx, p, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(ctx, "dedup", "", "ana", nil); err == nil || !strings.Contains(err.Error(), "no file matching") {
		t.Errorf("no jar: %v", err)
	}
	if _, err := b.Build(ctx, "dedup", "no-such-branch", "ana", nil); err == nil || !strings.Contains(err.Error(), "no branch, tag or commit") {
		t.Errorf("unknown ref: %v", err)
	}
	p.Name, p.Repo = "ghost", filepath.Join(t.TempDir(), "missing.git")
	if _, err := b.Add(ctx, p, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(ctx, "ghost", "", "ana", nil); err == nil || !strings.Contains(err.Error(), "clone") {
		t.Errorf("missing repository: %v", err)
	}
	if got := artifacts(t, st); len(got) != 0 {
		t.Errorf("failed builds recorded %+v", got)
	}
}

func readPid(t *testing.T, file string) int {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no pid file: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	return pid
}

// dies reports whether pid is gone within a few seconds: a SIGKILL is
// sent before the process has exited.
func dies(pid int) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	return false
}

func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	// A zombie is dead for our purpose: its state is Z.
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(raw))
	return len(fields) > 2 && fields[2] != "Z" && syscall.Kill(pid, 0) == nil
}

// TestCrashMidBuildLeavesNoArtifact: a palink SIGKILLed while its build
// runs records no artifact; the next build kills what it left running and
// succeeds.
func TestCrashMidBuildLeavesNoArtifact(t *testing.T) {
	if os.Getenv("PALINK_BUILD_HELPER") != "" {
		st, b := (&fixture{t: t, dbPath: os.Getenv("PALINK_BUILD_DB"), cache: os.Getenv("PALINK_BUILD_CACHE")}).open()
		defer st.Close()
		_, err := b.Build(context.Background(), "dedup", "", "crash", os.Stdout)
		t.Fatalf("the build ended although it should hang: %v", err)
	}
	f := newFixture(t)
	st, b := f.open()
	if _, err := b.Add(context.Background(), f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	f.flag("slow", true)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashMidBuildLeavesNoArtifact$")
	cmd.Env = append(os.Environ(), "PALINK_BUILD_HELPER=1", "PALINK_BUILD_DB="+f.dbPath, "PALINK_BUILD_CACHE="+f.cache)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(f.flags, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the helper's build never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	go func() {
		for sc.Scan() {
		}
	}()
	_ = cmd.Wait()
	orphan := readPid(t, filepath.Join(f.flags, "child.pid"))
	if !alive(orphan) {
		t.Fatalf("the dead build's child %d is not running: the test proves nothing", orphan)
	}

	f.flag("slow", false)
	st, b = f.open()
	defer st.Close()
	if got := artifacts(t, st); len(got) != 0 {
		t.Fatalf("a build killed midway recorded %+v", got)
	}
	a, err := b.Build(context.Background(), "dedup", "", "ana", nil)
	if err != nil || a.Version != 1 {
		t.Fatalf("the build after the crash: %+v %v", a, err)
	}
	if !dies(orphan) {
		t.Errorf("the dead build's process group (%d) still runs", orphan)
	}
	if entries, _ := os.ReadDir(filepath.Join(f.cache, "dedup", "artifacts")); len(entries) != 1 {
		t.Errorf("artifacts dir holds %d files, want the one recorded", len(entries))
	}
}
