package scheduler

import (
	"os"
	"strconv"
	"strings"
)

// leaseOwner is this process's lease owner id: host, pid and a random part
// (a pid is reused; the random part is not).
func leaseOwner(host string, pid int, rnd string) string {
	return host + ":" + strconv.Itoa(pid) + ":" + rnd
}

// ownerGone reports whether the process that holds a lease is known to be
// dead: it ran on this host and no process has its pid. Anything else (an
// owner elsewhere, a pid now used by another process) counts as alive, so
// the answer errs towards waiting.
func ownerGone(owner string) bool {
	parts := strings.Split(owner, ":")
	if len(parts) != 3 {
		return false
	}
	host, _ := os.Hostname()
	pid, err := strconv.Atoi(parts[1])
	if err != nil || parts[0] != host || pid <= 0 {
		return false
	}
	return !processExists(pid)
}
