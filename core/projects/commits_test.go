package projects

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCommitsBetweenArtifacts: the commits from one build's commit to a
// newer one's, newest first; the other way they are what is taken away;
// a commit the checkout lacks is named.
func TestCommitsBetweenArtifacts(t *testing.T) {
	f := newFixture(t)
	st, b := f.open()
	defer st.Close()
	ctx := context.Background()
	if _, err := b.Add(ctx, f.project(time.Minute), "ana"); err != nil {
		t.Fatal(err)
	}
	first := git(t, f.work, "rev-parse", "HEAD")
	f.commit("window by event time", "Manifest-Version: 1.0\nMain-Class: com.acme.Dedup\nWindow: event-time\n")
	f.commit("dedup within 10 minutes", "Manifest-Version: 1.0\nMain-Class: com.acme.Dedup2\n")
	git(t, f.work, "push", "--quiet", "origin", "main")
	a, err := b.Build(ctx, "dedup", "", "ana", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(git(t, f.work, "log", "--oneline", "--no-decorate", first+".."+a.Commit), "\n")
	got, back, err := b.Commits(ctx, "dedup", first, a.Commit)
	if err != nil || back || !slices.Equal(got, want) || !strings.HasSuffix(got[0], " dedup within 10 minutes") {
		t.Errorf("forward: %q back=%v %v; want %q", got, back, err, want)
	}
	got, back, err = b.Commits(ctx, "dedup", a.Commit, first)
	if err != nil || !back || !slices.Equal(got, want) {
		t.Errorf("back: %q back=%v %v", got, back, err)
	}
	if _, _, err := b.Commits(ctx, "dedup", "0123456789abcdef0123456789abcdef01234567", a.Commit); err == nil || !strings.Contains(err.Error(), "commit 0123456789ab is not in its checkout") {
		t.Errorf("unknown commit: %v", err)
	}
	if _, _, err := b.Commits(ctx, "ghost", first, a.Commit); err == nil || !strings.Contains(err.Error(), "build it once") {
		t.Errorf("no checkout: %v", err)
	}
}
