package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/model"
	"github.com/palink/palink/store"
)

// signalContext is cancelled on SIGINT/SIGTERM (or when parent is), so
// that long CLI operations stop cleanly.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	if parent == nil {
		parent = context.Background()
	}
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

func newJobsCmd(g *globals) *cobra.Command {
	var states []string
	cmd := &cobra.Command{
		Use:     "jobs",
		Short:   "List jobs across clusters",
		Example: "  palink jobs\n  palink jobs --state FAILED -o wide\n  palink jobs --cluster prod -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				f := core.JobFilter{Cluster: g.cluster}
				for _, s := range states {
					st, err := model.ParseJobState(s)
					if err != nil {
						return err
					}
					f.States = append(f.States, st)
				}
				jobs, err := e.svc.ListJobs(ctx, f)
				if err != nil {
					return err
				}
				noteOrphans(ctx, e, cmd.ErrOrStderr())
				return printJobs(cmd.OutOrStdout(), g.output, jobs)
			})
		},
	}
	cmd.Flags().StringSliceVar(&states, "state", nil, "only jobs in these states (RUNNING, FAILED, …)")
	return cmd
}

func printJobs(w io.Writer, format string, jobs []core.JobView) error {
	switch format {
	case "json":
		out := make([]model.Job, len(jobs))
		for i, j := range jobs {
			out[i] = j.Job
		}
		return writeJSON(w, out)
	case "table", "wide":
	default:
		return fmt.Errorf("unknown output format %q: want table, wide or json", format)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if format == "wide" {
		fmt.Fprintln(tw, "ID\tNAME\tKIND\tCLUSTER\tSTATE\tAPP\tFLINK JOB\tUP\tCKPT\tRESTARTS\tPENDING\tDRIFT")
	} else {
		fmt.Fprintln(tw, "NAME\tKIND\tCLUSTER\tSTATE\tAPP\tUP\tCKPT")
	}
	for _, j := range jobs {
		up := "-"
		if j.State == model.StateRunning && !j.StartedAt.IsZero() {
			up = since(j.StartedAt)
		}
		ckpt := "-"
		if j.LatestCheckpoint != nil {
			ckpt = since(j.LatestCheckpoint.Time)
		}
		app := dash(j.AppID)
		if format == "wide" {
			pending, drift := "-", "-"
			if j.Pending != nil {
				pending = fmt.Sprintf("%s #%d %s", j.Pending.Kind, j.Pending.Seq, j.Pending.State)
			}
			if j.Drift != nil {
				drift = fmt.Sprintf("expected %s, saw %s", j.Drift.Expected, j.Drift.Observed)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", j.ID, j.Name, j.Kind, j.Cluster, j.State, app,
				dash(j.FlinkJobID), up, ckpt, j.PlatformRestarts, pending, drift)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", j.Name, j.Kind, j.Cluster, j.State, app, up, ckpt)
		}
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func newJobCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "job", Short: "Create, inspect and act on one job"}
	cmd.AddCommand(newJobCreateCmd(g), newJobShowCmd(g), newJobHistoryCmd(g), newJobEditCmd(g))
	for _, k := range []model.CommandKind{model.CmdSubmit, model.CmdPause, model.CmdKill, model.CmdRestart, model.CmdSavepoint, model.CmdResubmit} {
		cmd.AddCommand(newActionCmd(g, k))
	}
	return cmd
}

func newJobCreateCmd(g *globals) *cobra.Command {
	var (
		name, sqlFile, jarFile, class, note string
		parallelism                         int
		props                               map[string]string
	)
	cmd := &cobra.Command{
		Use:   "create --name NAME (--sql FILE | --jar FILE --class CLASS) [-- ARGS…]",
		Short: "Create a job (it is not started: use `palink job submit`)",
		Example: "  palink job create --name orders-enrich --cluster prod --sql orders.sql\n" +
			"  palink job create --name dedup --jar dedup.jar --class com.acme.Dedup -- --topic payments",
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			req := core.CreateJobRequest{Name: name, Parallelism: parallelism, Config: props}
			switch {
			case sqlFile != "" && jarFile != "":
				return errors.New("give either --sql or --jar, not both")
			case sqlFile != "":
				b, err := os.ReadFile(sqlFile)
				if err != nil {
					return err
				}
				req.Kind, req.Spec = model.KindSQL, model.Spec{SQL: string(b), Note: note}
				if len(args) > 0 {
					return errors.New("program arguments are for JAR jobs")
				}
			case jarFile != "":
				if class == "" {
					return errors.New("a JAR job needs --class (its entry class)")
				}
				if _, err := os.Stat(jarFile); err != nil {
					return err
				}
				req.Kind, req.Spec = model.KindJAR, model.Spec{JarPath: jarFile, EntryClass: class, Args: args, Note: note}
			default:
				return errors.New("give --sql FILE or --jar FILE --class CLASS")
			}
			e, err := g.openEnv(ctx)
			if err != nil {
				return err
			}
			defer e.Close()
			req.Cluster, err = pickCluster(e, g.cluster)
			if err != nil {
				return err
			}
			j, err := e.svc.CreateJob(ctx, req)
			if err != nil {
				return err
			}
			if g.output == "json" {
				return writeJSON(cmd.OutOrStdout(), j)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created job %s (%s) on %s; start it with: palink job submit %s\n", j.Name, j.ID, j.Cluster, j.Name)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "name", "", "job name (unique)")
	f.StringVar(&sqlFile, "sql", "", "Flink SQL script")
	f.StringVar(&jarFile, "jar", "", "job jar")
	f.StringVar(&class, "class", "", "entry class of the jar")
	f.StringVar(&note, "note", "", "a note for the first spec version")
	f.IntVar(&parallelism, "parallelism", 0, "default parallelism (0: the cluster's)")
	f.StringToStringVar(&props, "set", nil, "Flink setting for this job, key=value (repeatable)")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

// pickCluster is --cluster, or the only configured cluster.
func pickCluster(e *env, flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if len(e.cfg.Clusters) == 1 {
		return e.cfg.Clusters[0].Name, nil
	}
	var names []string
	for _, c := range e.cfg.Clusters {
		names = append(names, c.Name)
	}
	return "", fmt.Errorf("several clusters are configured (%s): choose one with --cluster", strings.Join(names, ", "))
}

func newJobShowCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "show JOB",
		Short: "Show a job in depth (syncs it first)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				if _, err := e.svc.SyncJob(ctx, args[0]); err != nil && !isNotFound(err) {
					fmt.Fprintln(cmd.ErrOrStderr(), "sync:", err)
				}
				d, err := e.svc.Job(ctx, args[0])
				if err != nil {
					return err
				}
				if g.output == "json" {
					return writeJSON(cmd.OutOrStdout(), d)
				}
				printDetail(cmd.OutOrStdout(), d)
				return nil
			})
		},
	}
}

func printDetail(w io.Writer, d core.JobDetail) {
	j := d.Job
	fmt.Fprintf(w, "%s  %s  %s · %s\n", j.Name, j.State, j.Cluster, j.Kind)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "id\t%s\n", j.ID)
	fmt.Fprintf(tw, "spec\tv%d\n", j.SpecVersion)
	fmt.Fprintf(tw, "application\t%s\n", dash(j.AppID))
	fmt.Fprintf(tw, "flink job\t%s %s\n", dash(j.FlinkJobID), j.FlinkState)
	fmt.Fprintf(tw, "tracking url\t%s\n", dash(j.TrackingURL))
	fmt.Fprintf(tw, "jobmanager\t%s\n", dash(j.JMAddress))
	if j.RestoredFrom != "" {
		fmt.Fprintf(tw, "restored from\t%s\n", j.RestoredFrom)
	}
	if j.LatestCheckpoint != nil {
		fmt.Fprintf(tw, "latest checkpoint\t%s ago\t%s\n", since(j.LatestCheckpoint.Time), j.LatestCheckpoint.Path)
	}
	if j.LatestSavepoint != nil {
		fmt.Fprintf(tw, "latest savepoint\t%s ago\t%s\n", since(j.LatestSavepoint.Time), j.LatestSavepoint.Path)
	}
	if j.Drift != nil {
		fmt.Fprintf(tw, "DRIFT\texpected %s, cluster says %s (since %s)\n", j.Drift.Expected, j.Drift.Observed, j.Drift.Since.Format(time.TimeOnly))
	}
	if j.Diagnostics != "" {
		fmt.Fprintf(tw, "diagnostics\t%s\n", firstLine(j.Diagnostics))
	}
	fmt.Fprintf(tw, "platform restarts\t%d\n", j.PlatformRestarts)
	tw.Flush()
	if d.LiveError != "" {
		fmt.Fprintf(w, "\nlive: %s\n", d.LiveError)
	}
	if len(d.Events) > 0 {
		fmt.Fprintln(w, "\nTimeline")
		start := max(0, len(d.Events)-10)
		for _, ev := range d.Events[start:] {
			fmt.Fprintf(w, "  %s  %-17s %s\n", ev.Time.Format("01-02 15:04:05"), ev.To, ev.Reason)
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func newJobHistoryCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "history JOB",
		Short: "A job's events and commands, oldest first",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				d, err := e.svc.Job(ctx, args[0])
				if err != nil {
					return err
				}
				if g.output == "json" {
					return writeJSON(cmd.OutOrStdout(), struct {
						Events   []model.Event
						Commands []model.Command
					}{d.Events, d.Commands})
				}
				w := cmd.OutOrStdout()
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "TIME\tFROM\tTO\tREASON")
				for _, ev := range d.Events {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", ev.Time.Format(time.DateTime), ev.From, ev.To, ev.Reason)
				}
				tw.Flush()
				fmt.Fprintln(w)
				return printCommands(w, "table", d.Commands)
			})
		},
	}
}

func newActionCmd(g *globals, kind model.CommandKind) *cobra.Command {
	var (
		wait    bool
		restore string
		timeout time.Duration
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
		Use:   name + " JOB…",
		Short: short,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			if timeout > 0 {
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			req := core.ActionRequest{Kind: kind}
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
	}
	return cmd
}

// runActions plans every action, shows the plan, asks once when it is
// destructive or bulk, then issues the commands and, in-process, runs them.
func runActions(ctx context.Context, cmd *cobra.Command, e *env, req core.ActionRequest, refs []string, wait bool) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if e.local != nil {
		// No agent runs commands for this store: finish what a palink that
		// died left behind first. A kill supersedes its jobs' orphans
		// instead of resuming them.
		var skip []string
		if req.Kind == model.CmdKill {
			jobs, err := e.svc.ListJobs(ctx, core.JobFilter{})
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
	var plans []core.ActionPlan
	confirm, protected := len(refs) > 1, false
	for _, ref := range refs {
		r := req
		r.JobRef = ref
		p, err := e.svc.Plan(ctx, r)
		if err != nil {
			return err
		}
		if !p.Allowed {
			return exitError{code: 1, msg: fmt.Sprintf("%s %s: %s", strings.ToLower(req.Kind.String()), p.JobName, p.Reason)}
		}
		plans = append(plans, p)
		confirm = confirm || p.Destructive
		protected = protected || p.Protected
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
		if e.g.output != "json" {
			fmt.Fprintf(out, "%s #%d queued for %s\n", c.Kind, c.Seq, p.JobName)
		}
	}
	// Without an agent nobody else runs commands: this process does, and
	// reports how they end. With an agent, it runs them; --wait waits.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	if e.local != nil {
		go func() { done <- e.local.RunScheduler(runCtx) }()
	} else {
		close(done)
		if !wait {
			if e.g.output == "json" {
				return writeJSON(out, cmds)
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
		if e.g.output != "json" {
			fmt.Fprintf(out, "%s #%d %s", final.Kind, final.Seq, final.State)
			if final.Error != "" {
				fmt.Fprintf(out, ": %s", final.Error)
			} else if n := len(final.Log); n > 0 {
				fmt.Fprintf(out, ": %s", final.Log[n-1].Text)
			}
			fmt.Fprintln(out)
		}
	}
	stop()
	<-done
	if e.g.output == "json" {
		if err := writeJSON(out, ended); err != nil {
			return err
		}
	}
	if failed > 0 && wait {
		return exitError{code: 1, msg: fmt.Sprintf("%d of %d commands failed", failed, len(cmds))}
	}
	return nil
}

func newCommandsCmd(g *globals) *cobra.Command {
	var (
		job    string
		states []string
		limit  int
	)
	cmd := &cobra.Command{
		Use:     "commands",
		Aliases: []string{"cmd"},
		Short:   "List commands (the audit of every action), newest last",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				f := core.CommandFilter{JobRef: job, Limit: limit}
				for _, s := range states {
					st, err := model.ParseCommandState(s)
					if err != nil {
						return err
					}
					f.States = append(f.States, st)
				}
				cs, err := e.svc.Commands(ctx, f)
				if err != nil {
					return err
				}
				noteOrphans(ctx, e, cmd.ErrOrStderr())
				return printCommands(cmd.OutOrStdout(), g.output, cs)
			})
		},
	}
	cmd.Flags().StringVar(&job, "job", "", "only this job's commands")
	cmd.Flags().StringSliceVar(&states, "state", nil, "only commands in these states (UNDO, DOING, SUCCEEDED, FAILED)")
	cmd.Flags().IntVar(&limit, "limit", 0, "only the newest N")
	return cmd
}

func printCommands(w io.Writer, format string, cs []model.Command) error {
	if format == "json" {
		return writeJSON(w, cs)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tKIND\tJOB\tSTATE\tBY\tAGE\tRESULT")
	for _, c := range cs {
		result := c.Error
		if result == "" && len(c.Log) > 0 {
			result = c.Log[len(c.Log)-1].Text
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Seq, c.Kind, c.JobID, c.State, c.Issuer, since(c.CreatedAt), firstLine(result))
	}
	return tw.Flush()
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

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

// noteOrphans tells the user of a read-only look that commands wait for a
// palink to run them, instead of running them behind a read.
func noteOrphans(ctx context.Context, e *env, w io.Writer) {
	if e.local == nil || e.local.ReadOnly() {
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
	return fmt.Sprintf("orphaned (its palink %s stopped; lease expired %s ago)", c.LeaseOwner, core.Age(time.Since(c.LeaseUntil)))
}

// jobName names a job for a message without syncing it.
func jobName(ctx context.Context, e *env, id string) string {
	jobs, err := e.svc.ListJobs(ctx, core.JobFilter{})
	if err == nil {
		for _, j := range jobs {
			if j.ID == id {
				return j.Name
			}
		}
	}
	return id
}
