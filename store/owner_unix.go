//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// describeOwner says who owns the file at path and who palink runs as, for
// "permission denied"; "" when it cannot tell.
func describeOwner(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return fmt.Sprintf("it belongs to uid %d with mode %04o; this palink runs as uid %d", st.Uid, fi.Mode().Perm(), os.Getuid())
}

// canRead reports whether this process may read the file at path.
func canRead(path string) bool {
	const readOK = 4 // R_OK
	return syscall.Access(path, readOK) == nil
}
