package transport

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
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

// ConnID names one session of a server. It is the session's KCP conv id,
// random and never 0.
type ConnID uint32

// ServerHandler receives a server's events. Its methods are called on the
// server's loop goroutine only, one at a time; they may call Server.Send and
// Server.CloseConn.
type ServerHandler interface {
	// Connected reports a new session, after its handshake.
	Connected(c ConnID, addr netip.AddrPort)
	// Message delivers one frame, in the order sent. frame is valid only
	// during the call.
	Message(c ConnID, frame []byte)
	// Disconnected reports the end of a session: reason wraps ErrTimeout,
	// or is a *CloseError (closed by the peer, by CloseConn, or by the
	// server stopping). No event for c follows.
	Disconnected(c ConnID, reason error)
	// Tick is called every Config.Interval, after the datagrams received so
	// far have been handled.
	Tick(now time.Time)
}

// PipeWaker is a Handler that also serves clients in the same process
// (through Pipes): the loop calls Woken as soon as PipeWake is signalled, not at the
// next tick, so that an in-process player's frames wait no Interval (10 ms
// on a LAN) for the host, and its round trip is about as short as the
// process can make it.
type PipeWaker interface {
	PipeWake() <-chan struct{}
	Woken(now time.Time)
}

// Server is the listening end of the UDP transport: one socket, one loop
// goroutine (Run) driving the KCP sessions of all its clients. It keeps no
// state for a source address until that source has echoed a cookie.
type Server struct {
	cfg     Config
	key     *HostKey
	sock    datagramSocket // nil in tests that drive handlePacket directly
	addr    netip.AddrPort
	writeTo func(b []byte, src netip.Addr, to netip.AddrPort) // sends a datagram from the local address src (zero: the system's choice); tests may replace it

	cookies    *cookieJar
	used       usedCookies    // cookies whose Connect made a session: each makes one
	cookieRate *rateLimiter   // Cookies per source address and port
	allCookies *globalLimiter // Cookies in all
	connects   *rateLimiter   // Connects per source network
	newcomers  *rateLimiter   // Connects per source network from its newcomers, once connects is spent (subnetAdmits)
	allConnect *globalLimiter // Connects in all
	h          ServerHandler
	now        time.Time  // of the datagram or tick being handled
	dst        netip.Addr // the local address the datagram being handled came to; zero where the socket does not say

	sessions  map[uint32]*session
	accepting map[acceptKey]*session // sessions whose client may not have its Accept yet
	perIP     map[netip.Addr]int
	perSubnet map[netip.Prefix]int
	list      []*session // the sessions, for ticking in a stable order
	ended     []*session // closed, Disconnected not yet called
	expired   []*session // scratch for tick
	busy      []*session // the sessions KCP's timers have work in (session.busy)
	ticks     uint32     // ticks so far, for the sweep (sweepTicks)
	kdrops    uint32     // the socket's kernel drop count at its last reading
	kdropsAt  time.Time  // that reading's time

	out  *batchWriter // the socket's writes, a batch at a time (nil without a socket)
	hbuf []byte       // handshake replies
	obuf []byte       // sealed datagrams
	pbuf []byte       // an opened payload
	rbuf []byte       // a received frame

	stats     serverCounters
	dlog      dropLog
	life      sync.Mutex // orders Run's start and Close's release of an idle socket
	running   atomic.Bool
	released  bool // the socket was closed before Run (under life)
	abandoned atomic.Bool
	stop      chan struct{}
	closeOnce sync.Once

	// Carriers (carrier.go): datagrams from them, their comings and
	// goings, and the loop's own map of where to write their peers'.
	carried    chan carried
	carrierCtl chan carrierEvent
	streams    map[netip.AddrPort]*carrierPeer
	carriers   carrierCounts

	keep   keepalives // the addresses kept open (keepalive.go)
	strays chan stray // datagrams for this server that a dial sharing its port received (keepalive.go)
}

// acceptKey names the Connect a session was made for.
type acceptKey struct {
	from  netip.AddrPort
	nonce [nonceSize]byte
}

// AddrChanger is a ServerHandler that wants to know when a session moves
// to its peer's new address (a client that roamed, or whose NAT mapping
// changed), once that address answered a challenge: the session goes on,
// and datagrams follow the peer there.
type AddrChanger interface {
	AddrChanged(c ConnID, addr netip.AddrPort)
}

// Listen opens a UDP socket on addr ("127.0.0.1:0", ":7777", "[::1]:0") for
// a server with the given settings. Zero numeric fields of cfg take LAN()'s
// values. Call Run to serve.
func Listen(addr string, cfg Config) (*Server, error) {
	return listenWith(addr, cfg, nil)
}

// listenWith is Listen, with control (nil: none) setting the socket's options
// before it binds (ListenShared's).
func listenWith(addr string, cfg Config, control func(string, string, syscall.RawConn) error) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	var conn *net.UDPConn
	if control == nil {
		conn, err = net.ListenUDP("udp", ua)
	} else {
		var pc net.PacketConn
		lc := net.ListenConfig{Control: control}
		pc, err = lc.ListenPacket(context.Background(), "udp", ua.String())
		if err == nil {
			conn = pc.(*net.UDPConn)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	// On a wildcard address, answer from the address each client dialled.
	listenPktinfo(conn)
	// Room for bursts (a thousand clients' turns at once); best effort.
	_ = conn.SetReadBuffer(4 << 20)
	_ = conn.SetWriteBuffer(4 << 20)
	s, err := newServer(cfg, time.Now())
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	s.addr = conn.LocalAddr().(*net.UDPAddr).AddrPort()
	s.sock = listenSocket(conn)
	s.out = newBatchWriter(s.sock, cfg.MTU, serverBatch)
	s.writeTo = s.out.add
	return s, nil
}

// newServer makes a server without a socket: its datagrams go nowhere until
// writeTo is set. cfg must have passed withDefaults.
func newServer(cfg Config, now time.Time) (*Server, error) {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("cookie secret: %w", err)
	}
	key := cfg.HostKey
	if key == nil {
		var err error
		if key, err = NewHostKey(); err != nil {
			return nil, err
		}
	}
	s := &Server{
		cfg:        cfg,
		key:        key,
		writeTo:    func([]byte, netip.Addr, netip.AddrPort) {},
		cookies:    newCookieJar(secret),
		cookieRate: newRateLimiter(cfg.CookieRate, now),
		allCookies: newGlobalLimiter(cfg.MaxCookieRate, now),
		connects:   newRateLimiter(cfg.HandshakeRate, now),
		newcomers:  newRateLimiter(max(cfg.HandshakeRate/newcomerRateShare, 1), now),
		allConnect: newGlobalLimiter(cfg.MaxHandshakeRate, now),
		h:          nopHandler{},
		now:        now,
		sessions:   make(map[uint32]*session),
		accepting:  make(map[acceptKey]*session),
		perIP:      make(map[netip.Addr]int),
		perSubnet:  make(map[netip.Prefix]int),
		hbuf:       make([]byte, 0, acceptLen),
		obuf:       make([]byte, 0, cfg.MTU),
		pbuf:       make([]byte, 0, cfg.MTU),
		stop:       make(chan struct{}),
		carried:    make(chan carried, carriedInFlight),
		strays:     make(chan stray, straysInFlight),
		carrierCtl: make(chan carrierEvent),
		dlog:       dropLog{log: cfg.Log, who: "transport"},
	}
	s.rbuf = make([]byte, (maxFragments(cfg.MTU)+1)*segmentPayload(cfg.MTU))
	return s, nil
}

// HostKey returns the key the server proves in its handshakes.
func (s *Server) HostKey() *HostKey { return s.key }

// Addr returns the address the server's socket is bound to.
func (s *Server) Addr() netip.AddrPort { return s.addr }

// Run serves until ctx is done or Close is called, then closes every
// session (telling its peer), calls Disconnected for each, closes the socket
// and returns nil. It returns an error if the socket fails. Run may be
// called once.
func (s *Server) Run(ctx context.Context, h ServerHandler) error {
	s.life.Lock()
	released := s.released
	started := s.running.CompareAndSwap(false, true)
	s.life.Unlock()
	switch {
	case !started:
		return errors.New("transport: Server.Run called twice")
	case s.sock == nil:
		return errors.New("transport: Server.Run without a socket")
	case released:
		return fmt.Errorf("serve %v: %w", s.addr, net.ErrClosed)
	}
	s.h = h
	// The loop runs on a goroutine of its own, never on the caller's: the
	// UI build's main goroutine is locked to the main thread (Ebiten), and
	// a loop there pays a thread switch for every wake-up.
	done := make(chan error, 1)
	go func() { done <- s.serve(ctx) }()
	return <-done
}

// serve is Run's loop. After each round (the datagrams received, or a
// tick) it writes what the round sent, a batch a system call.
func (s *Server) serve(ctx context.Context) error {
	r := startReader(s.sock, s.cfg.MTU, serverBatch, serverBatches, serverPacer)
	defer r.stop()
	defer s.out.flush() // the Closes of a shutdown
	ticker := time.NewTicker(s.cfg.Interval)
	defer ticker.Stop()
	var wake <-chan struct{} // nil: never
	if w, ok := s.h.(PipeWaker); ok {
		wake = w.PipeWake()
	}
	for {
		select {
		case <-wake:
			s.h.(PipeWaker).Woken(time.Now())
		case <-ctx.Done():
			s.shutdown()
			return nil
		case <-s.stop:
			if s.abandoned.Load() {
				return nil // a crash: nobody is told
			}
			s.shutdown()
			return nil
		case err := <-r.fatal:
			s.shutdown()
			return fmt.Errorf("serve %v: %w", s.addr, err)
		case d := <-r.inbox:
			s.handleBatch(d)
			r.recycle(d)
		case d := <-s.strays:
			s.handlePacket(time.Now(), d.from, d.b)
		case d := <-s.carried:
			s.onCarried(d)
		case ev := <-s.carrierCtl:
			s.onCarrierEvent(time.Now(), ev)
		case <-ticker.C:
			s.drain(r)
			now := time.Now()
			s.tick(now)
			s.h.Tick(now)
			s.reap()
		}
		s.out.flush()
	}
}

// handleBatch handles a batch of received datagrams.
func (s *Server) handleBatch(d *datagrams) {
	now := time.Now()
	for i := range d.n {
		s.dst = d.dst[i]
		s.handlePacket(now, d.from[i], d.bytes(i))
	}
	s.dst = netip.Addr{}
}

// drain handles the datagrams already received.
func (s *Server) drain(r *socketReader) {
	for range serverBatches {
		select {
		case d := <-r.inbox:
			s.handleBatch(d)
			r.recycle(d)
		default:
			return
		}
	}
}

// Close stops a running Run as if its context ended, or releases the socket
// of a server whose Run was never called. It is safe from any goroutine.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { close(s.stop) })
	s.life.Lock()
	defer s.life.Unlock()
	if !s.running.Load() && s.sock != nil && !s.released {
		s.released = true
		s.sock.interrupt()
		s.sock.release()
	}
	return nil
}

// Abandon stops a running Run as a crash would: no session is told, the
// peers just hear nothing more (tests of what a host's crash does). It is
// safe from any goroutine.
func (s *Server) Abandon() {
	s.abandoned.Store(true)
	s.Close()
}

// Stats returns the server's counters. It is safe from any goroutine.
func (s *Server) Stats() ServerStats { return s.stats.snapshot() }

// Send queues frame (1 to wire.MaxFrame bytes, copied) for c. It fails if c is
// unknown or closed, or if MaxQueue bytes are already waiting for c's
// acknowledgement. Call it only from handler callbacks (or before Run).
func (s *Server) Send(c ConnID, frame []byte) error {
	sess := s.sessions[uint32(c)]
	if sess == nil {
		return fmt.Errorf("send to conn %d: %w", c, ErrUnknownConn)
	}
	err := sess.send(frame, s.cfg.MaxQueue)
	if err == nil {
		s.markBusy(sess)
	}
	switch {
	case errors.Is(err, ErrQueueFull):
		s.drop(DropQueueFull, sess.addr)
	case errors.Is(err, ErrFrameSize) && len(frame) > wire.MaxFrame:
		s.drop(DropOversize, sess.addr)
	}
	if err != nil {
		return fmt.Errorf("send to conn %d: %w", c, err)
	}
	return nil
}

// SendDatagram sends frame to c at once, as one unreliable datagram: not
// retransmitted, not ordered, not delayed to KCP's next flush. It is for
// messages that carry their own acknowledgements and redundancy (the
// lockstep turns), which then reach the peer without KCP's up-to-an-interval
// wait. A frame too large for one datagram fails with ErrFrameSize; send it
// with Send. Call it only from handler callbacks.
func (s *Server) SendDatagram(c ConnID, frame []byte) error {
	sess := s.sessions[uint32(c)]
	switch {
	case sess == nil:
		return fmt.Errorf("send datagram to conn %d: %w", c, ErrUnknownConn)
	case len(frame) == 0 || sealedOverhead+len(frame) > s.cfg.MTU:
		return fmt.Errorf("send datagram to conn %d: %d bytes: %w", c, len(frame), ErrFrameSize)
	}
	if !s.writeSealed(sess, kindDgram, frame) {
		return fmt.Errorf("send datagram to conn %d: %w", c, ErrClosed)
	}
	return nil
}

// Queued returns the bytes of frames sent to c and not yet acknowledged, 0
// for an unknown c. Call it only from handler callbacks.
func (s *Server) Queued(c ConnID) int {
	if sess := s.sessions[uint32(c)]; sess != nil {
		return sess.queued()
	}
	return 0
}

// CloseConn closes c, telling its peer reason (a Close* constant or the
// caller's own, from CloseApp up). Disconnected follows once the current
// callback returns. Call it only from handler callbacks.
func (s *Server) CloseConn(c ConnID, reason byte) {
	if sess := s.sessions[uint32(c)]; sess != nil {
		s.end(sess, &CloseError{Reason: reason}, true)
	}
}

// handlePacket handles one datagram received at now from addr: the whole
// per-datagram logic of the server, free of sockets so that tests and the
// fuzzer can call it. pkt is not kept.
func (s *Server) handlePacket(now time.Time, from netip.AddrPort, pkt []byte) {
	s.now = now
	s.stats.packetsIn.Add(1)
	s.stats.bytesIn.Add(uint64(len(pkt)))
	switch {
	case len(pkt) > s.cfg.MTU:
		s.drop(DropOversize, from)
	case len(pkt) == 0:
		s.drop(DropMalformed, from)
	case pkt[0] == kindHello:
		s.hello(now, from, pkt)
	case pkt[0] == kindConnect:
		s.connect(now, from, pkt)
	case pkt[0] == kindKeepalive:
		s.receivedKeepalive(from, pkt)
	case sealedKind(pkt[0]):
		s.established(now, from, pkt)
	default:
		s.drop(DropMalformed, from)
	}
	s.reap()
}

func (s *Server) hello(now time.Time, from netip.AddrPort, pkt []byte) {
	if len(pkt) < helloSize {
		s.drop(DropMalformed, from)
		return
	}
	if !s.cookieRate.allowSource(now, from) || !s.allCookies.allow(now) {
		s.drop(DropRate, from)
		return
	}
	var nonce [nonceSize]byte
	copy(nonce[:], pkt[2:])
	var reply []byte
	if pkt[1] != protocolVersion {
		s.drop(DropMalformed, from)
		reply = appendRefuse(s.hbuf[:0], nonce, RefuseVersion)
	} else {
		reply = appendCookie(s.hbuf[:0], nonce, s.cookies.make(from, nonce[:], window(now)))
		s.stats.cookies.Add(1)
	}
	// Never amplify: an unvalidated source gets back at most what it sent.
	// The sizes are constants (see the assertion below); this guards edits.
	if len(reply) > len(pkt) {
		return
	}
	s.write(reply, from)
}

// Compile-time assertions: a Hello's answers are no larger than a Hello.
var (
	_ [helloSize - cookieLen]byte
	_ [helloSize - refuseLen]byte
)

func (s *Server) connect(now time.Time, from netip.AddrPort, pkt []byte) {
	if len(pkt) < connectSize || pkt[1] != protocolVersion {
		s.drop(DropMalformed, from)
		return
	}
	var nonce [nonceSize]byte
	copy(nonce[:], pkt[2:])
	var cookie [cookieSize]byte
	copy(cookie[:], pkt[2+nonceSize:])
	made, ok := s.cookies.verify(now, from, nonce[:], cookie[:])
	if !ok {
		s.drop(DropBadCookie, from)
		return
	}
	var clientPub [keySize]byte
	copy(clientPub[:], pkt[2+nonceSize+cookieSize:connectBody])
	if old := s.accepting[acceptKey{from, nonce}]; old != nil {
		if old.clientPub == clientPub { // a repeat: the Accept was lost
			s.write(old.accept, from)
			return
		}
		s.drop(DropMalformed, from) // the same nonce with another key: not a client of ours
		return
	}
	// A cookie makes one session. Its Connect repeated while the Accept
	// may be lost is answered above; once the client has spoken sealed, a
	// copy of it (captured, and sent again from its address within the
	// cookie's life) would make a ghost session answering to that address.
	if s.used.seen(window(now), made, cookie) {
		s.drop(DropReplay, from)
		return
	}
	// The limits on sessions first: a refusal costs no key agreement, so
	// the Connects of addresses that hold their share do not spend their
	// network's rate.
	subnet := subnetOf(from.Addr())
	ip := peerIP(from)
	switch {
	case len(s.sessions) >= s.cfg.MaxSessions:
		s.drop(DropOverLimit, from)
		s.write(appendRefuse(s.hbuf[:0], nonce, RefuseFull), from)
		return
	case s.perIP[ip] >= s.cfg.MaxPerIP || !s.subnetAdmits(ip, subnet):
		s.drop(DropOverLimit, from)
		s.write(appendRefuse(s.hbuf[:0], nonce, RefusePerIP), from)
		return
	}
	// Connects cost a key agreement and a signature: limited per source
	// network (the cookie proved the source) and in all. A newcomer to
	// its network has a small rate of its own once the network's is spent.
	rated := s.connects.allowSubnet(now, subnet) || s.perIP[ip] < newcomerSessions && s.newcomers.allowSubnet(now, subnet)
	if !rated || !s.allConnect.allow(now) {
		s.drop(DropRate, from)
		return
	}
	peer, err := x25519.NewPublicKey(clientPub[:])
	if err != nil {
		s.drop(DropMalformed, from)
		return
	}
	eph, err := x25519.GenerateKey(rand.Reader)
	if err != nil {
		return // the system's randomness failed: the client retries
	}
	shared, err := eph.ECDH(peer)
	if err != nil {
		s.drop(DropMalformed, from) // a low-order point: no shared secret
		return
	}
	conv := s.newConv()
	serverPub := eph.PublicKey().Bytes()
	tr := transcript(nonce, clientPub[:], conv, serverPub, s.key.pub)
	c2s, s2c, err := sessionKeys(shared, tr)
	if err != nil {
		return
	}
	ch, err := newChannel(conv, s2c, c2s)
	if err != nil {
		return
	}
	sess := s.open(now, from, conv, ch)
	sess.local = s.dst
	s.used.use(window(now), made, cookie)
	sess.nonce, sess.clientPub = nonce, clientPub
	sess.accept = appendAccept(make([]byte, 0, acceptLen), nonce, conv, serverPub, s.key.pub, ed25519.Sign(s.key.priv, tr))
	s.accepting[acceptKey{from, nonce}] = sess
	s.write(sess.accept, from)
	s.h.Connected(ConnID(sess.conv), from)
}

// open makes and registers a session for a validated client.
func (s *Server) open(now time.Time, from netip.AddrPort, conv uint32, ch *channel) *session {
	var sess *session
	sess = newSession(s.cfg, conv, from, ch, now, func(buf []byte, size int) {
		s.writeSealed(sess, kindData, buf[:size])
	})
	s.sessions[conv] = sess
	s.count(from.Addr(), 1)
	sess.idx = len(s.list)
	s.list = append(s.list, sess)
	s.stats.sessions.Store(int64(len(s.sessions)))
	s.stats.accepted.Add(1)
	return sess
}

// A network's share is kept partly for its newcomers, so that a few
// addresses of a /24 (or /64) cannot lock out the rest of it, even for the
// seconds their idle sessions live (issue 53: eight addresses of 32
// sessions filled a /24's 256): an address that holds newcomerSessions
// sessions or more may take its network only up to MaxPerSubnet less
// 1/subnetReserve of it; the rest is for addresses holding fewer (a
// player's game and, say, its room list or a rejoin). Likewise the
// Connects of a network's newcomers have a rate of their own, a
// newcomerRateShare of HandshakeRate, once the network's is spent.
const (
	newcomerSessions  = 2
	subnetReserve     = 4 // a quarter of MaxPerSubnet: 64 of 256
	newcomerRateShare = 5 // 10 Connects a second of 50
)

// subnetAdmits reports whether a new session from ip fits its network's
// share (see subnetReserve).
func (s *Server) subnetAdmits(ip netip.Addr, subnet netip.Prefix) bool {
	limit := s.cfg.MaxPerSubnet
	if s.perIP[ip] >= newcomerSessions {
		limit -= s.cfg.MaxPerSubnet / subnetReserve
	}
	return s.perSubnet[subnet] < limit
}

// count adds d to the sessions counted for ip and its network.
func (s *Server) count(ip netip.Addr, d int) {
	ip = ip.WithZone("").Unmap() // a carried peer's IP is its UDP self's (peerIP)
	if s.perIP[ip] += d; s.perIP[ip] <= 0 {
		delete(s.perIP, ip)
	}
	sub := subnetOf(ip)
	if s.perSubnet[sub] += d; s.perSubnet[sub] <= 0 {
		delete(s.perSubnet, sub)
	}
}

// newConv returns a random conv id, not 0 and not in use.
func (s *Server) newConv() uint32 {
	var b [4]byte
	for {
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		conv := binary.LittleEndian.Uint32(b[:])
		if conv != 0 && s.sessions[conv] == nil {
			return conv
		}
	}
}

// established handles a sealed datagram: it is the session's if it opens
// under the session's key and is no replay, whatever its source address.
func (s *Server) established(now time.Time, from netip.AddrPort, pkt []byte) {
	conv, ok := convOf(pkt)
	if !ok {
		s.drop(DropMalformed, from)
		return
	}
	sess := s.sessions[conv]
	if sess == nil {
		s.drop(DropUnknownSession, from)
		return
	}
	plain, newest, res := sess.ch.open(s.pbuf, pkt)
	switch res {
	case openMalformed:
		s.drop(DropMalformed, from)
		return
	case openReplay:
		s.drop(DropReplay, from)
		return
	case openForged:
		s.drop(DropForged, from)
		return
	}
	if !sess.accepted {
		sess.accepted = true
		delete(s.accepting, acceptKey{sess.addr, sess.nonce})
		sess.accept = nil
	}
	// The session follows its peer to a new address once the peer's
	// newest datagram comes from there, the old address has gone quiet,
	// and the new one has proved that it can receive: it echoed, sealed,
	// the challenge sent there (path validation, as QUIC's). A NAT that
	// rebinds or a client that roams moves it in migrateQuiet and a round
	// trip; an attacker who races a copy of a datagram from its own
	// address cannot pull the answers to itself as long as the peer is
	// still heard where it was; and a peer that forges another's source
	// address gets that address nothing but challenges, never more than
	// amplification times what it sent from there, and the session stays.
	switch {
	case from == sess.addr:
		sess.heardAt = now
		sess.probe = netip.AddrPort{} // the old path lives: no move
		if s.dst.IsValid() {
			sess.local = s.dst // answers leave from where the peer sends to
		}
	case pkt[0] == kindResponse:
		// Checked below.
	case from == sess.probe || newest && now.Sub(sess.heardAt) >= s.migrateQuiet():
		s.probePath(now, sess, from, len(pkt))
	}
	switch pkt[0] {
	case kindResponse:
		s.pathResponse(now, sess, from, plain)
	case kindChallenge:
		s.drop(DropMalformed, from) // the server's to send
	case kindPing:
		if len(plain) != 0 {
			s.drop(DropMalformed, from)
			return
		}
		sess.lastRecv = now
	case kindClose:
		if len(plain) != 1 {
			s.drop(DropMalformed, from)
			return
		}
		s.end(sess, &CloseError{Reason: plain[0], ByPeer: true}, false)
	case kindDgram:
		if len(plain) == 0 || len(plain) > wire.MaxFrame {
			s.drop(DropMalformed, from)
			return
		}
		sess.lastRecv = now
		s.h.Message(ConnID(sess.conv), plain)
	case kindData:
		s.dataIn(now, sess, from, plain)
	}
}

// pathResponse takes a peer's answer to the challenge sent to a new
// address (probePath): the session moves there once it proves it.
func (s *Server) pathResponse(now time.Time, sess *session, from netip.AddrPort, plain []byte) {
	if len(plain) != challengeSize {
		s.drop(DropMalformed, from)
		return
	}
	sess.lastRecv = now
	switch {
	case !sess.probe.IsValid() || from != sess.probe || [challengeSize]byte(plain) != sess.challenge:
		// A late answer, after the move or the path's end, or an
		// answer from elsewhere than the challenge went: not proof.
		s.drop(DropPath, from)
	case !s.roomFor(sess, from):
		sess.probe = netip.AddrPort{}
		s.drop(DropPath, from)
	default:
		sess.probe = netip.AddrPort{}
		s.migrate(sess, from)
		sess.local = sess.probeLocal
		sess.heardAt = now
	}
}

// dataIn feeds a Data datagram's segments to the session's KCP and hands
// the handler every frame they complete.
func (s *Server) dataIn(now time.Time, sess *session, from netip.AddrPort, plain []byte) {
	ok := sess.input(plain)
	s.markBusy(sess)
	if !ok {
		s.drop(DropMalformed, from)
		return
	}
	sess.lastRecv = now
	for !sess.closing {
		n, err := sess.recv(s.rbuf)
		if err != nil {
			s.drop(DropOversize, from)
			s.end(sess, &CloseError{Reason: CloseProtocol}, true)
			return
		}
		if n == 0 {
			return
		}
		s.h.Message(ConnID(sess.conv), s.rbuf[:n])
	}
}

// migrateQuiet is how long a session's address must have sent nothing
// authentic before the session moves to another: twice the heartbeat, so
// that a peer that is still there, even idle, is always heard within it.
func (s *Server) migrateQuiet() time.Duration { return 2 * s.cfg.Heartbeat }

// probePath notes an authentic datagram of n bytes from from, an address
// the session is not at, and sends a challenge there when one is due and
// within the address's budget. A new address replaces the one being
// validated (the peer moved on); one over its limits is not tried.
func (s *Server) probePath(now time.Time, sess *session, from netip.AddrPort, n int) {
	if from != sess.probe {
		if !s.roomFor(sess, from) {
			s.drop(DropPath, from)
			return
		}
		sess.probe, sess.probeIn, sess.probeOut = from, 0, 0
		sess.probeLocal = s.dst
		_, _ = rand.Read(sess.challenge[:]) // crypto/rand.Read never fails
	}
	sess.probeIn += n
	if !sess.challengeAt.IsZero() && now.Sub(sess.challengeAt) < challengeEvery {
		return // one is on its way
	}
	size := sealedOverhead + challengeSize
	if sess.probeOut+size > amplification*sess.probeIn {
		s.drop(DropPath, from)
		return
	}
	var err error
	s.obuf, err = sess.ch.seal(s.obuf[:0], kindChallenge, sess.challenge[:])
	if err != nil {
		sess.fail = err // the next sweep ends it (sweepTicks)
		return
	}
	sess.probeOut += len(s.obuf)
	sess.challengeAt = now
	s.stats.challenges.Add(1)
	s.writeFrom(s.obuf, sess.probeLocal, from)
}

// roomFor reports whether sess may be counted at to instead of where it is:
// to's IP and network are within MaxPerIP and MaxPerSubnet with it.
func (s *Server) roomFor(sess *session, to netip.AddrPort) bool {
	ip, old := peerIP(to), peerIP(sess.addr)
	if ip != old && s.perIP[ip] >= s.cfg.MaxPerIP {
		return false
	}
	sub := subnetOf(ip)
	return sub == subnetOf(old) || s.perSubnet[sub] < s.cfg.MaxPerSubnet
}

// migrate follows a session's peer to a new address: it answered a
// challenge from there.
func (s *Server) migrate(sess *session, to netip.AddrPort) {
	s.count(sess.addr.Addr(), -1)
	s.count(to.Addr(), 1)
	sess.addr = to
	s.stats.migrated.Add(1)
	if ac, ok := s.h.(AddrChanger); ok {
		ac.AddrChanged(ConnID(sess.conv), to)
	}
}

// tick drives the KCP timers of the sessions that have work for them and,
// every sweepTicks, sweeps them all for timeouts and heartbeats.
func (s *Server) tick(now time.Time) {
	s.now = now
	// KCP's timers, for the sessions that have work for them: most carry
	// only datagrams most of the time, so walking every session each tick
	// would spend the tick fetching sessions that have nothing to do.
	busy := s.busy[:0]
	for _, sess := range s.busy {
		if sess.closing {
			sess.busy = false
			continue
		}
		sess.update()
		if sess.sending {
			busy = append(busy, sess)
		} else {
			sess.busy = false
		}
	}
	clear(s.busy[len(busy):])
	s.busy = busy
	s.ticks++
	if s.ticks%sweepTicks == 0 {
		s.sweep(now)
	}
	s.reap()
	if now.Sub(s.kdropsAt) >= kernelDropsEvery {
		s.readKernelDrops(now)
	}
	s.sendKeepalives(now)
	s.dlog.flush(now, func(r DropReason) uint64 { return s.stats.dropped[r].Load() })
}

// kernelDropsEvery is how often the loop asks the kernel how many
// datagrams it dropped because the socket's receive buffer was full.
const kernelDropsEvery = time.Second

// readKernelDrops counts, as DropSocketFull, the datagrams the kernel
// dropped since the last reading: datagrams arriving faster than the loop
// reads them, which no other counter sees (the socket never hands them
// over) and which the players meet as loss.
func (s *Server) readKernelDrops(now time.Time) {
	s.kdropsAt = now
	if s.sock == nil {
		return
	}
	n, ok := s.sock.kernelDrops()
	if !ok {
		return
	}
	if d := n - s.kdrops; d > 0 { // the kernel's count is 32 bits: the difference wraps with it
		total := s.stats.dropped[DropSocketFull].Add(uint64(d))
		s.dlog.noteMany(now, DropSocketFull, netip.AddrPort{}, uint64(d), total)
	}
	s.kdrops = n
}

// sweep ends the sessions that timed out or failed and sends a heartbeat
// where nothing was sent for Heartbeat.
func (s *Server) sweep(now time.Time) {
	s.expired = s.expired[:0]
	for _, sess := range s.list {
		switch {
		case sess.fail != nil || now.Sub(sess.lastRecv) > s.cfg.Timeout && !s.answering(sess, now):
			s.expired = append(s.expired, sess)
		case now.Sub(sess.lastSend) >= s.cfg.Heartbeat:
			s.writeSealed(sess, kindPing, nil)
		}
	}
	for i, sess := range s.expired {
		if sess.fail != nil {
			s.end(sess, fmt.Errorf("conn %d at %v: %w", sess.conv, sess.addr, sess.fail), false)
		} else {
			s.end(sess, fmt.Errorf("conn %d at %v silent for %v: %w",
				sess.conv, sess.addr, now.Sub(sess.lastRecv).Round(time.Millisecond), ErrTimeout), true)
		}
		s.expired[i] = nil
	}
}

// sweepTicks is how many ticks apart every session is looked at for a
// timeout, a failure or a heartbeat due (50 ms at the default Interval:
// well inside Heartbeat and Timeout).
const sweepTicks = 5

// markBusy puts sess among those whose KCP timers each tick runs: it was
// sent a frame or received segments.
func (s *Server) markBusy(sess *session) {
	if !sess.busy {
		sess.busy = true
		s.busy = append(s.busy, sess)
	}
}

// end closes a session at once: it is forgotten, its peer is told (if
// notify) and Disconnected is called by the next reap.
func (s *Server) end(sess *session, why error, notify bool) {
	if sess.closing {
		return
	}
	sess.closing, sess.why = true, why
	delete(s.sessions, sess.conv)
	if !sess.accepted {
		delete(s.accepting, acceptKey{sess.addr, sess.nonce})
	}
	s.count(sess.addr.Addr(), -1)
	last := len(s.list) - 1
	s.list[sess.idx] = s.list[last]
	s.list[sess.idx].idx = sess.idx
	s.list[last] = nil
	s.list = s.list[:last]
	s.stats.sessions.Store(int64(len(s.sessions)))
	if notify {
		reason := CloseProtocol
		var ce *CloseError
		switch {
		case errors.As(why, &ce):
			reason = ce.Reason
		case errors.Is(why, ErrTimeout):
			reason = CloseTimeout
		}
		// Best effort, repeated: the peer stops waiting at once if one arrives.
		for range 3 {
			s.writeSealed(sess, kindClose, []byte{reason})
		}
	}
	s.ended = append(s.ended, sess)
}

// reap calls Disconnected for the sessions ended since the last reap.
// Disconnected may end more sessions; they are reaped in the same call.
func (s *Server) reap() {
	for i := 0; i < len(s.ended); i++ {
		sess := s.ended[i]
		s.ended[i] = nil
		s.h.Disconnected(ConnID(sess.conv), sess.why)
	}
	s.ended = s.ended[:0]
}

// shutdown ends every session, telling the peers.
func (s *Server) shutdown() {
	for len(s.list) > 0 {
		s.end(s.list[len(s.list)-1], &CloseError{Reason: CloseShutdown}, true)
	}
	s.reap()
}

// writeSealed seals payload as a datagram of kind for sess and sends it.
// It reports false if the session may send no more (its sequence numbers
// are exhausted: it is then ended).
func (s *Server) writeSealed(sess *session, kind byte, payload []byte) bool {
	var err error
	s.obuf, err = sess.ch.seal(s.obuf[:0], kind, payload)
	if err != nil {
		sess.fail = err // the next sweep ends it (sweepTicks)
		return false
	}
	s.writeFrom(s.obuf, sess.local, sess.addr)
	sess.lastSend = s.now
	return true
}

// write answers the datagram being handled: from the local address it
// came to.
func (s *Server) write(b []byte, to netip.AddrPort) { s.writeFrom(b, s.dst, to) }

// writeFrom sends b to to from the local address src (zero: the system's
// choice).
func (s *Server) writeFrom(b []byte, src netip.Addr, to netip.AddrPort) {
	s.stats.packetsOut.Add(1)
	s.stats.bytesOut.Add(uint64(len(b)))
	if s.writeCarried(b, to) {
		return
	}
	s.writeTo(b, src, to)
}

// drop counts a dropped datagram (or refused frame) and logs it: one line
// per reason per dropLogEvery (see dropLog).
func (s *Server) drop(r DropReason, from netip.AddrPort) {
	n := s.stats.dropped[r].Add(1)
	s.dlog.note(s.now, r, from, n)
}

// nopHandler is the handler of a server before Run.
type nopHandler struct{}

func (nopHandler) Connected(ConnID, netip.AddrPort) {}
func (nopHandler) Message(ConnID, []byte)           {}
func (nopHandler) Disconnected(ConnID, error)       {}
func (nopHandler) Tick(time.Time)                   {}
