package projects

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/palink/palink/core/internal/sandbox"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// DefaultTimeout bounds a build whose project sets none: the fetch, the
// checkout and the build command together.
const DefaultTimeout = 30 * time.Minute

// Options wire a Builder.
type Options struct {
	// Store is where projects are read and artifacts recorded.
	Store store.Store
	// Open, when set instead of Store, opens the store for each short
	// use, and the Builder closes it after: a build then holds the store
	// only to read its project and to record its outcome, never while git
	// and its command run (a CLI without an agent, so that other palinks
	// may use the store meanwhile).
	Open func() (store.Store, error)
	// CacheDir holds each project's repository, kept artifacts and build logs.
	CacheDir string
	Now      func() time.Time // default time.Now
	Git      string           // default "git"
	// Run is how build commands run: their environment, user and sandbox.
	Run sandbox.Policy
}

// Builder adds projects and builds them.
type Builder struct {
	st    store.Store
	open  func() (store.Store, error)
	cache string
	now   func() time.Time
	git   string
	run   sandbox.Policy

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
	return &Builder{st: o.Store, open: o.Open, cache: o.CacheDir, now: o.Now, git: o.Git, run: o.Run,
		running: map[string]bool{}, live: map[string]*liveBuild{}}
}

// view reads the store, opening it for the moment when the Builder opens
// it itself.
func (b *Builder) view(ctx context.Context, fn func(store.ReadTx) error) error {
	st, done, err := b.store()
	if err != nil {
		return err
	}
	defer done()
	return st.View(ctx, fn)
}

// update writes the store, as view reads it.
func (b *Builder) update(ctx context.Context, fn func(store.Tx) error) error {
	st, done, err := b.store()
	if err != nil {
		return err
	}
	defer done()
	return st.Update(ctx, fn)
}

func (b *Builder) store() (store.Store, func(), error) {
	if b.open == nil {
		return b.st, func() {}, nil
	}
	st, err := b.open()
	if err != nil {
		return nil, nil, err
	}
	return st, func() { st.Close() }, nil
}

// Add creates or replaces a project.
func (b *Builder) Add(ctx context.Context, p model.Project, user string) (model.Project, error) {
	if err := Check(p); err != nil {
		return model.Project{}, fmt.Errorf("add project: %w", err)
	}
	p.CreatedBy, p.CreatedAt = user, b.now()
	err := b.update(ctx, func(tx store.Tx) error {
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
	if err := b.view(ctx, func(tx store.ReadTx) (err error) { p, err = tx.Project(name); return err }); err != nil {
		return model.Artifact{}, err
	}
	if ref == "" {
		ref = p.Ref
	}
	// A project stored before a rule existed is held to it here.
	if err := Check(model.Project{Name: p.Name, Repo: p.Repo, Ref: ref, TokenEnv: p.TokenEnv, TokenFile: p.TokenFile,
		InsecureHTTP: p.InsecureHTTP, Env: p.Env}); err != nil {
		return model.Artifact{}, fmt.Errorf("build: %w: %w", err, model.ErrRefused)
	}
	if err := b.run.Check(); err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: %w: %w", p.Name, err, model.ErrRefused)
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
	err = b.update(context.WithoutCancel(ctx), func(tx store.Tx) error {
		old, err := tx.Artifacts(p.Name)
		if err != nil {
			return err
		}
		outcome := "succeeded: v%d %.12s"
		// The same commit built into the same bytes is the artifact it
		// was: one version, not two that differ in nothing.
		if i := slices.IndexFunc(old, func(o model.Artifact) bool { return o.Commit == a.Commit && o.SHA256 == a.SHA256 }); i >= 0 {
			log, took := a.Log, a.Took
			a = old[i]
			a.Log, a.Took, a.Unchanged = log, took, true
			outcome = "unchanged: v%d %.12s again"
		} else if a, err = tx.AddArtifact(a); err != nil {
			return err
		}
		_, err = tx.AppendAudit(model.AuditEntry{Time: b.now(), User: user, Action: "project build " + p.Name,
			Outcome: fmt.Sprintf(outcome, a.Version, a.Commit)})
		return err
	})
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: record the artifact %s: %w", p.Name, a.Path, err)
	}
	return a, nil
}

func (b *Builder) audit(ctx context.Context, user, action, outcome string) {
	_ = b.update(context.WithoutCancel(ctx), func(tx store.Tx) error {
		_, err := tx.AppendAudit(model.AuditEntry{Time: b.now(), User: user, Action: action, Outcome: outcome})
		return err
	})
}

// lock takes the project's build lock: in this process, and across
// processes with flock on its cache directory. A build that died held
// it; the kernel released it, and what it left (its process group, its
// workspace) is cleared.
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

// pgidFile holds the running build's process group and workspace: "PGID
// DIR".
func pgidFile(dir string) string { return filepath.Join(dir, ".build.pgid") }

// killStale clears what a build that died left: its process group, killed
// only while its leader still works in that build's workspace (a reused
// id is left alone), and the workspace.
func killStale(dir string) {
	raw, err := os.ReadFile(pgidFile(dir))
	if err != nil {
		return
	}
	_ = os.Remove(pgidFile(dir))
	f := strings.Fields(string(raw))
	if len(f) != 2 || !filepath.IsAbs(f[1]) || !strings.HasPrefix(filepath.Base(f[1]), workspacePrefix) {
		return
	}
	pgid, err := strconv.Atoi(f[0])
	ws := filepath.Clean(f[1])
	if err == nil && pgid > 1 {
		cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pgid))
		if err == nil && (cwd == ws || strings.HasPrefix(cwd, ws+"/")) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
	_ = os.RemoveAll(ws)
}

// workspacePrefix begins the name of every build's workspace.
const workspacePrefix = "palink-build-"

// build fetches the repository into the project's cache, checks the
// commit out into a fresh workspace and runs the build there; it returns
// the artifact before it is recorded. The project's timeout bounds it
// all: a server that never answers ends it as a build that never ends.
//
// Git runs as palink, in a repository under palink's cache that the
// build never sees; the build runs as the build user in a copy of it. So
// nothing a build writes (a .git/config with a hook or an fsmonitor
// command, a symlink) is ever read by palink's git.
func (b *Builder) build(ctx context.Context, p model.Project, ref, dir string, log io.Writer, progress func(model.BuildPhase, string)) (model.Artifact, error) {
	timeout := timeoutOf(p)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	fail := func(what string, err error) error {
		return fmt.Errorf("build %s: %s: %w", p.Name, what, overTime(ctx, timeout, err))
	}
	src := filepath.Join(dir, "src")
	progress(model.PhaseFetch, "")
	fmt.Fprintf(log, "$ git: %s at %s\n", p.Repo, orHead(ref))
	auth, err := gitAuth(p, dir)
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: %w", p.Name, err)
	}
	env := append(proxies(p), auth...)
	if _, err := os.Stat(filepath.Join(src, ".git")); err != nil {
		_ = os.RemoveAll(src)
		if _, err := b.runGitEnv(ctx, "", log, env, "clone", "--quiet", "--no-checkout", "--", p.Repo, src); err != nil {
			_ = os.RemoveAll(src) // half a clone: the next build clones afresh
			return model.Artifact{}, fail("clone "+p.Repo, err)
		}
	} else {
		if _, err := b.runGit(ctx, src, log, "remote", "set-url", "--", "origin", p.Repo); err != nil {
			return model.Artifact{}, fail("set the remote", err)
		}
		if _, err := b.runGitEnv(ctx, src, log, env, "fetch", "--quiet", "--prune", "--tags", "--force", "--", "origin", "+refs/heads/*:refs/remotes/origin/*"); err != nil {
			return model.Artifact{}, fail("fetch "+p.Repo, err)
		}
	}
	commit, err := b.resolve(ctx, src, ref)
	if err != nil {
		return model.Artifact{}, fail("resolve", err)
	}
	progress(model.PhaseCheckout, commit)
	subject, _ := b.runGit(ctx, src, io.Discard, "log", "-1", "--format=%s", commit)
	ws, err := b.run.NewWorkspace(workspacePrefix + p.Name + "-")
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: %w", p.Name, err)
	}
	defer ws.Remove()
	work := filepath.Join(ws.Dir, "work")
	if err := b.checkout(ctx, src, work, commit, log); err != nil {
		return model.Artifact{}, fail("check out "+commit[:min(12, len(commit))], err)
	}
	if err := ws.Own(); err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: %w", p.Name, err)
	}
	progress(model.PhaseBuild, commit)
	fmt.Fprintf(log, "$ %s   (commit %.12s, timeout %s, as %s%s)\n", p.Build, commit, timeout, ws.User(), sandboxNote(b.run))
	if err := b.runBuild(ctx, p, dir, ws, work, log); err != nil {
		return model.Artifact{}, fmt.Errorf("build %s at %.12s: %w", p.Name, commit, overTime(ctx, timeout, err))
	}
	progress(model.PhaseCollect, commit)
	file, err := matchOne(work, p.Artifact)
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s at %.12s: %w", p.Name, commit, err)
	}
	path, sum, size, err := keep(work, file, filepath.Join(dir, "artifacts"), filepath.Ext(file))
	if err != nil {
		return model.Artifact{}, fmt.Errorf("build %s: keep %s: %w", p.Name, file, err)
	}
	fmt.Fprintf(log, "artifact %s (%d bytes, sha256 %s)\n", file, size, sum)
	return model.Artifact{Project: p.Name, Ref: ref, Commit: commit, Subject: strings.TrimSpace(subject),
		SHA256: sum, Size: size, Path: path, File: file}, nil
}

func sandboxNote(p sandbox.Policy) string {
	if p.Sandbox == sandbox.Bwrap {
		return ", in bwrap"
	}
	return ""
}

// overTime is err, told as the build's timeout when that is what ended it.
func overTime(ctx context.Context, timeout time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("ran over the build's timeout of %s and was killed with its process group: %w", timeout, model.ErrTimeout)
	}
	return err
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

// declared are the project's variables, for its build command.
func declared(p model.Project) []string {
	keys := make([]string, 0, len(p.Env))
	for k := range p.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+p.Env[k])
	}
	return out
}

// runBuild runs the build command with sh in the checkout, in the
// workspace's clean environment, as the build user, confined when the
// policy says, in a process group of its own whose id is written down
// first: when ctx ends (the timeout, a cancel) the whole group is killed,
// and a build that died with palink is killed by the next one.
func (b *Builder) runBuild(ctx context.Context, p model.Project, dir string, ws *sandbox.Workspace, work string, log io.Writer) error {
	cmd, err := ws.Command(ctx, sandbox.Cmd{Args: []string{"/bin/sh", "-c", p.Build}, Dir: work, Env: declared(p),
		Confine: true, Stdout: log, Stderr: log})
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	_ = os.WriteFile(pgidFile(dir), []byte(strconv.Itoa(cmd.Process.Pid)+" "+ws.Dir), 0o600)
	err = cmd.Wait()
	// Whatever the script left in the background goes with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = os.Remove(pgidFile(dir))
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return ctx.Err()
	case ctx.Err() != nil:
		return fmt.Errorf("the build was cancelled and killed with its process group: %w", ctx.Err())
	case err != nil:
		return fmt.Errorf("the build failed: %v", err)
	}
	return nil
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
