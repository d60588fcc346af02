package detail

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// The catalog versions a deploy ran with: each SUBMIT, RESTART and
// RESUBMIT records the catalog tables it injected (model.CommandParams
// .Catalog), and the Commands tab shows them under the command, with what
// changed since the deploy before it that recorded any.

// isDeploy reports a command that deploys the job.
func isDeploy(k model.CommandKind) bool {
	return k == model.CmdSubmit || k == model.CmdRestart || k == model.CmdResubmit
}

// catalogBefore maps each deploy command's id to the catalog refs of the
// deploy before it (by sequence) that recorded any.
func catalogBefore(cs []model.Command) map[string][]model.CatalogRef {
	asc := slices.Clone(cs)
	slices.SortStableFunc(asc, func(a, b model.Command) int { return cmp.Compare(a.Seq, b.Seq) })
	out := map[string][]model.CatalogRef{}
	var prev []model.CatalogRef
	for _, c := range asc {
		if !isDeploy(c.Kind) || len(c.Params.Catalog) == 0 {
			continue
		}
		out[c.ID] = prev
		prev = c.Params.Catalog
	}
	return out
}

// catalogDiff is refs as "orders@v3 (was v2) · users@v1 · enriched@v2
// (new) · old@v1 gone": each table's version, and how it differs from
// prev (nil: nothing to compare with).
func catalogDiff(refs, prev []model.CatalogRef) string {
	was := map[string]int{}
	for _, r := range prev {
		was[r.Name] = r.Version
	}
	var parts []string
	for _, r := range refs {
		s := r.String()
		switch v, ok := was[r.Name]; {
		case prev == nil:
		case !ok:
			s += " (new)"
		case v != r.Version:
			s += fmt.Sprintf(" (was v%d)", v)
		}
		parts = append(parts, s)
	}
	for _, r := range prev {
		if !slices.ContainsFunc(refs, func(x model.CatalogRef) bool { return x.Name == r.Name }) {
			parts = append(parts, r.String()+" gone")
		}
	}
	return strings.Join(parts, " · ")
}

// catalogLine is the line under a deploy command naming the catalog
// versions it deployed with; false for a command that recorded none.
func catalogLine(st *kit.Styles, c model.Command, before map[string][]model.CatalogRef, w int) (tabLine, bool) {
	if !isDeploy(c.Kind) || len(c.Params.Catalog) == 0 {
		return tabLine{}, false
	}
	text := "        " + st.Dim.Render("catalog ") + catalogDiff(c.Params.Catalog, before[c.ID])
	return tabLine{text: kit.Truncate(text, w)}, true
}
