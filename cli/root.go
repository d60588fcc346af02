package cli

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palink/palink/model"
)

// version is set by the linker for releases
// (-ldflags "-X github.com/palink/palink/cli.version=v1.2.3"); other builds
// name their module version or commit (buildVersion).
var version = ""

func newRootCmd() *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:   "palink",
		Short: "Operate Flink jobs on YARN from the terminal",
		Long: "palink lists every Flink job on your YARN clusters, watches them, and pauses, kills,\n" +
			"restarts or resubmits them with one key; every action is recorded and never done twice.\n\n" +
			"With no command it opens the terminal UI. Try `palink demo` for a simulated cluster.",
		Version:       buildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          knownSubcommand,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(g.output); err != nil {
				return err
			}
			if g.output == outJSONL && cmd.Name() != "debug" {
				return exitError{code: 2, msg: fmt.Sprintf("%s: output format jsonl is debug's (rows as they come): want table, wide, json or yaml", cmd.CommandPath())}
			}
			return g.refuseReadOnly(cmd)
		},
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
		newLogsCmd(g), newTaskManagersCmd(g),
		newSQLCmd(g), newSavepointCmd(g), newProjectCmd(g), newTableCmd(g), newVarCmd(g),
		newUDFCmd(g), newDebugCmd(g),
		newTeamCmd(g), newWhoAmICmd(g), newAuditCmd(g), newServeCmd(g),
	)
	root.AddCommand(&cobra.Command{Use: "exit-codes", Short: "What palink's exit codes mean", Long: exitCodesHelp})
	refuseUnknownSubcommands(root)
	root.SetFlagErrorFunc(flagError)
	return root
}

// knownSubcommand refuses an argument where a subcommand is expected, with
// the subcommands it may have meant: a typo must fail, never fall through
// to a help text and exit 0.
func knownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return exitError{code: 2, msg: msg + "\n\nRun '" + cmd.CommandPath() + " --help' for the commands."}
}

// refuseUnknownSubcommands makes every group of subcommands (job, store,
// sql, …) refuse what it does not know, and show its help when given
// nothing.
func refuseUnknownSubcommands(c *cobra.Command) {
	c.SuggestionsMinimumDistance = 2
	for _, sub := range c.Commands() {
		refuseUnknownSubcommands(sub)
	}
	usageArgs(c)
	if !c.HasSubCommands() || c.Run != nil || c.RunE != nil {
		return
	}
	c.Args = knownSubcommand
	c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
}

// buildVersion is palink's version: the linker's, else what the Go build
// recorded — the module version of `go install …@v1.2.3`, or the commit of
// a build from a checkout ("dev 3a5f2c5", "+dirty" with changes).
func buildVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	v := "dev " + rev[:min(7, len(rev))]
	if dirty {
		v += "+dirty"
	}
	return v
}

// writesBeyondTheAPI are the commands that change palink's state other than
// through an API method (whose declaration says whether it writes): each
// with what it does, for the refusal under --read-only.
// TestEveryCommandThatWritesRefusesReadOnly finds any that is missing.
var writesBeyondTheAPI = map[string]string{
	"palink store restore": "replaces the store with a backup",
	"palink store migrate": "copies the store into another one",
	"palink store compact": "forgets subsumed checkpoints and rewrites the store's file",
	"palink sync":          "keeps the clusters' state in the store and resumes orphaned commands",
	"palink agent":         "runs the scheduler and state sync, which write the store",
	"palink serve":         "is the store's agent: it runs the scheduler and state sync, which write the store",
}

// refuseReadOnly refuses, under --read-only, a command that writes beyond
// the API.
func (g *globals) refuseReadOnly(cmd *cobra.Command) error {
	if what, ok := writesBeyondTheAPI[cmd.CommandPath()]; ok && g.readOnly {
		return fmt.Errorf("%s %s: %w", cmd.CommandPath(), what, model.ErrReadOnly)
	}
	return nil
}
