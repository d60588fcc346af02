package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/palink/palink/model"
)

// TestResubmitShowsTheCommitsBetweenArtifacts: what `job resubmit` prints
// of a jar change: the versions, the commits (at most 20, then how many
// more), a rollback named as one, and why commits are missing.
func TestResubmitShowsTheCommitsBetweenArtifacts(t *testing.T) {
	var b strings.Builder
	printArtifactChange(&b, "  ", &model.ArtifactChange{Project: "dedup", From: 1, To: 3,
		FromCommit: "3f9c0d1e2b4a", ToCommit: "9c1f2e3d4b5a", Commits: []string{"9c1f2e3 window by event time", "77ab012 dedup within 10 minutes"}})
	want := "  artifact v1 → v3 of project dedup (3f9c0d1 → 9c1f2e3): 2 commits\n    9c1f2e3 window by event time\n    77ab012 dedup within 10 minutes\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	b.Reset()
	many := make([]string, 25)
	for i := range many {
		many[i] = fmt.Sprintf("%07d commit %d", i, i)
	}
	printArtifactChange(&b, "", &model.ArtifactChange{Project: "dedup", From: 3, To: 1, FromCommit: "9c1f2e3", ToCommit: "3f9c0d1", Commits: many, Back: true})
	out := b.String()
	if !strings.Contains(out, "25 commits taken away (the new artifact is older)") || !strings.Contains(out, "… 5 more (-o json lists them)") ||
		strings.Contains(out, "commit 20") {
		t.Errorf("rollback of 25 commits:\n%s", out)
	}

	b.Reset()
	printArtifactChange(&b, "", &model.ArtifactChange{Project: "dedup", From: 1, To: 2, FromCommit: "3f9c0d1", ToCommit: "9c1f2e3", Note: "project dedup: commit 3f9c0d1 is not in its checkout"})
	if !strings.HasSuffix(b.String(), "): project dedup: commit 3f9c0d1 is not in its checkout\n") {
		t.Errorf("missing commits: %q", b.String())
	}
	b.Reset()
	printArtifactChange(&b, "", nil)
	if b.Len() != 0 {
		t.Errorf("no change printed %q", b.String())
	}
}
