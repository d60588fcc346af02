package sim

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// QueryEngine runs the streaming SELECTs a SQL Gateway session submits,
// which the simulator, having no Flink, cannot run itself: the session's
// earlier statements (its DDL, SET) and the query in, the rows with their
// changes out. palink's own runtime serves it where palink starts the
// simulator (demo), so that `palink debug --on` is tested end to end.
type QueryEngine interface {
	Query(ctx context.Context, q Query) (QueryResult, error)
}

// Query is one SELECT of a session.
type Query struct {
	// Statements are the session's statements before it, in order:
	// CREATE TABLE / VIEW / FUNCTION and the like.
	Statements []string
	// Config is the session's configuration, the statement's execution
	// configuration over it.
	Config map[string]string
	SQL    string
}

// QueryResult is what a query gave: its columns, and its rows as changes.
type QueryResult struct {
	Columns []QueryColumn
	Rows    []QueryRow
}

// QueryColumn is a result column and its Flink SQL type ("BIGINT",
// "DECIMAL(10, 2)", "VARCHAR(2147483647) NOT NULL").
type QueryColumn struct {
	Name, Type string
}

// QueryRow is one change: its RowKind (INSERT, UPDATE_BEFORE,
// UPDATE_AFTER, DELETE) and its fields as JSON values.
type QueryRow struct {
	Kind   string
	Fields []any
}

// engineSelect runs a SELECT that reads tables through the engine: the
// operation runs until the engine answers; its rows are its result.
func (gw *sqlGateway) engineSelect(s *sqlSession, op *sqlOp, sql string, execConfig map[string]string) {
	cfg := cloneMap(s.props)
	for k, v := range execConfig {
		cfg[k] = v
	}
	q := Query{Statements: append([]string(nil), s.ddl...), Config: cfg, SQL: sql}
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	done := make(chan struct{})
	op.engine, op.stop = done, cancel
	engine, jobID := gw.queries, hex32(gw.rng)
	go func() {
		defer close(done)
		defer cancel()
		res, err := engine.Query(ctx, q)
		gw.mu.Lock()
		defer gw.mu.Unlock()
		if err != nil {
			op.err = "org.apache.flink.table.api.TableException: " + err.Error()
			return
		}
		r := &sqlResult{kind: "SUCCESS_WITH_CONTENT", query: true, jobID: jobID}
		for _, c := range res.Columns {
			r.columns = append(r.columns, column{Name: c.Name, LogicalType: logicalType(c.Type)})
		}
		for _, row := range res.Rows {
			r.rows = append(r.rows, row.Fields)
			r.kinds = append(r.kinds, row.Kind)
		}
		op.result = r
	}()
}

// engineDone moves an engine's operation on once the engine answered.
func (op *sqlOp) engineDone() bool {
	select {
	case <-op.engine:
		return true
	default:
		return false
	}
}

var reTypeArgs = regexp.MustCompile(`^([A-Z_ ]+?)\s*(?:\((\d+)(?:\s*,\s*(\d+))?\))?(\s+NOT NULL)?$`)

// logicalType is a Flink SQL type as the gateway's result columns carry it
// (LogicalTypeJsonSerializer): its root and parameters.
func logicalType(t string) map[string]any {
	m := reTypeArgs.FindStringSubmatch(strings.ToUpper(strings.TrimSpace(t)))
	if m == nil {
		return map[string]any{"type": "RAW", "nullable": true}
	}
	name, nullable := strings.TrimSpace(m[1]), m[4] == ""
	p, _ := strconv.Atoi(m[2])
	s, _ := strconv.Atoi(m[3])
	out := map[string]any{"nullable": nullable}
	switch name {
	case "STRING":
		out["type"], out["length"] = "VARCHAR", 2147483647
	case "VARCHAR", "CHAR", "BINARY", "VARBINARY":
		out["type"], out["length"] = name, max(p, 1)
	case "DECIMAL":
		out["type"], out["precision"], out["scale"] = name, p, s
	case "TIMESTAMP":
		out["type"], out["precision"] = "TIMESTAMP_WITHOUT_TIME_ZONE", p
	case "TIMESTAMP_LTZ", "TIMESTAMP WITH LOCAL TIME ZONE":
		out["type"], out["precision"] = "TIMESTAMP_WITH_LOCAL_TIME_ZONE", p
	case "TIME":
		out["type"], out["precision"] = "TIME_WITHOUT_TIME_ZONE", p
	case "INT":
		out["type"] = "INTEGER"
	default:
		out["type"] = name
	}
	return out
}

// queryTimeout bounds an engine's query, as a gateway's
// sql-gateway.session.idle-timeout would end one nobody reads.
const queryTimeout = 5 * time.Minute
