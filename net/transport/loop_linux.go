//go:build linux

package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// A Loop drives the sockets and clocks of many Clients from a few
// goroutines (see Config.Loop). A Client on its own has a reader goroutine,
// woken by Go's poller for every datagram, and a loop goroutine woken by a
// timer for every tick: with many clients in one process, the wake-ups,
// not the work, fill the scheduler (BENCHMARKS.md). In a Loop each shard
// waits in its own epoll for the sockets it holds and for the soonest of
// their clocks, and handles whatever is ready in one pass.
//
// A Loop is for processes that run many clients (load tests, bots); a
// player's one client is better off on its own goroutines.
type Loop struct {
	shards []*loopShard
	next   atomic.Uint32
	wg     sync.WaitGroup
}

// NewLoop starts a Loop of n shards (at least one), each a goroutine that
// waits in epoll; a system without epoll has no Loop (an error).
func NewLoop(n int) (*Loop, error) {
	l := &Loop{}
	for range max(n, 1) {
		s, err := newLoopShard()
		if err != nil {
			l.Close()
			return nil, err
		}
		l.shards = append(l.shards, s)
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			s.run()
		}()
	}
	return l, nil
}

// Close stops the Loop: the clients it still drives leave, telling the
// server, and their Runs return a *CloseError (CloseNormal); a Run started
// after Close returns an error at once. Close returns once every Run has
// let its client go.
func (l *Loop) Close() {
	for _, s := range l.shards {
		s.stop()
	}
	l.wg.Wait()
	for _, s := range l.shards {
		unix.Close(s.epfd)
		unix.Close(s.evfd)
	}
}

func (l *Loop) pick() *loopShard {
	return l.shards[int(l.next.Add(1))%len(l.shards)]
}

// loopShard is one goroutine's share of a Loop's clients.
type loopShard struct {
	epfd, evfd int

	mu       sync.Mutex // guards what other goroutines hand the shard
	adds     []*loopClient
	removes  []*loopClient
	stopping bool
	stopped  bool

	// The shard's goroutine alone uses these.
	byFD   map[int32]*loopClient
	timers []loopTimer // a min-heap by at
}

func newLoopShard() (*loopShard, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	evfd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(epfd)
		return nil, err
	}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, evfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(evfd)}); err != nil {
		unix.Close(epfd)
		unix.Close(evfd)
		return nil, err
	}
	return &loopShard{epfd: epfd, evfd: evfd, byFD: map[int32]*loopClient{}}, nil
}

// loopClient is a Client that a shard drives: its socket, out of Go's
// poller and nonblocking, and its handler.
type loopClient struct {
	c     *Client
	h     ClientHandler
	w     Waker
	shard *loopShard
	fd    int
	sock  *mmsgSocket
	d     *datagrams

	gen  uint64 // the timer entry that counts; the shard's goroutine only
	gone bool   // removed; the shard's goroutine only

	endOnce sync.Once
	ended   chan struct{} // closed when the session is over
	removed chan struct{} // closed when the shard has let the socket go
}

// loopTimer is a client's wake-up; entries whose gen is not the client's
// were superseded.
type loopTimer struct {
	at  time.Time
	lc  *loopClient
	gen uint64
}

// errLoopClosed ends the clients of a Loop that was closed under them.
var errLoopClosed = fmt.Errorf("transport: client loop closed: %w", net.ErrClosed)

// runInLoop is Run for a client in a Loop. It reports false, having
// changed nothing, if the socket cannot leave Go's poller.
func (c *Client) runInLoop(ctx context.Context, h ClientHandler, waker Waker) (error, bool) {
	fd, err := dupOut(c.conn, true)
	if err != nil {
		return nil, false
	}
	c.conn.Close() // the copy stays open, out of the poller
	s := c.cfg.Loop.pick()
	lc := &loopClient{
		c: c, h: h, w: waker, fd: fd, shard: s,
		sock:    newMmsgSocket(c.conn.LocalAddr(), false, clientBatch),
		d:       newDatagrams(clientBatch, c.cfg.MTU),
		ended:   make(chan struct{}),
		removed: make(chan struct{}),
	}
	c.mu.Lock()
	c.lp = lc
	c.mu.Unlock()
	s.hand(lc, false)
	var out error
	select {
	case <-ctx.Done():
		c.mu.Lock()
		if !errors.Is(context.Cause(ctx), ErrAbandoned) { // a crash, for tests: not a word to the server
			c.hangUp(CloseNormal)
		}
		c.mu.Unlock()
	case <-lc.ended:
		c.mu.Lock()
		out = c.err
		c.mu.Unlock()
	}
	s.hand(lc, true)
	<-lc.removed
	unix.Close(fd)
	c.closeOnce.Do(func() {})
	return out, true
}

// hand gives the shard a client to add or to remove, and wakes it.
func (s *loopShard) hand(lc *loopClient, remove bool) {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		lc.finish(errLoopClosed)
		if remove {
			close(lc.removed)
		}
		return
	}
	if remove {
		s.removes = append(s.removes, lc)
	} else {
		s.adds = append(s.adds, lc)
	}
	s.poke()
	s.mu.Unlock()
}

// poke wakes the shard's goroutine; s.mu is held, so that a stopped
// shard's eventfd, closed by Loop.Close, is never written.
func (s *loopShard) poke() {
	one := [8]byte{1}
	_, _ = unix.Write(s.evfd, one[:])
}

func (s *loopShard) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped {
		s.stopping = true
		s.poke()
	}
}

// end tells Run the session is over.
func (lc *loopClient) end() { lc.endOnce.Do(func() { close(lc.ended) }) }

// finish ends the session with err, unless it is over already, and tells
// Run.
func (lc *loopClient) finish(err error) {
	lc.c.mu.Lock()
	if lc.c.err == nil {
		lc.c.err = err
	}
	lc.c.mu.Unlock()
	lc.end()
}

// arm sets the client's wake-up; the shard's goroutine only (Run's
// timer, Client.rearm, is called from the shard while in a Loop).
func (lc *loopClient) arm(at time.Time) {
	lc.gen++
	lc.shard.push(loopTimer{at: at, lc: lc, gen: lc.gen})
}

// write sends one datagram on the nonblocking socket: one that does not
// fit in the send buffer is lost, as on the wire.
func (lc *loopClient) write(b []byte) { _, _ = unix.Write(lc.fd, b) }

func (s *loopShard) run() {
	events := make([]unix.EpollEvent, 256)
	pace := serverPacer
	for {
		timeout := -1
		if len(s.timers) > 0 {
			timeout = 0
			if d := time.Until(s.timers[0].at); d > 0 {
				timeout = int((d + time.Millisecond - 1) / time.Millisecond)
			}
		}
		n, err := unix.EpollWait(s.epfd, events, timeout)
		if err != nil && err != unix.EINTR {
			s.fail()
			return
		}
		now := time.Now()
		for _, e := range events[:max(n, 0)] {
			if e.Fd == int32(s.evfd) {
				if s.takeHanded(now) {
					return
				}
				continue
			}
			if lc := s.byFD[e.Fd]; lc != nil {
				s.read(lc, now)
			}
		}
		s.fire(now)
		if pace.read(max(n, 0), len(events), now) {
			// Busy: let datagrams gather for a moment rather than wait in
			// epoll for each (a waiting shard is woken by every one that
			// arrives, at the sender's cost), as a server's reader does.
			time.Sleep(pace.pause)
		}
	}
}

// takeHanded adds and removes the clients handed to the shard, and
// reports whether the shard has stopped: it was told to, and every client
// it had is gone. A stopping shard ends the clients it still has.
func (s *loopShard) takeHanded(now time.Time) bool {
	var buf [8]byte
	_, _ = unix.Read(s.evfd, buf[:])
	for range 64 {
		s.mu.Lock()
		adds, removes, stopping := s.adds, s.removes, s.stopping
		s.adds, s.removes = nil, nil
		if len(adds) == 0 && len(removes) == 0 {
			if stopping && len(s.byFD) == 0 {
				s.stopped = true
			}
			stopped := s.stopped
			s.mu.Unlock()
			if stopping {
				for _, lc := range s.byFD {
					lc.c.mu.Lock()
					if lc.c.err == nil {
						lc.c.hangUp(CloseNormal) // the server is told, as when a Run's context ends
					}
					lc.c.mu.Unlock()
					lc.end()
				}
			}
			return stopped
		}
		s.mu.Unlock()
		for _, lc := range adds {
			s.add(lc, now)
		}
		for _, lc := range removes {
			if !lc.gone {
				_ = unix.EpollCtl(s.epfd, unix.EPOLL_CTL_DEL, lc.fd, nil)
				delete(s.byFD, int32(lc.fd))
				lc.gone = true
			}
			close(lc.removed)
		}
	}
	s.mu.Lock()
	s.poke() // more to take: the next pass takes it
	s.mu.Unlock()
	return false
}

// add starts watching a client's socket and arms its first wake-up.
func (s *loopShard) add(lc *loopClient, now time.Time) {
	c := lc.c
	if err := unix.EpollCtl(s.epfd, unix.EPOLL_CTL_ADD, lc.fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(lc.fd)}); err != nil {
		lc.gone = true
		lc.finish(&net.OpError{Op: "read", Net: "udp", Source: c.conn.LocalAddr(), Err: err})
		return
	}
	s.byFD[int32(lc.fd)] = lc
	c.mu.Lock()
	c.rearm(now, lc.w, true)
	c.mu.Unlock()
}

// fail ends every client after epoll itself failed: their Runs return,
// and the shard lets their sockets go without waiting on epoll.
func (s *loopShard) fail() {
	s.mu.Lock()
	s.stopped = true
	adds, removes := s.adds, s.removes
	s.adds, s.removes = nil, nil
	s.mu.Unlock()
	for _, lc := range s.byFD {
		lc.finish(errLoopClosed)
	}
	for _, lc := range adds {
		lc.finish(errLoopClosed) // its Run hands it back, finds the shard stopped and lets go
	}
	for _, lc := range removes {
		close(lc.removed)
	}
}

// read takes what the client's socket holds, a few batches at most (the
// epoll is level-triggered: the rest wakes the next wait), and handles it.
func (s *loopShard) read(lc *loopClient, now time.Time) {
	c := lc.c
	for range 4 {
		n := lc.sock.prepare(lc.d.bufs)
		got, errno, ok := lc.sock.recv(uintptr(lc.fd), n, unix.MSG_DONTWAIT, lc.d.ns, lc.d.from, nil)
		if !ok {
			return
		}
		if errno != 0 {
			continue // an ICMP error on the connected socket: not fatal, as in Run's reader
		}
		lc.d.n = got
		c.mu.Lock()
		c.handleBatch(now, lc.d, lc.h)
		c.rearm(now, lc.w, false)
		c.mu.Unlock()
		if got < n {
			return
		}
	}
}

// fire runs the wake-ups due by now, each once: a wake-up that arms a
// new one for now or before waits for the next pass.
func (s *loopShard) fire(now time.Time) {
	for due := len(s.timers); due > 0 && len(s.timers) > 0 && !s.timers[0].at.After(now); due-- {
		t := s.pop()
		lc := t.lc
		if lc.gone || t.gen != lc.gen {
			continue
		}
		if err := lc.c.wakeUp(lc.h, lc.w); err != nil {
			lc.end()
		}
	}
	if len(s.timers) > 4*len(s.byFD)+64 {
		s.compact()
	}
}

func (s *loopShard) push(t loopTimer) {
	s.timers = append(s.timers, t)
	for i := len(s.timers) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.timers[i].at.Before(s.timers[p].at) {
			break
		}
		s.timers[i], s.timers[p] = s.timers[p], s.timers[i]
		i = p
	}
}

func (s *loopShard) pop() loopTimer {
	h := s.timers
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = loopTimer{}
	h = h[:last]
	s.timers = h
	s.down(0)
	return top
}

func (s *loopShard) down(i int) {
	h := s.timers
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].at.Before(h[l].at) {
			m = r
		}
		if !h[m].at.Before(h[i].at) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// compact drops superseded wake-ups.
func (s *loopShard) compact() {
	h := s.timers[:0]
	for _, t := range s.timers {
		if !t.lc.gone && t.gen == t.lc.gen {
			h = append(h, t)
		}
	}
	clear(s.timers[len(h):])
	s.timers = h
	for i := len(h)/2 - 1; i >= 0; i-- {
		s.down(i)
	}
}
