package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/demo"
)

// simFlags configure a simulated cluster.
type simFlags struct {
	demo.Sim
	addr      string
	configOut string
	pprof     string
}

func (f *simFlags) register(cmd *cobra.Command, defaultApps int) {
	fl := cmd.Flags()
	fl.IntVar(&f.Apps, "jobs", defaultApps, "Flink applications already on the cluster (mixed states, not managed by palink)")
	fl.Int64Var(&f.Seed, "seed", 0, "seed for a reproducible cluster (0: random)")
	fl.Float64Var(&f.Speed, "speed", 1, "simulated seconds per real second")
	fl.StringVar(&f.Faults, "faults", "", "faults to inject, e.g. 'latency=200ms,5xx=0.05;jm:reset=0.1;job-fail=5m' (see yarn/sim ParseFaults)")
	fl.IntVar(&f.RMs, "rms", 1, "ResourceManagers (2+ for HA; the first is active)")
	fl.StringVar(&f.FlinkVersion, "flink-version", "", "Flink version the cluster reports (default 2.1.0)")
	fl.DurationVar(&f.CheckpointInterval, "checkpoint-interval", 10*time.Second, "checkpoint interval of the simulated jobs")
}

func newSimCmd(_ *globals) *cobra.Command {
	var f simFlags
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Run a simulated YARN + Flink + SQL Gateway cluster",
		Long: "Runs a simulated cluster that speaks the YARN ResourceManager, Flink REST and SQL Gateway APIs,\n" +
			"with fault injection. With --config-out it writes a palink config that points at it, so\n" +
			"`palink --config FILE …` works against it at once.",
		Example: "  palink sim --addr 127.0.0.1:8088 --jobs 40 --config-out /tmp/sim.yaml\n  palink --config /tmp/sim.yaml jobs\n" +
			"  palink sim --kerberos /tmp/realm --config-out /tmp/secure.yaml",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			c, err := demo.Serve(ctx, f.Sim, f.addr)
			if err != nil {
				return err
			}
			defer c.Close()
			out := cmd.OutOrStdout()
			if f.pprof != "" {
				at, err := servePprof(ctx, f.pprof)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "profiles         http://%s/debug/pprof/\n", at)
			}
			fmt.Fprintf(out, "ResourceManager  %s\n", c.RMs()[0])
			for i, u := range c.RMs()[1:] {
				fmt.Fprintf(out, "ResourceManager  %s (standby %d)\n", u, i+1)
			}
			fmt.Fprintf(out, "SQL Gateway      %s\n", c.Gateway())
			fmt.Fprintf(out, "RM web proxy     %s/proxy/<appId>/\n", c.RMs()[0])
			if r := c.Realm(); r != "" {
				fmt.Fprintf(out, "Kerberos         %s (the RM and its proxy require SPNEGO; keytabs of ops and viewer in %s)\n", r, f.KerberosDir)
			}
			if f.configOut != "" {
				storePath, err := c.WriteConfig(f.configOut)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "config           %s (store %s)\n", f.configOut, storePath)
			}
			fmt.Fprintln(out, "ctrl-c stops the simulator")
			<-ctx.Done()
			return nil
		},
	}
	f.register(cmd, 40)
	cmd.Flags().StringVar(&f.addr, "addr", "127.0.0.1:8088", "address of the (first) ResourceManager")
	cmd.Flags().BoolVar(&f.AppsRunning, "running", false, "make every one of --jobs a RUNNING Flink job that checkpoints (a production fleet, for scale measurements)")
	cmd.Flags().StringVar(&f.pprof, "pprof", "", "serve Go's profiles on this loopback address (127.0.0.1:6061), to measure the simulator apart from palink; off by default")
	cmd.Flags().StringVar(&f.configOut, "config-out", "", "write a palink config for this simulator to FILE")
	cmd.Flags().BoolVar(&f.TLS, "tls", false, "serve the RMs over HTTPS with a certificate of a CA the simulator makes (the config trusts it)")
	cmd.Flags().StringVar(&f.KerberosDir, "kerberos", "", "secure mode: a throwaway Kerberos realm in DIR (Debian's krb5kdc), SPNEGO required on the RM and its proxy; the config authenticates as ops")
	return cmd
}
