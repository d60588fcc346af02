package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	"github.com/spf13/pflag"
)

// Execute runs the palink command line and returns the process's exit
// code (`palink help exit-codes`): 0, the code an exitCoder error carries,
// else the kind of failure's. Errors are printed once, on standard error,
// as "palink: message".
func Execute() int {
	root := newRootCmd()
	err := root.Execute()
	if err == nil {
		return 0
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(os.Stderr, "palink:", msg)
	}
	return exitCodeOf(err)
}

// exitCodeOf is the exit code of a failed command: the one an exitCoder
// carries, 3 for what does not exist, 4 for what palink refuses, 2 for
// cobra's own checks of a command line, 1 for the rest.
func exitCodeOf(err error) int {
	var ec exitCoder
	switch {
	case errors.As(err, &ec):
		return ec.ExitCode()
	case errors.Is(err, model.ErrNotFound):
		return exitNotFound
	case errors.Is(err, model.ErrRefused), errors.Is(err, model.ErrReadOnly), errors.Is(err, model.ErrForbidden):
		return exitRefused
	case cobraUsage(err):
		return exitUsage
	}
	return exitFailed
}

// cobraUsage reports cobra's checks of required and grouped flags, which
// it returns as plain errors after the flags were parsed (the flag and
// argument errors go through flagError and usageArgs).
func cobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"required flag(s) ", "if any flags in the group ", "at least one of the flags in the group "} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
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
		Scope: g.cluster, Debugger: newDebugger(e.cfg, e.log), FlinkVersions: flinkVersions(e.cfg)})
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
// newDebugger is where debug runs happen; what database drivers would
// print goes to log.
func newDebugger(cfg *config.Config, log *slog.Logger) api.DebugBench {
	return options.Debugger(cfg, log)
}

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

// Exit codes (`palink help exit-codes`, exitCodesHelp).
const (
	exitFailed   = 1
	exitUsage    = 2
	exitNotFound = 3
	exitRefused  = 4
	// exitFiring is `palink alerts --check` finding an alert that fires.
	exitFiring = 5
)

// exitCodesHelp is `palink help exit-codes`.
const exitCodesHelp = `palink's exit codes, the same for every command (docs/jobs.md, "Scripting"):

  0  success
  1  failed: the operation ran and failed (a command that ended FAILED with --wait, a
     check that found errors, a prompt answered no)
  2  usage: palink cannot run the command line as written (an unknown command or flag,
     with what was probably meant; a bad value or -o; missing or extra arguments; a
     confirmation needed with no terminal to ask on and no --yes)
  3  not found: the job, command, application, cluster or log does not exist
  4  refused: palink will not do it now (the job's state or a pending command,
     --read-only, the user's role on the agent)
  5  palink alerts --check: an alert is firing
`

// flagError is cobra's flag errors as usage errors, with the flags an
// unknown one may have meant, as an unknown command gets.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	var ne *pflag.NotExistError
	if errors.As(err, &ne) && ne.GetSpecifiedName() != "" {
		if s := flagSuggestions(c, ne.GetSpecifiedName()); len(s) > 0 {
			msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
		}
	}
	return usageError("%s\n\nRun '%s --help' for its flags.", msg, c.CommandPath())
}

// flagSuggestions are the flags of c (its own and inherited) whose names
// are within two edits of name, or start with it.
func flagSuggestions(c *cobra.Command, name string) []string {
	var out []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && (editDistance(name, f.Name) <= 2 || strings.HasPrefix(f.Name, name)) {
			out = append(out, "--"+f.Name)
		}
	})
	return out
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// usageArgs makes a command's argument check a usage error.
func usageArgs(c *cobra.Command) {
	check := c.Args
	if check == nil {
		return
	}
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := check(cmd, args)
		var ec exitCoder
		if err == nil || errors.As(err, &ec) {
			return err
		}
		return usageError("%s: %v\n\nUsage: %s", cmd.CommandPath(), err, cmd.UseLine())
	}
}

// usageError is a command line palink cannot run as written: exit code 2.
func usageError(format string, args ...any) error {
	return exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}
