package sim

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The gateway understands just enough SQL to behave like Flink for a job
// console: session SET/RESET, DDL it remembers, SHOW, EXPLAIN, constant
// SELECTs, and INSERT / EXECUTE STATEMENT SET, which deploy jobs.

type stmtKind int

const (
	stmtUnknown stmtKind = iota
	stmtSet
	stmtReset
	stmtCreate
	stmtDrop
	stmtUse
	stmtShow
	stmtExplain
	stmtSelect
	stmtInsert
	stmtStatementSet
)

type statement struct {
	kind stmtKind
	text string // trimmed, without the final ';'
}

var reLineComment = regexp.MustCompile(`(?m)--[^\n]*$`)

func classify(sql string) statement {
	t := strings.TrimSpace(reLineComment.ReplaceAllString(sql, ""))
	t = strings.TrimSpace(strings.TrimSuffix(t, ";"))
	up := strings.ToUpper(t)
	fields := strings.Fields(up)
	first := ""
	if len(fields) > 0 {
		first = fields[0]
	}
	st := statement{text: t}
	switch first {
	case "SET":
		st.kind = stmtSet
	case "RESET":
		st.kind = stmtReset
	case "CREATE", "ALTER":
		st.kind = stmtCreate
	case "DROP":
		st.kind = stmtDrop
	case "USE", "LOAD", "UNLOAD", "ADD":
		st.kind = stmtUse
	case "SHOW":
		st.kind = stmtShow
	case "EXPLAIN":
		st.kind = stmtExplain
	case "SELECT", "WITH", "VALUES":
		st.kind = stmtSelect
	case "INSERT":
		st.kind = stmtInsert
	case "BEGIN":
		if len(fields) > 2 && fields[1] == "STATEMENT" && fields[2] == "SET" {
			st.kind = stmtStatementSet
		}
	case "EXECUTE":
		switch {
		case len(fields) > 2 && fields[1] == "STATEMENT" && fields[2] == "SET":
			st.kind = stmtStatementSet
		case len(fields) > 1 && fields[1] == "INSERT":
			st.kind = stmtInsert
			st.text = strings.TrimSpace(t[len("EXECUTE"):])
		}
	}
	return st
}

func parseError(sql string) string {
	return "org.apache.flink.table.api.SqlParserException: SQL parse failed. Non-query expression encountered in illegal context\n" +
		"Caused by: org.apache.calcite.sql.parser.SqlParseException: Encountered \"" + firstWord(sql) + "\" at line 1, column 1."
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return "<EOF>"
	}
	return f[0]
}

var (
	reSetKV     = regexp.MustCompile(`(?is)^SET\s+'([^']*)'\s*=\s*'([^']*)'$`)
	reSetBare   = regexp.MustCompile(`(?is)^SET\s+([\w.\-]+)\s*=\s*(.*)$`)
	reResetKey  = regexp.MustCompile(`(?is)^RESET\s+'([^']*)'$`)
	reCreate    = regexp.MustCompile("(?is)^CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:TEMPORARY\\s+)?(?:SYSTEM\\s+)?(TABLE|VIEW|FUNCTION|CATALOG|DATABASE)\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?([\\w.`]+)")
	reDrop      = regexp.MustCompile("(?is)^DROP\\s+(?:TEMPORARY\\s+)?(?:SYSTEM\\s+)?(TABLE|VIEW|FUNCTION|CATALOG|DATABASE)\\s+(IF\\s+EXISTS\\s+)?([\\w.`]+)")
	reConnector = regexp.MustCompile(`(?is)'connector'\s*=\s*'([^']+)'`)
	reShow      = regexp.MustCompile(`(?is)^SHOW\s+(TABLES|VIEWS|FUNCTIONS|USER\s+FUNCTIONS|CATALOGS|DATABASES|MODULES|CURRENT\s+CATALOG|CURRENT\s+DATABASE)$`)
	reSelect    = regexp.MustCompile(`(?is)^SELECT\s+(.+)$`)
	reFromWord  = regexp.MustCompile(`(?is)\bFROM\b`)
	reInsert    = regexp.MustCompile(`(?is)INSERT\s+(?:INTO|OVERWRITE)\s+[^;]+`)
)

// runDDL executes CREATE/DROP/USE against the session's catalog.
func (gw *sqlGateway) runDDL(s *sqlSession, st statement) (*sqlResult, error) {
	switch st.kind {
	case stmtCreate:
		m := reCreate.FindStringSubmatch(st.text)
		if m == nil {
			if strings.HasPrefix(strings.ToUpper(st.text), "ALTER") {
				return resultOK(), nil
			}
			return nil, fmt.Errorf("%s", parseError(st.text))
		}
		name := unquoteIdent(m[2])
		key := strings.ToLower(name)
		switch strings.ToUpper(m[1]) {
		case "TABLE":
			if _, exists := s.tables[key]; exists && !strings.Contains(strings.ToUpper(st.text), "IF NOT EXISTS") {
				return nil, fmt.Errorf("org.apache.flink.table.api.ValidationException: Could not execute CreateTable in path `default_catalog`.`default_database`.`%s`\nCaused by: org.apache.flink.table.catalog.exceptions.TableAlreadyExistException: Table (or view) default_database.%s already exists in Catalog default_catalog.", name, name)
			}
			kafka := false
			if cm := reConnector.FindStringSubmatch(st.text); cm != nil {
				kafka = strings.Contains(strings.ToLower(cm[1]), "kafka")
			}
			s.tables[key] = tableDef{name: name, kafka: kafka}
		case "VIEW":
			s.views[key] = true
		case "FUNCTION":
			s.functions[key] = true
		}
		return resultOK(), nil
	case stmtDrop:
		m := reDrop.FindStringSubmatch(st.text)
		if m == nil {
			return nil, fmt.Errorf("%s", parseError(st.text))
		}
		key := strings.ToLower(unquoteIdent(m[3]))
		ifExists := m[2] != ""
		var found bool
		switch strings.ToUpper(m[1]) {
		case "TABLE":
			_, found = s.tables[key]
			delete(s.tables, key)
		case "VIEW":
			found = s.views[key]
			delete(s.views, key)
		case "FUNCTION":
			found = s.functions[key]
			delete(s.functions, key)
		default:
			found = true
		}
		if !found && !ifExists {
			return nil, fmt.Errorf("org.apache.flink.table.api.ValidationException: %s with identifier 'default_catalog.default_database.%s' does not exist.",
				capitalize(m[1]), unquoteIdent(m[3]))
		}
		return resultOK(), nil
	case stmtUse:
		return resultOK(), nil
	}
	return nil, fmt.Errorf("%s", parseError(st.text))
}

// execute runs a statement as operation op.
func (gw *sqlGateway) execute(s *sqlSession, op *sqlOp, sql string, execConfig map[string]string, now time.Time) {
	st := classify(sql)
	op.readyAt = now.Add(100 * time.Millisecond)
	fail := func(msg string) { op.err = msg }
	switch st.kind {
	case stmtSet:
		if strings.EqualFold(st.text, "SET") {
			r := &sqlResult{kind: "SUCCESS_WITH_CONTENT", rows: [][]any{}, columns: []column{
				{Name: "key", LogicalType: map[string]any{"type": "VARCHAR", "nullable": false, "length": 2147483647}},
				{Name: "value", LogicalType: map[string]any{"type": "VARCHAR", "nullable": false, "length": 2147483647}}}}
			for _, k := range sortedKeys(s.props) {
				r.rows = append(r.rows, []any{k, s.props[k]})
			}
			op.result = r
			return
		}
		if m := reSetKV.FindStringSubmatch(st.text); m != nil {
			s.props[m[1]] = m[2]
		} else if m := reSetBare.FindStringSubmatch(st.text); m != nil {
			s.props[m[1]] = strings.Trim(strings.TrimSpace(m[2]), "'")
		} else {
			fail(parseError(st.text))
			return
		}
		op.result = resultOK()
	case stmtReset:
		if strings.EqualFold(st.text, "RESET") {
			s.props = cloneMap(s.initial)
		} else if m := reResetKey.FindStringSubmatch(st.text); m != nil {
			if v, ok := s.initial[m[1]]; ok {
				s.props[m[1]] = v
			} else {
				delete(s.props, m[1])
			}
		} else {
			fail(parseError(st.text))
			return
		}
		op.result = resultOK()
	case stmtCreate, stmtDrop, stmtUse:
		r, err := gw.runDDL(s, st)
		if err != nil {
			fail(err.Error())
			return
		}
		s.ddl = append(s.ddl, st.text)
		op.result = r
	case stmtShow:
		m := reShow.FindStringSubmatch(st.text)
		if m == nil {
			fail(parseError(st.text))
			return
		}
		what := strings.Join(strings.Fields(strings.ToUpper(m[1])), " ")
		switch what {
		case "TABLES":
			names := []string{}
			for _, k := range sortedKeys(s.tables) {
				names = append(names, s.tables[k].name)
			}
			for _, k := range sortedKeys(s.views) {
				names = append(names, k)
			}
			op.result = stringRows("table name", names)
		case "VIEWS":
			op.result = stringRows("view name", sortedKeys(s.views))
		case "FUNCTIONS", "USER FUNCTIONS":
			op.result = stringRows("function name", sortedKeys(s.functions))
		case "CATALOGS", "CURRENT CATALOG":
			op.result = stringRows(map[string]string{"CATALOGS": "catalog name", "CURRENT CATALOG": "current catalog name"}[what], []string{"default_catalog"})
		case "DATABASES", "CURRENT DATABASE":
			op.result = stringRows(map[string]string{"DATABASES": "database name", "CURRENT DATABASE": "current database name"}[what], []string{"default_database"})
		case "MODULES":
			op.result = stringRows("module name", []string{"core"})
		}
	case stmtExplain:
		inner := strings.TrimSpace(st.text[len("EXPLAIN"):])
		for _, kw := range []string{"PLAN FOR", "CHANGELOG_MODE", "ESTIMATED_COST", "JSON_EXECUTION_PLAN"} {
			inner = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(inner, kw), ","))
		}
		if errMsg := s.validate(inner); errMsg != "" {
			fail(errMsg)
			return
		}
		op.result = &sqlResult{kind: "SUCCESS_WITH_CONTENT", columns: []column{{Name: "result", LogicalType: stringType()}},
			rows: [][]any{{explainPlan(inner)}}}
		op.readyAt = now.Add(300 * time.Millisecond)
	case stmtSelect:
		if gw.queries != nil && reFromWord.MatchString(st.text) {
			gw.engineSelect(s, op, st.text, execConfig)
			return
		}
		r, errMsg := gw.constantSelect(st.text)
		if errMsg != "" {
			fail(errMsg)
			return
		}
		op.result = r
		op.readyAt = now.Add(800 * time.Millisecond)
	case stmtInsert, stmtStatementSet:
		inserts := []string{st.text}
		if st.kind == stmtStatementSet {
			inserts = reInsert.FindAllString(st.text, -1)
			if len(inserts) == 0 {
				fail("org.apache.flink.table.api.TableException: Unsupported SQL query! EXECUTE STATEMENT SET only accepts INSERT statements.")
				return
			}
		}
		for _, ins := range inserts {
			if errMsg := s.validate(ins); errMsg != "" {
				fail(errMsg)
				return
			}
		}
		j, err := gw.submit(s, strings.Join(inserts, ";\n"), execConfig, now)
		if err != nil {
			fail(err.Error())
			return
		}
		op.app, op.job = j.app, j
		op.result = &sqlResult{kind: "SUCCESS_WITH_CONTENT", jobID: j.id,
			columns: []column{{Name: "job id", LogicalType: stringType()}}, rows: [][]any{{j.id}}}
	default:
		fail(parseError(st.text))
	}
}

// validate checks that an INSERT's sink and every table it reads exist.
func (s *sqlSession) validate(sql string) string {
	objNotFound := func(name string) string {
		return "org.apache.flink.table.api.ValidationException: SQL validation failed. From line 1, column 1: Object '" + name + "' not found"
	}
	if m := reSink.FindStringSubmatch(sql); m != nil {
		name := unquoteIdent(m[1])
		if _, ok := s.tables[strings.ToLower(name)]; !ok {
			return "org.apache.flink.table.api.ValidationException: Cannot find table '`default_catalog`.`default_database`.`" + name + "`' in any of the catalogs [default_catalog], nor as a temporary table."
		}
	}
	for _, re := range []*regexp.Regexp{reFrom, reLookup} {
		for _, m := range re.FindAllStringSubmatch(sql, -1) {
			name := strings.ToLower(unquoteIdent(m[1]))
			if _, ok := s.tables[name]; !ok && !s.views[name] {
				return objNotFound(unquoteIdent(m[1]))
			}
		}
	}
	return ""
}

var (
	reOptionsHint = regexp.MustCompile(`(?is)\bFROM\s+[\w.` + "`" + `]+\s*/\*\+\s*OPTIONS\s*\((.*?)\)\s*\*/`)
	reHintKV      = regexp.MustCompile(`'((?:[^']|'')*)'\s*=\s*'((?:[^']|'')*)'`)
)

func explainPlan(sql string) string {
	src, sink := "source", "sink"
	if m := reFrom.FindStringSubmatch(sql); m != nil {
		src = unquoteIdent(m[1])
	}
	if m := reSink.FindStringSubmatch(sql); m != nil {
		sink = unquoteIdent(m[1])
	}
	scan := "TableSourceScan(table=[[default_catalog, default_database, " + src + "]], fields=[*])"
	hints := ""
	if m := reOptionsHint.FindStringSubmatch(sql); m != nil {
		// Flink's planner prints a scan's dynamic options (RelHint) in the
		// abstract syntax tree, values as written.
		var kvs []string
		for _, kv := range reHintKV.FindAllStringSubmatch(m[1], -1) {
			kvs = append(kvs, strings.ReplaceAll(kv[1], "''", "'")+"="+strings.ReplaceAll(kv[2], "''", "'"))
		}
		hints = ", hints=[[[OPTIONS inheritPath:[] options:{" + strings.Join(kvs, ", ") + "}]]]"
	}
	return "== Abstract Syntax Tree ==\n" +
		"LogicalSink(table=[default_catalog.default_database." + sink + "], fields=[*])\n" +
		"+- LogicalProject(*)\n   +- LogicalTableScan(table=[[default_catalog, default_database, " + src + "]]" + hints + ")\n\n" +
		"== Optimized Physical Plan ==\n" +
		"Sink(table=[default_catalog.default_database." + sink + "], fields=[*])\n+- Calc(select=[*])\n   +- " + scan + "\n\n" +
		"== Optimized Execution Plan ==\n" +
		"Sink(table=[default_catalog.default_database." + sink + "], fields=[*])\n+- Calc(select=[*])\n   +- " + scan + "\n"
}

// constantSelect evaluates SELECT of literals, e.g. SELECT 1, 'a' AS b.
func (gw *sqlGateway) constantSelect(sql string) (*sqlResult, string) {
	m := reSelect.FindStringSubmatch(sql)
	if m == nil || reFromWord.MatchString(sql) {
		return nil, "org.apache.flink.table.api.TableException: sim: only SELECT of constants (no FROM) is simulated; a streaming query would need a running job."
	}
	r := &sqlResult{kind: "SUCCESS_WITH_CONTENT", query: true, jobID: hex32(gw.rng)}
	row := []any{}
	for i, expr := range splitTopLevel(m[1]) {
		expr = strings.TrimSpace(expr)
		name := fmt.Sprintf("EXPR$%d", i)
		if k := strings.LastIndex(strings.ToUpper(expr), " AS "); k > 0 {
			name = strings.Trim(strings.TrimSpace(expr[k+4:]), "`")
			expr = strings.TrimSpace(expr[:k])
		}
		var v any
		var lt map[string]any
		switch up := strings.ToUpper(expr); {
		case up == "TRUE" || up == "FALSE":
			v, lt = up == "TRUE", map[string]any{"type": "BOOLEAN", "nullable": false}
		case up == "NULL":
			v, lt = nil, map[string]any{"type": "NULL", "nullable": true}
		case strings.HasPrefix(expr, "'") && strings.HasSuffix(expr, "'") && len(expr) >= 2:
			s := strings.ReplaceAll(expr[1:len(expr)-1], "''", "'")
			v, lt = s, map[string]any{"type": "CHAR", "nullable": false, "length": max(len(s), 1)}
		default:
			if n, err := strconv.ParseInt(expr, 10, 32); err == nil {
				v, lt = n, map[string]any{"type": "INTEGER", "nullable": false}
			} else if f, err := strconv.ParseFloat(expr, 64); err == nil {
				scale := 0
				if i := strings.Index(expr, "."); i >= 0 {
					scale = len(expr) - i - 1
				}
				v, lt = f, map[string]any{"type": "DECIMAL", "nullable": false, "precision": len(strings.Trim(strings.ReplaceAll(expr, ".", ""), "-")), "scale": scale}
			} else {
				return nil, "org.apache.flink.table.api.ValidationException: sim: cannot evaluate expression " + expr + " (only literals are simulated)"
			}
		}
		r.columns = append(r.columns, column{Name: name, LogicalType: lt})
		row = append(row, v)
	}
	r.rows = [][]any{row}
	return r, ""
}

// splitTopLevel splits on commas outside quotes and parentheses.
func splitTopLevel(s string) []string {
	var out []string
	depth, quote, start := 0, false, 0
	for i, r := range s {
		switch {
		case r == '\'':
			quote = !quote
		case quote:
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// submit deploys a job for an INSERT as Flink's executor would for
// the session's execution.target.
func (gw *sqlGateway) submit(s *sqlSession, sql string, execConfig map[string]string, now time.Time) (*job, error) {
	conf := cloneMap(s.props)
	for k, v := range execConfig {
		conf[k] = v
	}
	kafka := map[string]bool{}
	for k, t := range s.tables {
		if t.kafka {
			kafka[k] = true
		}
	}
	sink := "sink"
	if m := reSink.FindStringSubmatch(sql); m != nil {
		sink = unquoteIdent(m[1])
	}
	spec := jobSpec{
		name:             firstNonEmpty(conf["pipeline.name"], "insert-into_default_catalog.default_database."+sink),
		sql:              sql,
		config:           conf,
		restorePath:      firstNonEmpty(conf["execution.state-recovery.path"], conf["execution.savepoint.path"]),
		allowNonRestored: conf["execution.state-recovery.ignore-unclaimed-state"] == "true" || conf["execution.savepoint.ignore-unclaimed-state"] == "true",
		kafkaTables:      kafka,
	}
	if p, err := strconv.Atoi(conf["parallelism.default"]); err == nil && p > 0 {
		spec.parallelism = p
	}
	switch target := conf["execution.target"]; target {
	case ModePerJob, ModeApplication:
		a, err := gw.yarn.newApp(now, SubmitRequest{Mode: target, Name: firstNonEmpty(conf["yarn.application.name"], conf["pipeline.name"]),
			Queue: conf["yarn.application.queue"], Tags: splitList(conf["yarn.tags"]), Config: conf})
		if err != nil {
			return nil, fmt.Errorf("org.apache.flink.client.deployment.ClusterDeploymentException: Could not deploy Yarn job cluster.\nCaused by: %v", err)
		}
		return gw.flink.addJob(a, spec, now), nil
	case ModeSession:
		id := conf["yarn.application.id"]
		if id == "" {
			return nil, fmt.Errorf("java.lang.IllegalStateException: No cluster id was specified. Please specify a cluster to which you would like to connect (yarn.application.id).")
		}
		a := gw.yarn.get(id, now)
		if a == nil || a.mode != ModeSession || a.state != yarnRunning {
			state := "unknown"
			if a != nil {
				state = a.state
			}
			return nil, fmt.Errorf("org.apache.flink.client.deployment.ClusterRetrieveException: Couldn't retrieve Yarn cluster\nCaused by: The Yarn application %s is not a running Flink session cluster (state %s).", id, state)
		}
		return gw.flink.addJob(a, spec, now), nil
	default:
		return nil, fmt.Errorf("java.lang.IllegalStateException: sim: execution.target %q is not simulated; use %s, %s or %s", target, ModePerJob, ModeApplication, ModeSession)
	}
}

func capitalize(s string) string {
	s = strings.ToLower(s)
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
