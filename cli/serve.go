package cli

import (
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/cli/sshserve"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui"
)

// newServeCmd is `palink serve --ssh ADDR`: the agent of the store, and
// the TUI served to SSH clients, each session as its key's user
// (docs/ssh.md).
func newServeCmd(g *globals) *cobra.Command {
	var (
		addr, hostKey, authorized string
		idle, maxSession          time.Duration
	)
	cmd := &cobra.Command{
		Use:   "serve --ssh ADDR --host-key FILE --authorized-keys FILE",
		Short: "Serve the TUI over SSH (and be the store's agent)",
		Long: "Owns the store as `palink agent` does (scheduler, state sync, the agent's socket) and serves\n" +
			"the TUI to SSH clients: `ssh -p 2222 ops-host` gets palink without installing it. The host key\n" +
			"is made once (ed25519, mode 0600) and kept. Each line of the authorized keys file is a key and\n" +
			"its user (`ssh-ed25519 AAAA… alice`), with the option read-only for a key that may change\n" +
			"nothing (`read-only ssh-ed25519 AAAA… bob`); a session has its user's roles. A key removed from\n" +
			"the file ends its sessions.",
		Example: "  palink serve --ssh :2222 --host-key /var/lib/palink/ssh_host_ed25519 --authorized-keys /etc/palink/authorized_keys",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if addr == "" || hostKey == "" || authorized == "" {
				return exitError{code: 2, msg: "palink serve needs --ssh ADDR, --host-key FILE and --authorized-keys FILE"}
			}
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			cfg, err := g.loadConfig()
			if err != nil {
				return err
			}
			path := g.storeOf(cfg)
			if r, err := dialAgent(ctx, cfg, path); err == nil {
				r.Close()
				return fmt.Errorf("an agent already serves %s: stop it; palink serve is the store's agent too", path)
			} else if !errors.Is(err, agent.ErrNoAgent) {
				return err
			}
			e, err := g.openLocal(ctx, cfg, path, true)
			if err != nil {
				return err
			}
			defer e.Close()
			opts, err := agentServeOptions(e)
			if err != nil {
				return err
			}
			srv, err := sshserve.New(sshserve.Options{
				HostKey: hostKey, AuthorizedKeys: authorized, Service: e.local, Log: e.log,
				Caller: func(user string, readOnly bool) api.Caller {
					return opts.Caller(user, readOnly || e.local.ReadOnly(), " over SSH")
				},
				TUI:         tui.Options{Context: "ssh", Version: buildVersion(), FlinkVersions: flinkVersions(e.cfg), ReadOnly: g.readOnly},
				IdleTimeout: idle, MaxTimeout: maxSession,
			})
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("serve --ssh %s: %w", addr, err)
			}
			stopAgent, err := serveAgent(ctx, e)
			if err != nil {
				ln.Close()
				return err
			}
			defer stopAgent()
			fmt.Fprintf(cmd.ErrOrStderr(), "palink serve: store %s, ssh on %s\n", e.local.StorePath(), ln.Addr())
			served := make(chan error, 1)
			go func() {
				err := srv.Serve(ctx, ln)
				cancel() // no SSH, no serve
				served <- err
			}()
			err = runBackground(ctx, e, core.Everything, "serve", cmd.ErrOrStderr())
			cancel()
			if serr := <-served; err == nil {
				err = serr
			}
			return err
		},
	}
	cmd.Flags().StringVar(&addr, "ssh", "", "address to serve SSH on (:2222)")
	cmd.Flags().StringVar(&hostKey, "host-key", "", "the server's private key file; made (ed25519, mode 0600) when missing")
	cmd.Flags().StringVar(&authorized, "authorized-keys", "", "the keys that may connect, one a line with the key's user: `[read-only] ssh-ed25519 AAAA… USER`")
	cmd.Flags().DurationVar(&idle, "idle-timeout", 30*time.Minute, "end a session whose user typed nothing for this long")
	cmd.Flags().DurationVar(&maxSession, "max-timeout", 12*time.Hour, "end every session after this long")
	return cmd
}
