package scheduler

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/palink/palink/core/catalog"
	"github.com/palink/palink/core/clusters"
	"github.com/palink/palink/model"
	"github.com/palink/palink/yarn"
)

// PyFlink in a session cluster. Flink runs a PyFlink program through its
// client, which compiles it where it runs: there is no REST upload of a
// python program. So palink runs `flink run -t yarn-session
// -Dyarn.application.id=<session> … -py …` here, which attaches to the
// running session and submits the job graph to its JobManager. The job
// gets the command's fixed id ($internal.pipeline.job-id, honoured by the
// session executor), so a resumed command finds the job it submitted.

// pythonSession checks the session cluster and sets the properties that
// attach the client to it.
func (x *execution) pythonSession(ctx context.Context, cl *clusters.Cluster, props map[string]string) (yarn.Application, error) {
	app, err := cl.RM.Application(ctx, cl.Cfg.Deploy.SessionApp)
	if err != nil {
		return yarn.Application{}, fmt.Errorf("session cluster %s: %w", cl.Cfg.Deploy.SessionApp, err)
	}
	if app.State != yarn.AppRunning {
		return yarn.Application{}, fmt.Errorf("session cluster %s is %s, not RUNNING", app.ID, app.State)
	}
	props["yarn.application.id"] = app.ID
	props["$internal.pipeline.job-id"] = fixedJobID(x.id)
	return app, nil
}

// runSessionClient runs the client against the session: the job it
// submitted is the command's fixed id, in the session's application.
func (x *execution) runSessionClient(ctx context.Context, cl *clusters.Cluster, argv []string, app yarn.Application, vars catalog.Resolved) (deployed, error) {
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
	for _, line := range lastLines(text, 5) {
		x.logf(ctx, "flink: %s", vars.Mask(line))
	}
	jid := fixedJobID(x.id)
	_, printed := parseRunOutput(text)
	if runErr != nil {
		if cause := clientCause(text); cause != "" {
			return deployed{}, fmt.Errorf("%s failed: %v: %s", argv[0], runErr, cause)
		}
		return deployed{}, fmt.Errorf("%s failed: %v", argv[0], runErr)
	}
	if printed != "" && printed != jid {
		x.logf(ctx, "the client printed job %s, not the fixed id %s: following what it printed", printed, jid)
		jid = printed
	}
	_ = x.save(ctx, func(c *model.Command) { c.Params.AppID, c.Params.FlinkJobID = app.ID, jid })
	return deployed{app: app, jobID: jid, session: true}, nil
}
