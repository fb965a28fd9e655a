package transport

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"
)

// inboxSize is the number of received datagrams a socket reader holds for
// its loop; when they are all taken the reader waits and the kernel's
// buffer takes the rest (or drops it), so memory stays bounded.
const inboxSize = 256

// datagram is one received datagram, in a buffer recycled by socketReader.
type datagram struct {
	buf  []byte // MTU+1 bytes: a datagram filling it was larger than the MTU
	n    int
	from netip.AddrPort
}

func (d *datagram) bytes() []byte { return d.buf[:d.n] }

// socketReader reads a UDP socket on its own goroutine and hands the
// datagrams to a loop through inbox, bounded by a free list of buffers.
type socketReader struct {
	conn  *net.UDPConn
	inbox chan *datagram
	free  chan *datagram
	fatal chan error // one error, then the reader has stopped
	done  chan struct{}
	wg    sync.WaitGroup
}

func startReader(conn *net.UDPConn, mtu int) *socketReader {
	r := &socketReader{
		conn:  conn,
		inbox: make(chan *datagram, inboxSize),
		free:  make(chan *datagram, inboxSize),
		fatal: make(chan error, 1),
		done:  make(chan struct{}),
	}
	for range inboxSize {
		r.free <- &datagram{buf: make([]byte, mtu+1)}
	}
	r.wg.Add(1)
	go r.run()
	return r
}

func (r *socketReader) run() {
	defer r.wg.Done()
	failures := 0
	for {
		var d *datagram
		select {
		case d = <-r.free:
		case <-r.done:
			return
		}
		n, from, err := r.conn.ReadFromUDPAddrPort(d.buf)
		if err != nil {
			r.free <- d
			if errors.Is(err, net.ErrClosed) {
				r.fatal <- fmt.Errorf("read %v: %w", r.conn.LocalAddr(), err)
				return
			}
			// Not fatal: ICMP errors reported on a connected socket (or on
			// any UDP socket on Windows), a datagram too large for the
			// buffer on Windows. Pause if they keep coming.
			if failures++; failures > 64 {
				select {
				case <-time.After(10 * time.Millisecond):
				case <-r.done:
					return
				}
			}
			continue
		}
		failures = 0
		d.n, d.from = n, netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
		select {
		case r.inbox <- d:
		case <-r.done:
			return
		}
	}
}

// recycle gives a datagram's buffer back to the reader.
func (r *socketReader) recycle(d *datagram) { r.free <- d }

// stop closes the socket and waits for the reader to return.
func (r *socketReader) stop() {
	close(r.done)
	r.conn.Close()
	r.wg.Wait()
}
