package tui

import (
	"fmt"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// maxDialogCommits bounds the commits a confirmation lists, so that it
// fits 80×24.
const maxDialogCommits = 5

// artifactLines say, in a deploy's confirmation, what it changes in a JAR
// job's jar: the artifact versions and the commits between them (pure).
func artifactLines(st *kit.Styles, c *model.ArtifactChange, w int) []string {
	if c == nil {
		return nil
	}
	what := kit.Plural(len(c.Commits), "commit")
	switch {
	case c.Back && len(c.Commits) > 0:
		what += " taken away"
	case len(c.Commits) == 0 && c.Note != "":
		what = c.Note
	}
	lines := kit.Wrap(fmt.Sprintf("Jar: %s v%d → v%d (%.7s → %.7s), %s:", c.Project, c.From, c.To, c.FromCommit, c.ToCommit, what), w)
	for i, l := range c.Commits {
		if i == maxDialogCommits {
			lines = append(lines, st.Dim.Render(fmt.Sprintf("  +%d more: palink job resubmit -o json", len(c.Commits)-i)))
			break
		}
		lines = append(lines, "  "+kit.Truncate(l, max(w-2, 1)))
	}
	return lines
}
