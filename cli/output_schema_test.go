package cli

import (
	"bytes"
	"context"
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

var updateSchema = flag.Bool("update-schema", false, "write docs/output.schema.json from the output types")

const schemaFile = "../docs/output.schema.json"

// outputs are what each command writes with -o json or -o yaml.
var outputs = map[string]any{
	"jobs":        []model.Job{},
	"job_show":    api.JobDetail{},
	"job_history": historyOut{},
	"job_create":  model.Job{},
	"job_edit":    model.Spec{},
	// Restore points over time (cli/savepoint.go).
	"job_savepoints":    []model.RestorePoint{},
	"savepoint_dispose": model.RestorePoint{},
	// Projects (cli/project.go).
	"project_add":       model.Project{},
	"project_list":      []model.Project{},
	"project_build":     model.Artifact{},
	"project_artifacts": []model.Artifact{},
	"job_action":        []model.Command{},
	"commands":          []model.Command{},
	"alerts":            []model.Alert{},
	"cluster":           api.ClusterOverview{},
	"cluster_nodes":     []api.ClusterNode{},
	"adopt":             model.Job{},
	"sync_once":         api.SyncStats{},
	"adopt_all":         api.AdoptAllResult{},
	"logs":              api.LogList{},
	"logs_grep":         []grepMatch{},
	"sql_check":         sqlReport{},
	"sql_complete":      sqlCompletion{},
	"store_check":       api.StoreReport{},
	// config check --connect (cli/config.go).
	"config_check_connect": []core.EndpointCheck{},
	// The table catalog (cli/table.go).
	"table_add":    api.TableChange{},
	"table_edit":   api.TableChange{},
	"table_rm":     api.TableChange{},
	"table_show":   api.TableDetail{},
	"table_list":   []model.CatalogTable{},
	"table_import": importOut{},
	// Variables (cli/vars.go): a secret's value masked.
	"var_set":  varView{},
	"var_list": []varView{},
	// The diagnostic commands (cli/diagnose.go); job checkpoints writes
	// job_checkpoint when given a checkpoint, taskmanagers writes
	// taskmanager when given a TaskManager.
	"job_graph": api.JobGraph{},
	// The metric browser's (cli/metrics.go).
	"job_metrics":        api.FlinkMetricList{},
	"job_chart":          []model.MetricChart{},
	"job_vertices":       []api.VertexDetail{},
	"job_checkpoints":    api.CheckpointsView{},
	"job_checkpoint":     api.CheckpointDetail{},
	"job_exceptions":     api.ExceptionHistory{},
	"job_flamegraph":     api.FlameGraph{},
	"job_config":         api.FlinkConfig{},
	"job_container_logs": api.ContainerLogList{},
	"taskmanagers":       api.TaskManagerList{},
	"taskmanager":        api.TaskManagerDetail{},

	// The UDF registry (cli/udf.go).
	"udf_add":  model.UDF{},
	"udf_list": []api.UDFView{},
	"udf_rm":   api.UDFRemoval{},

	// Teams, who one is, and the audit log (cli/team.go).
	"team_list":    []model.Team{},
	"team_add":     model.Team{},
	"team_grant":   model.Team{},
	"team_members": []model.Member{},
	"whoami":       api.Identity{},
	"audit":        []model.AuditEntry{},
}

// schemaOf builds the JSON Schema (2020-12) of the output form, with the
// rules wire follows.
type schemaOf struct {
	defs map[string]any
}

var stringerType = reflect.TypeFor[fmt.Stringer]()

func (s *schemaOf) of(t reflect.Type) any {
	switch {
	case t == timeType:
		return map[string]any{"type": []string{"string", "null"}, "format": "date-time", "description": "RFC 3339; null when not known"}
	case t == durationType:
		return map[string]any{"type": "number", "description": "seconds"}
	case t.Implements(textType) && t.Kind() != reflect.Pointer && t.Kind() != reflect.Struct:
		return map[string]any{"type": "string", "enum": enumNames(t)}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return map[string]any{"anyOf": []any{map[string]any{"type": "null"}, s.of(t.Elem())}}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		name := snake(t.Name())
		if _, ok := s.defs[name]; !ok {
			s.defs[name] = nil // a placeholder against recursion
			props := map[string]any{}
			s.fields(t, props)
			var req []string
			for k := range props {
				req = append(req, k)
			}
			slices.Sort(req)
			s.defs[name] = map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string"}
		}
		return map[string]any{"type": "array", "items": s.of(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": s.of(t.Elem())}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	}
	panic("no schema for " + t.String())
}

func (s *schemaOf) fields(t reflect.Type, props map[string]any) {
	for _, f := range fieldsOf(t) {
		ft := t.FieldByIndex(f.index).Type
		if f.embedded {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			s.fields(ft, props)
			continue
		}
		props[f.name] = s.of(ft)
	}
}

// enumNames lists an enum's names: every small value its String names.
func enumNames(t reflect.Type) []string {
	var out []string
	unnamed := regexp.MustCompile(`\(\d+\)$|^unknown$`)
	for i := range 64 {
		v := reflect.New(t).Elem()
		v.SetInt(int64(i))
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err == nil && !unnamed.Match(b) && !slices.Contains(out, string(b)) {
			out = append(out, string(b))
		}
	}
	return out
}

func outputSchema() map[string]any {
	s := &schemaOf{defs: map[string]any{}}
	for name, v := range outputs {
		s.defs["out_"+name] = s.of(reflect.TypeOf(v))
	}
	return map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$id":     "https://github.com/palink/palink/docs/output.schema.json",
		"title":   "palink's scriptable output (-o json, -o yaml)",
		"description": "What each command writes with -o json or -o yaml, the same locally and through the agent: " +
			"$defs/out_<command> is the document of a command (jobs, job_show, …). Names are snake_case, a time that " +
			"is not known is null, durations are seconds, enums are names, lists are never null. Fields are added " +
			"over time, never renamed or removed without a note in the README.",
		"$defs": s.defs,
	}
}

// TestOutputSchemaIsCurrent: docs/output.schema.json is what the output
// types make (go test ./cli -run TestOutputSchemaIsCurrent -update-schema).
func TestOutputSchemaIsCurrent(t *testing.T) {
	b, err := json.MarshalIndent(outputSchema(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if *updateSchema {
		if err := os.WriteFile(schemaFile, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, err := os.ReadFile(schemaFile)
	if err != nil || !bytes.Equal(old, b) {
		t.Fatalf("%s is not what the output types make: go test ./cli -run TestOutputSchemaIsCurrent -update-schema (%v)", schemaFile, err)
	}
}

// TestJSONOutputFollowsTheSchema runs every -o json command against a
// simulator, first in process and then through an agent, and validates
// each document against docs/output.schema.json.
func TestJSONOutputFollowsTheSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	doc, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(doc)
	doc.Close()
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("output.schema.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	compiled := map[string]*jsonschema.Schema{}
	for name := range outputs {
		if compiled[name], err = c.Compile("output.schema.json#/$defs/out_" + name); err != nil {
			t.Fatal(err)
		}
	}

	// The schema holds: a job with a name that is a number, a state that is
	// no state, or a field of the Go form is not one.
	for _, bad := range []string{`[{"name": 1}]`, `[{"state": "SLEEPING"}]`, `[{"AppID": "x"}]`} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if compiled["jobs"].Validate(v) == nil {
			t.Fatalf("the schema takes %s as a jobs document", bad)
		}
	}

	e := newCLIEnv(t, sim.Options{}, nil)
	e.createJob("orders")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	check := func(where, name string, args ...string) {
		t.Helper()
		out, _ := e.runBoth(ctx, append(args, "-o", "json")...)
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Fatalf("%s: palink %s -o json: not JSON: %v\n%s", where, strings.Join(args, " "), err, out)
		}
		if err := compiled[name].Validate(v); err != nil {
			t.Errorf("%s: palink %s -o json does not follow $defs/out_%s: %v\n%s", where, strings.Join(args, " "), name, err, out)
		}
		if strings.Contains(out, "0001-01-01") {
			t.Errorf("%s: palink %s -o json shows an unknown time as year 1", where, strings.Join(args, " "))
		}
	}
	sqlFile := writeTemp(t, "edit.sql", e2eSQL)
	tableFile := writeTemp(t, "dim.sql", "CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'datagen')")
	insertFile := writeTemp(t, "insert.sql", "CREATE TABLE out_t (id BIGINT, name STRING) WITH ('connector' = 'blackhole');\nINSERT INTO out_t SELECT id, name FROM dim;")
	// What the diagnostic commands name: a checkpoint and a TaskManager.
	var checkpointID, taskManager string
	diagnose := func(where string) {
		check(where, "job_graph", "job", "graph", "orders")
		check(where, "job_vertices", "job", "vertices", "orders")
		check(where, "job_checkpoints", "job", "checkpoints", "orders")
		check(where, "job_checkpoint", "job", "checkpoints", "orders", checkpointID)
		check(where, "job_exceptions", "job", "exceptions", "orders")
		check(where, "job_flamegraph", "job", "flamegraph", "orders", "0", "--wait", "0s")
		check(where, "job_config", "job", "config", "orders")
		check(where, "job_container_logs", "job", "container-logs", "orders")
		check(where, "taskmanagers", "taskmanagers", "orders")
		check(where, "taskmanager", "taskmanagers", "orders", taskManager, "--thread-dump")
	}
	run := func(where string) {
		check(where, "jobs", "jobs")
		check(where, "job_show", "job", "show", "orders")
		check(where, "job_history", "job", "history", "orders")
		check(where, "commands", "commands")
		check(where, "alerts", "alerts")
		check(where, "cluster", "cluster")
		check(where, "cluster_nodes", "cluster", "--nodes")
		check(where, "logs", "logs", "orders")
		check(where, "job_edit", "job", "edit", "orders", "--sql", sqlFile)
		check(where, "sql_check", "sql", "check", sqlFile)
		check(where, "sql_complete", "sql", "complete", sqlFile, "--line", "1", "--col", "1")
		check(where, "table_edit", "table", "edit", "dim", "--sql", tableFile)
		check(where, "table_show", "table", "show", "dim")
		check(where, "table_list", "table", "list")
		check(where, "var_set", "var", "set", "db_pass", "--secret-env", "PALINK_SCHEMA_TEST")
		check(where, "var_list", "var", "list")
		check(where, "sql_check", "sql", "check", insertFile, "--cluster", "sim")
	}
	check("in process", "job_action", "job", "submit", "orders", "--wait")
	check("in process", "sync_once", "sync", "--once")
	check("in process", "store_check", "store", "check")
	check("in process", "table_add", "table", "add", "dim", "--sql", tableFile)
	run("in process")
	e.syncUntil("orders", "RUNNING with a checkpoint", func(j model.Job) bool { return j.State == model.StateRunning && j.LatestCheckpoint != nil })
	var cv api.CheckpointsView
	var tl api.TaskManagerList
	if decodeWire([]byte(e.mustRun("job", "checkpoints", "orders", "-o", "json")), &cv) != nil || len(cv.History) == 0 ||
		decodeWire([]byte(e.mustRun("taskmanagers", "orders", "-o", "json")), &tl) != nil || len(tl.TaskManagers) == 0 {
		t.Fatalf("no checkpoint or TaskManager to name: %+v %+v", cv, tl)
	}
	checkpointID, taskManager = fmt.Sprint(cv.History[0].ID), tl.TaskManagers[0].ID
	diagnose("in process")
	// Savepoints to list and dispose of: the latest one is needed, so
	// three are taken and the two older ones disposed of, one each way.
	for i := 0; i < 3; i++ {
		e.mustRun("job", "savepoint", "orders", "--wait")
	}
	var sps []model.RestorePoint
	if decodeWire([]byte(e.mustRun("job", "savepoints", "orders", "-o", "json")), &sps) != nil || len(sps) < 3 {
		t.Fatalf("savepoints: %+v", sps)
	}
	check("in process", "job_savepoints", "job", "savepoints", "orders")
	repo := bareRepoWithBuild(t)
	check("in process", "project_add", "project", "add", "dedup", "--repo", repo, "--build", "./build.sh", "--artifact", "out/*.jar", "--timeout", "1m")
	check("in process", "project_build", "project", "build", "dedup", "-q")
	check("in process", "project_list", "project", "list")
	check("in process", "project_artifacts", "project", "artifacts", "dedup")
	check("in process", "udf_add", "udf", "add", "mask", "--class", "com.example.Mask", "--language", "java", "--project", "dedup", "--signature", "(STRING) -> STRING")
	check("in process", "udf_list", "udf", "list")
	check("in process", "savepoint_dispose", "savepoint", "dispose", sps[0].Path)

	agentCtx, stopAgent := context.WithCancel(ctx)
	agentDone := make(chan error, 1)
	go func() { _, err := e.run(agentCtx, "agent"); agentDone <- err }()
	defer func() { stopAgent(); <-agentDone }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := e.run(ctx, "sync", "--once"); err != nil && strings.Contains(err.Error(), "an agent runs state sync") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent never answered")
		}
	}
	run("through the agent")
	// The steps since may have taken long enough for the simulated
	// cluster to forget that checkpoint: name its newest.
	if decodeWire([]byte(e.mustRun("job", "checkpoints", "orders", "-o", "json")), &cv) != nil || len(cv.History) == 0 {
		t.Fatalf("no checkpoint to name: %+v", cv)
	}
	checkpointID = fmt.Sprint(cv.History[0].ID)
	diagnose("through the agent")
	check("through the agent", "job_savepoints", "job", "savepoints", "orders")
	check("through the agent", "project_build", "project", "build", "dedup", "--ref", "main")
	check("through the agent", "project_artifacts", "project", "artifacts", "dedup")
	check("through the agent", "udf_list", "udf", "list")
	check("through the agent", "udf_rm", "udf", "rm", "mask")
	check("through the agent", "savepoint_dispose", "savepoint", "dispose", sps[1].Path, "--job", "orders")
	check("through the agent", "store_check", "store", "check")
	check("through the agent", "job_create", "job", "create", "--name", "payments", "--sql", sqlFile)
	check("through the agent", "job_action", "job", "submit", "payments")
	check("through the agent", "table_rm", "table", "rm", "dim")
	pyFile := writeTemp(t, "word_count.py", "from pyflink.table import TableEnvironment\n")
	check("through the agent", "job_create", "job", "create", "--name", "wordcount", "--py", pyFile,
		"--py-files", "hdfs:///py/lib.zip", "--py-requirements", "hdfs:///py/requirements.txt")
	check("through the agent", "job_edit", "job", "edit", "wordcount", "--py", pyFile, "--py-exec", "venv/bin/python3")
}

// bareRepoWithBuild makes a bare git repository whose build.sh writes a
// jar (a zip with a manifest, by git archive) to out/.
func bareRepoWithBuild(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	work, bare := filepath.Join(root, "work"), filepath.Join(root, "dedup.git")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(work, "META-INF"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(work, "META-INF", "MANIFEST.MF"), []byte("Manifest-Version: 1.0\nMain-Class: com.acme.Dedup\n"), 0o644)
	_ = os.WriteFile(filepath.Join(work, "build.sh"), []byte("#!/bin/sh\nset -e\nmkdir -p out\ngit archive --format=zip -o out/dedup.jar HEAD META-INF\necho BUILD SUCCESS\n"), 0o755)
	run(root, "init", "--quiet", "--bare", "--initial-branch=main", bare)
	run(work, "init", "--quiet", "--initial-branch=main")
	run(work, "add", "-A")
	run(work, "commit", "--quiet", "-m", "dedup by event id")
	run(work, "push", "--quiet", bare, "main")
	return bare
}
