package tui

import (
	"slices"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/internal/tuitest"
	"github.com/palink/palink/tui/kit"
)

// TestPythonSpecVersionsDiff: ctrl+o on a PyFlink job's script tab lists
// its saved versions; enter diffs one with the one before, the script
// and how it starts (-pyfs) alike; o says how a script is changed.
func TestPythonSpecVersionsDiff(t *testing.T) {
	f := tuitest.NewFixture()
	i := slices.IndexFunc(f.Jobs, func(j api.JobView) bool { return j.Name == "sessionize" })
	f.Jobs[i].Kind = model.KindPython
	f.Versions = map[string][]model.Spec{f.Jobs[i].ID: {
		{JobID: f.Jobs[i].ID, Version: 1, PyFile: "sessionize.py", Python: "t_env.execute_sql(GAP_5M)\n", Author: "ana", CreatedAt: tuitest.Now},
		{JobID: f.Jobs[i].ID, Version: 2, PyFile: "sessionize.py", PyFiles: []string{"hdfs:///py/udfs.zip"},
			Python: "t_env.execute_sql(GAP_10M)\n", Author: "bob", Note: "longer gap", CreatedAt: tuitest.Now},
	}}
	h := newHarness(t, f, 120, 40, Options{})
	h.Send(kit.OpenDetailMsg{Job: f.Jobs[i], Tab: "SQL"})
	h.Press("ctrl+o")
	h.MustShow("Python versions of sessionize", "v2", "longer gap", "v1")
	h.Press("enter")
	h.MustShow("t_env.execute_sql(GAP_5M)", "t_env.execute_sql(GAP_10M)", "# palink: -pyfs hdfs:///py/udfs.zip")
	h.Press("esc", "o")
	if got := h.Flash(); got != "a PyFlink script is changed with: palink job edit sessionize --py FILE" {
		t.Errorf("o on a PyFlink version: flash %q", got)
	}
}
