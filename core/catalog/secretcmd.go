package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// secretCmdTimeout bounds a secret variable's command: a deploy must not
// hang on a vault that does not answer.
var secretCmdTimeout = 10 * time.Second

// runSecretCmd runs a secret's command with sh -c and returns its standard
// output, trailing newlines dropped. What it prints is never part of an
// error: a failing command may have printed the secret, or half of it.
func runSecretCmd(command string) (string, error) {
	if strings.TrimSpace(command) == "" {
		return "", errors.New("its command is empty")
	}
	ctx, cancel := context.WithTimeout(context.Background(), secretCmdTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	prog := strings.Fields(command)[0]
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
