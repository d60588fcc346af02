package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
)

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
	opts, err := agentServeOptions(e)
	if err != nil {
		return nil, err
	}
	ln, err := agentSocket(e.cfg, e.local.StorePath()).Listen(e.cfg.Agent.Group)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := agent.Serve(ctx, ln, e.local, opts); err != nil {
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
