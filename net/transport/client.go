package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"rockstep/net/wire"
)

// ClientHandler receives a client's events. Its methods are called by Run
// only (from its loop and its reader goroutines), one at a time; they may
// call Client.Send.
type ClientHandler interface {
	// Message delivers one frame from the server, in the order sent. frame
	// is valid only during the call.
	Message(frame []byte)
	// Tick is called at least every Config.Interval, and at a Waker's
	// wakes.
	Tick(now time.Time)
}

// Client is the dialling end of the UDP transport: one connected socket and
// one KCP session, driven by Run.
type Client struct {
	cfg     Config
	conn    *net.UDPConn // nil for a carried client (link is a carrierConn)
	link    packetConn   // conn, or the carrier's (carrier_client.go)
	server  netip.AddrPort
	sess    *session
	hostPub []byte // the host key the server proved
	now     time.Time
	err     error // set once the session is over; Run returns it

	// While Run runs, mu is held by its loop and by its reader while they
	// use the session or call the handler.
	mu     sync.Mutex
	wake   *time.Timer // Run's one timer
	lp     *loopClient // or, in a Loop, its part of the Loop
	armed  time.Time   // when wake fires
	tickAt time.Time   // when the transport's next tick is due

	obuf []byte // sealed datagrams
	pbuf []byte // an opened payload
	rbuf []byte // a received frame

	stray func(netip.AddrPort, []byte) // the sharing server's, for datagrams not this client's (Server.DialShared); nil: none

	packetsIn  atomic.Uint64
	keepalives atomic.Uint64
	dropped    [NumDropReasons]atomic.Uint64
	dlog       dropLog

	running   atomic.Bool
	closeOnce sync.Once
}

// Dial connects to the server at addr ("127.0.0.1:7777", "[::1]:7777",
// "host:port") and performs the handshake: Hello, Cookie, Connect, Accept,
// each repeated every 250 ms until answered, until ctx ends or
// cfg.HandshakeTimeout passes. A refusal is an error matching ErrRefused;
// no answer, one matching ErrTimeout; a host key other than
// cfg.HostFingerprint, one matching ErrHostKey. Zero numeric fields of cfg
// take LAN()'s values. Call Run to use the connection.
func Dial(ctx context.Context, addr string, cfg Config) (*Client, error) {
	return dial(ctx, nil, addr, cfg)
}

// DialFrom is Dial from a chosen local IP (port chosen by the system): load
// tests give each simulated machine its own loopback address, so per-IP
// limits apply to them as they would on a LAN.
func DialFrom(ctx context.Context, local netip.Addr, addr string, cfg Config) (*Client, error) {
	return dial(ctx, net.UDPAddrFromAddrPort(netip.AddrPortFrom(local, 0)), addr, cfg)
}

// dial is Dial from a chosen local address (nil: any).
func dial(ctx context.Context, local *net.UDPAddr, addr string, cfg Config) (*Client, error) {
	return dialWith(ctx, local, nil, addr, cfg, nil)
}

// dialWith is dial with control (nil: none) setting the socket's options
// before it binds, and stray (nil: none) given the datagrams for the
// server that shares the socket's port (Server.DialShared's).
func dialWith(ctx context.Context, local *net.UDPAddr, control func(string, string, syscall.RawConn) error, addr string, cfg Config, stray func(netip.AddrPort, []byte)) (*Client, error) {
	if u := carrierURL(addr); u != "" {
		return dialWebSocket(ctx, u, cfg)
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	var conn *net.UDPConn
	if control == nil {
		conn, err = net.DialUDP("udp", local, ua)
	} else {
		var nc net.Conn
		d := net.Dialer{LocalAddr: local, Control: control}
		nc, err = d.DialContext(ctx, "udp", ua.String())
		if err == nil {
			conn = nc.(*net.UDPConn)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	c := &Client{
		cfg:    cfg,
		conn:   conn,
		link:   conn,
		server: ua.AddrPort(),
		stray:  stray,
		obuf:   make([]byte, 0, cfg.MTU),
		pbuf:   make([]byte, 0, cfg.MTU),
		dlog:   dropLog{log: cfg.Log, who: "transport client"},
	}
	if err := c.handshake(ctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	return c, nil
}

// handshake runs the client side of the handshake on the socket, with read
// deadlines and no goroutine.
func (c *Client) handshake(ctx context.Context) error {
	start := time.Now()
	deadline := start.Add(c.cfg.HandshakeTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	// Wake a blocked read when ctx ends.
	var cancelled atomic.Bool
	stopWake := context.AfterFunc(ctx, func() {
		cancelled.Store(true)
		_ = c.link.SetReadDeadline(time.Unix(1, 0))
	})
	defer stopWake()
	defer c.link.SetReadDeadline(time.Time{})

	hs, err := newClientHandshake(c.cfg.HostFingerprint)
	if err != nil {
		return err
	}
	buf := make([]byte, c.cfg.MTU+1)
	for attempt := 0; ; attempt++ {
		now := time.Now()
		if cancelled.Load() {
			return ctx.Err()
		}
		if !now.Before(deadline) {
			stage := "hello"
			if hs.cookie {
				stage = "connect"
			}
			return fmt.Errorf("no answer to %s after %d attempts in %v: %w",
				stage, attempt, now.Sub(start).Round(time.Millisecond), ErrTimeout)
		}
		if _, err := c.link.Write(hs.pkt); err != nil && !isTransient(err) {
			return err
		}
		retry := now.Add(handshakeRetry)
		if retry.After(deadline) {
			retry = deadline
		}
		if cancelled.Load() {
			return ctx.Err()
		}
		if err := c.link.SetReadDeadline(retry); err != nil {
			return err
		}
	read:
		for {
			n, err := c.link.Read(buf)
			if err != nil {
				if cancelled.Load() {
					return ctx.Err()
				}
				if isTimeout(err) {
					break read
				}
				if isTransient(err) {
					continue
				}
				return err
			}
			// Anything but an answer to this handshake (a stale answer, a
			// forgery, a sealed datagram whose Accept was lost) is ignored:
			// the server repeats what matters.
			hadCookie := hs.cookie
			est, err := hs.receive(buf[:n])
			switch {
			case err == nil && est == nil && c.stray != nil && n > 0 && forServer(buf[0]):
				c.stray(c.server, buf[:n]) // the peer dials the server sharing our port
				continue
			case err != nil:
				return err
			case est != nil:
				c.accept(est, time.Now())
				return nil
			case hs.cookie && !hadCookie:
				break read // send the Connect now
			}
		}
	}
}

func (c *Client) accept(est *established, now time.Time) {
	c.now = now
	c.hostPub = est.hostPub
	var sess *session
	sess = newSession(c.cfg, est.conv, c.server, est.ch, now, func(buf []byte, size int) {
		c.writeSealed(kindData, buf[:size])
	})
	c.sess = sess
	c.rbuf = make([]byte, sess.recvBufSize())
}

// HostFingerprint returns the fingerprint of the host key the server
// proved in the handshake (see Fingerprint).
func (c *Client) HostFingerprint() string { return Fingerprint(c.hostPub) }

// Stats returns the client's counters. It is safe from any goroutine.
func (c *Client) Stats() ClientStats {
	st := ClientStats{PacketsIn: c.packetsIn.Load(), Keepalives: c.keepalives.Load()}
	for i := range st.Dropped {
		st.Dropped[i] = c.dropped[i].Load()
	}
	return st
}

func (c *Client) drop(r DropReason) {
	n := c.dropped[r].Add(1)
	c.dlog.note(c.now, r, c.server, n)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// isTransient reports whether a socket error leaves the socket usable: an
// ICMP error reported on a connected socket, for one.
func isTransient(err error) bool {
	return err != nil && !errors.Is(err, net.ErrClosed) && !isTimeout(err)
}

// LocalAddr returns the client socket's address.
func (c *Client) LocalAddr() netip.AddrPort {
	if c.conn == nil {
		return netip.AddrPort{} // a carried client's address is its carrier's business
	}
	return c.conn.LocalAddr().(*net.UDPAddr).AddrPort()
}

// RemoteAddr returns the server's address.
func (c *Client) RemoteAddr() netip.AddrPort { return c.server }

// Send queues frame (1 to wire.MaxFrame bytes, copied) for the server. It fails
// once the session is over, or if MaxQueue bytes are already waiting for the
// server's acknowledgement. Call it from handler callbacks or before Run.
func (c *Client) Send(frame []byte) error {
	if c.err != nil {
		return c.err
	}
	return c.sess.send(frame, c.cfg.MaxQueue)
}

// SendDatagram sends frame to the server at once as one unreliable
// datagram (see Server.SendDatagram). Call it from handler callbacks or
// before Run.
func (c *Client) SendDatagram(frame []byte) error {
	switch {
	case c.err != nil:
		return c.err
	case len(frame) == 0 || sealedOverhead+len(frame) > c.cfg.MTU:
		return fmt.Errorf("send datagram: %d bytes: %w", len(frame), ErrFrameSize)
	}
	c.writeSealed(kindDgram, frame)
	return c.err
}

// Queued returns the bytes of frames sent and not yet acknowledged. Call it
// from handler callbacks or before Run.
func (c *Client) Queued() int { return c.sess.queued() }

// Run drives the connection until ctx is done (it then tells the server and
// returns nil, unless ctx was cancelled with the cause ErrAbandoned: then it
// stops without a word, as a crashed program would), the server closes it (an error matching ErrClosed, a
// *CloseError), or the server is silent past Timeout (an error matching
// ErrTimeout). The socket is closed when Run returns. Run may be called once.
func (c *Client) Run(ctx context.Context, h ClientHandler) error {
	if !c.running.CompareAndSwap(false, true) {
		return errors.New("transport: Client.Run called twice")
	}
	if c.err != nil { // closed before Run
		return c.err
	}
	waker, _ := h.(Waker)
	c.mu.Lock()
	c.now = time.Now()
	c.sess.lastRecv = c.now // the time before Run is not the server's silence
	c.tickAt = c.now.Add(c.cfg.Interval)
	c.mu.Unlock()
	if c.cfg.Loop != nil && c.conn != nil {
		if err, ok := c.runInLoop(ctx, h, waker); ok {
			return err
		}
	}
	c.mu.Lock()
	c.wake = time.NewTimer(time.Hour)
	c.rearm(c.now, waker, true)
	c.mu.Unlock()
	defer c.wake.Stop()
	// The reader handles what arrives on its own goroutine, under c.mu, so
	// that a datagram wakes one goroutine, not a reader and then this loop.
	// This loop keeps the clock: one timer, at the transport's next tick
	// or, for a handler that knows when it next has work (a lockstep
	// session's next tick, a Waker), then if that is sooner: a turn's
	// packet leaves the moment the turn is complete.
	r := startHandledReader(c.socket(), c.cfg.MTU, clientBatch, func(d *datagrams) {
		c.mu.Lock()
		defer c.mu.Unlock()
		now := time.Now()
		c.handleBatch(now, d, h)
		c.rearm(now, waker, false)
	})
	defer c.closeOnce.Do(r.stop)
	for {
		select {
		case <-ctx.Done():
			c.mu.Lock()
			defer c.mu.Unlock()
			if errors.Is(context.Cause(ctx), ErrAbandoned) {
				return nil // a crash, for tests: not a word to the server
			}
			c.hangUp(CloseNormal)
			return nil
		case err := <-r.fatal:
			return fmt.Errorf("client %v: %w", c.LocalAddr(), err)
		case <-c.wake.C:
		}
		if err := c.wakeUp(h, waker); err != nil {
			return err
		}
	}
}

// wakeUp is Run's turn when its timer fires: the transport's tick when it
// is due (or due within half an Interval: it rides on the handler's wake
// instead of adding one), the handler's, and the timer set again. It
// returns the error that ended the session, if one has.
func (c *Client) wakeUp(h ClientHandler, waker Waker) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if c.err == nil && !now.Before(c.tickAt.Add(-c.cfg.Interval/2)) {
		c.tick(now)
		c.tickAt = now.Add(c.cfg.Interval)
	}
	if c.err == nil {
		h.Tick(now)
	}
	if c.err != nil {
		return c.err
	}
	c.rearm(now, waker, true)
	return nil
}

// rearm sets Run's timer to the transport's next tick or the handler's next
// wake, whichever is sooner; after a datagram (fired false) only if that is
// sooner than the timer's time, and to fire at once if the session ended,
// so that Run returns. A wake already past means the handler is waiting for
// the network, not the clock: the next datagram or tick wakes it. c.mu is
// held.
func (c *Client) rearm(now time.Time, waker Waker, fired bool) {
	if c.err != nil {
		if c.lp != nil {
			c.lp.end()
		} else {
			c.wake.Reset(0)
		}
		return
	}
	next := c.tickAt
	if waker != nil {
		if w := waker.Wake(); w.After(now) && w.Before(next) {
			next = w
		}
	}
	if fired || next.Before(c.armed) {
		if c.lp != nil {
			c.lp.arm(next)
		} else {
			c.wake.Reset(next.Sub(now))
		}
		c.armed = next
	}
}

// Waker is a ClientHandler that knows when it next has work: Run calls its
// Tick then too, when that is sooner than the next Interval.
type Waker interface {
	Wake() time.Time
}

// handleBatch handles a batch of received datagrams; c.mu is held.
func (c *Client) handleBatch(now time.Time, d *datagrams, h ClientHandler) {
	for i := range d.n {
		if c.err != nil {
			return
		}
		c.handlePacket(now, d.bytes(i), h)
	}
}

// Close tells the server the client is leaving and releases the socket, for
// a client whose Run was never called. Run closes its socket itself when it
// returns; to stop a running client, end Run's context.
func (c *Client) Close() error {
	if c.running.Load() {
		return nil
	}
	var err error
	c.closeOnce.Do(func() {
		c.hangUp(CloseNormal)
		err = c.link.Close()
	})
	return err
}

// hangUp tells the server the session is over, best effort, three times.
func (c *Client) hangUp(reason byte) {
	if c.err == nil {
		c.err = &CloseError{Reason: reason}
	}
	for range 3 {
		c.writeSealed(kindClose, []byte{reason})
	}
}

// writeSealed seals payload as a datagram of kind and sends it. A session
// whose sequence numbers ran out is over.
func (c *Client) writeSealed(kind byte, payload []byte) {
	var err error
	c.obuf, err = c.sess.ch.seal(c.obuf[:0], kind, payload)
	if err != nil {
		if c.err == nil {
			c.err = fmt.Errorf("server %v: %w", c.server, err)
		}
		return
	}
	c.write(c.obuf)
	c.sess.lastSend = c.now
}

// handlePacket handles one datagram from the server. The socket is
// connected, so only datagrams from the server's address arrive; they are
// still checked, and only those sealed under the session's key count.
func (c *Client) handlePacket(now time.Time, pkt []byte, h ClientHandler) {
	c.now = now
	if c.err != nil {
		return
	}
	c.packetsIn.Add(1)
	if len(pkt) > c.cfg.MTU {
		c.drop(DropOversize)
		return
	}
	if len(pkt) > 0 && pkt[0] == kindKeepalive && isKeepalive(pkt) {
		c.keepalives.Add(1) // a path kept open to this port (keepalive.go): nothing to do
		return
	}
	if len(pkt) > 0 && c.stray != nil && (pkt[0] == kindHello || pkt[0] == kindConnect) {
		c.stray(c.server, pkt) // the peer dials the server sharing our port
		return
	}
	if len(pkt) == 0 || !sealedKind(pkt[0]) {
		c.drop(DropMalformed) // handshake repeats, garbage
		return
	}
	conv, ok := convOf(pkt)
	switch {
	case !ok:
		c.drop(DropMalformed)
		return
	case conv != c.sess.conv && c.stray != nil:
		c.stray(c.server, pkt) // a session of the peer with the server sharing our port
		return
	case conv != c.sess.conv:
		c.drop(DropUnknownSession)
		return
	}
	plain, _, res := c.sess.ch.open(c.pbuf, pkt)
	switch res {
	case openMalformed:
		c.drop(DropMalformed)
		return
	case openReplay:
		c.drop(DropReplay)
		return
	case openForged:
		c.drop(DropForged)
		return
	}
	switch pkt[0] {
	case kindPing:
		if len(plain) != 0 {
			c.drop(DropMalformed)
			return
		}
		c.sess.lastRecv = now
	case kindClose:
		if len(plain) != 1 {
			c.drop(DropMalformed)
			return
		}
		c.err = fmt.Errorf("server %v: %w", c.server, &CloseError{Reason: plain[0], ByPeer: true})
	case kindChallenge:
		// The server heard us from a new address (our NAT rebound, or we
		// roamed) and asks whether we are there: the echo, sent from
		// where we are, moves the session here.
		if len(plain) != challengeSize {
			c.drop(DropMalformed)
			return
		}
		c.sess.lastRecv = now
		c.writeSealed(kindResponse, plain)
	case kindResponse:
		c.drop(DropMalformed) // the client's to send
	case kindDgram:
		if len(plain) == 0 || len(plain) > wire.MaxFrame {
			c.drop(DropMalformed)
			return
		}
		c.sess.lastRecv = now
		h.Message(plain)
	case kindData:
		if !c.sess.input(plain) {
			c.drop(DropMalformed)
			return
		}
		c.sess.lastRecv = now
		for c.err == nil {
			n, err := c.sess.recv(c.rbuf)
			if err != nil {
				c.hangUp(CloseProtocol)
				c.err = fmt.Errorf("server %v: %w", c.server, err)
				return
			}
			if n == 0 {
				return
			}
			h.Message(c.rbuf[:n])
		}
	}
}

// tick drives KCP, sends a heartbeat when idle, and gives up on a silent
// server.
func (c *Client) tick(now time.Time) {
	// A client that has not run for longer than a heartbeat (a browser
	// tab's one thread busy drawing or starting its audio, a process the
	// machine did not schedule) cannot tell the server's silence from its
	// own absence: that span does not count (but for one Interval, so
	// that a client that is never scheduled still times out), and the
	// datagrams that waited for it meanwhile are read before a timeout is
	// decided.
	if away := now.Sub(c.now); away > c.cfg.Heartbeat {
		c.sess.lastRecv = c.sess.lastRecv.Add(away - c.cfg.Interval)
	}
	c.now = now
	c.sess.update()
	switch silent := now.Sub(c.sess.lastRecv); {
	case silent > c.cfg.Timeout:
		c.hangUp(CloseTimeout)
		c.err = fmt.Errorf("server %v silent for %v: %w", c.server, silent.Round(time.Millisecond), ErrTimeout)
	case now.Sub(c.sess.lastSend) >= c.cfg.Heartbeat:
		c.writeSealed(kindPing, nil)
	}
	c.dlog.flush(now, func(r DropReason) uint64 { return c.dropped[r].Load() })
}

func (c *Client) write(b []byte) {
	if c.lp != nil {
		c.lp.write(b)
		return
	}
	if c.link == nil { // a fuzzed client
		return
	}
	// Errors are ignored: UDP is best effort, and a server that cannot be
	// reached times out.
	_, _ = c.link.Write(b)
}
