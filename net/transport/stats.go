package transport

import (
	"fmt"
	"log/slog"
	"net/netip"
	"sync/atomic"
	"time"
)

// DropReason says why a server dropped a datagram or refused a frame.
type DropReason int

// Drop reasons, indexes of ServerStats.Dropped.
const (
	DropMalformed      DropReason = iota // too short, unknown kind or version, bad KCP segments
	DropBadCookie                        // Connect whose cookie is wrong or stale
	DropUnknownSession                   // sealed datagram for a conv no session has
	DropForged                           // sealed datagram for a session that does not open under its key: spoofed, tampered or damaged
	DropReplay                           // sealed datagram whose sequence number was seen before or is older than the replay window; a Connect whose cookie already made a session
	DropOverLimit                        // Connect refused by MaxSessions, MaxPerIP or MaxPerSubnet
	DropRate                             // Hello or Connect over its rate (CookieRate, HandshakeRate and their totals)
	DropOversize                         // datagram over MTU, or frame over wire.MaxFrame (sent or received)
	DropQueueFull                        // frame refused by Send: MaxQueue bytes already queued
	DropSocketFull                       // datagram the kernel dropped: the server's receive buffer was full, the server not keeping up (Linux only; not in PacketsIn)
	DropPath                             // a session's new address not validated: its challenge withheld (over the address's byte budget) or the move refused (the address over MaxPerIP or MaxPerSubnet), or a Response that proves nothing
	NumDropReasons
)

var dropNames = [NumDropReasons]string{
	"malformed", "bad_cookie", "unknown_session", "forged", "replay", "over_limit", "rate", "oversize", "queue_full", "socket_full", "path",
}

// String returns the reason's name in snake case, as used in logs and metrics.
func (r DropReason) String() string {
	if r < 0 || r >= NumDropReasons {
		return "unknown"
	}
	return dropNames[r]
}

// ServerStats is a snapshot of a server's counters since Listen.
type ServerStats struct {
	Sessions   int    // sessions open now
	Accepted   uint64 // sessions created
	PacketsIn  uint64 // datagrams received, dropped ones included
	PacketsOut uint64 // datagrams sent
	BytesIn    uint64 // bytes of the datagrams received
	BytesOut   uint64 // bytes of the datagrams sent
	Cookies    uint64 // Cookie replies sent
	Migrated   uint64 // sessions whose peer's address changed (and was followed, after a challenge answered from there)
	Challenges uint64 // path challenges sent to addresses not yet validated
	Dropped    [NumDropReasons]uint64
	// Appended. Keepalives: well-formed keep-alives received (counted,
	// dropped: keepalive.go); KeepalivesOut: keep-alives sent.
	Keepalives    uint64
	KeepalivesOut uint64
}

// TotalDropped returns the sum of Dropped.
func (s ServerStats) TotalDropped() uint64 { return sumDropped(&s.Dropped) }

func sumDropped(dropped *[NumDropReasons]uint64) uint64 {
	var n uint64
	for _, d := range dropped {
		n += d
	}
	return n
}

// serverCounters are the atomics behind ServerStats, written by the loop and
// read by Stats from any goroutine.
type serverCounters struct {
	sessions   atomic.Int64
	accepted   atomic.Uint64
	packetsIn  atomic.Uint64
	packetsOut atomic.Uint64
	bytesIn    atomic.Uint64
	bytesOut   atomic.Uint64
	cookies    atomic.Uint64
	dropped    [NumDropReasons]atomic.Uint64
	migrated   atomic.Uint64
	challenges atomic.Uint64

	keepalives    atomic.Uint64
	keepalivesOut atomic.Uint64
}

func (c *serverCounters) snapshot() ServerStats {
	s := ServerStats{
		Sessions:   int(c.sessions.Load()),
		Accepted:   c.accepted.Load(),
		PacketsIn:  c.packetsIn.Load(),
		PacketsOut: c.packetsOut.Load(),
		BytesIn:    c.bytesIn.Load(),
		BytesOut:   c.bytesOut.Load(),
		Cookies:    c.cookies.Load(),
		Migrated:   c.migrated.Load(),
		Challenges: c.challenges.Load(),

		Keepalives:    c.keepalives.Load(),
		KeepalivesOut: c.keepalivesOut.Load(),
	}
	for i := range s.Dropped {
		s.Dropped[i] = c.dropped[i].Load()
	}
	return s
}

// ClientStats is a snapshot of a client's counters since Dial.
type ClientStats struct {
	PacketsIn uint64 // datagrams received after the handshake, dropped ones included
	Dropped   [NumDropReasons]uint64
	// Appended. Keepalives: well-formed keep-alives received from the
	// server's address (a standby keeping its path to this port open:
	// keepalive.go), counted and dropped.
	Keepalives uint64
}

// TotalDropped returns the sum of Dropped.
func (s ClientStats) TotalDropped() uint64 { return sumDropped(&s.Dropped) }

// dropLog writes drops to a log, one line per reason per dropLogEvery:
// the first drop after a quiet spell at once, with its source; the others
// summed up when the interval is over (flush). Loop goroutine only.
type dropLog struct {
	log     *slog.Logger
	who     string // "transport server", "transport client"
	last    [NumDropReasons]time.Time
	pending [NumDropReasons]uint64
	from    [NumDropReasons]netip.AddrPort // the latest source of the pending drops
}

// note counts one drop of reason r from from (total is its count since
// the start).
func (d *dropLog) note(now time.Time, r DropReason, from netip.AddrPort, total uint64) {
	d.noteMany(now, r, from, 1, total)
}

// noteMany counts n drops of reason r, the latest from from: an invalid
// address for drops with no one source (the kernel's at a full socket).
func (d *dropLog) noteMany(now time.Time, r DropReason, from netip.AddrPort, n, total uint64) {
	if d.log == nil || n == 0 {
		return
	}
	if now.Sub(d.last[r]) >= dropLogEvery && d.pending[r] == 0 {
		d.last[r] = now
		args := withSource("from", from, "reason", r.String())
		d.log.Warn(d.who+": dropped", append(args, "count", n, "total", total)...)
		return
	}
	d.pending[r] += n
	d.from[r] = from
}

// withSource appends key and from to a log line's args when from is an
// address.
func withSource(key string, from netip.AddrPort, args ...any) []any {
	if from.IsValid() {
		args = append(args, key, from.String())
	}
	return args
}

// flush writes the lines of the reasons whose interval is over.
func (d *dropLog) flush(now time.Time, totals func(DropReason) uint64) {
	if d.log == nil {
		return
	}
	for r := range DropReason(NumDropReasons) {
		if d.pending[r] == 0 || now.Sub(d.last[r]) < dropLogEvery {
			continue
		}
		args := withSource("latest_from", d.from[r], "reason", r.String())
		d.log.Warn(d.who+": dropped", append(args, "count", d.pending[r],
			"in", fmt.Sprint(now.Sub(d.last[r]).Round(time.Second)), "total", totals(r))...)
		d.last[r], d.pending[r] = now, 0
	}
}
