package scheduler

import (
	"reflect"
	"strings"
	"testing"
)

func TestExpandRunTemplate(t *testing.T) {
	v := runVars{
		Target: "yarn-per-job", Name: "orders enrich; rm -rf /", Tags: []string{"palink", "palink-job-j1"},
		Parallelism: 4, Restore: "hdfs:///sp/savepoint-1", Class: "com.acme.Main", Jar: "/jobs/a.jar",
		Args: []string{"--topic", "a b"}, Properties: map[string]string{"taskmanager.numberOfTaskSlots": "2"},
	}
	got, err := expandRunTemplate(DefaultRunTemplate, v)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"flink", "run", "-t", "yarn-per-job", "-d",
		"-Dparallelism.default=4", "-Dpipeline.name=orders enrich; rm -rf /",
		"-Dtaskmanager.numberOfTaskSlots=2", "-Dyarn.application.name=orders enrich; rm -rf /",
		"-Dyarn.tags=palink,palink-job-j1",
		"-s", "hdfs:///sp/savepoint-1", "-c", "com.acme.Main", "/jobs/a.jar", "--topic", "a b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("argv\n got %q\nwant %q", got, want)
	}
	v.Restore = ""
	got, _ = expandRunTemplate(`/opt/flink/bin/flink run -m yarn-cluster -ynm '{name}' {restore} {jar}`, v)
	if strings.Join(got, "|") != "/opt/flink/bin/flink|run|-m|yarn-cluster|-ynm|orders enrich; rm -rf /|/jobs/a.jar" {
		t.Errorf("custom template: %q", got)
	}
	if _, err := expandRunTemplate("flink run {jarr}", v); err == nil || !strings.Contains(err.Error(), "unknown placeholder {jarr}") {
		t.Errorf("unknown placeholder: %v", err)
	}
	if _, err := expandRunTemplate("flink run 'x", v); err == nil {
		t.Error("unclosed quote accepted")
	}
}

func TestExpandPythonTemplate(t *testing.T) {
	v := runVars{Target: "yarn-per-job", Name: "wc", Args: []string{"--input", "x"},
		Python: &pythonVars{Script: "/tmp/p/wc.py", Files: []string{"lib.zip", "util.py"}, Requirements: "req.txt#cache",
			Archives: []string{"venv.zip#venv"}, Executable: "venv/bin/python", ClientExec: "/opt/pyflink/bin/python3"}}
	got, err := expandRunTemplate(DefaultPythonRunTemplate, v)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"flink", "run", "-t", "yarn-per-job", "-d", "-Dpipeline.name=wc", "-Dyarn.application.name=wc",
		"-py", "/tmp/p/wc.py", "-pyfs", "lib.zip,util.py", "-pyreq", "req.txt#cache",
		"-pyarch", "venv.zip#venv", "-pyexec", "venv/bin/python", "-pyclientexec", "/opt/pyflink/bin/python3", "--input", "x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("argv\n got %q\nwant %q", got, want)
	}
	v.Python = &pythonVars{Module: "jobs.wc", Files: []string{"jobs.zip"}}
	got, _ = expandRunTemplate(DefaultPythonRunTemplate, v)
	if strings.Join(got[7:], "|") != "-pym|jobs.wc|-pyfs|jobs.zip|--input|x" {
		t.Errorf("module: %q", got)
	}
	v.Python = nil
	if _, err := expandRunTemplate(DefaultPythonRunTemplate, v); err == nil || !strings.Contains(err.Error(), "{python} is for PyFlink jobs") {
		t.Errorf("{python} without a program: %v", err)
	}
}

// What `flink run -t yarn-per-job -d` prints (log lines of
// YarnClusterDescriptor and the CLI's own line).
const flinkRunOutput = `2026-11-30 03:12:01,112 INFO  org.apache.flink.yarn.YarnClusterDescriptor                  [] - No path for the flink jar passed. Using the location of class org.apache.flink.yarn.YarnClusterDescriptor to locate the jar
2026-11-30 03:12:01,515 INFO  org.apache.flink.yarn.YarnClusterDescriptor                  [] - Submitting application master application_1732000000000_0042
2026-11-30 03:12:01,733 INFO  org.apache.hadoop.yarn.client.api.impl.YarnClientImpl        [] - Submitted application application_1732000000000_0042
2026-11-30 03:12:01,734 INFO  org.apache.flink.yarn.YarnClusterDescriptor                  [] - Waiting for the cluster to be allocated
2026-11-30 03:12:09,862 INFO  org.apache.flink.yarn.YarnClusterDescriptor                  [] - YARN application has been deployed successfully.
2026-11-30 03:12:09,863 INFO  org.apache.flink.yarn.YarnClusterDescriptor                  [] - The Flink YARN session cluster has been started in detached mode.
2026-11-30 03:12:09,864 INFO  org.apache.flink.yarn.YarnClusterDescriptor                  [] - Found Web Interface nm-7.prod:37411 of application 'application_1732000000000_0042'.
Job has been submitted with JobID 3f9c0d1e2b4a5c6d7e8f9a0b1c2d3e4f
`

func TestParseRunOutput(t *testing.T) {
	app, job := parseRunOutput(flinkRunOutput)
	if app != "application_1732000000000_0042" || job != "3f9c0d1e2b4a5c6d7e8f9a0b1c2d3e4f" {
		t.Errorf("parse = %q, %q", app, job)
	}
	app, job = parseRunOutput("Submitted application application_1_0007\n")
	if app != "application_1_0007" || job != "" {
		t.Errorf("application mode = %q, %q", app, job)
	}
	if app, job := parseRunOutput("org.apache.flink.client.program.ProgramInvocationException: boom"); app != "" || job != "" {
		t.Errorf("failure output parsed as %q, %q", app, job)
	}
}
