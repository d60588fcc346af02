package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func newSyncCmd(g *globals) *cobra.Command {
	var once bool
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Sync job states with the clusters (once, or every interval until interrupted)",
		Long: "Without --once, runs state sync, the command scheduler and the restart policy until\n" +
			"interrupted, as `palink agent` does: commands a palink that died left behind are resumed,\n" +
			"and other palinks of this host work through it meanwhile.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				if e.local == nil {
					return errors.New("an agent runs state sync already; `palink jobs` shows its results")
				}
				if !once {
					return syncUntilInterrupted(ctx, e, cmd.ErrOrStderr())
				}
				// On etcd only the leader runs commands (the agents).
				if !core.IsEtcdStore(e.path) {
					if err := resumeOrphans(ctx, e, cmd.ErrOrStderr()); err != nil {
						return err
					}
				}
				st, err := e.local.SyncOnce(ctx, 0)
				if err != nil {
					return err
				}
				if g.structured() {
					return writeData(cmd.OutOrStdout(), g.output, st)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "synced %d jobs (%d changed) in %s: %d RM calls, %d JobManager calls, %s\n",
					st.Jobs, st.Changed, st.Duration.Round(time.Millisecond), st.RMCalls, st.FlinkCalls, plural(st.Errors, "error"))
				for _, p := range st.Problems {
					fmt.Fprintln(cmd.ErrOrStderr(), "  "+p)
				}
				if more := st.Errors - len(st.Problems); more > 0 {
					fmt.Fprintf(cmd.ErrOrStderr(), "  … and %s more (the log has them all: --log-file)\n", plural(more, "error"))
				}
				if st.Errors > 0 {
					return exitError{code: 1, msg: ""}
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&once, "once", false, "run one sync cycle and exit")
	return cmd
}

// syncUntilInterrupted is `palink sync` without --once. A sync that ran
// alone left an orphaned command's job to that command (sync skips the
// jobs a pending command acts on) while nothing ever ran the command, so
// the job was never synced again: it runs the scheduler beside sync as the
// agent does, which reclaims a dead palink's command once its lease
// expires, and serves the store's socket as a TUI does, since it holds the
// store for as long as it runs. It reports the commands it resumes and
// how each ends on w.
func syncUntilInterrupted(ctx context.Context, e *env, w io.Writer) error {
	if e.local.ReadOnly() {
		return api.ReadOnly("sync until interrupted (it records job states and runs commands; `palink sync --once` shows what would change)")
	}
	// Watch before listing what is pending, so that no end goes unseen.
	watch, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	changes, err := e.local.Watch(watch)
	if err != nil {
		return err
	}
	pending, err := e.local.Commands(ctx, api.CommandFilter{States: []model.CommandState{model.CmdUndo, model.CmdDoing}})
	if err != nil {
		return err
	}
	// Syncing matters more than the socket: without it, other palinks
	// only wait for the store until this one stops.
	through := "other palinks work through it meanwhile"
	if stopServe, err := serveAgent(ctx, e); err == nil {
		defer stopServe()
	} else {
		through = fmt.Sprintf("other palinks cannot work through it (%v)", err)
	}
	fmt.Fprintf(w, "palink sync: syncing every %s and running commands until interrupted (ctrl-c); %s\n", e.cfg.Sync.Interval.D(), through)
	for _, c := range pending {
		fmt.Fprintf(w, "resuming %s #%d of %s: %s\n", c.Kind, c.Seq, jobName(ctx, e, c.JobID), pendingState(c))
	}
	reported := make(chan struct{})
	go func() { defer close(reported); reportCommands(ctx, e, w, changes) }()
	defer func() { stopWatch(); <-reported }()
	return runBackground(ctx, e, core.Everything, "sync", w)
}

// pendingState says why a command that a palink left behind is not done.
// One still under lease was run by a palink that is gone: this one holds
// the store, which the command's palink would need.
func pendingState(c model.Command) string {
	if c.State == model.CmdDoing && time.Now().Before(c.LeaseUntil) {
		return fmt.Sprintf("its palink (%s) stopped; resumed once its lease expires in %s", c.LeaseOwner, model.Age(time.Until(c.LeaseUntil)))
	}
	return orphanState(c)
}

// reportCommands writes how each command this palink runs ends, until
// changes closes.
func reportCommands(ctx context.Context, e *env, w io.Writer, changes <-chan api.Change) {
	ended := map[string]bool{}
	for ch := range changes {
		c := ch.Command
		if ch.Kind != api.CommandChanged || c == nil || !c.State.Final() || ended[c.ID] {
			continue
		}
		ended[c.ID] = true
		fmt.Fprintf(w, "%s #%d of %s %s", c.Kind, c.Seq, jobName(ctx, e, c.JobID), c.State)
		if c.Error != "" {
			fmt.Fprintf(w, ": %s", c.Error)
		} else if n := len(c.Log); n > 0 && !strings.EqualFold(c.Log[n-1].Text, c.State.String()) {
			fmt.Fprintf(w, ": %s", c.Log[n-1].Text)
		}
		fmt.Fprintln(w)
	}
}
