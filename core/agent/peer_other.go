//go:build !linux && !darwin && !freebsd

package agent

import (
	"errors"
	"net"
)

// peerUID cannot tell the peer on this platform: the agent refuses every
// connection and clients refuse every agent, rather than guess.
func peerUID(net.Conn) (int, error) {
	return -1, errors.New("this platform does not tell who is at the other end of a unix socket")
}
