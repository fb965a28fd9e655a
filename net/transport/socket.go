package transport

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"
)

// A socket reader holds batches of received datagrams for its loop; when
// they are all taken the reader waits and the kernel's buffer takes the rest
// (or drops it), so memory stays bounded. A server reads up to serverBatch
// datagrams a system call (recvmmsg on Linux) into serverBatches batches;
// a client, which receives a few dozen a second and handles them on the
// reader's goroutine, holds one small batch.
const (
	serverBatch   = 32
	serverBatches = 8
	clientBatch   = 4
)

// pacer decides when a reader that has emptied its socket waits a moment
// before reading again. Under load (a server of hundreds of players) the
// datagrams then gather and the next read takes many at once with no wait
// in the kernel's poller: fewer system calls and wake-ups for the same
// datagrams, at the cost of up to pause more latency. A quiet socket is
// read at once, so a LAN game's round trip is not lengthened.
type pacer struct {
	pause time.Duration // 0: never wait
	above int           // datagrams a second from which reads are paced

	on    bool
	count int
	since time.Time
}

// serverPacer paces a server's reads from 4,000 datagrams a second (some
// 70 players at K = 1), by a millisecond.
var serverPacer = pacer{pause: time.Millisecond, above: 4000}

// paceWindow is how often the pacer re-decides from the rate it counted.
const paceWindow = 100 * time.Millisecond

// read counts n datagrams read at now, into a batch of size room, and
// reports whether the reader should pause before its next read: the rate
// is high and this read emptied the socket.
func (p *pacer) read(n, room int, now time.Time) bool {
	if p.pause <= 0 {
		return false
	}
	p.count += n
	if el := now.Sub(p.since); el >= paceWindow || el < 0 {
		p.on = el >= 0 && el < 2*paceWindow && float64(p.count) >= float64(p.above)*el.Seconds()
		p.count, p.since = 0, now
	}
	return p.on && n < room
}

// batchSocket reads and writes datagrams a batch at a time: recvmmsg and
// sendmmsg on Linux, one datagram a call elsewhere (singleSocket).
type batchSocket interface {
	// readBatch waits for datagrams and reads up to len(bufs) of them,
	// datagram i into bufs[i] (ns[i] bytes, from from[i], unmapped). If
	// dst is not nil, dst[i] is the local address datagram i was sent to,
	// unmapped, where the socket was asked to say (a server bound to a
	// wildcard address: see listenPktinfo), else the zero Addr.
	readBatch(bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr) (int, error)
	// readEach reads as readBatch does, and calls handle with the number
	// read after each read, until a read fails; it returns that error.
	readEach(bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr, handle func(n int)) error
	// writeBatch sends bufs[i] to to[i] and returns how many went; on an
	// error, the datagram after those is the one that failed. If src is
	// not nil and src[i] is valid, datagram i leaves from that local
	// address (where the socket was asked to say where datagrams came to;
	// elsewhere src is ignored and the system chooses).
	writeBatch(bufs [][]byte, src []netip.Addr, to []netip.AddrPort) (int, error)
}

// openBatchSocket returns conn's batched reads and writes, or one datagram
// a call where the system has no batches.
func openBatchSocket(conn *net.UDPConn, size int) batchSocket {
	if b, err := newBatchSocket(conn, size); err == nil {
		return b
	}
	return singleSocket{conn}
}

// A datagramSocket is the socket a reader and a writer share: Go's own
// (polledSocket), or on Linux a server's socket taken out of Go's poller
// (detachedSocket).
type datagramSocket interface {
	// batches returns a reader's or a writer's batched calls, each with
	// its own arguments: a reader and a writer may use the socket at once.
	batches(size int) batchSocket
	// interrupt makes a read under way, and every later one, fail with
	// net.ErrClosed; the socket may not be used once the reader returned.
	interrupt()
	// release frees the socket after interrupt, once no read or write is
	// under way.
	release()
	localAddr() net.Addr
	// kernelDrops reads how many datagrams the kernel has dropped for
	// want of room in the socket's receive buffer since it was opened (a
	// 32-bit count that wraps); ok is false where the system does not say.
	// Only the goroutine that may release the socket calls it.
	kernelDrops() (n uint32, ok bool)
}

// polledSocket is a UDP socket in Go's poller: its reads wait in the poller.
type polledSocket struct{ conn *net.UDPConn }

func (p polledSocket) batches(size int) batchSocket { return openBatchSocket(p.conn, size) }
func (p polledSocket) interrupt()                   { p.conn.Close() }
func (p polledSocket) release()                     {}
func (p polledSocket) localAddr() net.Addr          { return p.conn.LocalAddr() }
func (p polledSocket) kernelDrops() (uint32, bool)  { return connDrops(p.conn) }

// singleSocket is a batchSocket that reads and writes one datagram a call.
type singleSocket struct{ conn *net.UDPConn }

func (s singleSocket) readBatch(bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr) (int, error) {
	n, a, err := s.conn.ReadFromUDPAddrPort(bufs[0])
	if err != nil {
		return 0, err
	}
	ns[0], from[0] = n, netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
	if dst != nil {
		dst[0] = netip.Addr{}
	}
	return 1, nil
}

func (s singleSocket) readEach(bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr, handle func(int)) error {
	return eachBatch(s, bufs, ns, from, dst, handle)
}

// eachBatch is readEach for a socket whose readBatch does the waiting:
// read, handle, until a read fails.
func eachBatch(b batchSocket, bufs [][]byte, ns []int, from []netip.AddrPort, dst []netip.Addr, handle func(int)) error {
	for {
		n, err := b.readBatch(bufs, ns, from, dst)
		if err != nil {
			return err
		}
		handle(n)
	}
}

func (s singleSocket) writeBatch(bufs [][]byte, _ []netip.Addr, to []netip.AddrPort) (int, error) {
	for i := range bufs {
		if _, err := s.conn.WriteToUDPAddrPort(bufs[i], to[i]); err != nil {
			return i, err
		}
	}
	return len(bufs), nil
}

// datagrams is a batch of received datagrams, recycled by socketReader.
type datagrams struct {
	bufs [][]byte // MTU+1 bytes each: a datagram filling one was larger than the MTU
	ns   []int
	from []netip.AddrPort
	dst  []netip.Addr // the local address each came to, where the socket says
	n    int          // datagrams held
}

func (d *datagrams) bytes(i int) []byte { return d.bufs[i][:d.ns[i]] }

// newDatagrams returns an empty batch of size datagrams for an MTU.
func newDatagrams(size, mtu int) *datagrams {
	d := &datagrams{bufs: make([][]byte, size), ns: make([]int, size), from: make([]netip.AddrPort, size), dst: make([]netip.Addr, size)}
	for i := range d.bufs {
		d.bufs[i] = make([]byte, mtu+1)
	}
	return d
}

// socketReader reads a UDP socket on its own goroutine and hands the
// datagrams to a loop through inbox, a batch at a time, bounded by a free
// list of batches; or, given handle, handles each batch itself, on its
// goroutine, and nothing arrives in inbox.
type socketReader struct {
	handle func(*datagrams)
	sock   datagramSocket
	batch  batchSocket
	inbox  chan *datagrams
	free   chan *datagrams
	fatal  chan error // one error, then the reader has stopped
	done   chan struct{}
	pace   pacer
	wg     sync.WaitGroup
}

func startReader(sock datagramSocket, mtu, batch, batches int, pace pacer) *socketReader {
	r := newReader(sock, mtu, batch, batches)
	r.pace = pace
	r.wg.Add(1)
	go r.run()
	return r
}

// startHandledReader starts a reader that calls handle with each batch it
// reads, on its own goroutine, through one batch.
func startHandledReader(sock datagramSocket, mtu, batch int, handle func(*datagrams)) *socketReader {
	r := newReader(sock, mtu, batch, 1)
	r.handle = handle
	r.wg.Add(1)
	go r.run()
	return r
}

func newReader(sock datagramSocket, mtu, batch, batches int) *socketReader {
	r := &socketReader{
		sock:  sock,
		batch: sock.batches(batch),
		inbox: make(chan *datagrams, batches),
		free:  make(chan *datagrams, batches),
		fatal: make(chan error, 1),
		done:  make(chan struct{}),
	}
	for range batches {
		r.free <- newDatagrams(batch, mtu)
	}
	return r
}

func (r *socketReader) run() {
	defer r.wg.Done()
	if r.handle != nil {
		r.runHandled()
		return
	}
	failures := 0
	var wait *time.Timer
	if r.pace.pause > 0 {
		wait = time.NewTimer(time.Hour)
		defer wait.Stop()
	}
	for {
		var d *datagrams
		select {
		case d = <-r.free:
		case <-r.done:
			return
		}
		n, err := r.batch.readBatch(d.bufs, d.ns, d.from, d.dst)
		if err != nil {
			r.free <- d
			if !r.failed(err, &failures) {
				return
			}
			continue
		}
		failures = 0
		d.n = n
		select {
		case r.inbox <- d:
		case <-r.done:
			return
		}
		if wait != nil && r.pace.read(n, len(d.bufs), time.Now()) {
			wait.Reset(r.pace.pause)
			select {
			case <-wait.C:
			case <-r.done:
				return
			}
		}
	}
}

// runHandled is run for a reader that handles its datagrams itself: one
// batch, read and handled until the socket is closed.
func (r *socketReader) runHandled() {
	d := <-r.free
	failures := 0
	for {
		err := r.batch.readEach(d.bufs, d.ns, d.from, d.dst, func(n int) {
			failures = 0
			d.n = n
			r.handle(d)
		})
		if !r.failed(err, &failures) {
			return
		}
	}
}

// failed deals with a read's error and reports whether to read again: not
// once the socket is closed (the loop is told through fatal) or the reader
// stopped. Other errors are not fatal: ICMP errors reported on a connected
// socket (or on any UDP socket on Windows), a datagram too large for the
// buffer on Windows; the reader pauses if they keep coming.
func (r *socketReader) failed(err error, failures *int) bool {
	if errors.Is(err, net.ErrClosed) {
		r.fatal <- fmt.Errorf("read %v: %w", r.sock.localAddr(), err)
		return false
	}
	if *failures++; *failures > 64 {
		select {
		case <-time.After(10 * time.Millisecond):
		case <-r.done:
			return false
		}
	}
	return true
}

// recycle gives a batch back to the reader.
func (r *socketReader) recycle(d *datagrams) { r.free <- d }

// stop closes the socket and waits for the reader to return.
func (r *socketReader) stop() {
	close(r.done)
	r.sock.interrupt()
	r.wg.Wait()
	r.sock.release()
}

// batchWriter gathers the datagrams a loop sends while it handles what it
// received and its timers, and writes them with one system call a batch
// (sendmmsg on Linux) when the loop is done or the batch is full.
type batchWriter struct {
	sock batchSocket
	bufs [][]byte
	src  []netip.Addr // the local address each leaves from; the zero Addr: the system's choice
	to   []netip.AddrPort
	n    int
}

func newBatchWriter(sock datagramSocket, mtu, batch int) *batchWriter {
	w := &batchWriter{sock: sock.batches(batch), bufs: make([][]byte, batch), src: make([]netip.Addr, batch), to: make([]netip.AddrPort, batch)}
	for i := range w.bufs {
		w.bufs[i] = make([]byte, 0, mtu)
	}
	return w
}

// add queues a copy of b for to, from the local address src (the zero
// Addr: the system's choice).
func (w *batchWriter) add(b []byte, src netip.Addr, to netip.AddrPort) {
	w.bufs[w.n] = append(w.bufs[w.n][:0], b...)
	w.src[w.n], w.to[w.n] = src, to
	if w.n++; w.n == len(w.bufs) {
		w.flush()
	}
}

// flush writes what is queued. A datagram the system refuses is skipped:
// its peer, if it cannot be reached, times out.
func (w *batchWriter) flush() {
	for sent := 0; sent < w.n; {
		k, err := w.sock.writeBatch(w.bufs[sent:w.n], w.src[sent:w.n], w.to[sent:w.n])
		sent += k
		if err != nil || k == 0 {
			sent++
		}
	}
	w.n = 0
}
