package sim

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeJar writes a jar holding the given classes (com.acme.Dedup →
// com/acme/Dedup.class) and a manifest naming main.
func writeJar(t *testing.T, main string, classes ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("META-INF/MANIFEST.MF")
	fmt.Fprintf(w, "Manifest-Version: 1.0\r\nMain-Class: %s\r\n", main)
	for _, c := range classes {
		w, _ := zw.Create(strings.ReplaceAll(c, ".", "/") + ".class")
		w.Write([]byte{0xca, 0xfe, 0xba, 0xbe})
	}
	_ = zw.Close()
	return b.Bytes()
}

// TestJarProgramThatCannotStart: as Flink, a per-job submission whose jar
// is missing or lacks the entry class fails in the client and deploys
// nothing; an application cluster comes up and deregisters FAILED with
// the exception as YARN's diagnostics; a session's jars/run answers 400.
func TestJarProgramThatCannotStart(t *testing.T) {
	c := startCluster(t, fastOptions())
	dir := t.TempDir()
	jarPath := filepath.Join(dir, "dedup.jar")
	if err := os.WriteFile(jarPath, writeJar(t, "com.acme.Dedup", "com.acme.Dedup", "com.acme.Window"), 0o644); err != nil {
		t.Fatal(err)
	}

	_, err := c.Submit(t.Context(), SubmitRequest{Name: "gone", Jar: filepath.Join(dir, "gone.jar"), EntryClass: "com.acme.Dedup"})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "JAR file does not exist: "+filepath.Join(dir, "gone.jar")) ||
		!strings.Contains(err.Error(), "java.io.FileNotFoundException") {
		t.Errorf("per-job, missing jar: %v", err)
	}
	_, err = c.Submit(t.Context(), SubmitRequest{Name: "typo", Jar: jarPath, EntryClass: "com.acme.Dedupe"})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "entry point class 'com.acme.Dedupe' was not found in the jar file") ||
		!strings.Contains(err.Error(), "Caused by: java.lang.ClassNotFoundException: com.acme.Dedupe") {
		t.Errorf("per-job, missing class: %v", err)
	}
	if apps := c.Apps(); len(apps) != 0 {
		t.Errorf("a program that cannot start deployed %d applications", len(apps))
	}
	// The classes it has run, by name or by the manifest.
	for _, class := range []string{"com.acme.Window", ""} {
		if out, err := c.Submit(t.Context(), SubmitRequest{Name: "ok" + class, Jar: jarPath, EntryClass: class}); err != nil || out.JobID == "" {
			t.Errorf("entry %q: %+v %v", class, out, err)
		}
	}

	out, err := c.Submit(t.Context(), SubmitRequest{Name: "app-typo", Mode: ModeApplication, Jar: jarPath, EntryClass: "com.acme.Nope"})
	if err != nil || out.AppID == "" || out.JobID != "" {
		t.Fatalf("application mode submits, and runs no job: %+v %v", out, err)
	}
	var a App
	eventually(t, "the application cluster to fail", func() bool { a, _ = c.App(out.AppID); return a.FinalStatus == "FAILED" })
	if a.State != "FINISHED" || len(a.Jobs) != 0 || !strings.Contains(a.Diagnostics, "java.lang.ClassNotFoundException: com.acme.Nope") {
		t.Errorf("failed application: %s/%s jobs %d diagnostics %q", a.State, a.FinalStatus, len(a.Jobs), a.Diagnostics)
	}
	if rm := rmApp(t, c, out.AppID); !strings.Contains(rm.Diagnostics, "entry point class 'com.acme.Nope' was not found") {
		t.Errorf("the RM's diagnostics: %q", rm.Diagnostics)
	}

	sess, _ := c.Submit(t.Context(), SubmitRequest{Mode: ModeSession})
	eventually(t, "session RUNNING", func() bool { a, _ = c.App(sess.AppID); return a.JMAddress != "" })
	jm := "http://" + a.JMAddress
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("jarfile", "dedup.jar")
	fw.Write(writeJar(t, "com.acme.Dedup", "com.acme.Dedup"))
	mw.Close()
	var up struct {
		Filename string `json:"filename"`
	}
	req, _ := http.NewRequestWithContext(t.Context(), "POST", jm+"/jars/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&up)
	resp.Body.Close()
	if err != nil || up.Filename == "" {
		t.Fatalf("upload: %d %v", resp.StatusCode, err)
	}
	id := filepath.Base(up.Filename)
	r := mustJSON(t, "POST", jm+"/jars/"+id+"/run", map[string]any{"entryClass": "com.acme.Nope"}, 400, nil)
	if !strings.Contains(string(r.body), "ClassNotFoundException: com.acme.Nope") {
		t.Errorf("jars/run of a missing class: %s", r)
	}
	mustJSON(t, "POST", jm+"/jars/"+id+"/run", map[string]any{}, 200, nil)
}
