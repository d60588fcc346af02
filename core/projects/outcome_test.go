package projects

// What a build leaves behind: the artifact it records (or does not), the
// audit entry that says what happened, and the log its caller follows.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// buildAudit is the audit log's entries about building project name,
// oldest first.
func buildAudit(t *testing.T, st store.Store, name string) []model.AuditEntry {
	t.Helper()
	var all []model.AuditEntry
	if err := st.View(context.Background(), func(tx store.ReadTx) (err error) { all, err = tx.Audit(0, 0); return err }); err != nil {
		t.Fatal(err)
	}
	var out []model.AuditEntry
	for _, a := range all {
		if a.Action == "project build "+name {
			out = append(out, a)
		}
	}
	return out
}

// lastOutcome is the outcome of the last audited build of dedup.
func lastOutcome(t *testing.T, st store.Store) string {
	t.Helper()
	entries := buildAudit(t, st, "dedup")
	if len(entries) == 0 {
		return "(no audit entry)"
	}
	return entries[len(entries)-1].User + ": " + entries[len(entries)-1].Outcome
}

// TestBuildWithoutRefBuildsTheProjectsRef: a build given no ref builds
// the branch its project names (not the remote's HEAD), with the default
// timeout when the project sets none; the caller's log writer receives
// the whole log the artifact keeps; the audit names the version and the
// commit.
func TestBuildWithoutRefBuildsTheProjectsRef(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	ctx := context.Background()
	main := git(t, f.work, "rev-parse", "HEAD")
	git(t, f.work, "checkout", "--quiet", "-b", "release")
	release := f.commit("release 1.1", "Manifest-Version: 1.0\nMain-Class: com.acme.Dedup\nVersion: 1.1\n")
	git(t, f.work, "push", "--quiet", "origin", "release")
	if head := git(t, f.bare, "symbolic-ref", "HEAD"); head != "refs/heads/main" {
		t.Fatalf("the remote's HEAD is %s: the test proves nothing", head)
	}
	p := f.project(0)
	p.Ref = "release"
	if _, err := b.Add(ctx, p, "ana"); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	a, err := b.Build(ctx, "dedup", "", "ana", &log)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, log.String())
	}
	if a.Commit != release || a.Commit == main || a.Ref != "release" || a.Subject != "release 1.1" {
		t.Errorf("a build without a ref of a project on release built %s (ref %q, %q), want release's %s", a.Commit, a.Ref, a.Subject, release)
	}
	if want := "(commit " + release[:12] + ", timeout " + DefaultTimeout.String() + ","; !strings.Contains(a.Log, want) {
		t.Errorf("the log of a project without a timeout lacks %q:\n%s", want, a.Log)
	}
	if log.String() != a.Log || !strings.Contains(log.String(), "$ git: "+f.bare+" at release") || !strings.Contains(log.String(), "BUILD SUCCESS") {
		t.Errorf("the log writer got:\n%s\nthe artifact keeps:\n%s", log.String(), a.Log)
	}
	if got, want := lastOutcome(t, st), fmt.Sprintf("ana: succeeded: v1 %s", release[:12]); got != want {
		t.Errorf("audit %q, want %q", got, want)
	}
}

// TestRebuildOfTheSameBytes: a rebuild of the same commit into the same
// bytes is the version it was, audited "unchanged", and records nothing
// new; the same bytes from another commit are a new version, as what
// they were built from differs.
func TestRebuildOfTheSameBytes(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	ctx := context.Background()
	p := f.project(time.Minute)
	p.Build, p.Artifact = "mkdir -p out && printf 'PK same bytes' > out/app.jar", "out/app.jar"
	if _, err := b.Add(ctx, p, "ana"); err != nil {
		t.Fatal(err)
	}
	first := git(t, f.work, "rev-parse", "HEAD")
	a1, err := b.Build(ctx, "dedup", "", "ana", nil)
	if err != nil || a1.Version != 1 || a1.Unchanged {
		t.Fatalf("first build: %+v %v", a1, err)
	}
	again, err := b.Build(ctx, "dedup", "", "bob", nil)
	if err != nil || again.Version != 1 || !again.Unchanged || again.Commit != first || again.SHA256 != a1.SHA256 {
		t.Errorf("the same commit again: %+v %v", again, err)
	}
	if got, want := lastOutcome(t, st), "bob: unchanged: v1 "+first[:12]+" again"; got != want {
		t.Errorf("audit %q, want %q", got, want)
	}
	if got := artifacts(t, st); len(got) != 1 {
		t.Errorf("%d artifacts recorded after an unchanged rebuild, want 1", len(got))
	}

	second := f.commit("a comment", "Manifest-Version: 1.0\nMain-Class: com.acme.Dedup\nX-Note: nothing the build reads\n")
	git(t, f.work, "push", "--quiet", "origin", "main")
	a2, err := b.Build(ctx, "dedup", "", "ana", nil)
	if err != nil || a2.Version != 2 || a2.Unchanged || a2.Commit != second || a2.SHA256 != a1.SHA256 {
		t.Errorf("the same bytes from another commit: %+v %v", a2, err)
	}
	if got, want := lastOutcome(t, st), "ana: succeeded: v2 "+second[:12]; got != want {
		t.Errorf("audit %q, want %q", got, want)
	}
	if got := artifacts(t, st); len(got) != 2 || got[1].Commit != second {
		t.Errorf("artifacts %+v, want v2 at %s", got, second)
	}
}

// TestFailedBuildIsAudited: a build that fails is audited "failed: " and
// the error its caller got, kept log and all.
func TestFailedBuildIsAudited(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	if _, err := b.Add(context.Background(), f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	f.flag("fail", true)
	_, err := b.Build(context.Background(), "dedup", "", "bob", nil)
	if err == nil {
		t.Fatal("a failing build succeeded")
	}
	if got := lastOutcome(t, st); got != "bob: failed: "+err.Error() || !strings.Contains(got, "exit status 3 (log: ") {
		t.Errorf("audit %q for the build that failed with %v", got, err)
	}
}

// TestCancelBeforeTheCommandStarts: a build cancelled as its command is
// about to start never runs it, records nothing and is audited
// "cancelled"; a cancel that comes once the artifact is collected loses
// nothing: the artifact is recorded.
func TestCancelBeforeTheCommandStarts(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	p := f.project(time.Minute)
	p.Build = "touch $FLAGS/ran; " + p.Build
	if _, err := b.Add(context.Background(), p, "ana"); err != nil {
		t.Fatal(err)
	}
	cancelAt := func(phase model.BuildPhase) (model.Artifact, error) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		return b.BuildWith(ctx, "dedup", "", "ana", nil, func(p model.BuildPhase, _ string) {
			if p == phase {
				cancel()
			}
		})
	}
	if a, err := cancelAt(model.PhaseBuild); !errors.Is(err, context.Canceled) || a.Version != 0 {
		t.Errorf("a build cancelled at its start: %+v %v", a, err)
	}
	if _, err := os.Stat(filepath.Join(f.flags, "ran")); err == nil {
		t.Error("the cancelled build's command ran")
	}
	if got := lastOutcome(t, st); got != "ana: cancelled" {
		t.Errorf("audit %q, want cancelled", got)
	}
	if got := artifacts(t, st); len(got) != 0 {
		t.Errorf("a cancelled build recorded %+v", got)
	}

	a, err := cancelAt(model.PhaseCollect)
	if err != nil || a.Version != 1 {
		t.Errorf("a build cancelled once its command ended: %+v %v", a, err)
	}
	if got := artifacts(t, st); len(got) != 1 {
		t.Errorf("%d artifacts recorded, want the one collected", len(got))
	}
	if got := lastOutcome(t, st); !strings.HasPrefix(got, "ana: succeeded: v1 ") {
		t.Errorf("audit %q, want succeeded", got)
	}
}

// TestBuildVariablesInOrder: the project's variables reach the build
// sorted by name, so two builds of one commit get the same environment.
// The build's shell hands its children an order of its own, so the test
// reads the environment the shell itself was started with.
func TestBuildVariablesInOrder(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	p := f.project(time.Minute)
	p.Build, p.Artifact = `tr '\0' '\n' < /proc/$$/environ > env.txt`, "env.txt"
	p.Env = map[string]string{}
	var want []string
	for c := 'P'; c >= 'A'; c-- { // declared backwards: sixteen names
		k := "V_" + string(c)
		p.Env[k] = strings.ToLower(k)
		want = append([]string{k + "=" + strings.ToLower(k)}, want...)
	}
	_, env, err := buildOnce(t, b, p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(env), "\n") {
		if strings.HasPrefix(l, "V_") {
			got = append(got, l)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the build's variables in the order\n%v\nwant\n%v", got, want)
	}
}

// TestBuildOfAnUnknownProject: building a project that does not exist
// fails as not found and touches nothing.
func TestBuildOfAnUnknownProject(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	if _, err := b.Build(context.Background(), "nosuch", "", "ana", nil); !errors.Is(err, model.ErrNotFound) || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("build of an unknown project: %v", err)
	}
	if _, err := os.Stat(f.cache); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the build of an unknown project made its cache: %v", err)
	}
	if got := buildAudit(t, st, "nosuch"); len(got) != 0 {
		t.Errorf("audited %+v", got)
	}
}

// TestBuildWithoutACacheDirectory: a palink configured without
// projects.cache_dir says so and writes nothing where it runs.
func TestBuildWithoutACacheDirectory(t *testing.T) {
	f := newFixture(t)
	st, _ := f.open()
	defer st.Close()
	here := t.TempDir()
	t.Chdir(here)
	b := New(Options{Store: st, Run: policy()})
	if _, err := b.Add(context.Background(), f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(context.Background(), "dedup", "", "ana", nil); err == nil || !strings.Contains(err.Error(), "no cache directory configured (projects.cache_dir)") {
		t.Errorf("a build without a cache directory: %v", err)
	}
	if left, _ := os.ReadDir(here); len(left) != 0 {
		t.Errorf("the build wrote %d entries into the working directory", len(left))
	}
}

// TestOneBuildOfAProjectAtATime: while a project builds, another build of
// it is refused at once, by the same palink and by another one sharing
// its cache.
func TestOneBuildOfAProjectAtATime(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	if _, err := b.Add(context.Background(), f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	f.flag("slow", true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := b.Build(ctx, "dedup", "", "ana", nil); done <- err }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(f.flags, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("the build never started")
		}
	}
	other := New(Options{Store: st, CacheDir: f.cache, Run: policy()})
	for _, c := range []struct {
		who  string
		b    *Builder
		want string
	}{{"the same palink", b, "a build of this project is running"}, {"another palink", other, "another palink is building this project"}} {
		// Bounded: a second build let through would hang as the first.
		ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
		start := time.Now()
		_, err := c.b.Build(ctx2, "dedup", "", "bob", nil)
		cancel2()
		if !errors.Is(err, model.ErrRefused) || !strings.Contains(err.Error(), c.want) || time.Since(start) > 5*time.Second {
			t.Errorf("a second build by %s while one runs: %v after %s", c.who, err, time.Since(start))
		}
	}
	cancel()
	<-done
}

// faultyStore is the store with its artifact records failing as told: a
// disk that fills, a store another palink holds.
type faultyStore struct {
	store.Store
	artifacts, add error
}

func (s *faultyStore) Update(ctx context.Context, fn func(store.Tx) error) error {
	return s.Store.Update(ctx, func(tx store.Tx) error { return fn(faultyTx{tx, s}) })
}

type faultyTx struct {
	store.Tx
	s *faultyStore
}

func (t faultyTx) Artifacts(project string) ([]model.Artifact, error) {
	if t.s.artifacts != nil {
		return nil, t.s.artifacts
	}
	return t.Tx.Artifacts(project)
}

func (t faultyTx) AddArtifact(a model.Artifact) (model.Artifact, error) {
	if t.s.add != nil {
		return model.Artifact{}, t.s.add
	}
	return t.Tx.AddArtifact(a)
}

// TestBuildThatCannotBeRecordedFails: a build whose artifact the store
// cannot record — its artifacts unreadable, the write refused, the store
// not to be opened when the build ends — fails saying so, and never
// hands back an artifact as if recorded.
func TestBuildThatCannotBeRecordedFails(t *testing.T) {
	f := newFixture(t)
	st, err := store.Open(f.dbPath, store.Options{NoSync: true, LockTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	broken := errors.New("disk full")
	fs := &faultyStore{Store: st}
	b := New(Options{Store: fs, CacheDir: f.cache, Run: policy()})
	p := f.project(time.Minute)
	if _, err := b.Add(context.Background(), p, "ana"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what           string
		artifacts, add error
	}{{"artifacts unreadable", broken, nil}, {"write refused", nil, broken}} {
		fs.artifacts, fs.add = c.artifacts, c.add
		a, err := b.Build(context.Background(), "dedup", "", "ana", nil)
		if !errors.Is(err, broken) || !strings.Contains(err.Error(), "build dedup: record the artifact ") || a != (model.Artifact{}) {
			t.Errorf("%s: %+v %v", c.what, a, err)
		}
	}
	fs.artifacts, fs.add = nil, nil
	if got := artifacts(t, st); len(got) != 0 {
		t.Errorf("recorded %+v", got)
	}
	st.Close()

	// A palink without an agent opens the store for each use: at the
	// build's end, another palink holds it.
	var held atomic.Bool
	b = New(Options{CacheDir: f.cache, Run: policy(), Open: func() (store.Store, error) {
		if held.Load() {
			return nil, fmt.Errorf("open %s: %w", f.dbPath, broken)
		}
		return store.Open(f.dbPath, store.Options{NoSync: true, LockTimeout: 10 * time.Second})
	}})
	a, err := b.BuildWith(context.Background(), "dedup", "", "ana", nil, func(p model.BuildPhase, _ string) {
		held.Store(p == model.PhaseCollect)
	})
	if !errors.Is(err, broken) || !strings.Contains(err.Error(), "record the artifact") || a.Version != 0 {
		t.Errorf("the store held at the build's end: %+v %v", a, err)
	}
}
