package projects

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/internal/sandbox"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// buildOnce adds p and builds it with b, returning the artifact's bytes.
func buildOnce(t *testing.T, b *Builder, p model.Project) (model.Artifact, string, error) {
	t.Helper()
	ctx := context.Background()
	if _, err := b.Add(ctx, p, "ana"); err != nil {
		t.Fatal(err)
	}
	a, err := b.Build(ctx, p.Name, "", "ana", nil)
	if err != nil {
		return a, "", err
	}
	raw, err := os.ReadFile(a.Path)
	if err != nil {
		t.Fatal(err)
	}
	return a, string(raw), nil
}

// TestBuildEnvironmentIsBuiltFromNothing: palink's environment (a
// cluster password, a token) never reaches a build; the build gets PATH,
// a HOME and TMPDIR of its own, LANG, and the variables its project
// declares — and where palink is root, it runs as the build user.
func TestBuildEnvironmentIsBuiltFromNothing(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	t.Setenv("PALINK_PROD_PASSWORD", "x-prod-pass")
	t.Setenv("GIT_TOK", "y-git-tok")
	t.Setenv("HTTPS_PROXY", "http://agent-proxy:3128")
	p := f.project(time.Minute)
	p.Build, p.Artifact = "id; env > out.txt", "out.txt"
	p.Env = map[string]string{"GREETING": "hello"}
	a, env, err := buildOnce(t, b, p)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"x-prod-pass", "y-git-tok", "agent-proxy"} {
		if strings.Contains(env, leak) {
			t.Errorf("the build saw %q of palink's environment:\n%s", leak, env)
		}
	}
	vars := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(env), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			vars[k] = v
		}
	}
	home, _ := os.UserHomeDir()
	if vars["PATH"] != sandbox.DefaultPath || vars["GREETING"] != "hello" || vars["LANG"] == "" ||
		vars["HOME"] == "" || vars["HOME"] == home || filepath.Dir(vars["TMPDIR"]) != filepath.Dir(vars["HOME"]) {
		t.Errorf("the build's environment:\n%s", env)
	}
	if os.Geteuid() == 0 && strings.Contains(a.Log, "uid=0(") {
		t.Errorf("the build ran as root:\n%s", a.Log)
	}
	// The workspace is gone with the build.
	if _, err := os.Stat(filepath.Dir(vars["HOME"])); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the build's workspace %s is left: %v", filepath.Dir(vars["HOME"]), err)
	}
}

// TestBuildRunsAsTheBuildUser: palink as root builds as build.user, which
// owns the checkout and cannot read what palink keeps (the artifacts of
// earlier builds).
func TestBuildRunsAsTheBuildUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("palink is not root here: build.user is for root")
	}
	f := newFixture(t)
	// The cache's own modes must protect it: open the way to it.
	for d := filepath.Dir(f.cache); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		_ = os.Chmod(d, 0o755)
	}
	st, b := f.open()
	defer st.Close()
	p := f.project(time.Minute)
	p.Build, p.Artifact = "id -u > uid.txt; stat -c %U build.sh >> uid.txt", "uid.txt"
	first, out, err := buildOnce(t, b, p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != "65534\nnobody" {
		t.Errorf("the build ran as / its checkout belongs to: %q, want nobody's", out)
	}
	p.Build = "cat " + first.Path + " > uid.txt 2>&1 || echo refused > uid.txt"
	if _, out, err = buildOnce(t, b, p); err != nil || strings.TrimSpace(out) != "refused" {
		t.Errorf("the build user read palink's artifact %s: %q %v", first.Path, out, err)
	}
}

// TestBuildAsRootWithoutBuildUserIsRefused: palink as root with no
// build.user refuses to build, saying what to set, before it fetches.
func TestBuildAsRootWithoutBuildUserIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("palink is not root here")
	}
	f := newFixture(t)
	st, err := store.Open(f.dbPath, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b := New(Options{Store: st, CacheDir: f.cache})
	_, _, err = buildOnce(t, b, f.project(time.Minute))
	if !errors.Is(err, model.ErrRefused) || !strings.Contains(err.Error(), "build dedup: palink runs as root and build.user is not set") {
		t.Errorf("a build as root without build.user: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.cache, "dedup", "src")); err == nil {
		t.Error("the refused build fetched the repository")
	}
}

// TestBuildInBubblewrap: with build.sandbox bwrap the build writes its
// checkout and HOME, but no path outside them, sees nothing of palink's
// cache, and still produces its artifact.
func TestBuildInBubblewrap(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("no bwrap (Debian: apt-get install bubblewrap)")
	}
	f := newFixture(t)
	// A directory the build user could write outside the sandbox.
	outside, err := os.MkdirTemp("/var/tmp", "palink-outside-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(outside)
	_ = os.Chmod(outside, 0o777)
	st, err := store.Open(f.dbPath, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run := policy()
	run.Sandbox = sandbox.Bwrap
	b := New(Options{Store: st, CacheDir: f.cache, Run: run})
	p := f.project(time.Minute)
	p.Env = nil
	p.Build = "touch " + outside + "/escaped 2>/dev/null && echo ESCAPED; " +
		"touch /usr/escaped 2>/dev/null && echo ESCAPED-USR; " +
		"ls " + f.cache + " >/dev/null 2>&1 && echo SAW-CACHE; " +
		"touch $HOME/ok && mkdir -p out && git archive --format=zip -o out/app.jar HEAD META-INF"
	a, _, err := buildOnce(t, b, p)
	if err != nil {
		t.Fatalf("a build in bwrap: %v\n%s", err, a.Log)
	}
	if strings.Contains(a.Log, "\nESCAPED") || strings.Contains(a.Log, "\nSAW-CACHE") || !strings.Contains(a.Log, "in bwrap") {
		t.Errorf("the sandbox let the build out:\n%s", a.Log)
	}
	if _, err := os.Stat(filepath.Join(outside, "escaped")); err == nil {
		t.Error("the build wrote outside its checkout")
	}
	if a.File != "out/app.jar" || a.Size == 0 {
		t.Errorf("artifact %+v", a)
	}
}

// TestBwrapMissingIsAClearError: build.sandbox bwrap where bwrap is not
// on the PATH refuses the build, saying what to install.
func TestBwrapMissingIsAClearError(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	b.run.Sandbox = sandbox.Bwrap
	t.Setenv("PATH", t.TempDir())
	_, _, err := buildOnce(t, b, f.project(time.Minute))
	if err == nil || !strings.Contains(err.Error(), "bwrap is not on the PATH: install bubblewrap") {
		t.Errorf("bwrap missing: %v", err)
	}
}

// silentServer accepts connections and never answers: a git server that
// hangs.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				break
			}
			conns = append(conns, c)
		}
		for _, c := range conns {
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return ln.Addr().String()
}

// gitProcessesOf lists the running processes whose command line names
// addr (git and its remote helpers talking to it).
func gitProcessesOf(addr string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(raw), addr) && alive(atoi(e.Name())) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(raw), "\x00", " "))
		}
	}
	return out
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// TestFetchFromASilentServerTimesOut: a clone from a server that accepts
// and never answers ends at the project's timeout with a clear error,
// and leaves no git process behind.
func TestFetchFromASilentServerTimesOut(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	addr := silentServer(t)
	p := f.project(2 * time.Second)
	p.Repo = "http://" + addr + "/x.git"
	done := make(chan error, 1)
	start := time.Now()
	go func() { _, _, err := buildOnce(t, b, p); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, model.ErrTimeout) || !strings.Contains(err.Error(), "build dedup: clone http://"+addr+"/x.git: ran over the build's timeout of 2s") {
			t.Errorf("a clone that never ends: %v", err)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("the build ended %s after it started, its timeout is 2s", took)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a clone from a silent server still runs after 30s")
	}
	if left := gitProcessesOf(addr); len(left) > 0 {
		t.Errorf("git processes left:\n%s", strings.Join(left, "\n"))
	}
}

// TestArtifactLeadingOutOfTheCheckoutIsRefused: an artifact that is a
// symlink out of the checkout, or lies under a symlinked directory that
// leads out, is refused; a symlink within the checkout is followed.
func TestArtifactLeadingOutOfTheCheckoutIsRefused(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	secret := filepath.Join(sharedDir(t), "palink-secret.jar")
	if err := os.WriteFile(secret, []byte("PK not yours"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := f.project(time.Minute)
	for _, c := range []struct{ build, artifact, want string }{
		{"mkdir -p out && ln -s " + secret + " out/app.jar", "out/*.jar", "artifact out/app.jar leads out of the checkout (through a symlink, to " + secret + "): refused"},
		{"ln -s " + filepath.Dir(secret) + " out", "out/*.jar", "artifact out/palink-secret.jar leads out of the checkout"},
	} {
		p.Build, p.Artifact = c.build, c.artifact
		if _, _, err := buildOnce(t, b, p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.build, err, c.want)
		}
	}
	p.Build = "mkdir -p out target && echo inside > target/real.jar && ln -s ../target/real.jar out/app.jar"
	if a, raw, err := buildOnce(t, b, p); err != nil || raw != "inside\n" || a.File != "out/app.jar" {
		t.Errorf("a symlink within the checkout: %+v %q %v", a, raw, err)
	}
	if got := artifacts(t, st); len(got) != 1 {
		t.Errorf("%d artifacts recorded, want the one inside", len(got))
	}
}

// TestStoredProjectWithAnOptionForRepoIsRefused: a project stored before
// the rule, whose repository starts with '-', is refused at build time
// and git never runs it as an option.
func TestStoredProjectWithAnOptionForRepoIsRefused(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	pwned := filepath.Join(t.TempDir(), "pwned")
	p := f.project(time.Minute)
	p.Repo = "--upload-pack=touch " + pwned
	if err := st.Update(context.Background(), func(tx store.Tx) error { return tx.PutProject(p) }); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(context.Background(), "dedup", "", "ana", nil); !errors.Is(err, model.ErrRefused) || !strings.Contains(err.Error(), "starts with '-'") {
		t.Errorf("a repository that is an option: %v", err)
	}
	if _, err := b.Build(context.Background(), "dedup", "--output=x", "ana", nil); !errors.Is(err, model.ErrRefused) {
		t.Errorf("a ref that is an option: %v", err)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("git ran the repository as an option")
	}
}
