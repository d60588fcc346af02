// Command palink is a keyboard-driven terminal console for operating Apache
// Flink jobs on Hadoop YARN. With no argument it opens the TUI; every action
// also exists as a scriptable subcommand (package cli).
package main

import (
	"os"

	"github.com/palink/palink/cli"
)

func main() { os.Exit(cli.Execute()) }
