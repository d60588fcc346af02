package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/model"
)

func newAgentCmd(g *globals) *cobra.Command {
	var pprofAddr string
	cmd := &cobra.Command{
		Use:   "agent",
		Short: "Run the scheduler and state sync headless (owns the store; on etcd, campaigns to lead it)",
		Long: "Runs the command scheduler, state sync and the restart policy without a UI, until\n" +
			"interrupted. Commands issued while palink was down are resumed at start.\n\n" +
			"On a store on etcd (store: etcd://…), every agent campaigns: one leads and runs them,\n" +
			"each of its writes fenced by its term; the others serve their hosts' palinks and take\n" +
			"over within etcd.election_ttl when the leader dies (docs/team.md).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			cfg, err := g.loadConfig()
			if err != nil {
				return err
			}
			if pprofAddr != "" {
				at, err := servePprof(ctx, pprofAddr)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "palink agent: profiles on http://%s/debug/pprof/\n", at)
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
			e, err := g.openLocal(ctx, cfg, path, true)
			if err != nil {
				return err
			}
			defer e.Close()
			stopServe, err := serveAgent(ctx, e)
			if err != nil {
				return err
			}
			defer stopServe()
			errOut := cmd.ErrOrStderr()
			role := ""
			if core.IsEtcdStore(path) {
				role = ", campaigning to lead it"
			}
			fmt.Fprintf(errOut, "palink agent: store %s, socket %s, %d clusters, sync every %s%s\n",
				e.local.StorePath(), sock.Path, len(e.cfg.Clusters), e.cfg.Sync.Interval.D(), role)
			if err := core.CheckBuildPolicy(e.opts.Build); err != nil {
				fmt.Fprintf(errOut, "palink agent: project builds and secret commands will be refused: %v\n", err)
			}
			return runWalked(ctx, e, func(ctx context.Context) error {
				return runBackground(ctx, e, core.Everything, "agent", errOut)
			})
		},
	}
	cmd.Flags().StringVar(&pprofAddr, "pprof", "", "serve Go's profiles on this loopback address (127.0.0.1:6060); off by default")
	cmd.AddCommand(newAgentStatusCmd(g))
	return cmd
}

// newAgentStatusCmd is `palink agent status`: which palink leads the store
// and which stand ready to, from any palink on it.
func newAgentStatusCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show which palink leads the store (runs the scheduler and state sync) and which stand ready",
		Long: "On a store on etcd, reads the election: the leader (host, pid, since when, its term)\n" +
			"and every member campaigning, with the writes of their past terms the fence refused.\n" +
			"On a file, the agent (or TUI) that holds the store leads it alone. Exit 1 when etcd\n" +
			"does not answer.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.withEnv(cmd, func(ctx context.Context, e *env) error {
				l, err := e.svc.Leadership(ctx)
				if err != nil {
					return err
				}
				if g.structured() {
					if err := writeData(cmd.OutOrStdout(), g.output, l); err != nil {
						return err
					}
				} else {
					printLeadership(cmd.OutOrStdout(), l, time.Now())
				}
				if l.Unreachable != "" {
					return exitError{code: 1, msg: l.Unreachable}
				}
				return nil
			})
		},
	}
}

// printLeadership writes who leads the store and who stands ready.
func printLeadership(w io.Writer, l api.Leadership, now time.Time) {
	kind := "a file"
	if l.Shared {
		kind = "etcd, shared"
	}
	fmt.Fprintf(w, "store %s (%s)\n", l.Store, kind)
	switch {
	case l.Unreachable != "":
		fmt.Fprintf(w, "leader: unknown: %s\n", l.Unreachable)
		return
	case l.Leader == nil && l.Shared:
		fmt.Fprintln(w, "leader: none (no agent campaigns, or the last leader's lease is running out)")
	case l.Leader == nil:
		fmt.Fprintln(w, "leader: none (no agent or TUI holds the store; an action runs its command itself)")
	default:
		m := l.Leader
		term := ""
		if l.Term > 0 {
			term = fmt.Sprintf(", term %d", l.Term)
		}
		fmt.Fprintf(w, "leader: %s pid %d (%s) since %s%s\n", m.Host, m.PID, orDash(m.What), since(m.Since), term)
	}
	if len(l.Members) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nHOST\tPID\tWHAT\tROLE\tUP\tTERMS\tFENCED")
	for _, m := range l.Members {
		role := "follower"
		if m.Leads {
			role = "leader"
		}
		if m.ID == l.Self {
			role += " (this palink)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%d\t%d\n", m.Host, m.PID, orDash(m.What), role, model.Age(now.Sub(m.Started)), m.Terms, m.Fenced)
	}
	tw.Flush()
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

// runBackground runs the background parts of the store e holds until
// ctx is done (core.Local.RunBackground): on a file, at once; on etcd,
// while this palink leads, saying on w each time it starts or stops
// leading. what names this palink to the others (agent, tui, sync, cli).
func runBackground(ctx context.Context, e *env, parts core.Background, what string, w io.Writer) error {
	announce := func(line string) { e.log.Info("lead: " + line) }
	if w != nil {
		announce = func(line string) {
			e.log.Info("lead: " + line)
			fmt.Fprintf(w, "palink %s: %s\n", what, line)
		}
	}
	return e.local.RunBackground(ctx, parts, core.LeadOptions{What: what, Version: buildVersion(), Announce: announce})
}

// runWalked runs run while every page of the store is checked beside it
// (Local.CheckStorePages: the walk Open leaves out, so that opening a store
// costs the same at any size): damage found stops run and is the error, one
// line with the restore command, as Open's refusal of a damaged file was.
func runWalked(ctx context.Context, e *env, run func(context.Context) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	walked := make(chan struct{})
	go func() {
		defer close(walked)
		err := e.local.CheckStorePages(ctx)
		switch {
		case errors.Is(err, model.ErrCorrupt):
			cancel(err)
		case err != nil && ctx.Err() == nil:
			e.log.Warn("check the store's pages", "err", err)
		}
	}()
	err := run(ctx)
	<-walked
	if cause := context.Cause(ctx); errors.Is(cause, model.ErrCorrupt) {
		return cause
	}
	return err
}
