package scheduler

import (
	"fmt"
	"os"
	"strings"
)

// leaseOwner is this process's lease owner id, which command logs and
// messages show as it is: the host and pid a person can look for, and a
// random part (a pid is reused; the random part is not).
func leaseOwner(host string, pid int, rnd string) string {
	return fmt.Sprintf("%s pid %d #%s", host, pid, rnd)
}

// ownerGone reports whether the process that holds a lease is known to be
// dead: it ran on this host and no process has its pid. Anything else (an
// owner elsewhere, a pid now used by another process, an owner id of an
// older palink) counts as alive, so the answer errs towards waiting.
func ownerGone(owner string) bool {
	host, rest, ok := strings.Cut(owner, " pid ")
	if !ok {
		return false
	}
	var pid int
	var rnd string
	if n, err := fmt.Sscanf(rest, "%d #%s", &pid, &rnd); n != 2 || err != nil {
		return false
	}
	me, _ := os.Hostname()
	if host != me || pid <= 0 {
		return false
	}
	return !processExists(pid)
}
