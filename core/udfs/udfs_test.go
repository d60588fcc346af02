package udfs

import (
	"archive/zip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/flinksql/builtin"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

func openStore(t *testing.T) store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "palink.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

const script = `CREATE TABLE src (id BIGINT, s STRING) WITH ('connector' = 'datagen');
CREATE TABLE snk (id BIGINT, s STRING, g STRING) WITH ('connector' = 'blackhole');
INSERT INTO snk SELECT id, MASK(s), geo(s) FROM src WHERE mask(s) <> '';
`

// TestPlanByFlinkVersion: a script's registered functions are created with
// USING JAR from Flink 1.16 on, and with the jar on pipeline.jars before;
// a python function's file goes on python.files; a project's function
// comes from its pinned artifact, or the newest.
func TestPlanByFlinkVersion(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	dir := t.TempDir()
	py := filepath.Join(dir, "geo.py")
	if err := os.WriteFile(py, []byte("def lookup(s): return s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	r := New(st, now, "ana", false)
	err := st.Update(ctx, func(tx store.Tx) error {
		if err := tx.PutProject(model.Project{Name: "udfs", Repo: "/r", Build: "make", Artifact: "*.jar"}); err != nil {
			return err
		}
		for _, p := range []string{"/cache/udfs-1.jar", "/cache/udfs-2.jar"} {
			if _, err := tx.AddArtifact(model.Artifact{Project: "udfs", SHA256: "x" + p, Path: p}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.AddUDF(ctx, api.AddUDFRequest{UDF: model.UDF{Name: "mask", Class: "com.acme.Mask", Language: model.UDFJava, Project: "udfs"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.AddUDF(ctx, api.AddUDFRequest{UDF: model.UDF{Name: "geo", Class: "geo.lookup", Language: model.UDFPython, PyFile: py}}); err != nil {
		t.Fatal(err)
	}
	plan := func(v builtin.Version) Plan {
		var p Plan
		if err := st.View(ctx, func(tx store.ReadTx) (err error) { p, err = ForScript(tx, script, v); return err }); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := plan(builtin.Version{Major: 1, Minor: 18})
	want := []string{
		"CREATE TEMPORARY FUNCTION `mask` AS 'com.acme.Mask' LANGUAGE JAVA USING JAR 'file:///cache/udfs-2.jar'",
		"CREATE TEMPORARY FUNCTION `geo` AS 'geo.lookup' LANGUAGE PYTHON",
	}
	if !slices.Equal(p.Statements, want) || p.Properties["python.files"] != py || p.Properties["pipeline.jars"] != "" {
		t.Errorf("Flink 1.18: %q %v", p.Statements, p.Properties)
	}
	if got := model.UDFRefs(p.Refs()); got != "mask@udfs:v2, geo@"+py {
		t.Errorf("refs %s", got)
	}
	old := plan(builtin.Version{Major: 1, Minor: 15})
	if old.Properties["pipeline.jars"] != "file:///cache/udfs-2.jar" || old.Properties["pipeline.classpaths"] != "file:///cache/udfs-2.jar" ||
		strings.Contains(old.Statements[0], "USING JAR") {
		t.Errorf("Flink 1.15: %q %v", old.Statements, old.Properties)
	}
	props := map[string]string{"pipeline.jars": "file:///opt/connector.jar"}
	old.AddProperties(props)
	if props["pipeline.jars"] != "file:///opt/connector.jar;file:///cache/udfs-2.jar" {
		t.Errorf("the cluster's own pipeline.jars lost: %v", props)
	}

	// Pinned to v1, the deploy ships v1; a script that creates mask itself
	// gets only geo.
	if _, err := r.AddUDF(ctx, api.AddUDFRequest{UDF: model.UDF{Name: "mask", Class: "com.acme.Mask", Language: model.UDFJava, Project: "udfs", ArtifactVersion: 1}, Replace: true}); err != nil {
		t.Fatal(err)
	}
	if got := model.UDFRefs(plan(builtin.Version{}).Refs()); got != "mask@udfs:v1, geo@"+py {
		t.Errorf("pinned refs %s", got)
	}
	var own Plan
	_ = st.View(ctx, func(tx store.ReadTx) (err error) {
		own, err = ForScript(tx, "CREATE FUNCTION mask AS 'x';\n"+script, builtin.Version{})
		return err
	})
	if got := model.UDFRefs(own.Refs()); got != "geo@"+py {
		t.Errorf("a script that creates mask: %s", got)
	}

	// Registering again without --replace, or a missing version, is refused.
	if _, err := r.AddUDF(ctx, api.AddUDFRequest{UDF: model.UDF{Name: "geo", Class: "geo.lookup", Language: model.UDFPython, PyFile: py}}); !errors.Is(err, model.ErrExists) {
		t.Errorf("a second geo: %v", err)
	}
	if _, err := r.AddUDF(ctx, api.AddUDFRequest{UDF: model.UDF{Name: "m2", Class: "C", Language: model.UDFJava, Project: "udfs", ArtifactVersion: 9}}); !errors.Is(err, model.ErrNotFound) ||
		!strings.Contains(err.Error(), "no artifact v9 (newest: v2)") {
		t.Errorf("a missing artifact version: %v", err)
	}
}

// TestMissingClassRefusesTheDeploy: a jar that lacks the function's class
// refuses the deploy, naming the function, its line and the jar.
func TestMissingClassRefusesTheDeploy(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	jar := filepath.Join(t.TempDir(), "udf.jar")
	f, err := os.Create(jar)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, name := range []string{"META-INF/MANIFEST.MF", "com/acme/Mask.class"} {
		if _, err := zw.Create(name); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r := New(st, time.Now, "ana", false)
	for _, u := range []model.UDF{
		{Name: "mask", Class: "com.acme.Mask", Language: model.UDFJava, Jar: jar},
	} {
		if _, err := r.AddUDF(ctx, api.AddUDFRequest{UDF: u}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.AddUDF(ctx, api.AddUDFRequest{UDF: model.UDF{Name: "nope", Class: "com.acme.Nope", Language: model.UDFJava, Jar: jar}}); err == nil ||
		!strings.Contains(err.Error(), "class com.acme.Nope is not in "+jar) {
		t.Errorf("registering a class the jar lacks: %v", err)
	}
	// A jar rebuilt without a class it had: the deploy finds out.
	if err := st.Update(ctx, func(tx store.Tx) error {
		return tx.PutUDF(model.UDF{Name: "geo", Class: "com.acme.Geo", Language: model.UDFJava, Jar: jar})
	}); err != nil {
		t.Fatal(err)
	}
	plan := func(sql string) error {
		return st.View(ctx, func(tx store.ReadTx) error { _, err := ForScript(tx, sql, builtin.Version{}); return err })
	}
	if err := plan("SELECT mask(s) FROM t"); err != nil {
		t.Errorf("a class the jar holds: %v", err)
	}
	err = plan("SELECT mask(s),\n  geo(s) FROM t")
	if !errors.Is(err, model.ErrNotFound) || !strings.Contains(err.Error(), "function geo (line 2): class com.acme.Geo is not in "+jar) {
		t.Errorf("a class the jar lacks: %v", err)
	}
}

// TestAddRefusesAJarThatIsNotAZip: --jar names a jar, which is a zip
// archive; a file that is not one (a build log, a truncated download
// behind a zip's first bytes) is refused, saying so, and nothing is
// registered.
func TestAddRefusesAJarThatIsNotAZip(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	r := New(st, time.Now, "ana", false)
	dir := t.TempDir()
	for name, content := range map[string]string{
		"notes.jar":     "BUILD SUCCESS\n",
		"truncated.jar": "PK\x03\x04 the rest is missing",
		"empty.jar":     "",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := r.AddUDF(ctx, api.AddUDFRequest{UDF: model.UDF{Name: "mask", Class: "com.acme.Mask", Language: model.UDFJava, Jar: path}})
		if err == nil || !strings.Contains(err.Error(), "add function mask: "+path+" is not a jar (zip) file") {
			t.Errorf("registering %s: %v", name, err)
		}
	}
	var n int
	_ = st.View(ctx, func(tx store.ReadTx) error { us, err := tx.UDFs(); n = len(us); return err })
	if n != 0 {
		t.Errorf("%d functions registered from files that are not jars", n)
	}
}
