package editor

import (
	tea "charm.land/bubbletea/v2"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui/kit"
)

// NewVersions lists a job's saved versions on their own, without an
// editor below: a PyFlink job's entry scripts, diffed as SQL versions are.
func NewVersions(e *kit.Env, j api.JobView) (kit.Screen, tea.Cmd) {
	return newVersionsScreen(e, j, "", false)
}

// specText is the versioned text of a spec: the SQL script, or a PyFlink
// job's entry script with how it starts (module, files, interpreter),
// so that a diff shows a change of either.
func specText(kind model.JobKind, s model.Spec) string {
	if kind != model.KindPython {
		return s.SQL
	}
	head := ""
	add := func(k, v string) {
		if v != "" {
			head += "# palink: " + k + " " + v + "\n"
		}
	}
	add("-py", s.PyFile)
	add("-pym", s.PyModule)
	for _, f := range s.PyFiles {
		add("-pyfs", f)
	}
	add("-pyreq", s.PyRequirements)
	for _, a := range s.PyArchives {
		add("-pyarch", a)
	}
	add("-pyexec", s.PyExecutable)
	for _, a := range s.Args {
		add("arg", a)
	}
	return head + s.Python
}
