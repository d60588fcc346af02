//go:build !linux

package core

import (
	"net"
)

// peerUser cannot tell the peer on this platform: the agent records the
// connection as the agent's own user.
func peerUser(conn net.Conn) (string, error) { return CurrentUser(), nil }
