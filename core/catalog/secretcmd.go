package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/palink/palink/core/internal/sandbox"
)

// secretCmdTimeout bounds a secret variable's command: a deploy must not
// hang on a vault that does not answer.
var secretCmdTimeout = 10 * time.Second

// Sources are where secret variables' values come from: palink's
// environment (Getenv; nil: os.Getenv), files, and commands, which run
// under Commands — an environment built from nothing, never as root —
// as build commands do.
type Sources struct {
	Getenv   func(string) string
	Commands sandbox.Policy
}

func (s Sources) getenv(name string) string {
	if s.Getenv == nil {
		return os.Getenv(name)
	}
	return s.Getenv(name)
}

// runSecretCmd runs a secret's command with sh -c, in a workspace of its
// own under the policy, and returns its standard output, trailing
// newlines dropped. What it prints is never part of an error: a failing
// command may have printed the secret, or half of it.
func runSecretCmd(run sandbox.Policy, command string) (string, error) {
	if strings.TrimSpace(command) == "" {
		return "", errors.New("its command is empty")
	}
	prog := strings.Fields(command)[0]
	ws, err := run.NewWorkspace("palink-secret-")
	if err != nil {
		return "", fmt.Errorf("command %s: %w", prog, err)
	}
	defer ws.Remove()
	if err := ws.Own(); err != nil {
		return "", fmt.Errorf("command %s: %w", prog, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), secretCmdTimeout)
	defer cancel()
	var out bytes.Buffer
	cmd, err := ws.Command(ctx, sandbox.Cmd{Args: []string{"/bin/sh", "-c", command}, Stdout: &out})
	if err != nil {
		return "", fmt.Errorf("command %s: %w", prog, err)
	}
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("command %s did not finish within %s", prog, secretCmdTimeout)
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("command %s failed (%s)", prog, ee.ProcessState)
		}
		return "", fmt.Errorf("command %s: %v", prog, err)
	}
	val := strings.TrimRight(out.String(), "\r\n")
	if val == "" {
		return "", fmt.Errorf("command %s printed nothing", prog)
	}
	return val, nil
}
