package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
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
	jar := filepath.Join(t.TempDir(), "mask.jar")
	if err := writeJar(jar, "com/example/Mask.class"); err != nil {
		t.Fatal(err)
	}
	notAJar := writeTemp(t, "log.jar", "PK\x03\x04 not really a jar")
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
		{[]string{"udf", "add", "mask", "--class", "com.example.Mask", "--language", "java", "--jar", notAJar}, notAJar + " is not a jar (zip) file"},
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
	for _, m := range regexp.MustCompile(`"s": ?"([^"]*)"`).FindAllStringSubmatch(out, -1) {
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

// TestUDFFromAProjectArtifact: a function registered from a project is
// created from the project's newest artifact, where the build left it in
// palink's cache, and recorded as name@project:vN; a function whose class
// the artifact lacks fails the deploy naming the function and its line,
// before anything reaches the cluster.
func TestUDFFromAProjectArtifact(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	var (
		mu       sync.Mutex
		received []string
	)
	e := newCLIEnv(t, sim.Options{OnStatement: func(st sim.GatewayStatement) {
		mu.Lock()
		received = append(received, strings.Join(strings.Fields(st.Statement), " "))
		mu.Unlock()
	}}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	repo := bareRepoWithClasses(t, "com/example/Geo.class")
	e.mustRun("project", "add", "udfs", "--repo", repo, "--build", "./build.sh", "--artifact", "out/*.jar")
	e.mustRun("project", "build", "udfs", "-q")
	var arts []model.Artifact
	if err := decodeWire([]byte(e.mustRun("project", "artifacts", "udfs", "-o", "json")), &arts); err != nil || len(arts) != 1 {
		t.Fatalf("artifacts: %v %+v", err, arts)
	}
	e.mustRun("udf", "add", "geo", "--class", "com.example.Geo", "--language", "java", "--project", "udfs")
	e.mustRun("udf", "add", "gone", "--class", "com.example.Gone", "--language", "java", "--project", "udfs")

	ddl := "CREATE TABLE src (id BIGINT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5');\n" +
		"CREATE TABLE snk (id BIGINT, s STRING) WITH ('connector' = 'blackhole');\n"
	e.mustRun("job", "create", "--name", "geo", "--sql", writeTemp(t, "geo.sql", ddl+"INSERT INTO snk SELECT id, geo(s) FROM src;\n"))
	e.mustRun("job", "submit", "geo", "--wait")
	create := "CREATE TEMPORARY FUNCTION `geo` AS 'com.example.Geo' LANGUAGE JAVA USING JAR 'file://" + arts[0].Path + "'"
	mu.Lock()
	seen := slices.Contains(received, create)
	mu.Unlock()
	if !seen {
		t.Errorf("the gateway never received %q", create)
	}
	if out := e.mustRun("job", "history", "geo"); !strings.Contains(out, "injected from the UDF registry: geo@udfs:v1") {
		t.Errorf("job history:\n%s", out)
	}

	e.mustRun("job", "create", "--name", "gone", "--sql", writeTemp(t, "gone.sql", ddl+"INSERT INTO snk\nSELECT id, gone(s) FROM src;\n"))
	_, _ = e.run(ctx, "job", "submit", "gone", "--wait")
	d := e.job("gone")
	if d.Job.State != model.StateDeployFailed || len(d.Commands) == 0 ||
		!strings.Contains(d.Commands[len(d.Commands)-1].Error, "function gone (line 4): class com.example.Gone is not in udfs:v1") {
		t.Errorf("a class the artifact lacks: job %s, commands %+v", d.Job.State, d.Commands)
	}
}

// bareRepoWithClasses makes a bare git repository whose build.sh zips
// META-INF and the given class files (empty) into out/udfs.jar.
func bareRepoWithClasses(t *testing.T, classes ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	work, bare := filepath.Join(root, "work"), filepath.Join(root, "udfs.git")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	files := map[string]string{
		"META-INF/MANIFEST.MF": "Manifest-Version: 1.0\n",
		"build.sh":             "#!/bin/sh\nset -e\nmkdir -p out\ngit archive --format=zip -o out/udfs.jar HEAD META-INF com\n",
	}
	for _, c := range classes {
		files[c] = "\xca\xfe\xba\xbe"
	}
	for name, body := range files {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run(root, "init", "--quiet", "--bare", "--initial-branch=main", bare)
	run(work, "init", "--quiet", "--initial-branch=main")
	run(work, "add", "-A")
	run(work, "commit", "--quiet", "-m", "udfs")
	run(work, "push", "--quiet", bare, "main")
	return bare
}

// writeJar writes a jar (a zip) holding a manifest and the named class
// files, empty: enough for the registry's check and the simulator.
func writeJar(path string, classes ...string) error {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, name := range append([]string{"META-INF/MANIFEST.MF"}, classes...) {
		w, err := z.Create(name)
		if err != nil {
			return err
		}
		body := "\xca\xfe\xba\xbe"
		if strings.HasPrefix(name, "META-INF/") {
			body = "Manifest-Version: 1.0\n"
		}
		if _, err := w.Write([]byte(body)); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
