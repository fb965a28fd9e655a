//go:build !linux

package transport

import (
	"errors"
	"net"
)

// Elsewhere than Linux a socket reads and writes one datagram a call.
func newBatchSocket(*net.UDPConn, int) (batchSocket, error) {
	return nil, errors.New("no batched datagrams on this system")
}

// listenSocket keeps a server's socket in Go's poller.
func listenSocket(conn *net.UDPConn) datagramSocket { return polledSocket{conn} }
