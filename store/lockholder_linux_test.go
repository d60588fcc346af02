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
	h, ok := findLockHolder(bufio.NewScanner(strings.NewReader(locks)), dev, 1835012)
	if !ok || h.pid != 5151 || !h.shared {
		t.Errorf("holder = %+v, %t; want 5151, shared (the granted READ lock, not the waiter)", h, ok)
	}
	big := uint64(0x103<<8 | 0x02)
	if h, ok := findLockHolder(bufio.NewScanner(strings.NewReader(locks)), big, 778448); !ok || h.pid != 4242 || h.shared {
		t.Errorf("holder on device 103:02 = %+v, %t; want 4242, a writer (POSIX locks are not bbolt's)", h, ok)
	}
	if _, ok := findLockHolder(bufio.NewScanner(strings.NewReader(locks)), dev, 1); ok {
		t.Error("found a holder for an unlocked inode")
	}
}
