package store

import (
	"bufio"
	"strings"
	"testing"
)

func TestFindLockHolder(t *testing.T) {
	const locks = `1: POSIX  ADVISORY  WRITE 11776 fe:00:778448 0 EOF
2: FLOCK  ADVISORY  WRITE 4242 103:02:778448 0 EOF
2: -> FLOCK  ADVISORY  WRITE 4243 fd:01:1835012 0 EOF
3: FLOCK  ADVISORY  READ 5151 fd:01:1835012 0 EOF
`
	dev := uint64(0xfd<<8 | 0x01) // major fd, minor 01
	pid, ok := findLockHolder(bufio.NewScanner(strings.NewReader(locks)), dev, 1835012)
	if !ok || pid != 5151 {
		t.Errorf("holder = %d, %t; want 5151 (the granted lock, not the waiter)", pid, ok)
	}
	big := uint64(0x103<<8 | 0x02)
	if pid, ok := findLockHolder(bufio.NewScanner(strings.NewReader(locks)), big, 778448); !ok || pid != 4242 {
		t.Errorf("holder on device 103:02 = %d, %t; want 4242 (POSIX locks are not bbolt's)", pid, ok)
	}
	if _, ok := findLockHolder(bufio.NewScanner(strings.NewReader(locks)), dev, 1); ok {
		t.Error("found a holder for an unlocked inode")
	}
}
