package core

import (
	"fmt"
	"net"
	"os/user"
	"strconv"

	"golang.org/x/sys/unix"
)

// peerUser is the OS user at the other end of a unix socket (SO_PEERCRED).
func peerUser(conn net.Conn) (string, error) {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return "", fmt.Errorf("not a unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return "", err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return "", err
	}
	if credErr != nil {
		return "", fmt.Errorf("peer credentials: %w", credErr)
	}
	uid := strconv.Itoa(int(cred.Uid))
	if u, err := user.LookupId(uid); err == nil {
		return u.Username, nil
	}
	return "uid:" + uid, nil
}
