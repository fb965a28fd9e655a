package transport

import (
	"sync/atomic"
	"time"
)

// DropReason says why a server dropped a datagram or refused a frame.
type DropReason int

// Drop reasons, indexes of ServerStats.Dropped.
const (
	DropMalformed      DropReason = iota // too short, unknown kind or version, bad KCP segments
	DropBadCookie                        // Connect whose cookie is wrong or stale
	DropUnknownSession                   // Data, Ping or Close for a conv no session has
	DropWrongAddr                        // Data, Ping or Close for a session, from another address
	DropOverLimit                        // Connect refused by MaxSessions or MaxPerIP
	DropRate                             // Hello or Connect over the source IP's HandshakeRate
	DropOversize                         // datagram over MTU, or frame over wire.MaxFrame (sent or received)
	DropQueueFull                        // frame refused by Send: MaxQueue bytes already queued
	NumDropReasons
)

var dropNames = [NumDropReasons]string{
	"malformed", "bad_cookie", "unknown_session", "wrong_addr", "over_limit", "rate", "oversize", "queue_full",
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
	Dropped    [NumDropReasons]uint64
}

// TotalDropped returns the sum of Dropped.
func (s ServerStats) TotalDropped() uint64 {
	var n uint64
	for _, d := range s.Dropped {
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

	lastLog [NumDropReasons]time.Time // loop goroutine only
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
	}
	for i := range s.Dropped {
		s.Dropped[i] = c.dropped[i].Load()
	}
	return s
}
