package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/core/api"
	"github.com/palink/palink/demo"
	"github.com/palink/palink/tui"
)

func newDemoCmd(g *globals) *cobra.Command {
	var (
		f     simFlags
		jobs  int
		noTUI bool
	)
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Open palink on a simulated cluster with a fleet of jobs (nothing to set up)",
		Long: "Starts a simulated YARN + Flink + SQL Gateway cluster in this process and opens the UI on a\n" +
			"fleet that has lived an hour: its jobs were deployed an hour ago, paused, killed, savepointed,\n" +
			"strained and failed on the way, and palink measured them all along (the hour is lived in a\n" +
			"second or two, as the UI opens). Then things keep happening. Its cluster has a table catalog,\n" +
			"variables (one a secret), a registered UDF and, with git on the PATH, a project built from a\n" +
			"local repository, which its jobs use. The demo keeps its state in a throwaway store, never in yours.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			w, err := demo.Start(ctx, demo.Options{Sim: f.Sim, Managed: jobs, ReadOnly: g.readOnly, Log: g.logger(false)})
			if err != nil {
				return err
			}
			defer w.Close()
			bg, stopBG := context.WithCancel(ctx)
			defer stopBG()
			done := make(chan error, 1)
			go func() { done <- w.Run(bg) }()
			if noTUI {
				return watchJobs(ctx, cmd.OutOrStdout(), w.Service())
			}
			// The UI reads the demo's clock: while the hour is lived, ages
			// are the hour's; the header's clock is the wall's.
			err = tui.Run(ctx, w.Service(), tui.Options{Context: "demo", Version: buildVersion(), Debugger: w.Debugger(), Now: w.Now, Wall: time.Now})
			stopBG()
			<-done
			return err
		},
	}
	f.register(cmd, 6)
	cmd.Flags().IntVar(&jobs, "managed", 24, "palink jobs to create and deploy")
	cmd.Flags().BoolVar(&noTUI, "no-tui", false, "print the jobs table every few seconds instead of opening the UI")
	return cmd
}

// watchJobs prints the jobs table every few seconds until ctx is done.
func watchJobs(ctx context.Context, w io.Writer, svc api.Service) error {
	for {
		jobs, err := svc.ListJobs(ctx, api.JobFilter{})
		if err == nil {
			fmt.Fprintf(w, "\n%s\n", time.Now().Format(time.TimeOnly))
			_ = printJobs(w, "table", jobs)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(3 * time.Second):
		}
	}
}
