package main

import (
	"github.com/spf13/cobra"
)

// version is set by the linker for releases.
var version = "dev"

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "palink",
		Short:         "Operate Flink jobs on YARN from the terminal",
		Long:          "palink lists every Flink job on your YARN clusters, watches them, and pauses, kills,\nrestarts or resubmits them with one key; every action is recorded and never done twice.",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	return root
}
