package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
)

func newSyncCmd(g *globals) *cobra.Command {
	var once bool
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Sync job states with the clusters (once, or every interval)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				if e.local == nil {
					return errors.New("an agent runs state sync already; `palink jobs` shows its results")
				}
				if err := resumeOrphans(ctx, e, cmd.ErrOrStderr()); err != nil {
					return err
				}
				if !once {
					return e.local.RunSync(ctx)
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

func newAgentCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "agent",
		Short: "Run the scheduler and state sync headless (owns the store)",
		Long: "Runs the command scheduler, state sync and the restart policy without a UI, until\n" +
			"interrupted. Commands issued while palink was down are resumed at start.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			cfg, err := g.loadConfig()
			if err != nil {
				return err
			}
			// The agent serves --db, else the config's store, on that store's socket.
			path := g.storeOf(cfg)
			sock := agentSocket(cfg, path)
			r, err := dialAgent(ctx, cfg, path)
			if err == nil {
				r.Close()
				return fmt.Errorf("an agent already serves %s on %s", path, sock.Path)
			}
			if !errors.Is(err, agent.ErrNoAgent) {
				return err
			}
			e, err := g.openLocal(ctx, cfg, path)
			if err != nil {
				return err
			}
			defer e.Close()
			stopServe, err := serveAgent(ctx, e)
			if err != nil {
				return err
			}
			defer stopServe()
			fmt.Fprintf(cmd.ErrOrStderr(), "palink agent: store %s, socket %s, %d clusters, sync every %s\n",
				e.local.StorePath(), sock.Path, len(e.cfg.Clusters), e.cfg.Sync.Interval.D())
			if err := core.CheckBuildPolicy(e.opts.Build); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "palink agent: project builds and secret commands will be refused: %v\n", err)
			}
			err = runBackground(ctx, e.local)
			return err
		},
	}
}

// serveAgent answers on the socket of the store e holds, for the palink
// that owns it (the agent, or a TUI), so that other palinks on the host —
// the CLI, more TUIs — work through it. stop closes the socket.
func serveAgent(ctx context.Context, e *env) (stop func(), err error) {
	ln, err := agentSocket(e.cfg, e.local.StorePath()).Listen(e.cfg.Agent.Group)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := agent.Serve(ctx, ln, e.local, agent.ServeOptions{Roles: agent.Roles{Operators: e.cfg.Operators}, Store: e.local.StorePath(), Log: e.log}); err != nil {
			e.log.Warn("agent socket", "err", err)
		}
	}()
	return func() { cancel(); <-done }, nil
}

// runBackground runs the scheduler and state sync until ctx is done.
func runBackground(ctx context.Context, svc *core.Local) error {
	errc := make(chan error, 2)
	go func() { errc <- svc.RunScheduler(ctx) }()
	go func() { errc <- svc.RunSync(ctx) }()
	err1, err2 := <-errc, <-errc
	if err1 != nil {
		return err1
	}
	return err2
}
