package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/yarn/sim"
)

// TestLogDelta: the log a remote build adds between two looks at its
// tail, whether the tail grew or, once full, moved.
func TestLogDelta(t *testing.T) {
	for _, c := range []struct{ shown, next, want string }{
		{"", "a\nb\n", "a\nb\n"},
		{"a\nb\n", "a\nb\nc\n", "c\n"},
		{"a\nb\n", "a\nb\n", ""},
		{strings.Repeat("x", 600) + "END1\n", strings.Repeat("x", 500) + "END1\nmore\n", "more\n"}, // the tail moved by 100
		{"gone\n", "all new\n", "all new\n"},
	} {
		if got := logDelta(c.shown, c.next); got != c.want {
			t.Errorf("logDelta(%q, %q) = %q, want %q", c.shown, c.next, got, c.want)
		}
	}
}

// TestProjectBuildThroughTheAgentShowsTheLog: with an agent running the
// build, `project build` still writes the build's output to stderr.
func TestProjectBuildThroughTheAgentShowsTheLog(t *testing.T) {
	e := newCLIEnv(t, sim.Options{}, nil)
	repo := bareRepoWithBuild(t)
	e.mustRun("project", "add", "dedup", "--repo", repo, "--build", "./build.sh", "--artifact", "out/*.jar")
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
	out, errOut := e.runBoth(ctx, "project", "build", "dedup")
	if !strings.Contains(out, "dedup v1:") || strings.Count(errOut, "BUILD SUCCESS") != 1 || !strings.Contains(errOut, "$ git: "+repo) {
		t.Errorf("project build through the agent:\nstdout %s\nstderr %s", out, errOut)
	}
}
