package cli

import (
	"github.com/spf13/cobra"
)

// version is set by the linker for releases.
var version = "dev"

func newRootCmd() *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:   "palink",
		Short: "Operate Flink jobs on YARN from the terminal",
		Long: "palink lists every Flink job on your YARN clusters, watches them, and pauses, kills,\n" +
			"restarts or resubmits them with one key; every action is recorded and never done twice.\n\n" +
			"With no command it opens the terminal UI. Try `palink demo` for a simulated cluster.",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTUI(cmd, g)
		},
	}
	g.register(root)
	root.AddCommand(
		newDemoCmd(g), newSimCmd(g),
		newJobsCmd(g), newJobCmd(g), newCommandsCmd(g), newAlertsCmd(g),
		newSyncCmd(g), newAgentCmd(g),
		newConfigCmd(g), newStoreCmd(g),
		newClusterCmd(g), newAdoptCmd(g),
		newLogsCmd(g),
		newSQLCmd(g),
		newDebugCmd(g),
	)
	return root
}
