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
