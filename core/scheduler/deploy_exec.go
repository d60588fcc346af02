package scheduler

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// The exec deployers: JAR and PyFlink jobs started by the cluster's
// `flink run` templates (execcmd.go expands them).

// deployJarExec runs the cluster's `flink run` command template and reads
// the application and job ids from its output.
func (x *execution) deployJarExec(ctx context.Context, cl *clusters.Cluster, j model.Job, spec model.Spec, restore string) (deployed, error) {
	tmpl := cl.Cfg.Deploy.Command
	if tmpl == "" {
		tmpl = DefaultRunTemplate
	}
	vars, err := x.resolveJobVars(ctx, j, spec)
	if err != nil {
		return deployed{}, err
	}
	args, config := substituted(vars, spec.Args, j.Config)
	argv, err := expandRunTemplate(tmpl, runVars{
		Target: cl.Cfg.Deploy.Mode, Name: j.Name, Tags: clusters.SubmissionTags(x.s.storeID, j.ID, x.id),
		Parallelism: j.Parallelism, Queue: cl.Cfg.Deploy.Queue, Restore: restore,
		Class: spec.EntryClass, Jar: spec.JarPath, Args: args, Properties: forced(mergeProps(cl.Cfg.Deploy.Properties, config), cl, cl.ProxyUser(issuerOf(x))),
		ClaimMode: x.claimMode(), AllowNonRestored: x.params().AllowNonRestoredState,
	})
	if err != nil {
		return deployed{}, vars.MaskErr(err)
	}
	d, err := x.runClient(ctx, cl, argv, vars)
	return d, vars.MaskErr(err)
}

// deployPython runs a PyFlink job with the cluster's python run template.
// The entry script is the spec's versioned text, written for this run into
// a directory of its own under its own file name (Flink names the module
// after the file). In application mode the client runs on the cluster, so
// that directory is shipped (yarn.ship-files) and the script named relative
// to it, as Flink's PyFlink deployment docs do. In a shared session
// cluster the client runs here and attaches to the session (`-t
// yarn-session -Dyarn.application.id=…`, pythonSession).
func (x *execution) deployPython(ctx context.Context, cl *clusters.Cluster, j model.Job, spec model.Spec, restore string, session bool) (deployed, error) {
	tmpl := cl.Cfg.Deploy.PythonCommand
	if tmpl == "" {
		tmpl = DefaultPythonRunTemplate
	}
	vars, err := x.resolveJobVars(ctx, j, spec)
	if err != nil {
		return deployed{}, err
	}
	args, config := substituted(vars, spec.Args, j.Config)
	props := forced(mergeProps(cl.Cfg.Deploy.Properties, config), cl, cl.ProxyUser(issuerOf(x)))
	var sessionApp yarn.Application
	if session {
		if sessionApp, err = x.pythonSession(ctx, cl, props); err != nil {
			return deployed{}, fmt.Errorf("PyFlink job %s: %w", j.Name, err)
		}
	}
	py := &pythonVars{Module: spec.PyModule, Files: spec.PyFiles, Requirements: spec.PyRequirements,
		Archives: spec.PyArchives, Executable: spec.PyExecutable, ClientExec: spec.PyClientExecutable}
	if spec.PyModule == "" {
		dir, err := os.MkdirTemp("", "palink-py-")
		if err != nil {
			return deployed{}, fmt.Errorf("write the entry script of %s: %w", j.Name, err)
		}
		defer os.RemoveAll(dir)
		name := filepath.Base(spec.PyFile)
		py.Script = filepath.Join(dir, name)
		if err := os.WriteFile(py.Script, []byte(spec.Python), 0o600); err != nil {
			return deployed{}, fmt.Errorf("write the entry script of %s: %w", j.Name, err)
		}
		if cl.Cfg.Deploy.Mode == "yarn-application" {
			ship := dir
			if prev := props["yarn.ship-files"]; prev != "" {
				ship = prev + ";" + dir
			}
			props["yarn.ship-files"] = ship
			py.Script = filepath.Base(dir) + "/" + name
		}
		x.logf(ctx, "entry script %s (spec v%d, %d bytes)", name, spec.Version, len(spec.Python))
	}
	argv, err := expandRunTemplate(tmpl, runVars{
		Target: cl.Cfg.Deploy.Mode, Name: j.Name, Tags: clusters.SubmissionTags(x.s.storeID, j.ID, x.id),
		Parallelism: j.Parallelism, Queue: cl.Cfg.Deploy.Queue, Restore: restore,
		Args: args, Properties: props, Python: py,
		ClaimMode: x.claimMode(), AllowNonRestored: x.params().AllowNonRestoredState,
	})
	if err != nil {
		return deployed{}, vars.MaskErr(err)
	}
	var d deployed
	if session {
		d, err = x.runSessionClient(ctx, cl, argv, sessionApp, vars)
	} else {
		d, err = x.runClient(ctx, cl, argv, vars)
	}
	return d, vars.MaskErr(err)
}

// runClient runs a `flink run` argv and reads the application and job ids
// from its output. The command log gets the argv and the output with the
// secrets of vars masked.
func (x *execution) runClient(ctx context.Context, cl *clusters.Cluster, argv []string, vars catalog.Resolved) (deployed, error) {
	x.logf(ctx, "running %s", vars.Mask(strings.Join(argv, " ")))
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = clientEnv(cl, cl.ProxyUser(issuerOf(x)))
	var out bytes.Buffer
	// One writer for both, so that exec copies them in one goroutine
	// (two writers over one buffer would race).
	lb := &limitedBuffer{buf: &out, max: 1 << 20}
	cmd.Stdout, cmd.Stderr = lb, lb
	if err := x.s.mayAct(); err != nil {
		return deployed{}, err
	}
	runErr := cmd.Run()
	text := out.String()
	appID, jobID := parseRunOutput(text)
	for _, line := range lastLines(text, 5) {
		x.logf(ctx, "flink: %s", vars.Mask(line))
	}
	if runErr != nil {
		if appID == "" {
			if cause := clientCause(text); cause != "" {
				return deployed{}, fmt.Errorf("%s failed: %v: %s", argv[0], runErr, cause)
			}
			return deployed{}, fmt.Errorf("%s failed: %v", argv[0], runErr)
		}
		x.logf(ctx, "%s exited with %v after submitting %s", argv[0], runErr, appID)
	}
	if appID == "" {
		// Application mode may print the id late or not at all: the tag finds it.
		app, err := x.awaitApp(ctx, cl)
		if err != nil {
			return deployed{}, fmt.Errorf("%s printed no application id: %w", argv[0], err)
		}
		return deployed{app: app, jobID: jobID}, nil
	}
	_ = x.save(ctx, func(c *model.Command) { c.Params.AppID, c.Params.FlinkJobID = appID, jobID })
	app, err := cl.RM.Application(ctx, appID)
	if err != nil {
		return deployed{}, fmt.Errorf("application %s printed by %s: %w", appID, argv[0], err)
	}
	return deployed{app: app, jobID: jobID}, nil
}

// claimMode is the command's claim mode as Flink names it, "" for the
// cluster's default.
func (x *execution) claimMode() string {
	if m := x.params().ClaimMode; m != model.ClaimDefault {
		return m.String()
	}
	return ""
}

func mergeProps(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// limitedBuffer keeps at most max bytes of a process's output.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func lastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	return lines
}
