package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"
)

// A Carrier is one peer's message connection to a server by another way
// than its UDP socket: a WebSocket (net/web), or an in-memory pair in
// tests. One message is one datagram, the same sealed bytes UDP carries,
// and it goes through the same handshake, cookies, tokens, limits and path
// rules; the peer is known by the carrier's address (its IP is the real
// peer's, so per-address and per-network limits count it as UDP's would).
type Carrier interface {
	// ReadMessage waits for the next message. An error ends the carrier.
	ReadMessage(ctx context.Context) ([]byte, error)
	// WriteMessage sends b as one message; b is not kept.
	WriteMessage(ctx context.Context, b []byte) error
	// Close ends the carrier; a ReadMessage under way returns.
	Close() error
}

// A Pinger is a Carrier that can tell, beneath the datagrams, that its
// peer's end is there: a WebSocket's ping, which a browser's network stack
// answers even while the page's one thread, where the peer's transport
// runs, is held for seconds (software WebGL on a loaded machine). A
// session at a carrier that answers is stalled, not gone: it is given up
// only after carrierStallMax of silence rather than Config.Timeout, so that
// its room, which holds a stalled player's place (net/room/stall.go), has
// it back when it runs again. A peer that is gone answers no ping, and its
// silence times out as any.
type Pinger interface {
	// Ping waits for the peer's end to answer, or ctx to end.
	Ping(ctx context.Context) error
}

// How a Pinger's carrier is asked (carrierPingEvery) and how long a
// session there that still answers may be silent (carrierStallMax: a
// room's vacancy, room.Config.VacancyTimeout, after which its room has
// dropped the player anyway).
const (
	carrierPingEvery = 500 * time.Millisecond
	carrierStallMax  = 30 * time.Second
)

// carrierZone marks a carried peer's address: the peer's IP as an
// IPv4-mapped IPv6 address (for IPv4) with this zone, and its connection's
// port. A UDP source never has one (the socket's addresses are unmapped,
// and zones are interfaces'), so a carried peer and a UDP peer at the same
// IP and port number (TCP's and UDP's ports are apart) are never taken for
// each other; peerIP gives both the same IP for the per-address limits.
const carrierZone = "carrier"

// CarriedAddr returns the address a server knows the peer at from by when
// it comes through a carrier (Carry): the one its handler's Connected and
// AddrChanged report.
func CarriedAddr(from netip.AddrPort) netip.AddrPort {
	ip := from.Addr().Unmap()
	if ip.Is4() {
		ip = netip.AddrFrom16(ip.As16())
	}
	return netip.AddrPortFrom(ip.WithZone(carrierZone), from.Port())
}

// peerIP is the IP a peer's sessions and carriers are counted under:
// without a carrier's zone, unmapped.
func peerIP(a netip.AddrPort) netip.Addr { return a.Addr().WithZone("").Unmap() }

// ErrCarrierLimit matches Carry's error when the peer's address or network
// already holds its share of carried connections (Config.MaxPerIP,
// Config.MaxPerSubnet): the same shares as its sessions'.
var ErrCarrierLimit = errors.New("too many connections from this address")

// carrierQueue is how many datagrams may wait for one carrier's writer
// (and, in all, for the loop from every carrier) before more are dropped,
// as a full socket buffer would: a slow carrier loses datagrams, never
// stalls the loop.
const (
	carrierQueue    = 128
	carriedInFlight = 1024
)

// carried is a datagram a carrier received, on its way to the loop; or,
// with alive set and no datagram, its carrier's word that the peer's end
// answered a ping.
type carried struct {
	from  netip.AddrPort
	pkt   []byte
	alive bool
}

// carrierEvent registers (peer set) or forgets (peer nil) a carrier's
// address with the loop.
type carrierEvent struct {
	from netip.AddrPort
	peer *carrierPeer
	done chan struct{} // closed once the loop has acted
}

// carrierPeer is a registered carrier's sending end, the loop's to write to.
type carrierPeer struct {
	out chan []byte
}

// send queues a copy of b, or drops it when the carrier is behind.
func (p *carrierPeer) send(b []byte) bool {
	select {
	case p.out <- append([]byte(nil), b...):
		return true
	default:
		return false
	}
}

// carrierCounts are the carried connections by address and network, for
// Carry's limits; under their own lock, since Carry runs on the carriers'
// goroutines.
type carrierCounts struct {
	mu    sync.Mutex
	ip    map[netip.Addr]int
	sub   map[netip.Prefix]int
	addrs map[netip.AddrPort]bool
}

func (cc *carrierCounts) take(from netip.AddrPort, perIP, perSub int) error {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.ip == nil {
		cc.ip, cc.sub, cc.addrs = map[netip.Addr]int{}, map[netip.Prefix]int{}, map[netip.AddrPort]bool{}
	}
	ip := peerIP(from)
	sub := subnetOf(ip)
	switch {
	case cc.addrs[from]:
		return fmt.Errorf("carry %v: the address is already carried", from)
	case cc.ip[ip] >= perIP || cc.sub[sub] >= perSub:
		return fmt.Errorf("carry %v: %w", from, ErrCarrierLimit)
	}
	cc.addrs[from] = true
	cc.ip[ip]++
	cc.sub[sub]++
	return nil
}

func (cc *carrierCounts) give(from netip.AddrPort) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	ip := peerIP(from)
	sub := subnetOf(ip)
	delete(cc.addrs, from)
	if cc.ip[ip]--; cc.ip[ip] <= 0 {
		delete(cc.ip, ip)
	}
	if cc.sub[sub]--; cc.sub[sub] <= 0 {
		delete(cc.sub, sub)
	}
}

// CarriedConns returns how many carriers the server holds now. It is safe
// from any goroutine.
func (s *Server) CarriedConns() int {
	s.carriers.mu.Lock()
	defer s.carriers.mu.Unlock()
	return len(s.carriers.addrs)
}

// Carry serves the peer at from over c until c fails, ctx ends or the
// server stops, then closes c. from must be the peer's own address (a
// WebSocket's remote address); the server knows the peer as
// CarriedAddr(from). Its IP is counted against Config.MaxPerIP
// and Config.MaxPerSubnet for carriers as for sessions, and a carrier over
// those shares is refused at once (ErrCarrierLimit). A message larger than
// Config.MTU ends only this carrier (ErrFrameSize); any other bad message is
// dropped and counted as a bad UDP datagram is. The sessions at from end
// with the carrier, as a silence: their players come back with their
// tokens. It is safe from any goroutine, once Run has been called.
func (s *Server) Carry(ctx context.Context, from netip.AddrPort, c Carrier) error {
	defer c.Close()
	from = CarriedAddr(from)
	if err := s.carriers.take(from, s.cfg.MaxPerIP, s.cfg.MaxPerSubnet); err != nil {
		s.stats.dropped[DropOverLimit].Add(1)
		return err
	}
	defer s.carriers.give(from)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	peer := &carrierPeer{out: make(chan []byte, carrierQueue)}
	if !s.carrierEvent(ctx, carrierEvent{from: from, peer: peer}) {
		return fmt.Errorf("carry %v: %w", from, ErrClosed)
	}
	defer s.carrierEvent(context.Background(), carrierEvent{from: from})
	wrote := make(chan error, 1)
	go func() {
		for {
			select {
			case b := <-peer.out:
				if err := c.WriteMessage(ctx, b); err != nil {
					wrote <- err
					cancel()
					return
				}
			case <-ctx.Done():
				wrote <- nil
				return
			}
		}
	}()
	defer func() { cancel(); <-wrote }()
	if p, ok := c.(Pinger); ok {
		pinged := make(chan struct{})
		go func() { defer close(pinged); s.pingCarrier(ctx, from, p) }()
		defer func() { cancel(); <-pinged }()
	}
	for {
		b, err := c.ReadMessage(ctx)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil // the server's stop, or the peer's close
			}
			return fmt.Errorf("carry %v: %w", from, err)
		}
		if len(b) > s.cfg.MTU {
			s.stats.dropped[DropOversize].Add(1)
			return fmt.Errorf("carry %v: %d bytes: %w", from, len(b), ErrFrameSize)
		}
		select {
		case s.carried <- carried{from: from, pkt: b}:
		case <-s.stop:
			return nil
		default:
			s.stats.dropped[DropSocketFull].Add(1) // the loop is behind: a full buffer's loss
		}
	}
}

// pingCarrier pings p every carrierPingEvery until ctx ends, and tells
// the loop of every answer (a ping unanswered in Config.Timeout is
// abandoned: the peer's end is not there).
func (s *Server) pingCarrier(ctx context.Context, from netip.AddrPort, p Pinger) {
	t := time.NewTicker(carrierPingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
		err := p.Ping(pctx)
		cancel()
		if err != nil {
			continue
		}
		select {
		case s.carried <- carried{from: from, alive: true}:
		case <-ctx.Done():
			return
		default: // the loop is behind: the next answer will do
		}
	}
}

// answering reports whether sess, silent past Config.Timeout, is at a
// carrier whose peer's end still answers its pings (Pinger), and has been
// silent for less than carrierStallMax: stalled, not gone.
func (s *Server) answering(sess *session, now time.Time) bool {
	return !sess.aliveAt.IsZero() && now.Sub(sess.aliveAt) <= s.cfg.Timeout && now.Sub(sess.lastRecv) <= carrierStallMax
}

// carrierEvent hands ev to the loop and waits until it acted on it; false
// if the server stopped (or ctx ended) first.
func (s *Server) carrierEvent(ctx context.Context, ev carrierEvent) bool {
	ev.done = make(chan struct{})
	select {
	case s.carrierCtl <- ev:
	case <-s.stop:
		return false
	case <-ctx.Done():
		return false
	}
	select {
	case <-ev.done:
		return true
	case <-s.stop:
		return false
	}
}

// onCarrierEvent is the loop's side of carrierEvent: a carrier's address is
// written to through the carrier from now on, or, once it is gone, the
// sessions there end (nothing can reach them: a carrier's address is no
// UDP peer's).
func (s *Server) onCarrierEvent(now time.Time, ev carrierEvent) {
	defer close(ev.done)
	if ev.peer != nil {
		if s.streams == nil {
			s.streams = map[netip.AddrPort]*carrierPeer{}
		}
		s.streams[ev.from] = ev.peer
		return
	}
	delete(s.streams, ev.from)
	s.now = now
	for i := 0; i < len(s.list); {
		if sess := s.list[i]; sess.addr == ev.from {
			s.end(sess, fmt.Errorf("conn %d at %v: carrier closed: %w", sess.conv, ev.from, ErrTimeout), false)
			continue // end moved the last session to i
		}
		i++
	}
	s.reap()
}

// onCarried handles a datagram a carrier received, on the loop.
func (s *Server) onCarried(d carried) {
	if s.streams[d.from] == nil {
		return // its carrier is already gone
	}
	if d.alive {
		now := time.Now()
		for _, sess := range s.list {
			if sess.addr == d.from {
				sess.aliveAt = now
			}
		}
		return
	}
	s.handlePacket(time.Now(), d.from, d.pkt)
}

// writeCarried sends b through the carrier at to, if to is one's; it
// reports whether to is.
func (s *Server) writeCarried(b []byte, to netip.AddrPort) bool {
	if to.Addr().Zone() != carrierZone { // a UDP peer's: no map lookup on the hot path
		return false
	}
	p := s.streams[to]
	if p == nil {
		return false
	}
	if !p.send(b) {
		s.stats.dropped[DropQueueFull].Add(1)
	}
	return true
}
