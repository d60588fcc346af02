package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/config"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// planted are the values of secret variables, one for each way a secret
// enters palink: an environment variable of the process that deploys, a
// file it reads, a command it runs.
type planted struct{ env, file, cmd string }

// forms are the ways a value can be written out: as it is, JSON-escaped
// (as encoding/json writes it, < > & too), YAML-quoted.
func (p planted) forms() []string {
	var out []string
	for _, v := range []string{p.env, p.file, p.cmd} {
		j, _ := json.Marshal(v)
		out = append(out, v, string(j[1:len(j)-1]), strings.ReplaceAll(v, `"`, `\"`))
	}
	return out
}

// leak is the first form of a planted value text holds, "" if none.
func (p planted) leak(text string) string {
	for _, f := range p.forms() {
		if strings.Contains(text, f) {
			return f
		}
	}
	return ""
}

// outputPath is one command of the CLI as the planting test reads what it
// shows: the invocations that run it, each once per output format.
type outputPath struct {
	runs    [][]string
	formats []string // default: table, wide, json, yaml
	local   bool     // in process only: the agent refuses it (sync)
}

// notRead are the commands the planting test does not run, and why no
// secret can reach what they write. A new command fails the test until it
// is read (secretReads), run while the world is planted (the acts the test
// records), or named here.
var notRead = map[string]string{
	"palink demo":          "its own simulated world and store: no variable of a user's is in it",
	"palink sim":           "serves a simulated cluster; palink's variables never reach it but through a deploy, which the test runs",
	"palink store restore": "replaces the store with a backup file; the test reads the file store backup writes",
	"palink store compact": "forgets subsumed checkpoint records and copies the store page by page; it prints byte and record counts, never a record",
	"palink store migrate": "copies the store record for record into another (the test reads the store, which holds no secret) and prints what it compared",
	"palink table import": "writes a CREATE TABLE from a database's or a topic's schema, which holds no variable; " +
		"a --jdbc URL's password is redacted (join.redactURL)",
	"palink alerts ack":       "prints the alert's rule, job and who acted, never a variable",
	"palink alerts silence":   "prints the alert's rule, job and until when, never a variable",
	"palink alerts unsilence": "prints the alert's rule and job, never a variable",
	"palink serve": "serves the TUI over SSH: each session is the same TUI over the same service, " +
		"whose screens the planting test's TUI tour reads",
}

// secretReads are the commands that show what palink keeps or the
// clusters report, with the jobs and objects the planting test made.
// An argument "{checkpoint}" or "{taskmanager}" is replaced, as the
// command runs, by the newest checkpoint of plant-sql (the cluster forgets
// old ones) or one of its TaskManagers.
func secretReads(sqlFile, goneFile, debugFile, dataFile, outDir, refusedFile string) map[string]outputPath {
	both := func(args ...string) [][]string {
		var out [][]string
		for _, job := range []string{"plant-jar", "plant-sql"} {
			out = append(out, append(slices.Clone(args), job))
		}
		return out
	}
	return map[string]outputPath{
		"palink jobs":               {runs: [][]string{{"jobs"}, {"jobs", "--state", "RUNNING"}}},
		"palink job show":           {runs: both("job", "show")},
		"palink job history":        {runs: both("job", "history")},
		"palink job config":         {runs: both("job", "config")},
		"palink job graph":          {runs: [][]string{{"job", "graph", "plant-sql"}}},
		"palink job metrics":        {runs: [][]string{{"job", "metrics", "plant-sql"}, {"job", "metrics", "plant-sql", "--vertex", "0", "--get", "numRecordsOutPerSecond,0.numRecordsOut"}}},
		"palink job chart":          {runs: both("job", "chart")},
		"palink job vertices":       {runs: [][]string{{"job", "vertices", "plant-sql"}}},
		"palink job checkpoints":    {runs: [][]string{{"job", "checkpoints", "plant-sql"}, {"job", "checkpoints", "plant-sql", "{checkpoint}"}}},
		"palink job exceptions":     {runs: both("job", "exceptions")},
		"palink job flamegraph":     {runs: [][]string{{"job", "flamegraph", "plant-sql", "0", "--wait", "0s"}}},
		"palink job container-logs": {runs: both("job", "container-logs")},
		"palink job savepoints":     {runs: both("job", "savepoints")},
		"palink taskmanagers":       {runs: [][]string{{"taskmanagers", "plant-sql"}, {"taskmanagers", "plant-sql", "{taskmanager}", "--thread-dump"}}},
		"palink logs":               {runs: both("logs")},
		"palink commands":           {runs: [][]string{{"commands"}, {"commands", "--job", "plant-jar"}}},
		"palink cluster":            {runs: [][]string{{"cluster"}, {"cluster", "sim"}}},
		"palink alerts":             {runs: [][]string{{"alerts"}}},
		"palink var list":           {runs: [][]string{{"var", "list"}, {"var", "list", "--cluster", "sim"}}},
		"palink table list":         {runs: [][]string{{"table", "list"}}},
		"palink table show":         {runs: [][]string{{"table", "show", "dim"}}},
		"palink udf list":           {runs: [][]string{{"udf", "list"}}},
		"palink project list":       {runs: [][]string{{"project", "list"}}},
		// The audit log holds every action's outcome, failures with their causes.
		"palink audit":             {runs: [][]string{{"audit"}, {"audit", "--since", "1h"}}},
		"palink whoami":            {runs: [][]string{{"whoami"}}},
		"palink agent status":      {runs: [][]string{{"agent", "status"}}},
		"palink team list":         {runs: [][]string{{"team", "list"}}},
		"palink team members":      {runs: [][]string{{"team", "members", "plant-team"}}},
		"palink project artifacts": {runs: [][]string{{"project", "artifacts", "dedup"}}},
		"palink sync":              {runs: [][]string{{"sync", "--once"}}, local: true},
		"palink store check":       {runs: [][]string{{"store", "check"}}},
		"palink config check":      {runs: [][]string{{"config", "check"}}},
		"palink sql check":         {runs: [][]string{{"sql", "check", sqlFile, "--cluster", "sim", "--remote"}, {"sql", "check", goneFile, "--cluster", "sim", "--remote"}}, formats: []string{outTable, outJSON, outYAML}},
		"palink sql fmt":           {runs: [][]string{{"sql", "fmt", sqlFile}}},
		"palink sql complete":      {runs: [][]string{{"sql", "complete", sqlFile, "--line", "4", "--col", "1"}}, formats: []string{outTable, outJSON, outYAML}},
		"palink debug": {formats: []string{outTable, outJSON}, runs: [][]string{
			{"debug", debugFile, "--cluster", "sim", "--data", "src=" + dataFile},
			{"debug", debugFile, "--cluster", "sim", "--data", "src=" + dataFile, "--out", filepath.Join(outDir, "rows.jsonl")},
			{"debug", refusedFile, "--cluster", "sim", "--data", "src=" + dataFile},
		}},
	}
}

// TestPlantedSecretInNoOutput plants three secret variables (from an
// environment variable, a file, a command), deploys a JAR job through the
// exec deployer and a SQL job through the gateway that use them (in their
// arguments, connector options, OPTIONS hints and Flink config), explains
// and debugs a script that uses them, and then reads every output: each
// command of the CLI in every -o format, in process and through the agent,
// the TUI's screens (every one its command line opens), the files --out
// and store backup write, the store, the agent's and the CLI's log. No
// planted value is in any of them, as it is or as JSON or YAML escapes
// it. Every command of the CLI is read, run while planted, or named in
// notRead with the reason: a new command fails the test until it is.
func TestPlantedSecretInNoOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := t.TempDir()
	p := planted{env: `pl4nt<env>&"Q7x"`, file: "pl4nt-file-Z3k", cmd: "pl4nt_cmd_W9m"}
	t.Setenv("PALINK_TEST_PLANT_ENV", p.env)
	secretFile := filepath.Join(dir, "secret")
	if err := os.WriteFile(secretFile, []byte(p.file+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// The exec deployer's client: the fake `flink` of core's tests, whose
	// output ends with its arguments as a client logging to the console
	// prints them, and which, when it fails, names them in the program's
	// exception as a program refusing its arguments does.
	fake, err := filepath.Abs("../core/testdata/fake-flink")
	if err != nil {
		t.Fatal(err)
	}
	client := filepath.Join(dir, "flink")
	if err := os.WriteFile(client, []byte("#!/bin/sh\n"+fake+" \"$@\"; rc=$?\necho \"INFO CliFrontend - Program Arguments: $*\"\n"+
		"[ $rc -eq 0 ] || echo \"Caused by: java.lang.IllegalArgumentException: cannot run with $*\" >&2\nexit $rc\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "palink.log")
	e := newCLIEnv(t, sim.Options{}, func(c *config.Config) {
		c.Clusters[0].Deploy.Command = client + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
		c.Clusters[0].Deploy.Env = map[string]string{"FAKE_FLINK_RM": c.Clusters[0].RM[0]}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	var (
		mu    sync.Mutex
		shown strings.Builder     // everything palink printed
		ran   = map[string]bool{} // command paths run
	)
	pathOf := func(args []string) string {
		c, _, err := newRootCmd().Find(args)
		if err != nil {
			t.Fatalf("palink %s: %v", strings.Join(args, " "), err)
		}
		return c.CommandPath()
	}
	// run runs one invocation and keeps all it printed, its error too.
	run := func(args ...string) (string, error) {
		t.Helper()
		out, err := e.run(ctx, append([]string{"--log-file", logFile}, args...)...)
		mu.Lock()
		defer mu.Unlock()
		ran[pathOf(args)] = true
		shown.WriteString(out)
		if err != nil {
			shown.WriteString(err.Error())
		}
		if f := p.leak(out); f != "" {
			t.Errorf("palink %s shows %q:\n%s", strings.Join(args, " "), f, out)
		}
		if err != nil {
			if f := p.leak(err.Error()); f != "" {
				t.Errorf("palink %s fails showing %q: %v", strings.Join(args, " "), f, err)
			}
		}
		return out, err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := run(args...)
		if err != nil {
			t.Fatalf("palink %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}

	// The variables: a secret each way, and a plain one.
	must("var", "set", "s_env", "--secret-env", "PALINK_TEST_PLANT_ENV")
	must("var", "set", "s_file", "--secret-file", secretFile)
	// The command's line does not hold the value (a line is shown, the
	// value never).
	must("var", "set", "s_cmd", "--secret-cmd", "echo "+base64.StdEncoding.EncodeToString([]byte(p.cmd))+" | base64 -d")
	must("var", "set", "topic", "orders", "--cluster", "sim")
	must("var", "set", "gone", "x")
	must("var", "rm", "gone")

	// A catalog table whose options hold a secret.
	tableFile := writeTemp(t, "dim.sql", "CREATE TABLE dim (id BIGINT, name STRING) WITH ('connector' = 'jdbc',\n"+
		"  'url' = 'jdbc:mysql://db:3306/shop', 'table-name' = 'dim', 'username' = 'ops', 'password' = '${s_file}')")
	must("table", "add", "dim", "--sql", tableFile)
	must("table", "edit", "dim", "--sql", tableFile, "--note", "same, again")

	// The SQL job: secrets in connector options and an OPTIONS hint (the
	// only places a secret belongs), its Flink config, a catalog table.
	sqlText := "CREATE TABLE src (id BIGINT, pw STRING, pt AS PROCTIME()) WITH ('connector' = 'kafka', 'topic' = '${topic}', 'format' = 'json',\n" +
		"  'properties.bootstrap.servers' = 'kafka:9092', 'properties.sasl.jaas.config' = 'PlainLoginModule required password=\"${s_env}\";',\n" +
		"  'properties.ssl.truststore.password' = '${s_file}');\n" +
		"CREATE TABLE snk (id BIGINT, pw STRING, name STRING) WITH ('connector' = 'print', 'print-identifier' = 'out-${s_cmd}');\n" +
		"INSERT INTO snk SELECT s.id, s.pw, d.name FROM src /*+ OPTIONS('properties.ssl.key.password' = '${s_cmd}') */ AS s\n" +
		"LEFT JOIN dim FOR SYSTEM_TIME AS OF s.pt AS d ON s.id = d.id;\n"
	sqlFile := writeTemp(t, "plant.sql", sqlText)
	must("job", "create", "--name", "plant-sql", "--sql", sqlFile, "--set", "env.java.opts=-Dtoken=${s_cmd}",
		"--set", "pipeline.global-job-parameters.api-key=${s_env}")
	must("job", "edit", "plant-sql", "--sql", sqlFile, "--note", "again")
	// A team that owns the cluster, so that its members and the teams are read.
	must("team", "add", "plant-team", "--owns", "sim")
	must("team", "grant", "plant-team", "alice", "operator")

	// The JAR job, deployed by the exec deployer: secrets in its arguments
	// and its Flink config.
	jar := filepath.Join(dir, "dedup.jar")
	writeTestJar(t, jar)
	must("job", "create", "--name", "plant-jar", "--jar", jar, "--class", "com.acme.Dedup",
		"--set", "env.java.opts=-Dfile=${s_file}", "--", "--env", "${s_env}", "--file=${s_file}", "--cmd", "${s_cmd}")

	// A project and a UDF, so that their listings are read too.
	repo := bareRepoWithBuild(t)
	must("project", "add", "dedup", "--repo", repo, "--build", "./build.sh", "--artifact", "out/*.jar", "--timeout", "1m")
	must("project", "build", "dedup", "-q")
	must("udf", "add", "mask", "--class", "com.acme.Mask", "--language", "java", "--jar", jar, "--signature", "(STRING) -> STRING")

	// Deploy, act, and make the exec deployer fail once (its error quotes
	// the client's output).
	must("job", "submit", "plant-sql", "--wait", "--timeout", "2m")
	must("job", "submit", "plant-jar", "--wait", "--timeout", "2m")
	e.syncUntil("plant-sql", "RUNNING with a checkpoint", func(j model.Job) bool { return j.State == model.StateRunning && j.LatestCheckpoint != nil })
	e.syncUntil("plant-jar", "RUNNING", func(j model.Job) bool { return j.State == model.StateRunning })
	must("job", "savepoint", "plant-sql", "--wait", "--timeout", "2m")
	must("job", "savepoint", "plant-sql", "--wait", "--timeout", "2m")
	must("job", "pause", "plant-jar", "--wait", "--timeout", "2m")
	must("job", "restart", "plant-jar", "--wait", "--timeout", "2m")
	must("job", "kill", "plant-jar", "--yes", "--wait", "--timeout", "2m")
	must("job", "resubmit", "plant-jar", "--restore", "none", "--yes", "--wait", "--timeout", "2m")
	var sps []model.RestorePoint
	if err := decodeWire([]byte(must("job", "savepoints", "plant-sql", "-o", "json")), &sps); err != nil || len(sps) < 2 {
		t.Fatalf("savepoints: %+v %v", sps, err)
	}
	must("savepoint", "dispose", sps[0].Path, "--job", "plant-sql")
	gone := filepath.Join(dir, "gone.jar")
	writeTestJar(t, gone)
	must("job", "create", "--name", "plant-broken", "--jar", gone, "--class", "com.acme.Dedup", "--", "--cmd", "${s_cmd}")
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if out, err := run("job", "submit", "plant-broken", "--wait", "--timeout", "2m"); err == nil {
		t.Errorf("submit of a job whose jar is gone: %s", out)
	}
	// A SQL job whose sink is named after a secret (check warns of it):
	// the gateway's refusal quotes the name, in the deploy's error and in
	// an explain's.
	goneFile := writeTemp(t, "gone.sql", "CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen');\nINSERT INTO gone_${s_cmd} SELECT id FROM src;\n")
	must("job", "create", "--name", "plant-gone", "--sql", goneFile)
	if out, err := run("job", "submit", "plant-gone", "--wait", "--timeout", "2m"); err == nil {
		t.Errorf("submit of a job whose sink does not exist: %s", out)
	}
	app, err := e.sim.Submit(ctx, sim.SubmitRequest{Mode: sim.ModePerJob, Name: "unmanaged"})
	if err != nil {
		t.Fatal(err)
	}
	must("adopt", app.AppID, "--name", "adopted")
	backup := filepath.Join(dir, "backup.db")
	must("store", "backup", backup)

	// What the diagnostic commands name: the newest checkpoint (the
	// cluster forgets old ones) and a TaskManager.
	named := func() (checkpoint, taskManager string) {
		var cv struct {
			History []struct{ ID int64 }
		}
		var tl struct {
			TaskManagers []struct{ ID string }
		}
		if decodeWire([]byte(must("job", "checkpoints", "plant-sql", "-o", "json")), &cv) != nil || len(cv.History) == 0 ||
			decodeWire([]byte(must("taskmanagers", "plant-sql", "-o", "json")), &tl) != nil || len(tl.TaskManagers) == 0 {
			t.Fatalf("no checkpoint or TaskManager to name: %+v %+v", cv, tl)
		}
		return fmt.Sprint(cv.History[0].ID), tl.TaskManagers[0].ID
	}

	// A debug run of the job on data that holds the secrets' strings (the
	// secrets stand in options only), and one that uses a secret in an
	// expression, which is refused.
	dataFile := writeTemp(t, "src.jsonl", dataLine(1, p.env)+dataLine(2, p.file)+dataLine(3, "was "+p.cmd))
	debugFile := writeTemp(t, "debug.sql", strings.Replace(sqlText, "LEFT JOIN dim FOR SYSTEM_TIME AS OF s.pt AS d ON s.id = d.id", "LEFT JOIN (SELECT 1 AS id, 'n' AS name) AS d ON s.id = d.id", 1))
	refusedFile := writeTemp(t, "refused.sql", strings.Replace(sqlText, "SELECT s.id, s.pw,", "SELECT s.id, UPPER(SUBSTRING('${s_env}', 1, 6)),", 1))
	outDir := filepath.Join(dir, "out")
	if err := os.MkdirAll(outDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := run("debug", refusedFile, "--cluster", "sim", "--data", "src="+dataFile); err == nil ||
		!strings.Contains(err.Error(), "refused.sql:5:47: error: a debug run refuses secret variable ${s_env}") {
		t.Errorf("debug with a secret in an expression: %v", err)
	}

	reads := secretReads(sqlFile, goneFile, debugFile, dataFile, outDir, refusedFile)
	read := func(where string, formats []string) {
		for path, o := range reads {
			if o.local && where != "in process" {
				continue
			}
			fs := o.formats
			if fs == nil {
				fs = []string{outTable, outWide, outJSON, outYAML}
			}
			for _, args := range o.runs {
				for _, f := range fs {
					if !slices.Contains(formats, f) {
						continue
					}
					args := slices.Clone(args)
					for i, a := range args {
						switch a {
						case "{checkpoint}":
							args[i], _ = named()
						case "{taskmanager}":
							_, args[i] = named()
						}
					}
					// The run itself checks what it printed; a read may
					// fail (a refused debug run): its error is checked too.
					if _, err := run(append(args, "-o", f)...); err != nil && !strings.Contains(strings.Join(args, " "), "refused.sql") && !strings.Contains(strings.Join(args, " "), "gone.sql") {
						t.Errorf("%s: %s: palink %s -o %s: %v", where, path, strings.Join(args, " "), f, err)
					}
				}
			}
		}
	}
	read("in process", []string{outTable, outWide, outJSON, outYAML})
	tourTUI(t, e, p, ctx)
	ran["palink"] = true

	// Through the agent: the same reads, and the agent's own log.
	agentCtx, stopAgent := context.WithCancel(ctx)
	agentDone := make(chan error, 1)
	go func() {
		_, err := e.run(agentCtx, "--log-file", logFile, "agent")
		agentDone <- err
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := e.run(ctx, "sync", "--once"); err != nil && strings.Contains(err.Error(), "an agent runs state sync") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent never answered")
		}
	}
	read("through the agent", []string{outTable, outJSON})
	// A JobManager that stops answering for a while: the agent's state
	// sync logs it, so that its log has records to read.
	if err := e.sim.SetFaults(sim.Faults{Per: map[sim.Kind]sim.WireFaults{sim.KindJM: {ErrorRate: 1}}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if b, _ := os.ReadFile(logFile); bytes.Contains(b, []byte("JobManager unreachable")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent never logged the JobManager that did not answer")
		}
	}
	if err := e.sim.SetFaults(sim.Faults{}); err != nil {
		t.Fatal(err)
	}
	must("job", "kill", "plant-sql", "--yes", "--wait", "--timeout", "2m")
	must("udf", "rm", "mask")
	must("table", "rm", "dim")
	stopAgent()
	<-agentDone

	// Every command was read or run, or is named with the reason it
	// cannot show a secret.
	var missing []string
	walkCommands(newRootCmd(), func(c *cobra.Command) {
		path := c.CommandPath()
		_, isRead := reads[path]
		_, exempt := notRead[path]
		switch {
		case path == "palink agent":
			// Run above, its log read below.
		case isRead && exempt:
			t.Errorf("%s is both read and exempt", path)
		case !ran[path] && !exempt:
			missing = append(missing, path)
		}
	})
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("commands neither read nor run with the planted secrets, nor named in notRead with a reason:\n%s", strings.Join(missing, "\n"))
	}
	for path := range reads {
		if !ran[path] {
			t.Errorf("%s is listed as read but never ran", path)
		}
	}

	// The files palink wrote: --out's, the backup, the store, the log.
	files, _ := filepath.Glob(filepath.Join(outDir, "*"))
	if len(files) == 0 {
		t.Error("debug --out wrote nothing")
	}
	files = append(files, backup, filepath.Join(filepath.Dir(e.config), "palink.db"), logFile)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if l := p.leak(string(b)); l != "" {
			t.Errorf("%s holds %q", filepath.Base(f), l)
		}
	}

	// The test looked where the values would have been: the masks show.
	all := shown.String()
	for _, want := range []string{"--file=" + model.Masked, "Program Arguments: run", "options:{properties.ssl.key.password=" + model.Masked + "}",
		"cannot run with run", "gone_" + model.Masked, "-Dtoken=${s_cmd}"} {
		if !strings.Contains(all, want) {
			t.Errorf("no output shows %q: the test did not look where the values would be", want)
		}
	}
}

// walkCommands calls fn for every runnable command under c, c too.
func walkCommands(c *cobra.Command, fn func(*cobra.Command)) {
	if c.Runnable() && !c.HasSubCommands() || c.RunE != nil && !c.HasSubCommands() || c.Parent() == nil {
		fn(c)
	}
	for _, s := range c.Commands() {
		if s.Name() == "help" || s.Name() == "completion" || s.Hidden {
			continue
		}
		walkCommands(s, fn)
	}
}

func dataLine(id int, pw string) string {
	b, _ := json.Marshal(map[string]any{"id": id, "pw": pw})
	return string(b) + "\n"
}

// writeTestJar writes a jar: a zip with a manifest and the classes the
// test's jobs and functions name.
func writeTestJar(t *testing.T, path string) {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, err := z.Create("META-INF/MANIFEST.MF")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write([]byte("Manifest-Version: 1.0\nMain-Class: com.acme.Dedup\n"))
	for _, class := range []string{"com/acme/Dedup.class", "com/acme/Mask.class"} {
		w, err := z.Create(class)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte{0xca, 0xfe, 0xba, 0xbe})
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}
