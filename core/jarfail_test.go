package core_test

import (
	"archive/zip"
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

// TestJarJobWhoseClassIsMissingSaysWhy: a JAR job whose entry class is
// not in its jar, or whose jar is gone, fails the way Flink fails it,
// and palink says why: per job, the client's exception fails the deploy;
// in application mode, the cluster comes up and the job ends FAILED with
// YARN's diagnostics holding the ClassNotFoundException.
func TestJarJobWhoseClassIsMissingSaysWhy(t *testing.T) {
	fake, _ := filepath.Abs("testdata/fake-flink")
	for _, mode := range []string{"yarn-per-job", "yarn-application"} {
		t.Run(mode, func(t *testing.T) {
			e := coretest.New(t, sim.Options{}, func(c *clusters.Spec) {
				c.Deploy.Mode = mode
				c.Deploy.JarDeployer = "exec"
				c.Deploy.Command = fake + " run -t {target} -d {dynamic} {restore} -c {class} {jar} {args}"
			})
			jar := filepath.Join(t.TempDir(), "dedup.jar")
			f, _ := os.Create(jar)
			zw := zip.NewWriter(f)
			for _, name := range []string{"META-INF/MANIFEST.MF", "com/acme/Dedup.class"} {
				w, _ := zw.Create(name)
				w.Write([]byte("Manifest-Version: 1.0\n"))
			}
			zw.Close()
			f.Close()
			if _, err := e.Svc.CreateJob(e.Ctx, api.CreateJobRequest{Name: "dedup", Cluster: "sim", Kind: model.KindJAR,
				Spec: model.Spec{JarPath: jar, EntryClass: "com.acme.Dedupe"}}); err != nil {
				t.Fatal(err)
			}
			c := e.Act("dedup", model.CmdSubmit, 0)
			if mode == "yarn-per-job" {
				if c.State != model.CmdFailed || !strings.Contains(c.Error, "The program's entry point class 'com.acme.Dedupe' was not found in the jar file.") ||
					!strings.Contains(c.Error, "(caused by java.lang.ClassNotFoundException: com.acme.Dedupe)") {
					t.Fatalf("per-job submit: %s %q", c.State, c.Error)
				}
				if j := e.Job("dedup"); j.State != model.StateDeployFailed || !strings.Contains(j.Diagnostics, "ClassNotFoundException") {
					t.Errorf("job %s, diagnostics %q", j.State, j.Diagnostics)
				}
				// The jar gone: the client says so.
				_ = os.Remove(jar)
				c = e.Act("dedup", model.CmdSubmit, 0)
				if c.State != model.CmdFailed || !strings.Contains(c.Error, "JAR file does not exist: "+jar) {
					t.Errorf("submit of a missing jar: %s %q", c.State, c.Error)
				}
				return
			}
			if c.State != model.CmdSucceeded {
				t.Fatalf("application-mode submit: %s %s", c.State, c.Error)
			}
			j := e.SyncUntil("dedup", "FAILED", func(j model.Job) bool { return j.State == model.StateFailed })
			if !strings.Contains(j.Diagnostics, "java.lang.ClassNotFoundException: com.acme.Dedupe") {
				t.Errorf("the FAILED job's diagnostics: %q", j.Diagnostics)
			}
		})
	}
}
