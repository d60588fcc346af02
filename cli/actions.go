package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
	"github.com/spf13/cobra"
)

func newActionCmd(g *globals, kind model.CommandKind) *cobra.Command {
	var (
		wait, allowNonRestored, force bool
		restore, claimMode            string
		timeout                       time.Duration
	)
	short := map[model.CommandKind]string{
		model.CmdSubmit:    "Deploy a created job (or one whose deploy failed)",
		model.CmdPause:     "Stop a job with a savepoint (FINISHED)",
		model.CmdKill:      "Kill a job's YARN application, or cancel it in a session cluster (state is NOT saved)",
		model.CmdRestart:   "Start a FINISHED or FAILED job again from its newest savepoint or checkpoint",
		model.CmdSavepoint: "Trigger a savepoint of a running job",
		model.CmdResubmit:  "Deploy the job's current spec again from a restore point you choose",
	}[kind]
	name := strings.ToLower(kind.String())
	cmd := &cobra.Command{
		Use:               name + " JOB…",
		Short:             short,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeJobs(g, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			if timeout > 0 {
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			req := api.ActionRequest{Kind: kind, AllowNonRestoredState: allowNonRestored, Force: force}
			var err error
			if req.ClaimMode, err = model.ParseClaimMode(claimMode); err != nil {
				return fmt.Errorf("--claim-mode: %w (want CLAIM, NO_CLAIM or LEGACY)", err)
			}
			if kind == model.CmdResubmit {
				if restore == "" {
					return errors.New("resubmit needs --restore latest|savepoint|checkpoint|none|PATH")
				}
			}
			if restore != "" {
				if c, err := model.ParseRestoreChoice(restore); err == nil && c != model.RestorePath {
					req.Restore = c
				} else {
					req.Restore, req.RestorePath = model.RestorePath, restore
				}
			}
			e, err := g.openEnv(ctx)
			if err != nil {
				return err
			}
			defer e.Close()
			return runActions(ctx, cmd, e, req, args, wait)
		},
	}
	cmd.Flags().BoolVar(&wait, "wait", false, "wait until the command ends; exit 1 if it failed")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "give up waiting after this long (0: no limit)")
	if kind == model.CmdResubmit || kind == model.CmdRestart {
		usage := "restore point: latest, savepoint, checkpoint, none, or a path"
		if kind == model.CmdRestart {
			usage += " (default latest)"
		}
		cmd.Flags().StringVar(&restore, "restore", "", usage)
		cmd.Flags().StringVar(&claimMode, "claim-mode", "", "who owns the restore point's files: CLAIM, NO_CLAIM or LEGACY (Flink < 2.0) (default: the cluster's)")
		cmd.Flags().BoolVar(&allowNonRestored, "allow-non-restored-state", false, "start even if state of the restore point maps to no operator (-n)")
		cmd.Flags().BoolVar(&force, "force", false, "restore from a point older than savepoints.max_restore_age")
	}
	return cmd
}

// runActions plans every action, shows the plan, asks once when it is
// destructive or bulk, then issues the commands and, in-process, runs them.
func runActions(ctx context.Context, cmd *cobra.Command, e *env, req api.ActionRequest, refs []string, wait bool) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	// On a store on etcd that another palink leads, the leader runs the
	// commands: this palink records them, and waits when asked to.
	elsewhere := leadsElsewhere(ctx, e)
	// On etcd only the leader runs commands: this palink runs the orphans
	// if it comes to lead (below), never beside a leader.
	if e.local != nil && !core.IsEtcdStore(e.path) {
		// No agent runs commands for this store: finish what a palink that
		// died left behind first. A kill supersedes its jobs' orphans
		// instead of resuming them.
		var skip []string
		if req.Kind == model.CmdKill {
			jobs, err := e.svc.ListJobs(ctx, api.JobFilter{})
			if err != nil {
				return err
			}
			for _, j := range jobs {
				if slices.Contains(refs, j.ID) || slices.Contains(refs, j.Name) {
					skip = append(skip, j.ID)
				}
			}
		}
		if err := resumeOrphans(ctx, e, errOut, skip...); err != nil {
			return err
		}
	}
	var plans []api.ActionPlan
	confirm, protected := len(refs) > 1, false
	for _, ref := range refs {
		r := req
		r.JobRef = ref
		p, err := e.svc.Plan(ctx, r)
		if err != nil {
			return err
		}
		if !p.Allowed {
			return exitError{code: exitRefused, msg: fmt.Sprintf("%s %s: %s", strings.ToLower(req.Kind.String()), p.JobName, p.Reason)}
		}
		plans = append(plans, p)
		// The plan says how sure a person must be; a command line names the
		// action already, so it asks for what loses state or is bulk.
		confirm = confirm || p.Confirm >= api.ConfirmDestructive
		protected = protected || p.Confirm == api.ConfirmName
	}
	if !confirm || e.g.yes {
		// No plan is shown: a crash loop is said all the same (the person
		// may know better, but not without being told).
		for _, p := range plans {
			if p.CrashLoop != nil {
				fmt.Fprintf(errOut, "warning: %s %s: %s\n", strings.ToLower(req.Kind.String()), p.JobName, p.CrashLoop.Sentence())
			}
		}
	}
	if confirm && !e.g.yes {
		for _, p := range plans {
			fmt.Fprintf(errOut, "%s %s:\n", req.Kind, p.JobName)
			for _, s := range p.Steps {
				fmt.Fprintln(errOut, "  "+s)
			}
			for _, w := range p.Warnings {
				fmt.Fprintln(errOut, "  ! "+w)
			}
			printArtifactChange(errOut, "  ", p.Artifact)
		}
		if !isTerminal(os.Stdin) {
			return exitError{code: 2, msg: "refusing without confirmation: no terminal to ask on; pass --yes"}
		}
		want := "yes"
		if protected && len(plans) == 1 {
			want = plans[0].JobName
			fmt.Fprintf(errOut, "Cluster is protected: type the job name (%s) to proceed: ", want)
		} else {
			fmt.Fprintf(errOut, "Proceed with %d %s? Type yes: ", len(plans), strings.ToLower(req.Kind.String()))
		}
		line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		if strings.TrimSpace(line) != want {
			return exitError{code: 1, msg: "cancelled"}
		}
	}
	var cmds []model.Command
	for _, p := range plans {
		r := req
		r.JobRef = p.JobID
		c, err := e.svc.Act(ctx, r)
		if err != nil {
			return err
		}
		cmds = append(cmds, c)
		if !e.g.structured() {
			fmt.Fprintf(out, "%s #%d queued for %s\n", c.Kind, c.Seq, p.JobName)
			printArtifactChange(out, "  ", c.Params.Artifact)
		}
	}
	// Without an agent nobody else runs commands: this process does, and
	// reports how they end. With an agent, it runs them; --wait waits.
	if e.local != nil && !elsewhere && wait {
		fmt.Fprintln(errOut, "note: no palink agent runs for this store: this command syncs the job it waits for, but background state sync and the restart policy run only while `palink agent` (or a palink TUI) does")
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	if e.local != nil && !elsewhere {
		// On etcd it campaigns, and runs them only if it leads.
		go func() { done <- runBackground(runCtx, e, core.Commands, "cli", nil) }()
	} else {
		close(done)
		if !wait {
			if e.g.structured() {
				return writeData(out, e.g.output, cmds)
			}
			return nil
		}
	}
	failed := 0
	var ended []model.Command
	for _, c := range cmds {
		final, err := e.svc.WaitCommand(ctx, c.ID)
		if err != nil {
			return fmt.Errorf("wait for %s #%d: %w (it goes on in the background of the next palink run)", c.Kind, c.Seq, err)
		}
		ended = append(ended, final)
		if final.State == model.CmdFailed {
			failed++
		}
		if !e.g.structured() {
			fmt.Fprintf(out, "%s #%d %s", final.Kind, final.Seq, final.State)
			if final.Error != "" {
				fmt.Fprintf(out, ": %s", final.Error)
			} else if n := len(final.Log); n > 0 {
				fmt.Fprintf(out, ": %s", final.Log[n-1].Text)
			}
			fmt.Fprintln(out)
		}
		// A deploy's command ends when YARN took the application; the
		// operator waits for the job to run (or fail).
		if wait && final.State == model.CmdSucceeded && final.Kind.Deploys() {
			j, err := awaitRunning(ctx, e.svc, final.JobID)
			if err != nil {
				return fmt.Errorf("wait for job %s to run: %w", final.JobID, err)
			}
			if !e.g.structured() {
				fmt.Fprintf(out, "%s is %s (%s)\n", j.Name, j.State, dash(j.AppID))
			}
			if j.State != model.StateRunning {
				failed++
			}
		}
	}
	stop()
	<-done
	if e.g.structured() {
		if err := writeData(out, e.g.output, ended); err != nil {
			return err
		}
	}
	if failed > 0 && wait {
		return exitError{code: 1, msg: fmt.Sprintf("%d of %d commands failed", failed, len(cmds))}
	}
	return nil
}

// resumeOrphans runs, in this process, the commands a palink that died left
// behind (queued, or DOING under an expired lease), but those of skipJobs,
// and says what it did on w.
func resumeOrphans(ctx context.Context, e *env, w io.Writer, skipJobs ...string) error {
	orphans, err := e.local.Orphans(ctx)
	if err != nil {
		return err
	}
	n := 0
	for _, c := range orphans {
		if !slices.Contains(skipJobs, c.JobID) {
			n++
			fmt.Fprintf(w, "resuming %s #%d of %s: %s\n", c.Kind, c.Seq, jobName(ctx, e, c.JobID), orphanState(c))
		}
	}
	if n == 0 {
		return nil
	}
	ended, err := e.local.ResumeOrphans(ctx, skipJobs...)
	for _, c := range ended {
		fmt.Fprintf(w, "%s #%d %s", c.Kind, c.Seq, c.State)
		if c.Error != "" {
			fmt.Fprintf(w, ": %s", c.Error)
		} else if len(c.Log) > 0 {
			fmt.Fprintf(w, ": %s", c.Log[len(c.Log)-1].Text)
		}
		fmt.Fprintln(w)
	}
	return err
}

// leadsElsewhere reports whether e opened a store on etcd itself that
// another palink leads: that one runs the commands and state sync.
func leadsElsewhere(ctx context.Context, e *env) bool {
	if e.local == nil || !core.IsEtcdStore(e.path) {
		return false
	}
	l, err := e.local.Leadership(ctx)
	return err == nil && l.Leader != nil && l.Leader.ID != l.Self
}

// noteOrphans tells the user of a read-only look that commands wait for a
// palink to run them, instead of running them behind a read.
func noteOrphans(ctx context.Context, e *env, w io.Writer) {
	if e.local == nil || e.local.ReadOnly() || leadsElsewhere(ctx, e) {
		return
	}
	orphans, err := e.local.Orphans(ctx)
	if err != nil || len(orphans) == 0 {
		return
	}
	c := orphans[0]
	more := ""
	if len(orphans) > 1 {
		more = fmt.Sprintf(" and %d more", len(orphans)-1)
	}
	fmt.Fprintf(w, "note: %s #%d of %s is %s%s; the next action, `palink sync` or `palink agent` resumes it\n",
		c.Kind, c.Seq, jobName(ctx, e, c.JobID), orphanState(c), more)
}

func orphanState(c model.Command) string {
	if c.State == model.CmdUndo {
		return "queued with no palink running it"
	}
	return fmt.Sprintf("orphaned (its palink %s stopped; lease expired %s ago)", c.LeaseOwner, model.Age(time.Since(c.LeaseUntil)))
}

// jobName names a job for a message without syncing it.
func jobName(ctx context.Context, e *env, id string) string {
	jobs, err := e.svc.ListJobs(ctx, api.JobFilter{})
	if err == nil {
		for _, j := range jobs {
			if j.ID == id {
				return j.Name
			}
		}
	}
	return id
}

// awaitRunning syncs the job until it runs, or ends without running (a
// deploy whose job fails at once): what an operator means by waiting for a
// submit, restart or resubmit. It asks the cluster itself, so it needs no
// agent's sync.
func awaitRunning(ctx context.Context, svc api.Service, jobID string) (model.Job, error) {
	wait := 200 * time.Millisecond
	for {
		j, err := svc.SyncJob(ctx, jobID)
		if err != nil && !errors.Is(err, model.ErrUnavailable) && !errors.Is(err, model.ErrTimeout) {
			return j, err
		}
		switch j.State {
		case model.StateRunning, model.StateFailed, model.StateKilled, model.StateFinished, model.StateDeployFailed:
			return j, nil
		}
		select {
		case <-ctx.Done():
			return j, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}
