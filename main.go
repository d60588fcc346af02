// Command palink is a keyboard-driven terminal console for operating Apache
// Flink jobs on Hadoop YARN. With no argument it opens the TUI; every action
// also exists as a scriptable subcommand.
//
// main wires: flags and config, store, clients, core, and the TUI.
package main

import (
	"errors"
	"fmt"
	"os"
)

func main() {
	root := newRootCmd()
	if err := root.Execute(); err != nil {
		var ec exitCoder
		if errors.As(err, &ec) {
			if msg := err.Error(); msg != "" {
				fmt.Fprintln(os.Stderr, "palink:", msg)
			}
			os.Exit(ec.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "palink:", err)
		os.Exit(1)
	}
}

// exitCoder is an error that carries the process exit code.
type exitCoder interface {
	error
	ExitCode() int
}

// exitError ends the process with code and message.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }
func (e exitError) ExitCode() int { return e.code }
