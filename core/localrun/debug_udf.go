package localrun

import (
	"fmt"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/model"
)

// standIn rewrites the run's script with its stand-ins, and refuses a run
// whose script calls a user function that has none: a local run cannot
// load the function's jar or Python file. It returns the stand-ins it used.
func standIn(r *api.DebugRequest, job *flinksql.Script) ([]string, error) {
	ins := make([]flinksql.StandIn, 0, len(r.StandIns))
	given := map[string]string{}
	for _, s := range r.StandIns {
		in, err := flinksql.ParseStandIn(s)
		if err != nil {
			return nil, fmt.Errorf("debug run: %w", err)
		}
		ins = append(ins, in)
		given[strings.ToUpper(in.Name)] = s
	}
	var used []string
	seen := map[string]bool{}
	for _, c := range flinksql.UserFunctionCalls(job) {
		up := strings.ToUpper(c.Name)
		if seen[up] {
			continue
		}
		seen[up] = true
		if s, ok := given[up]; ok {
			used = append(used, s)
			continue
		}
		return nil, noStandIn(c, r.UDFs)
	}
	if len(used) == 0 {
		return nil, nil
	}
	if err := flinksql.ApplyStandIns(job, ins); err != nil {
		return nil, fmt.Errorf("debug run: %w", err)
	}
	return used, nil
}

// noStandIn says which function a run meets and how to stand in for it.
func noStandIn(c flinksql.FunctionCall, reg []model.UDF) error {
	params := make([]string, c.Args)
	for i := range params {
		params[i] = string(rune('a' + i%26))
	}
	what := "a function that is neither built in nor created by the script"
	for _, u := range reg {
		if strings.EqualFold(u.Name, c.Name) {
			what = fmt.Sprintf("the registered UDF %s (%s %s, %s)", u.Name, u.Language, u.Class, u.Where())
			break
		}
	}
	return fmt.Errorf("debug run: %s: the script calls %s, %s; a local run cannot load it: give a SQL expression to stand in for it, like --udf-stand-in '%s(%s)=…'",
		c.Pos, c.Name, what, c.Name, strings.Join(params, ", "))
}

// StandIn implements api.DebugStandIns: the first of d.StandIns that
// stands in for function.
func (d *Debugger) StandIn(function string) (string, bool) {
	for _, s := range d.StandIns {
		if in, err := flinksql.ParseStandIn(s); err == nil && strings.EqualFold(in.Name, function) {
			return s, true
		}
	}
	return "", false
}
