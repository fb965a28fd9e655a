//go:build !linux

package transport

import (
	"context"
	"errors"
	"net"
	"time"
)

// Elsewhere than Linux a socket reads and writes one datagram a call.
func newBatchSocket(*net.UDPConn, int) (batchSocket, error) {
	return nil, errors.New("no batched datagrams on this system")
}

// connDrops: this system does not say how many datagrams its kernel
// dropped for a full receive buffer.
func connDrops(*net.UDPConn) (uint32, bool) { return 0, false }

// listenPktinfo: elsewhere than Linux a socket does not say where a
// datagram came to; a server's answers leave from the system's choice.
func listenPktinfo(*net.UDPConn) bool { return false }

// listenSocket keeps a server's socket in Go's poller.
func listenSocket(conn *net.UDPConn) datagramSocket { return polledSocket{conn} }

// Loop drives many Clients from a few goroutines on Linux (see
// loop_linux.go); elsewhere there is none, and NewLoop says so.
type Loop struct{}

// NewLoop fails: this system has no client Loop.
func NewLoop(int) (*Loop, error) { return nil, errors.New("transport: no client loop on this system") }

// Close does nothing.
func (*Loop) Close() {}

type loopClient struct{}

func (*loopClient) end()          {}
func (*loopClient) arm(time.Time) {}
func (*loopClient) write([]byte)  {}

func (c *Client) runInLoop(context.Context, ClientHandler, Waker) (error, bool) { return nil, false }
