package core_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/core/internal/coretest"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestJarJobVariablesAndSecretCommand: a JAR job's program arguments and
// Flink config may write ${name}: the deploy gives `flink run` the values
// (a secret read by running its command), while the command log shows the
// secret masked; a secret whose command fails refuses the deploy, naming
// the variable and never what the command printed.
func TestJarJobVariablesAndSecretCommand(t *testing.T) {
	const secret = "s3cr3t-from-cmd-5e1d"
	fake, err := filepath.Abs("testdata/fake-flink")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "argv")
	wrapper := filepath.Join(dir, "flink")
	// The wrapper ends with the program arguments, as a client whose log
	// goes to the console prints them (CliFrontend's "Program Arguments"):
	// the output lines the command log keeps quote the secret.
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+argsFile+"\n"+fake+" \"$@\"; rc=$?\n"+
		"echo \"INFO  org.apache.flink.client.cli.CliFrontend [] - Program Arguments: $*\"\nexit $rc\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) {
		c.Deploy.JarDeployer = "exec"
		c.Deploy.Command = wrapper + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
	})
	jar := filepath.Join(dir, "dedup.jar")
	if err := os.WriteFile(jar, []byte("PK\x03\x04"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, v := range []model.Variable{
		{Name: "topic", Value: "payments"},
		{Cluster: "sim", Name: "db_pass", SecretCmd: "printf '%s\\n' " + secret},
		{Name: "broken", SecretCmd: "echo half-" + secret + "; exit 3"},
	} {
		if _, err := e.Svc.SetVar(e.Ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "dedup", Cluster: "sim", Kind: model.KindJAR,
		Spec:   model.Spec{JarPath: jar, EntryClass: "com.acme.Dedup", Args: []string{"--topic", "${topic}", "--password=${db_pass}"}},
		Config: map[string]string{"env.java.opts": "-Dtopic=${topic}"}, Parallelism: 1}); err != nil {
		t.Fatal(err)
	}
	c := e.Act("dedup", model.CmdSubmit, 0)
	if c.State != model.CmdSucceeded {
		t.Fatalf("submit: %s %s\n%v", c.State, c.Error, c.Log)
	}
	argv, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"--topic\npayments\n", "--password=" + secret + "\n", "-Denv.java.opts=-Dtopic=payments\n"} {
		if !strings.Contains(string(argv), want) {
			t.Errorf("flink run was not given %q:\n%s", want, argv)
		}
	}
	logged := strings.Join(coretest.LogTexts(c), "\n")
	if strings.Contains(logged, secret) || !strings.Contains(logged, "running "+wrapper) ||
		!strings.Contains(logged, "flink: INFO  org.apache.flink.client.cli.CliFrontend [] - Program Arguments: run") ||
		strings.Count(logged, "--password="+model.Masked) != 2 {
		t.Errorf("the command log shows the secret, or not masked:\n%s", logged)
	}
	vs, _ := e.Svc.Vars(e.Ctx, "")
	for _, v := range vs {
		if strings.Contains(v.Value+v.Shown(), secret) {
			t.Errorf("variable %s keeps or shows the secret: %+v", v.Name, v)
		}
	}

	// A secret whose command fails refuses the deploy; what it printed is
	// nowhere.
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "other", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{JarPath: jar, EntryClass: "com.acme.Dedup", Args: []string{"${broken}"}}, Parallelism: 1}); err != nil {
		t.Fatal(err)
	}
	// Defined, its command not run yet: the plan allows it, the deploy fails.
	if p, err := e.Svc.Plan(e.Ctx, api.ActionRequest{JobRef: "other", Kind: model.CmdSubmit}); err != nil || !p.Allowed {
		t.Fatalf("plan of a job whose secret command fails: %+v %v", p, err)
	}
	c = e.Act("other", model.CmdSubmit, 0)
	all := c.Error + strings.Join(coretest.LogTexts(c), "\n")
	if c.State != model.CmdFailed || !strings.Contains(c.Error, "secret variable broken: command echo failed (exit status 3)") || strings.Contains(all, secret) {
		t.Errorf("a failing secret command: %s %q\n%s", c.State, c.Error, all)
	}

	// An undefined variable in a JAR job's arguments refuses the deploy
	// before it is queued, saying where.
	if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "typo", Cluster: "sim", Kind: model.KindJAR,
		Spec: model.Spec{JarPath: jar, EntryClass: "com.acme.Dedup", Args: []string{"--topic", "${topik}"}}, Parallelism: 1}); err != nil {
		t.Fatal(err)
	}
	p, err := e.Svc.Plan(e.Ctx, api.ActionRequest{JobRef: "typo", Kind: model.CmdSubmit})
	if err != nil || p.Allowed || !strings.Contains(p.Reason, "argument 2: variable ${topik} is not defined for this cluster") {
		t.Errorf("plan of a JAR job with an undefined variable: %+v %v", p, err)
	}
}
