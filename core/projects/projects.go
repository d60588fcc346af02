package projects

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// DefaultTimeout bounds a build whose project sets none.
const DefaultTimeout = 30 * time.Minute

// Options wire a Builder.
type Options struct {
	Store store.Store
	// CacheDir holds each project's checkout, kept artifacts and build logs.
	CacheDir string
	Now      func() time.Time // default time.Now
	Git      string           // default "git"
}

// Builder adds projects and builds them.
type Builder struct {
	st    store.Store
	cache string
	now   func() time.Time
	git   string

	mu      sync.Mutex
	running map[string]bool
	live    map[string]*liveBuild // the builds running now (status.go)
}

// New makes a Builder. It does no I/O.
func New(o Options) *Builder {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Git == "" {
		o.Git = "git"
	}
	return &Builder{st: o.Store, cache: o.CacheDir, now: o.Now, git: o.Git, running: map[string]bool{}, live: map[string]*liveBuild{}}
}

// Add creates or replaces a project.
func (b *Builder) Add(ctx context.Context, p model.Project, user string) (model.Project, error) {
	if err := CheckCredentials(p); err != nil {
		return model.Project{}, fmt.Errorf("add project: %w", err)
	}
	p.CreatedBy, p.CreatedAt = user, b.now()
	err := b.st.Update(ctx, func(tx store.Tx) error {
		if old, err := tx.Project(p.Name); err == nil {
			p.CreatedBy, p.CreatedAt = old.CreatedBy, old.CreatedAt
		}
		if err := tx.PutProject(p); err != nil {
			return err
		}
		_, err := tx.AppendAudit(model.AuditEntry{Time: b.now(), User: user, Action: "project add " + p.Name, Outcome: "succeeded"})
		return err
	})
	return p, err
}

// Build builds the project at ref ("" for the project's own) and records
// the artifact. log, when not nil, receives git's and the build's output
// as it comes.
func (b *Builder) Build(ctx context.Context, name, ref, user string, log io.Writer) (model.Artifact, error) {
	return b.BuildWith(ctx, name, ref, user, log, nil)
}

// BuildWith is Build that tells progress, when not nil, each phase as it
// begins (with the commit once resolved).
func (b *Builder) BuildWith(ctx context.Context, name, ref, user string, log io.Writer, progress func(model.BuildPhase, string)) (model.Artifact, error) {
	if progress == nil {
		progress = func(model.BuildPhase, string) {}
	}
	var p model.Project
	if err := b.st.View(ctx, func(tx store.ReadTx) (err error) { p, err = tx.Project(name); return err }); err != nil {
		return model.Artifact{}, err
	}
	if ref == "" {
		ref = p.Ref
	}
	if b.cache == "" {
		return model.Artifact{}, errors.New("build: no cache directory configured (projects.cache_dir)")
	}
	dir := filepath.Join(b.cache, p.Name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: %w", p.Name, err)
	}
	unlock, err := b.lock(p.Name, dir)
	if err != nil {
		return model.Artifact{}, err
	}
	defer unlock()

	started := b.now()
	out := &tail{max: model.MaxBuildLog}
	var w io.Writer = out
	if log != nil {
		w = io.MultiWriter(out, log)
	}
	progress = b.watch(p.Name, started, out, progress)
	defer b.unwatch(p.Name)
	a, err := b.build(ctx, p, ref, dir, w, progress)
	if err != nil && ctx.Err() == context.Canceled {
		// A cancelled build is the user's choice, not a failure to keep.
		b.audit(ctx, user, "project build "+p.Name, "cancelled")
		return model.Artifact{}, err
	}
	if err != nil {
		logFile := filepath.Join(dir, "logs", started.UTC().Format("20060102T150405Z")+".log")
		if os.MkdirAll(filepath.Dir(logFile), 0o700) == nil && os.WriteFile(logFile, out.Bytes(), 0o600) == nil {
			err = fmt.Errorf("%w (log: %s)", err, logFile)
		}
		b.audit(ctx, user, "project build "+p.Name, "failed: "+err.Error())
		return model.Artifact{}, err
	}
	a.Log, a.BuiltBy, a.BuiltAt, a.Took = out.String(), user, b.now(), b.now().Sub(started)
	err = b.st.Update(context.WithoutCancel(ctx), func(tx store.Tx) error {
		var err error
		if a, err = tx.AddArtifact(a); err != nil {
			return err
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: a.BuiltAt, User: user, Action: "project build " + p.Name,
			Outcome: fmt.Sprintf("succeeded: v%d %.12s", a.Version, a.Commit)})
		return err
	})
	return a, err
}

func (b *Builder) audit(ctx context.Context, user, action, outcome string) {
	_ = b.st.Update(context.WithoutCancel(ctx), func(tx store.Tx) error {
		_, err := tx.AppendAudit(model.AuditEntry{Time: b.now(), User: user, Action: action, Outcome: outcome})
		return err
	})
}

// lock takes the project's build lock: in this process, and across
// processes with flock on its cache directory. A build that died held
// it; the kernel released it, and the process group it left is killed.
func (b *Builder) lock(name, dir string) (func(), error) {
	b.mu.Lock()
	if b.running[name] {
		b.mu.Unlock()
		return nil, fmt.Errorf("build %s: a build of this project is running: %w", name, model.ErrRefused)
	}
	b.running[name] = true
	b.mu.Unlock()
	release := func() { b.mu.Lock(); delete(b.running, name); b.mu.Unlock() }
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		release()
		return nil, fmt.Errorf("build %s: %w", name, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		release()
		return nil, fmt.Errorf("build %s: another palink is building this project: %w", name, model.ErrRefused)
	}
	killStale(dir)
	return func() {
		_ = os.Remove(pgidFile(dir))
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
		release()
	}, nil
}

func pgidFile(dir string) string { return filepath.Join(dir, ".build.pgid") }

// killStale kills the process group a build that died left running: its
// id is in the pgid file, and it is killed only while its leader still
// works in this project's checkout (a reused id is left alone).
func killStale(dir string) {
	raw, err := os.ReadFile(pgidFile(dir))
	if err != nil {
		return
	}
	_ = os.Remove(pgidFile(dir))
	pgid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil || pgid <= 1 {
		return
	}
	src, _ := filepath.EvalSymlinks(filepath.Join(dir, "src"))
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pgid))
	if err == nil && src != "" && (cwd == src || strings.HasPrefix(cwd, src+"/")) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// build checks the ref out and runs the build; it returns the artifact
// before it is recorded.
func (b *Builder) build(ctx context.Context, p model.Project, ref, dir string, log io.Writer, progress func(model.BuildPhase, string)) (model.Artifact, error) {
	src := filepath.Join(dir, "src")
	progress(model.PhaseFetch, "")
	fmt.Fprintf(log, "$ git: %s at %s\n", p.Repo, orHead(ref))
	auth, err := gitAuth(p, dir)
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: %w", p.Name, err)
	}
	if _, err := os.Stat(filepath.Join(src, ".git")); err != nil {
		_ = os.RemoveAll(src)
		if _, err := b.runGitEnv(ctx, "", log, auth, "clone", "--quiet", "--no-checkout", p.Repo, src); err != nil {
			return model.Artifact{}, fmt.Errorf("build %s: clone %s: %w", p.Name, p.Repo, err)
		}
	} else {
		if _, err := b.runGit(ctx, src, log, "remote", "set-url", "origin", p.Repo); err != nil {
			return model.Artifact{}, fmt.Errorf("build %s: %w", p.Name, err)
		}
		if _, err := b.runGitEnv(ctx, src, log, auth, "fetch", "--quiet", "--prune", "--tags", "--force", "origin", "+refs/heads/*:refs/remotes/origin/*"); err != nil {
			return model.Artifact{}, fmt.Errorf("build %s: fetch %s: %w", p.Name, p.Repo, err)
		}
	}
	commit, err := b.resolve(ctx, src, ref)
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: %w", p.Name, err)
	}
	progress(model.PhaseCheckout, commit)
	for _, args := range [][]string{{"checkout", "--quiet", "--force", "--detach", commit}, {"clean", "-fdxq"}} {
		if _, err := b.runGit(ctx, src, log, args...); err != nil {
			return model.Artifact{}, fmt.Errorf("build %s: %w", p.Name, err)
		}
	}
	subject, _ := b.runGit(ctx, src, io.Discard, "log", "-1", "--format=%s", commit)
	progress(model.PhaseBuild, commit)
	fmt.Fprintf(log, "$ %s   (commit %.12s, timeout %s)\n", p.Build, commit, timeoutOf(p))
	if err := b.runBuild(ctx, p, dir, src, log); err != nil {
		return model.Artifact{}, fmt.Errorf("build %s at %.12s: %w", p.Name, commit, err)
	}
	progress(model.PhaseCollect, commit)
	file, err := matchOne(src, p.Artifact)
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s at %.12s: %w", p.Name, commit, err)
	}
	path, sum, size, err := keep(filepath.Join(src, file), filepath.Join(dir, "artifacts"), filepath.Ext(file))
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: keep %s: %w", p.Name, file, err)
	}
	fmt.Fprintf(log, "artifact %s (%d bytes, sha256 %s)\n", file, size, sum)
	return model.Artifact{Project: p.Name, Ref: ref, Commit: commit, Subject: strings.TrimSpace(subject),
		SHA256: sum, Size: size, Path: path, File: file}, nil
}

func orHead(ref string) string {
	if ref == "" {
		return "the remote's HEAD"
	}
	return ref
}

func timeoutOf(p model.Project) time.Duration {
	if p.Timeout > 0 {
		return p.Timeout
	}
	return DefaultTimeout
}

// resolve turns a ref into a commit: a branch of the remote, a tag, or a
// commit.
func (b *Builder) resolve(ctx context.Context, src, ref string) (string, error) {
	cands := []string{"origin/HEAD"}
	if ref != "" {
		cands = []string{"origin/" + ref, ref}
	}
	for _, c := range cands {
		out, err := b.runGit(ctx, src, io.Discard, "rev-parse", "--verify", "--quiet", c+"^{commit}")
		if err == nil {
			return strings.TrimSpace(out), nil
		}
	}
	return "", fmt.Errorf("ref %q is no branch, tag or commit of the repository", orHead(ref))
}

// runGit runs git with prompts off, so that a repository that wants
// credentials fails instead of waiting for a terminal.
func (b *Builder) runGit(ctx context.Context, dir string, log io.Writer, args ...string) (string, error) {
	return b.runGitEnv(ctx, dir, log, nil, args...)
}

// runGitEnv is runGit with more environment (a token's askpass helper),
// which overrides the defaults.
func (b *Builder) runGitEnv(ctx context.Context, dir string, log io.Writer, env []string, args ...string) (string, error) {
	sub := args[0]
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	cmd := exec.CommandContext(ctx, b.git, args...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=/bin/false", "SSH_ASKPASS=/bin/false",
		"GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.MultiWriter(&errOut, log)
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), fmt.Errorf("git %s: %s", sub, msg)
	}
	return out.String(), nil
}

// runBuild runs the build command with sh in the checkout, in a process
// group of its own whose id is written down first: when the timeout
// passes, or ctx ends, the whole group is killed, and a build that died
// with palink is killed by the next one.
func (b *Builder) runBuild(ctx context.Context, p model.Project, dir, src string, log io.Writer) error {
	timeout := timeoutOf(p)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", p.Build)
	cmd.Dir = src
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	_ = os.WriteFile(pgidFile(dir), []byte(strconv.Itoa(cmd.Process.Pid)), 0o600)
	err := cmd.Wait()
	// Whatever the script left in the background goes with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = os.Remove(pgidFile(dir))
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("the build ran over its timeout of %s and was killed with its process group: %w", timeout, model.ErrTimeout)
	case ctx.Err() != nil:
		return fmt.Errorf("the build was cancelled and killed with its process group: %w", ctx.Err())
	case err != nil:
		return fmt.Errorf("the build failed: %v", err)
	}
	return nil
}

// matchOne finds the one regular file the pattern matches in src.
func matchOne(src, pattern string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(src, pattern))
	if err != nil {
		return "", fmt.Errorf("artifact pattern %q: %w", pattern, err)
	}
	var files []string
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && st.Mode().IsRegular() {
			rel, _ := filepath.Rel(src, m)
			files = append(files, rel)
		}
	}
	switch len(files) {
	case 0:
		return "", fmt.Errorf("the build produced no file matching %q", pattern)
	case 1:
		return files[0], nil
	}
	return "", fmt.Errorf("%d files match %q (%s): make the pattern match exactly one", len(files), pattern, strings.Join(files, ", "))
}

// keep copies the artifact into dir under its checksum's name, through a
// temporary file renamed into place once complete and synced: the file a
// record names is always whole.
func keep(file, dir, ext string) (path, sum string, size int64, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", 0, err
	}
	in, err := os.Open(file)
	if err != nil {
		return "", "", 0, err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(dir, ".part-*")
	if err != nil {
		return "", "", 0, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	size, err = io.Copy(io.MultiWriter(tmp, h), in)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", 0, err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	path = filepath.Join(dir, sum+ext)
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", "", 0, err
	}
	return path, sum, size, nil
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) Bytes() []byte  { t.mu.Lock(); defer t.mu.Unlock(); return append([]byte(nil), t.buf...) }
func (t *tail) String() string { return string(t.Bytes()) }
