package core

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/script"
	"github.com/palink/palink/core/udfs"
	"github.com/palink/palink/flinksql"
	"github.com/palink/palink/flinksql/ast"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// defaultRemoteLimit bounds a sink's query on a cluster when the request
// does not: a streaming source never ends.
const defaultRemoteLimit = 1000

// remoteQuery is one sink of a script as a query the gateway runs.
type remoteQuery struct {
	sink, sql string
	line      int
	// columns are what the INSERT names, in order (empty: the sink's own).
	columns []string
}

// DebugOnCluster implements api.SQLPlanner: the script's SET statements,
// the registered UDFs it calls and its DDL run in a session of their own
// (each source with a sample declared over it as a filesystem table, the
// rest as written), then each sink's query runs and its rows come back
// with their changes, until the limit (the query is then cancelled) or
// the end of its sources. The session is closed after.
func (l planner) DebugOnCluster(ctx context.Context, r api.RemoteDebugRequest) (api.RemoteDebugResult, error) {
	out := api.RemoteDebugResult{Cluster: r.Cluster}
	if l.readOnly {
		return out, api.ReadOnly("debug on " + r.Cluster)
	}
	var runErr error
	fail := func(err error) (api.RemoteDebugResult, error) {
		runErr = fmt.Errorf("debug %s on %s: %w", orFile(r.File), r.Cluster, err)
		return out, runErr
	}
	// It starts jobs on the cluster: on record, whatever came of it.
	defer func() {
		outcome := fmt.Sprintf("queries of %d sinks run on %s", len(out.Sinks), r.Cluster)
		if runErr != nil {
			outcome = "failed: " + runErr.Error()
		}
		_ = l.st.Update(context.WithoutCancel(ctx), func(tx store.Tx) error {
			_, err := tx.AppendAudit(model.AuditEntry{Time: l.now(), User: orUser(r.Issuer, l.user), Action: "debug --on", Outcome: outcome})
			return err
		})
	}()
	cl := l.clusters[r.Cluster]
	switch {
	case cl == nil:
		return fail(fmt.Errorf("no such cluster (known: %s)", strings.Join(clusterNames(l.specs), ", ")))
	case cl.Gateway == nil:
		return fail(fmt.Errorf("the cluster has no sql_gateway configured"))
	}
	var (
		vs   []model.Variable
		plan udfs.Plan
	)
	if err := l.st.View(ctx, func(tx store.ReadTx) (err error) {
		if vs, err = catalog.ClusterVars(tx, r.Cluster); err != nil {
			return err
		}
		plan, err = udfs.ForAnyRelease(tx, r.SQL)
		return err
	}); err != nil {
		return fail(err)
	}
	vars, err := catalog.Prepare(vs, r.SQL, flinksql.Injection{}, nil, l.secrets)
	if err != nil {
		return fail(err)
	}
	sub := func(s string) string { return flinksql.SubstituteVars(s, vars.Values) }
	sets, ddl, queries, err := splitForRemote(r.SQL)
	if err != nil {
		return fail(err)
	}
	notes, err := sampleTables(ddl, r.Data)
	if err != nil {
		return fail(err)
	}
	out.Notes = append(out.Notes, notes...)
	limit := r.Limit
	if limit <= 0 {
		limit = defaultRemoteLimit
	}
	props := map[string]string{"execution.runtime-mode": "streaming", api.DebugConfLimit: strconv.Itoa(limit),
		api.DebugConfStandIns: strings.Join(r.StandIns, "\n")}
	plan.AddProperties(props)
	if app := debugSession(cl); app != "" {
		props["execution.target"], props["yarn.application.id"] = "yarn-session", app
		out.Notes = append(out.Notes, "on the session cluster "+app)
	}
	sess, err := cl.Gateway.OpenSession(ctx, yarn.SessionRequest{Name: "palink-debug", Properties: props})
	cl.Observe(err, l.now())
	if err != nil {
		return fail(fmt.Errorf("open a SQL Gateway session: %w", vars.MaskErr(err)))
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_, _ = cl.Gateway.CloseSession(cctx, sess)
	}()
	for _, s := range append(append(sets, statements(plan.Statements)...), ddl...) {
		if _, err := cl.Gateway.ExecuteAndFetch(ctx, sess, yarn.StatementRequest{Statement: sub(s.Text)}, 100); err != nil {
			return fail(vars.MaskErr(lineError(s.Line, err)))
		}
	}
	for _, f := range plan.Functions {
		out.Notes = append(out.Notes, fmt.Sprintf("function %s created from %s", f.UDF.Name, f.Path))
	}
	declared := tableColumns(ddl)
	for _, q := range queries {
		sink, err := runRemoteQuery(ctx, cl, sess, q, sub(q.sql), limit, vars)
		if err != nil {
			return fail(vars.MaskErr(lineError(q.line, err)))
		}
		// An INSERT writes by position: the columns are the sink's.
		names := q.columns
		if len(names) == 0 {
			names = declared[strings.ToLower(strings.ReplaceAll(q.sink, "`", ""))]
		}
		if len(names) == len(sink.Columns) {
			for i := range sink.Columns {
				sink.Columns[i].Name = names[i]
			}
		}
		out.Sinks = append(out.Sinks, sink)
	}
	return out, nil
}

// tableColumns are the physical columns of the tables the DDL creates, by
// name in lower case.
func tableColumns(ddl []script.Statement) map[string][]string {
	out := map[string][]string{}
	for _, s := range ddl {
		parsed, errs := flinksql.ParseScript(s.Text)
		if len(errs) > 0 || len(parsed.Stmts) != 1 {
			continue
		}
		ct, ok := parsed.Stmts[0].(*ast.CreateTable)
		if !ok || ct.Name == nil {
			continue
		}
		var cols []string
		for _, c := range ct.Columns {
			if c.Expr == nil && !c.Metadata && c.Name != nil {
				cols = append(cols, c.Name.Name)
			}
		}
		out[strings.ToLower(ct.Name.String())] = cols
	}
	return out
}

func orFile(f string) string {
	if f == "" {
		return "the job"
	}
	return f
}

func lineError(line int, err error) error {
	if line <= 0 {
		return err
	}
	return fmt.Errorf("line %d: %w", line, err)
}

func statements(texts []string) []script.Statement {
	out := make([]script.Statement, len(texts))
	for i, t := range texts {
		out[i] = script.Statement{Text: t}
	}
	return out
}

// debugSession is the session cluster a debug run goes to: the one the
// config names for debug runs, else the one the cluster deploys to.
func debugSession(cl *clusters.Cluster) string {
	if cl.Cfg.DebugSession != "" {
		return cl.Cfg.DebugSession
	}
	if cl.Cfg.Deploy.Mode == "yarn-session" {
		return cl.Cfg.Deploy.SessionApp
	}
	return ""
}

// splitForRemote sorts a script for a run on a gateway: its SET
// statements, its DDL, and a query per sink (an INSERT's query, each of a
// statement set's, a SELECT).
func splitForRemote(src string) (sets, ddl []script.Statement, queries []remoteQuery, err error) {
	if _, errs := flinksql.ParseScript(src); len(errs) > 0 {
		return nil, nil, nil, fmt.Errorf("line %d:%d: %s", errs[0].Pos.Line, errs[0].Pos.Col, errs[0].Msg)
	}
	selects := 0
	for _, s := range flinksql.SplitStatements(src) {
		st := script.Statement{Text: s.Text, Line: s.Pos.Line}
		switch script.LeadKeyword(s.Text) {
		case "SET", "RESET":
			sets = append(sets, st)
		case "SELECT", "WITH":
			selects++
			queries = append(queries, remoteQuery{sink: fmt.Sprintf("SELECT #%d", selects), sql: s.Text, line: st.Line})
		case "INSERT", "EXECUTE", "BEGIN":
			qs, err := insertQueries(s.Text, st.Line)
			if err != nil {
				return nil, nil, nil, err
			}
			queries = append(queries, qs...)
		default:
			ddl = append(ddl, st)
		}
	}
	if len(queries) == 0 {
		return nil, nil, nil, fmt.Errorf("the script has no INSERT or SELECT: nothing to run")
	}
	return sets, ddl, queries, nil
}

// insertQueries are the queries of an INSERT or a statement set's INSERTs,
// by their sinks.
func insertQueries(text string, line int) ([]remoteQuery, error) {
	parsed, errs := flinksql.ParseScript(text)
	if len(errs) > 0 {
		return nil, fmt.Errorf("line %d: %s", line, errs[0].Msg)
	}
	var out []remoteQuery
	for _, x := range parsed.Inserts() {
		if x.Query == nil {
			continue
		}
		q := remoteQuery{sink: x.Table.String(), sql: text[x.Query.Pos.Offset:x.Query.End.Offset], line: line + x.Pos.Line - 1}
		for _, c := range x.Columns {
			q.columns = append(q.columns, c.Name)
		}
		out = append(out, q)
	}
	return out, nil
}

// sampleTables declares each source table that has a sample over it: its
// DDL keeps its columns and watermark, its WITH becomes a filesystem
// table of the sample in the table's format. The sample is named as the
// request has it: the caller copied it where the cluster reads it
// (debug.data_dir), in the caller's own process — this one, perhaps an
// agent serving another user, opens no file a request names.
func sampleTables(ddl []script.Statement, data map[string]string) ([]string, error) {
	var notes []string
	used := map[string]bool{}
	for i, s := range ddl {
		parsed, errs := flinksql.ParseScript(s.Text)
		if len(errs) > 0 || len(parsed.Stmts) != 1 {
			continue
		}
		ct, ok := parsed.Stmts[0].(*ast.CreateTable)
		if !ok || ct.Name == nil || len(ct.With) == 0 {
			continue
		}
		table := ct.Name.Parts[len(ct.Name.Parts)-1].Name
		file := ""
		for k, v := range data {
			if strings.EqualFold(k, table) {
				file, used[k] = v, true
			}
		}
		if file == "" {
			continue
		}
		format, _ := ct.With.Get("format")
		if c, _ := ct.With.Get("connector"); c == "upsert-kafka" || format == "" {
			return nil, fmt.Errorf("line %d: table %s: a run on the cluster reads a sample through a filesystem table, which needs the table's 'format' (upsert-kafka's key and value formats are not one)", s.Line, table)
		}
		if strings.EqualFold(filepath.Ext(file), ".csv") && format != "csv" {
			return nil, fmt.Errorf("line %d: table %s: the cluster reads %s with the table's format, %s: give a sample in that format", s.Line, table, file, format)
		}
		path := file
		if !strings.Contains(path, "://") && !filepath.IsAbs(path) {
			return nil, fmt.Errorf("--data %s=%s: a run on a cluster takes the sample's absolute path", table, file)
		}
		props := []string{"'connector' = 'filesystem'", "'path' = " + quoteSQL(fileURI(path)), "'format' = " + quoteSQL(format)}
		for _, p := range ct.With {
			if strings.HasPrefix(p.Key.Value, format+".") {
				props = append(props, quoteSQL(p.Key.Value)+" = "+quoteSQL(p.Value.Value))
			}
		}
		from, to := ct.With[0].Pos.Offset, ct.With[len(ct.With)-1].End.Offset
		ddl[i].Text = s.Text[:from] + strings.Join(props, ", ") + s.Text[to:]
		notes = append(notes, fmt.Sprintf("table %s reads %s", table, fileURI(path)))
	}
	for k := range data {
		if !used[k] {
			return nil, fmt.Errorf("--data %s: the script declares no such table with options", k)
		}
	}
	slices.Sort(notes)
	return notes, nil
}

func fileURI(path string) string {
	if strings.Contains(path, "://") {
		return path
	}
	return "file://" + path
}

func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// remoteKinds are Flink's RowKinds as the changelog writes them.
var remoteKinds = map[string]string{"INSERT": "+I", "UPDATE_BEFORE": "-U", "UPDATE_AFTER": "+U", "DELETE": "-D"}

// runRemoteQuery runs one sink's query and fetches its rows, at most
// limit, cancelling it there.
func runRemoteQuery(ctx context.Context, cl *clusters.Cluster, sess string, q remoteQuery, sql string, limit int, vars catalog.Resolved) (api.RemoteSink, error) {
	sink := api.RemoteSink{Name: q.sink}
	op, err := cl.Gateway.Execute(ctx, sess, yarn.StatementRequest{Statement: sql})
	if err != nil {
		return sink, err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if sink.Truncated {
			_, _ = cl.Gateway.CancelOperation(cctx, sess, op)
		}
		_, _ = cl.Gateway.CloseOperation(cctx, sess, op)
	}()
	res, err := cl.Gateway.FetchAll(ctx, sess, op, limit)
	if err != nil {
		return sink, err
	}
	sink.Truncated, sink.JobID = res.Truncated, res.JobID
	for _, c := range res.Columns {
		sink.Columns = append(sink.Columns, api.DebugColumn{Name: c.Name, Type: c.LogicalType.String()})
	}
	mask := vars.JSONMask()
	for _, row := range res.Rows {
		ch := api.RemoteChange{Kind: remoteKinds[row.Kind], Values: make([]json.RawMessage, len(row.Fields))}
		if ch.Kind == "" {
			ch.Kind = row.Kind
		}
		for i, f := range row.Fields {
			b, err := json.Marshal(f)
			if err != nil {
				return sink, err
			}
			if mask != nil {
				b = []byte(mask(string(b)))
			}
			ch.Values[i] = b
		}
		sink.Changes = append(sink.Changes, ch)
	}
	sink.Final = finalTable(sink.Changes)
	return sink, nil
}

// finalTable applies a changelog: an insert or an update's new row is
// added, a retraction or a delete takes away an equal row.
func finalTable(changes []api.RemoteChange) [][]json.RawMessage {
	var rows [][]json.RawMessage
	key := func(vs []json.RawMessage) string {
		b, _ := json.Marshal(vs)
		return string(b)
	}
	for _, c := range changes {
		switch c.Kind {
		case "+I", "+U":
			rows = append(rows, c.Values)
		case "-U", "-D":
			k := key(c.Values)
			for i, r := range rows {
				if key(r) == k {
					rows = append(rows[:i], rows[i+1:]...)
					break
				}
			}
		}
	}
	return rows
}
