//go:build !unix

package agent

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
)

// fileOwner cannot tell a file's owner on this platform.
func fileOwner(fs.FileInfo) (int, bool) { return -1, false }

// myUID is this process's uid (-1 where there is none).
func myUID() int { return os.Getuid() }

// userName names a uid for people.
func userName(uid int) string { return "uid " + strconv.Itoa(uid) }

// loginName is the name the agent records for a uid.
func loginName(uid int) string { return "uid:" + strconv.Itoa(uid) }

// groupID resolves a group name (agent.group): not on this platform.
func groupID(string) (int, error) {
	return -1, errors.New("this platform has no unix groups")
}
