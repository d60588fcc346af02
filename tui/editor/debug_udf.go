package editor

import (
	"fmt"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
)

// A debug run cannot load a UDF's jar: the form takes, beside its
// TABLE=FILE lines, lines NAME(PARAM, …)=EXPRESSION that stand in for a
// function in the run (api.DebugRequest.StandIns).

// standInNotes are the form's notes for the functions the script calls
// that are neither built in nor created by it; a function known has the
// known stand-in's line instead, ready to run (known may be nil).
func standInNotes(script *flinksql.Script, known api.DebugStandIns) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range flinksql.UserFunctionCalls(script) {
		if seen[strings.ToUpper(c.Name)] {
			continue
		}
		seen[strings.ToUpper(c.Name)] = true
		if known != nil {
			if line, ok := known.StandIn(c.Name); ok {
				out = append(out, "# "+c.Name+" is a UDF a local run cannot load: this line stands in for it", line)
				continue
			}
		}
		params := make([]string, c.Args)
		for i := range params {
			params[i] = string(rune('a' + i%26))
		}
		out = append(out, fmt.Sprintf("# %s is a UDF a local run cannot load: stand in for it with a line like %s(%s)=EXPRESSION",
			c.Name, c.Name, strings.Join(params, ", ")))
	}
	return out
}

// isStandIn tells a stand-in line from a TABLE=FILE one: its name has
// parameters.
func isStandIn(line string) bool {
	head, _, ok := strings.Cut(line, "=")
	return ok && strings.Contains(head, "(")
}

// debugStandIns are the form's stand-in lines.
func debugStandIns(in debugInput) []string {
	var out []string
	for _, l := range strings.Split(in.data, "\n") {
		if l = strings.TrimSpace(l); !strings.HasPrefix(l, "#") && isStandIn(l) {
			out = append(out, l)
		}
	}
	return out
}
