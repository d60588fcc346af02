package cli

import (
	"strings"
	"testing"

	"github.com/palink/palink/yarn/sim"
)

// TestRebuildOfTheSameCommitIsUnchanged: building a project again at the
// same commit, into the same bytes, says so and keeps the one version.
func TestRebuildOfTheSameCommitIsUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a project")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	repo := bareRepoWithBuild(t) // git archive: the same bytes each time
	e.mustRun("project", "add", "dedup", "--repo", repo, "--build", "./build.sh", "--artifact", "out/*.jar")
	if out := e.mustRun("project", "build", "dedup", "-q"); !strings.HasPrefix(out, "dedup v1: ") {
		t.Fatalf("first build: %s", out)
	}
	out := e.mustRun("project", "build", "dedup", "-q")
	if !strings.HasPrefix(out, "dedup unchanged: same commit ") || !strings.Contains(out, "and sha256 as v1, which is kept") {
		t.Fatalf("a rebuild of the same commit printed %q", out)
	}
	arts := e.mustRun("project", "artifacts", "dedup")
	if strings.Count(arts, "\n") != 2 || strings.Contains(arts, "v2") { // the heading and v1
		t.Fatalf("artifacts after the rebuild:\n%s", arts)
	}
}
