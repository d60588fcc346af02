package cli

import (
	"fmt"
	"io"

	"github.com/palink/palink/model"
)

// maxShownCommits bounds the commits a terminal is shown; -o json has
// them all.
const maxShownCommits = 20

// printArtifactChange says what a deploy changes in a JAR job's jar: the
// artifact versions and the commits between them.
func printArtifactChange(w io.Writer, indent string, c *model.ArtifactChange) {
	if c == nil {
		return
	}
	what := fmt.Sprintf("%d commits", len(c.Commits))
	switch {
	case len(c.Commits) == 1:
		what = "1 commit"
	case c.Note != "":
		what = c.Note
	}
	if c.Back && len(c.Commits) > 0 {
		what += " taken away (the new artifact is older)"
	}
	fmt.Fprintf(w, "%sartifact v%d → v%d of project %s (%.7s → %.7s): %s\n", indent, c.From, c.To, c.Project, c.FromCommit, c.ToCommit, what)
	for i, l := range c.Commits {
		if i == maxShownCommits {
			fmt.Fprintf(w, "%s  … %d more (-o json lists them)\n", indent, len(c.Commits)-i)
			break
		}
		fmt.Fprintf(w, "%s  %s\n", indent, l)
	}
}
