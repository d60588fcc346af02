//go:build unix

package scheduler

import (
	"errors"
	"syscall"
)

// processExists asks the kernel with signal 0; EPERM means it exists but
// belongs to another user.
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
