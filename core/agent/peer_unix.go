//go:build unix

package agent

import (
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// fileOwner is the uid that owns a file.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, false
	}
	return int(st.Uid), true
}

// myUID is this process's uid.
func myUID() int { return os.Getuid() }

// userName names a uid for people: "alice (uid 1000)".
func userName(uid int) string {
	id := strconv.Itoa(uid)
	if u, err := user.LookupId(id); err == nil && u.Username != "" {
		return u.Username + " (uid " + id + ")"
	}
	return "uid " + id
}

// loginName is the name the agent records for a uid: the user name, else
// "uid:N".
func loginName(uid int) string {
	id := strconv.Itoa(uid)
	if u, err := user.LookupId(id); err == nil && u.Username != "" {
		return u.Username
	}
	return "uid:" + id
}

// groupID resolves a group name (agent.group).
func groupID(name string) (int, error) {
	g, err := user.LookupGroup(name)
	if err != nil {
		return -1, err
	}
	return strconv.Atoi(g.Gid)
}
