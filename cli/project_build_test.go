package cli

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palink/palink/yarn/sim"
)

// openDir is a directory the build user may write to (where a build tells
// the test it started), removed after the test.
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "palink-flags-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	_ = os.Chmod(dir, 0o777)
	return dir
}

// startPalink runs `palink ARGS` as a process of its own (this test
// binary as palink), its output gathered in out.
func startPalink(t *testing.T, e *cliEnv, out *strings.Builder, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--config", e.config}, args...)...)
	cmd.Env = append(os.Environ(), "PALINK_BE_MAIN=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd
}

// waitFile waits for a file to exist.
func waitFile(t *testing.T, path string, out *strings.Builder) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared; palink said:\n%s", path, out.String())
		}
	}
}

// exited waits up to d for cmd to end.
func exited(cmd *exec.Cmd, d time.Duration) (error, bool) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err, true
	case <-time.After(d):
		return nil, false
	}
}

// TestProjectBuildLeavesTheStoreFree: while `palink project build` (no
// agent) runs its build, another palink opens the same store and writes
// (var set, job create); the build then records its artifact.
func TestProjectBuildLeavesTheStoreFree(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	repo := bareRepoWithBuild(t)
	flags := openDir(t)
	e.mustRun("project", "add", "slow", "--repo", repo, "--artifact", "out/*.jar",
		"--build", "touch "+flags+"/started; while [ ! -f "+flags+"/go ]; do sleep 0.1; done; ./build.sh")
	var out strings.Builder
	cmd := startPalink(t, e, &out, "project", "build", "slow")
	waitFile(t, filepath.Join(flags, "started"), &out)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := e.run(ctx, "var", "set", "topic", "payments"); err != nil {
		t.Errorf("var set while a build runs: %v", err)
	}
	if err := os.WriteFile(filepath.Join(flags, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err, ok := exited(cmd, 60*time.Second); !ok || err != nil {
		t.Fatalf("the build: %v (ended: %t)\n%s", err, ok, out.String())
	}
	var as []struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal([]byte(e.mustRun("project", "artifacts", "slow", "-o", "json")), &as); err != nil || len(as) != 1 || as[0].Version != 1 {
		t.Errorf("artifacts after the build: %+v %v\n%s", as, err, out.String())
	}
}

// TestProjectBuildEndsOnSIGINT: `palink project build` fetching from a
// server that never answers ends at once on SIGINT (or SIGTERM), leaving
// no git process behind.
func TestProjectBuildEndsOnSIGINT(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	addr := ln.Addr().String()
	e.mustRun("project", "add", "silent", "--repo", "http://"+addr+"/x.git", "--build", "true", "--artifact", "x")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		var out strings.Builder
		cmd := startPalink(t, e, &out, "project", "build", "silent")
		select {
		case c := <-accepted:
			defer c.Close()
		case <-time.After(30 * time.Second):
			t.Fatalf("git never connected; palink said:\n%s", out.String())
		}
		start := time.Now()
		_ = cmd.Process.Signal(sig)
		err, ok := exited(cmd, 10*time.Second)
		if !ok {
			t.Fatalf("palink project build still runs 10s after %s:\n%s", sig, out.String())
		}
		t.Logf("after %s: %v\n%s", sig, err, out.String())
		if err == nil || !strings.Contains(out.String(), "cancel") {
			t.Errorf("after %s (%s): %v\n%s", sig, time.Since(start), err, out.String())
		}
		for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			left := processesNaming(addr)
			if len(left) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %s, processes left:\n%s", sig, strings.Join(left, "\n"))
			}
		}
	}
}

// processesNaming lists the live processes whose command line names s.
func processesNaming(s string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(raw), s) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && strings.Contains(string(stat), ") Z ") {
			continue // a zombie has ended
		}
		out = append(out, e.Name()+": "+strings.ReplaceAll(string(raw), "\x00", " "))
	}
	return out
}

// TestProjectAddRefusesWhatItMustNotStore: `project add` keeps the
// variables a build declares, and refuses a token in the URL, a token
// over plain http without --insecure-http, a repository that is an
// option, and a secret among the variables.
func TestProjectAddRefusesWhatItMustNotStore(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	add := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return e.run(ctx, append([]string{"project", "add", "p", "--build", "make", "--artifact", "x.jar"}, args...)...)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--repo", "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/x.git"}, "not a plain user name"},
		{[]string{"--repo", "http://git.acme/x.git", "--token-env", "T"}, "--insecure-http"},
		{[]string{"--repo=--upload-pack=touch /tmp/x"}, "starts with '-'"},
		{[]string{"--repo", "https://git.acme/x.git", "--env", "DB_PASSWORD=x"}, "no secret goes there"},
		{[]string{"--repo", "https://git.acme/x.git", "--env", "NOVALUE"}, "give NAME=VALUE"},
	} {
		if _, err := add(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("project add %v: %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := add("--repo", "http://git.acme/x.git", "--token-env", "T", "--insecure-http", "--env", "MAVEN_OPTS=-Xmx2g"); err != nil {
		t.Fatal(err)
	}
	var ps []struct {
		Env          map[string]string `json:"env"`
		InsecureHTTP bool              `json:"insecure_http"`
	}
	out := e.mustRun("project", "list", "-o", "json")
	if err := json.Unmarshal([]byte(out), &ps); err != nil || len(ps) != 1 || ps[0].Env["MAVEN_OPTS"] != "-Xmx2g" || !ps[0].InsecureHTTP {
		t.Errorf("the project stored: %v\n%s", err, out)
	}
}

// TestAgentBuildSeesNoneOfItsEnvironment is the repro: an agent
// whose environment holds a cluster password and a token builds `id; env
// > out.txt`; the artifact holds neither, and where the agent is root the
// build ran as the build user.
func TestAgentBuildSeesNoneOfItsEnvironment(t *testing.T) {
	t.Setenv("PALINK_PROD_PASSWORD", "x-prod-pass")
	t.Setenv("GIT_TOK", "y-git-tok")
	e := newCLIEnv(t, sim.Options{}, nil)
	repo := bareRepoWithBuild(t)
	e.mustRun("project", "add", "envleak", "--repo", repo, "--build", "id > out.txt; env >> out.txt", "--artifact", "out.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	agentCtx, stopAgent := context.WithCancel(ctx)
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(agentCtx, "agent"); agentDone <- err }()
	defer func() { stopAgent(); <-agentDone }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := e.run(ctx, "sync", "--once"); err != nil && strings.Contains(err.Error(), "an agent runs state sync") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent never answered")
		}
	}
	out, _ := e.runBoth(ctx, "project", "build", "envleak", "-q", "-o", "json")
	var a struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	raw, err := os.ReadFile(a.Path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(raw); strings.Contains(s, "x-prod-pass") || strings.Contains(s, "y-git-tok") || os.Geteuid() == 0 && strings.HasPrefix(s, "uid=0(") {
		t.Errorf("the build saw the agent's environment or ran as root:\n%s", s)
	}
}
