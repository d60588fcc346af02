package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockHolder finds in /proc/locks a process holding a flock on path, so that
// "store is locked" can say which palink to stop and how it holds the store.
func lockHolder(path string) (lockInfo, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return lockInfo{}, false
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return lockInfo{}, false
	}
	defer f.Close()
	return findLockHolder(bufio.NewScanner(f), uint64(st.Dev), st.Ino)
}

// findLockHolder scans lines of /proc/locks, such as
//
//	3: FLOCK  ADVISORY  WRITE 4242 fd:01:1835012 0 EOF
//	3: -> FLOCK  ADVISORY  WRITE 4243 fd:01:1835012 0 EOF
//
// for a granted flock (not a "->" waiter) on the file with device dev and
// inode ino; proc prints the device as hex major:minor. READ is the shared
// lock of a read-only palink, WRITE a writer's.
func findLockHolder(lines *bufio.Scanner, dev, ino uint64) (lockInfo, bool) {
	major := (dev>>8)&0xfff | (dev>>32)&^0xfff
	minor := dev&0xff | (dev>>12)&^0xff
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, ino)
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != want {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 {
			return lockInfo{pid: pid, shared: fields[3] == "READ"}, true
		}
	}
	return lockInfo{}, false
}
