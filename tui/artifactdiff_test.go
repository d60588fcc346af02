package tui

import (
	"fmt"
	"testing"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
)

// TestResubmitConfirmationListsTheCommits: resubmitting a JAR job whose
// spec pins a newer artifact shows, in the confirmation, the versions and
// the commits between them, the first five and how many more.
func TestResubmitConfirmationListsTheCommits(t *testing.T) {
	f := tuitest.NewFixture()
	commits := make([]string, 7)
	for i := range commits {
		commits[i] = fmt.Sprintf("%07x change %d", 0xabc0000+i, 7-i)
	}
	f.ArtifactChanges = map[string]*model.ArtifactChange{"j005": {Project: "fraud-model", From: 1, To: 2,
		FromCommit: "3f9c0d1e2b4a", ToCommit: "9c1f2e3d4b5a", Commits: commits}}
	h := newHarness(t, f, 120, 40, Options{})
	h.SelectJob("fraud-scoring")
	h.Press("R", "enter")
	h.MustShow("Resubmit fraud-scoring?", "Jar: fraud-model v1 → v2 (3f9c0d1 → 9c1f2e3), 7 commits:",
		"abc0000 change 7", "abc0004 change 3", "+2 more: palink job resubmit -o json")
	h.MustNotShow("abc0005 change 2")

	// A job whose jar does not change shows no such line.
	h.Press("esc")
	h.SelectJob("sessionize")
	h.Press("R", "enter")
	h.MustShow("Resubmit sessionize?")
	h.MustNotShow("Jar:")
}
