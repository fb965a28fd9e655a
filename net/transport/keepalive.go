package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// Keep-alives: paths kept open through NATs (docs/ARCHITECTURE.md,
// "Successors everyone can reach"). A home router's NAT (Linux's nft
// `masquerade`, most others: an endpoint-independent mapping, RFC 4787
// §4.1) keeps an inside socket's port on the outside, and its connection
// table lets in only datagrams from the addresses the socket sent to
// (address- and port-dependent filtering). A standby socket that sends a
// few bytes every KeepaliveEvery to another player's standby address
// opens its own router to that player; when both do, each can reach the
// other's standby through both routers (the technique of STUN and ICE,
// with the room's observed addresses for the server-reflexive ones). The
// dials that use such a path leave from the standby's own port (a
// connected socket on the shared port: DialShared), so that they are the
// flow the keep-alives opened.
//
// A keep-alive is the kind byte and three zero bytes:
//
//	kind 12 Keepalive both ways  kind | zero [3]              4 bytes
//
// It asks nothing and is answered by nothing: a server or a client that
// receives one counts it (ServerStats.Keepalives) and drops it, so a stray
// or forged one costs a fixed few instructions; one of another length or
// with other bytes is counted as DropMalformed.
const (
	kindKeepalive byte = 12
	keepaliveLen       = 4
)

// KeepaliveEvery is how often a path is kept open: well under Linux
// conntrack's UDP timeout for a flow that saw no answer (30 s) and the
// 30 s to 2 min home routers keep UDP mappings (RFC 4787 REQ-5 asks for
// 2 min at least), so one lost keep-alive loses no path.
const KeepaliveEvery = 5 * time.Second

// keepalivePacket is the datagram sent.
var keepalivePacket = [keepaliveLen]byte{kindKeepalive}

// isKeepalive reports whether pkt (whose kind byte is kindKeepalive) is a
// well-formed keep-alive.
func isKeepalive(pkt []byte) bool {
	return len(pkt) == keepaliveLen && pkt[1] == 0 && pkt[2] == 0 && pkt[3] == 0
}

// OpeningTTL is the TTL (hop limit) of the first keep-alive to a new
// address: enough to leave the player's home router (one forwarding hop)
// and open its NAT, too little to reach the other player's router across
// the internet (two hops at least: a router between). A router that takes
// unasked datagrams to itself keeps a connection-table entry for each; if
// the other player's full keep-alive arrived before this player's first
// one left, that entry would clash with this player's flow, and the NAT
// would give the flow another outside port, which the other's router
// lets nothing from. Sent first, the opening one leaves before anything
// from the other can arrive.
const OpeningTTL = 2

// OpenDelay is how long after the opening keep-alive the first full one
// goes (and a dial from the standby's port may: PathOpen): time for the
// other player, told of this one at about the same time by the room, to
// open its own router first.
const OpenDelay = time.Second

// keepSchedule decides when each address is sent a keep-alive: an opening
// one (OpeningTTL) at once when it is first wanted, a full one OpenDelay
// later, then every `every`. Pure: time comes in, addresses due come out
// (the server's loop sends them).
type keepSchedule struct {
	every time.Duration
	next  map[netip.AddrPort]time.Time
	open  map[netip.AddrPort]bool // its opening keep-alive was sent
}

// set makes addrs the addresses kept open: new ones are due now, kept ones
// keep their time, the others are forgotten.
func (k *keepSchedule) set(now time.Time, addrs []netip.AddrPort) {
	next := make(map[netip.AddrPort]time.Time, len(addrs))
	open := make(map[netip.AddrPort]bool, len(addrs))
	for _, a := range addrs {
		if !a.IsValid() || a.Port() == 0 {
			continue
		}
		if t, ok := k.next[a]; ok {
			next[a], open[a] = t, k.open[a]
		} else {
			next[a] = now
		}
	}
	k.next, k.open = next, open
}

// due returns the addresses to send an opening keep-alive to at now and
// those to send a full one to, each in a stable order, and schedules each
// again.
func (k *keepSchedule) due(now time.Time) (opening, full []netip.AddrPort) {
	for a, t := range k.next {
		switch {
		case now.Before(t):
		case !k.open[a]:
			opening = append(opening, a)
			k.open[a] = true
			k.next[a] = now.Add(OpenDelay)
		default:
			full = append(full, a)
			k.next[a] = now.Add(k.every)
		}
	}
	byAddr := func(a, b netip.AddrPort) int { return a.Compare(b) }
	slices.SortFunc(opening, byAddr)
	slices.SortFunc(full, byAddr)
	return opening, full
}

// keepalives is a server's keep-alive state: the addresses asked for (by
// KeepAlive, from any goroutine) and the loop's schedule.
type keepalives struct {
	mu     sync.Mutex
	want   []netip.AddrPort
	dirty  bool
	opened map[netip.AddrPort]bool // a full keep-alive was sent there (PathOpen)
	sched  keepSchedule            // loop goroutine only
}

// KeepAlive makes addrs the addresses this server's socket sends a
// keep-alive to, at once for a new one and then every KeepaliveEvery (nil:
// none). Safe from any goroutine.
func (s *Server) KeepAlive(addrs []netip.AddrPort) {
	s.keep.mu.Lock()
	defer s.keep.mu.Unlock()
	if slices.Equal(s.keep.want, addrs) {
		return
	}
	s.keep.want = slices.Clone(addrs)
	s.keep.dirty = true
}

// PathOpen reports whether a full keep-alive went to addr since KeepAlive
// named it: both ends have opened their routers to each other by then, if
// the other keeps this path too, and a dial from this server's port may
// go (DialShared). Safe from any goroutine.
func (s *Server) PathOpen(addr netip.AddrPort) bool {
	s.keep.mu.Lock()
	defer s.keep.mu.Unlock()
	return s.keep.opened[addr]
}

// sendKeepalives sends the keep-alives due at now (the loop's tick).
func (s *Server) sendKeepalives(now time.Time) {
	s.keep.mu.Lock()
	if s.keep.dirty {
		s.keep.sched.every = KeepaliveEvery
		s.keep.sched.set(now, s.keep.want)
		s.keep.dirty = false
		for a := range s.keep.opened {
			if _, ok := s.keep.sched.next[a]; !ok {
				delete(s.keep.opened, a)
			}
		}
	}
	s.keep.mu.Unlock()
	opening, full := s.keep.sched.due(now)
	if len(opening) > 0 {
		// The opening ones alone at the short TTL: what was queued goes
		// first, at the socket's own.
		var rc interface{ Control(func(fd uintptr)) error }
		if s.sock != nil && s.out != nil {
			rc = ttlControl(s.sock)
			s.out.flush()
		}
		setTTL(rc, OpeningTTL)
		for _, to := range opening {
			s.stats.keepalivesOut.Add(1)
			s.writeFrom(keepalivePacket[:], netip.Addr{}, to)
		}
		if rc != nil {
			s.out.flush()
		}
		setTTL(rc, -1)
	}
	for _, to := range full {
		s.stats.keepalivesOut.Add(1)
		s.writeFrom(keepalivePacket[:], netip.Addr{}, to)
	}
	if len(full) > 0 {
		s.keep.mu.Lock()
		if s.keep.opened == nil {
			s.keep.opened = map[netip.AddrPort]bool{}
		}
		for _, a := range full {
			s.keep.opened[a] = true
		}
		s.keep.mu.Unlock()
	}
}

// receivedKeepalive counts a keep-alive datagram, or drops a malformed one.
func (s *Server) receivedKeepalive(from netip.AddrPort, pkt []byte) {
	if !isKeepalive(pkt) {
		s.drop(DropMalformed, from)
		return
	}
	s.stats.keepalives.Add(1)
}

// ErrNoSharedPort is DialShared's error where a socket cannot share a
// port with a listening one (systems other than Linux).
var ErrNoSharedPort = errors.New("this system cannot dial from a listening socket's port")

// SharesPorts reports whether a dial may leave from a listening socket's
// port on this system (Server.DialShared): Linux only.
func SharesPorts() bool { return canShare }

// ListenShared is Listen with a socket whose port DialShared's sockets
// may share (SO_REUSEADDR on Linux; elsewhere it is Listen). Only a
// standby socket listens so: a server's port must be its own, or a second
// server could bind it unnoticed.
func ListenShared(addr string, cfg Config) (*Server, error) {
	if !canShare {
		return Listen(addr, cfg)
	}
	return listenWith(addr, cfg, shareControl)
}

// DialShared is Dial from the port of s, a ListenShared server: the dial
// is a connected socket on that port, so the kernel hands it the
// datagrams from the address it dialled (a connected socket is the closer
// match) and s's socket all others, and a NAT maps it as the same flow
// s's keep-alives opened. The peer may dial s at the same time (two
// players probing each other): its datagrams for s (handshakes, and
// sealed ones of sessions other than this dial's) then come to the
// connected socket, which passes them on to s (Server.stray), so both
// handshakes complete.
func (s *Server) DialShared(ctx context.Context, addr string, cfg Config) (*Client, error) {
	port := s.addr.Port()
	if !canShare {
		return nil, fmt.Errorf("dial %s from port %d: %w", addr, port, ErrNoSharedPort)
	}
	return dialWith(ctx, &net.UDPAddr{Port: int(port)}, shareControl, addr, cfg, s.stray)
}

// stray is a datagram for a server that a dial sharing its port received.
type stray struct {
	from netip.AddrPort
	b    []byte
}

// straysInFlight bounds the strays waiting for the server's loop; more
// are dropped (DropSocketFull: the loop is not keeping up).
const straysInFlight = 64

// stray hands the server a datagram from from that a dial sharing its
// port received (pkt is copied). Safe from any goroutine; never blocks.
func (s *Server) stray(from netip.AddrPort, pkt []byte) {
	select {
	case s.strays <- stray{from: from, b: append([]byte(nil), pkt...)}:
	default:
		s.stats.dropped[DropSocketFull].Add(1)
	}
}

// forServer reports whether a datagram of kind k is one a server handles
// (a client passes those it does not expect to the server sharing its
// port).
func forServer(k byte) bool { return k == kindHello || k == kindConnect || sealedKind(k) }
