package cli

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn/sim"
)

// TestUDFInjectedAtSubmit: a SQL job that calls a registered function it
// does not create validates at sql check --cluster, is refused by the
// validator when the function is not registered, and deploys with the
// function created first: the simulated SQL Gateway's session receives
// CREATE TEMPORARY FUNCTION … USING JAR, and the command records name@jar
// (job history). The registry refuses to remove a function a job calls,
// naming the job, unless forced.
func TestUDFInjectedAtSubmit(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	var (
		mu       sync.Mutex
		received []sim.GatewayStatement
	)
	e := newCLIEnv(t, sim.Options{OnStatement: func(st sim.GatewayStatement) {
		mu.Lock()
		received = append(received, st)
		mu.Unlock()
	}}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	jar := writeTemp(t, "mask.jar", "PK\x03\x04 not really a jar")
	jobFile := writeTemp(t, "job.sql", "CREATE TABLE src (id BIGINT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5');\n"+
		"CREATE TABLE snk (id BIGINT, s STRING) WITH ('connector' = 'blackhole');\n"+
		"INSERT INTO snk\nSELECT id, mask(s) FROM src;\n")

	// Unregistered: the check names the call's line:col.
	if out, err := e.run(ctx, "sql", "check", jobFile, "--cluster", "sim"); err == nil || !strings.Contains(out, "4:12") || !strings.Contains(out, "unknown function 'mask'") {
		t.Errorf("sql check of an unregistered function: %v\n%s", err, out)
	}
	// Bad registrations say what is wrong.
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"udf", "add", "mask", "--class", "com.example.Mask", "--language", "cobol", "--jar", jar}, "want java, scala or python"},
		{[]string{"udf", "add", "mask", "--class", "com.example.Mask", "--language", "java"}, "exactly one of --project, --jar or --py"},
		{[]string{"udf", "add", "mask", "--class", "com.example.Mask", "--language", "java", "--jar", jar + ".missing"}, "is not a file"},
		{[]string{"udf", "add", "mask", "--class", "com.example.Mask", "--language", "java", "--project", "nope"}, "project nope"},
		{[]string{"udf", "add", "mask", "--class", "com.example.Mask", "--language", "java", "--jar", jar, "--signature", "STRING"}, "want (TYPE, …) -> TYPE"},
	} {
		if _, err := e.run(ctx, bad.args...); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want an error saying %q", strings.Join(bad.args, " "), err, bad.want)
		}
	}
	if out := e.mustRun("udf", "add", "mask", "--class", "com.example.Mask", "--language", "java", "--jar", jar, "--signature", "(STRING) -> STRING"); !strings.Contains(out, "function mask: java com.example.Mask from "+jar) {
		t.Errorf("udf add said %q", out)
	}
	if out, err := e.run(ctx, "sql", "check", jobFile, "--cluster", "sim"); err != nil {
		t.Errorf("sql check of a registered function: %v\n%s", err, out)
	}

	// A local debug run cannot load it: it names the UDF and the flag,
	// and runs with an expression standing in for it.
	if _, err := e.run(ctx, "debug", jobFile, "--cluster", "sim"); err == nil || !strings.Contains(err.Error(), "4:12") ||
		!strings.Contains(err.Error(), "registered UDF mask (java com.example.Mask") || !strings.Contains(err.Error(), "--udf-stand-in 'mask(a)=…'") {
		t.Errorf("debug without a stand-in: %v", err)
	}
	rows := writeTemp(t, "src.jsonl", `{"id": 1, "s": "alice"}`+"\n"+`{"id": 2, "s": "bob"}`+"\n")
	out, errOut := e.runBoth(ctx, "debug", jobFile, "--cluster", "sim", "--udf-stand-in", "mask(s)=UPPER(s)", "--data", "src="+rows, "-o", "json")
	if !strings.Contains(errOut, "stand-in for this run: mask(s)=UPPER(s)") {
		t.Errorf("debug with a stand-in: stdout\n%s\nstderr\n%s", out, errOut)
	}
	var vals []string
	for _, m := range regexp.MustCompile(`"s": "([^"]*)"`).FindAllStringSubmatch(out, -1) {
		vals = append(vals, m[1])
	}
	if !slices.Equal(vals, []string{"ALICE", "BOB"}) {
		t.Errorf("debug with a stand-in wrote s = %q, want ALICE and BOB:\n%s", vals, out)
	}

	// Submit: the gateway's session creates the function before the job.
	e.mustRun("job", "create", "--name", "masked", "--sql", jobFile)
	if out := e.mustRun("udf", "list"); !strings.Contains(out, "mask") || !strings.Contains(out, "(STRING) -> STRING") || !strings.Contains(out, "masked") {
		t.Errorf("udf list:\n%s", out)
	}
	e.mustRun("job", "submit", "masked", "--wait")
	var got []string
	mu.Lock()
	for _, st := range received {
		if st.Session == "palink-masked" {
			got = append(got, strings.Join(strings.Fields(st.Statement), " "))
		}
	}
	mu.Unlock()
	create := "CREATE TEMPORARY FUNCTION `mask` AS 'com.example.Mask' LANGUAGE JAVA USING JAR 'file://" + jar + "'"
	ci, ii := slices.Index(got, create), slices.IndexFunc(got, func(s string) bool { return strings.HasPrefix(s, "INSERT INTO snk") })
	if ci < 0 || ii < 0 || ci > ii {
		t.Errorf("the gateway session did not create the function before the job; it received:\n%s", strings.Join(got, "\n"))
	}
	cs := e.job("masked").Commands
	if len(cs) == 0 || model.UDFRefs(cs[len(cs)-1].Params.UDFs) != "mask@"+jar {
		t.Fatalf("the submit recorded UDFs %+v", cs)
	}
	if out := e.mustRun("job", "history", "masked"); !strings.Contains(out, "SUBMIT injected from the UDF registry: mask@"+jar) {
		t.Errorf("job history:\n%s", out)
	}

	// Removal is refused while the job calls it, naming the job.
	if _, err := e.run(ctx, "udf", "rm", "mask"); err == nil || !strings.Contains(err.Error(), "masked") || !strings.Contains(err.Error(), "--force") {
		t.Errorf("udf rm of a function in use: %v", err)
	}
	if out := e.mustRun("udf", "rm", "mask", "--force"); !strings.Contains(out, "masked") {
		t.Errorf("udf rm --force said %q", out)
	}
}
