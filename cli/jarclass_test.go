package cli

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palink/palink/yarn/sim"
)

// TestJarJobTakesItsClassFromTheManifest: a JAR job from a project made
// without --class runs the class its jar's manifest names (Main-Class, as
// flink run reads it), and palink says which it found; a jar whose
// manifest names none is refused with what to give.
func TestJarJobTakesItsClassFromTheManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a project")
	}
	e := newCLIEnv(t, sim.Options{}, nil)
	repo := bareRepoWithBuild(t) // its jar's manifest: Main-Class: com.acme.Dedup
	e.mustRun("project", "add", "dedup", "--repo", repo, "--build", "./build.sh", "--artifact", "out/*.jar")
	e.mustRun("project", "build", "dedup", "-q")

	out := e.mustRun("job", "create", "--name", "dedup", "--project", "dedup", "--", "--topic", "payments")
	if !strings.Contains(out, "entry class com.acme.Dedup, from the jar's manifest (Main-Class)") {
		t.Fatalf("job create --project without --class:\n%s", out)
	}
	d := e.job("dedup")
	if d.Spec.EntryClass != "com.acme.Dedup" || d.Spec.EntryClassFrom != "Main-Class" || strings.Join(d.Spec.Args, " ") != "--topic payments" {
		t.Fatalf("the job's spec: %+v", d.Spec)
	}
	// --class still wins.
	out = e.mustRun("job", "edit", "dedup", "--project", "dedup", "--class", "com.acme.Other")
	if d := e.job("dedup"); d.Spec.EntryClass != "com.acme.Other" || d.Spec.EntryClassFrom != "" || strings.Contains(out, "manifest") {
		t.Fatalf("job edit --class: %+v\n%s", d.Spec, out)
	}

	// A jar of its own, whose manifest names Flink's program-class.
	jar := filepath.Join(t.TempDir(), "wc.jar")
	writeManifestJar(t, jar, "Manifest-Version: 1.0\r\nprogram-class: org.apache.flink.examples.java.wordcount.Word\r\n Count\r\nMain-Class: x.Y\r\n")
	out = e.mustRun("job", "create", "--name", "wc", "--jar", jar)
	if !strings.Contains(out, "entry class org.apache.flink.examples.java.wordcount.WordCount, from the jar's manifest (program-class)") {
		t.Fatalf("job create --jar without --class:\n%s", out)
	}
	bare := filepath.Join(t.TempDir(), "bare.jar")
	writeManifestJar(t, bare, "Manifest-Version: 1.0\n")
	if _, err := e.run(context.Background(), "job", "create", "--name", "bare", "--jar", bare); err == nil ||
		!strings.Contains(err.Error(), "names no program-class or Main-Class: give --class") {
		t.Fatalf("a jar whose manifest names no class: %v", err)
	}
}

// writeManifestJar writes a jar holding only a manifest.
func writeManifestJar(t *testing.T, path, manifest string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	w, err := z.Create("META-INF/MANIFEST.MF")
	if err == nil {
		_, err = w.Write([]byte(manifest))
	}
	if err == nil {
		err = z.Close()
	}
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err != nil {
		t.Fatal(err)
	}
}
