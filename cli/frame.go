package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/options"
	"github.com/palink/palink/model"
	"github.com/palink/palink/tui"
	"github.com/spf13/cobra"
)

// Execute runs the palink command line and returns the process's exit
// code: 0, the code an exitCoder error carries, or 1. Errors are printed
// once, on standard error, as "palink: message".
func Execute() int {
	root := newRootCmd()
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ec exitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, "palink:", msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(os.Stderr, "palink:", err)
	return 1
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

// signalContext is cancelled on SIGINT/SIGTERM (or when parent is), so
// that long CLI operations stop cleanly.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	if parent == nil {
		parent = context.Background()
	}
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

// runTUI opens the UI on the configured clusters, with the scheduler and
// state sync running in this process.
func runTUI(cmd *cobra.Command, g *globals) error {
	ctx, cancel := signalContext(cmd.Context())
	defer cancel()
	e, err := g.openEnv(ctx)
	if err != nil {
		return err
	}
	defer e.Close()
	e.log = g.logger(true)
	bg, stopBG := context.WithCancel(ctx)
	defer stopBG()
	done := make(chan error, 1)
	if g.readOnly || e.local == nil {
		close(done) // read-only, or the agent runs them
	} else {
		// Its log file hears of the lead: the screen is the TUI's.
		go func() { done <- runBackground(bg, e, core.Everything, "tui", nil) }()
		// This TUI owns the store: the CLI and other TUIs work through it.
		if stopServe, err := serveAgent(bg, e); err == nil {
			defer stopServe()
		} else {
			e.log.Warn("no agent socket", "err", err)
		}
	}
	err = tui.Run(ctx, e.svc, tui.Options{Context: contextName(e), Version: buildVersion(), ReadOnly: g.readOnly,
		Scope: g.cluster, Debugger: newDebugger(e.cfg), FlinkVersions: flinkVersions(e.cfg)})
	stopBG()
	<-done
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// isTerminal reports whether f is a terminal (confirmation prompts need one).
func isTerminal(f *os.File) bool { return term.IsTerminal(f.Fd()) }

func since(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return model.Age(time.Since(t))
}

// newDebugger is where debug runs happen: in this process, for the TUI's
// ctrl-d and `palink debug` alike (the data files and the lookup databases
// are this user's, even when the service is an agent's), with the
// config's sample directories and database redirects (cfg may be nil).
func newDebugger(cfg *config.Config) api.Debugger { return options.Debugger(cfg) }

// contextName names what the TUI works on in its header, as k9s names its
// context: the config file ("prod" for ~/…/prod.yaml, "default" for the
// default one), and "via agent" when an agent serves the store.
func contextName(e *env) string {
	name := "default"
	if p := e.cfg.Path(); p != "" && p != config.DefaultPath() {
		name = strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
	}
	if e.remote != nil {
		name += " via agent"
	}
	return name
}
