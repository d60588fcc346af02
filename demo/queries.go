package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
	"github.com/palink/palink/yarn/sim"
)

// Session configuration keys a debug run on a cluster sets for the
// simulator's gateway (a Flink gateway ignores keys it does not know):
// the stand-ins of the UDFs palink's runtime cannot load, a line each, and
// the most rows the query gives.
const (
	ConfStandIns = api.DebugConfStandIns
	ConfLimit    = api.DebugConfLimit
)

var reCreateFunction = regexp.MustCompile(`(?is)^\s*CREATE\s+(?:TEMPORARY\s+)?(?:SYSTEM\s+)?FUNCTION\b`)

// queryEngine runs the simulator's gateway queries on palink's own
// runtime (core/localrun): the simulator has no Flink, and `palink debug
// --on` must reach a gateway that answers with rows and their changes.
type queryEngine struct{}

var _ sim.QueryEngine = queryEngine{}

// rowKinds are Flink's RowKind names of the runtime's changes.
var rowKinds = map[string]string{"": "INSERT", "+I": "INSERT", "-U": "UPDATE_BEFORE", "+U": "UPDATE_AFTER", "-D": "DELETE"}

func (queryEngine) Query(ctx context.Context, q sim.Query) (sim.QueryResult, error) {
	var out sim.QueryResult
	// A function's CREATE is the cluster's to load: palink's runtime runs
	// the function's stand-in instead, from the session's configuration.
	var stmts []string
	for _, s := range q.Statements {
		if !reCreateFunction.MatchString(s) {
			stmts = append(stmts, s)
		}
	}
	req := api.DebugRequest{SQL: strings.Join(append(stmts, q.SQL), ";\n") + ";\n", File: "gateway", RowJSON: true}
	for _, s := range strings.Split(q.Config[ConfStandIns], "\n") {
		if s = strings.TrimSpace(s); s != "" {
			req.StandIns = append(req.StandIns, s)
		}
	}
	if l := q.Config[ConfLimit]; l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			return out, fmt.Errorf("%s = '%s': want a count of rows", ConfLimit, l)
		}
		req.Limit = n
	}
	evs, err := (&localrun.Debugger{}).Debug(ctx, req)
	if err != nil {
		return out, err
	}
	var runErr error
	for ev := range evs {
		switch ev.Kind {
		case api.DebugRowReceived:
			r := ev.Row
			if r == nil {
				continue
			}
			if len(r.Columns) > 0 && out.Columns == nil {
				for _, c := range r.Columns {
					out.Columns = append(out.Columns, sim.QueryColumn{Name: c.Name, Type: c.Type})
				}
			}
			fields, err := orderedFields(r.JSON, out.Columns)
			if err != nil {
				return out, err
			}
			out.Rows = append(out.Rows, sim.QueryRow{Kind: rowKinds[r.Kind], Fields: fields})
		case api.DebugFinished:
			runErr = ev.Err
			if out.Columns == nil && len(ev.Sinks) > 0 {
				for _, c := range ev.Sinks[len(ev.Sinks)-1].Columns {
					out.Columns = append(out.Columns, sim.QueryColumn{Name: c.Name, Type: c.Type})
				}
			}
		}
	}
	return out, runErr
}

// orderedFields are a row's JSON object's values in the columns' order,
// numbers as written.
func orderedFields(obj string, cols []sim.QueryColumn) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(obj))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("a row of the run: %w", err)
	}
	if len(cols) == 0 {
		return nil, errors.New("a row of the run came before its columns")
	}
	out := make([]any, len(cols))
	for i, c := range cols {
		out[i] = m[c.Name]
	}
	return out, nil
}
