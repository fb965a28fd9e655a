package transport

import (
	"fmt"
	"log/slog"
	"time"

	"rockstep/net/wire"
)

// Config is the settings of a UDP transport: those of the link, which both
// ends read, and those that only a server (Listen) or only a client (Dial)
// reads, each in its own type. They stay embedded in one Config because
// one value is both at once: a player's client keeps its transport
// settings and, for host migration, listens with them as a standby server
// (net/client's openStandby sets HostKey) and dials with them again
// (dialKeyed sets HostFingerprint); embedding keeps cfg.MaxSessions and
// cfg.HostFingerprint where callers set them. Listen ignores ClientConfig
// and Dial ServerConfig; both check all of it.
//
// Listen and Dial take a zero numeric field as LAN()'s value; NoDelay,
// FastResend, NoCongestion, Log, HostKey, HostFingerprint and Loop are
// taken as given.
type Config struct {
	LinkConfig
	ServerConfig
	ClientConfig

	Log *slog.Logger // nil: no log; drops are logged one line per reason per dropLogEvery (the first at once)
}

// LinkConfig is the settings of a connection that both its ends read: KCP,
// datagram size, liveness and the send queue.
type LinkConfig struct {
	NoDelay      bool          // KCP nodelay mode: 30 ms minimum retransmission timeout instead of 100 ms
	Interval     time.Duration // loop period: KCP flush, heartbeats, timeouts and Tick; 10 ms to 5 s (KCP's range)
	FastResend   int           // resend a segment after this many later segments are acknowledged; 0: off
	NoCongestion bool          // turn off KCP's congestion window (send at the full window at once)

	SendWindow, RecvWindow int // KCP windows, segments (packets); RecvWindow must hold a wire.MaxFrame frame's fragments

	MTU int // largest datagram sent, bytes, 128 to 1500; larger ones received are dropped as oversize

	Heartbeat time.Duration // send a Ping when nothing was sent for this long
	Timeout   time.Duration // a peer silent for this long is gone

	MaxQueue int // bytes of frames queued unacknowledged per session before Send fails
}

// ServerConfig is the settings only a server reads: its limits on
// sessions and handshakes, and its identity.
type ServerConfig struct {
	MaxSessions  int // sessions in total
	MaxPerIP     int // sessions per source IP
	MaxPerSubnet int // sessions per source /24 (IPv4) or /64 (IPv6)

	// Handshake rates, per second, each with bursts of one second's worth.
	// A Cookie costs one HMAC and holds no state, and is never larger than
	// its Hello, so Hellos are limited per source address and port (a
	// spoofer cannot use up another socket's share) and in all; a Connect
	// with a valid cookie (whose source is proven) costs a key agreement
	// and a signature, so Connects are limited per source network.
	CookieRate       int // Cookies sent to one source address and port
	MaxCookieRate    int // Cookies sent in all
	HandshakeRate    int // Connects handled from one source /24 (IPv4) or /64 (IPv6)
	MaxHandshakeRate int // Connects handled in all

	// HostKey is the server's long-term identity, which it proves in every
	// handshake; nil: a fresh key for this server only (its fingerprint
	// then changes with every Listen).
	HostKey *HostKey
}

// ClientConfig is the settings only a client reads: how long it tries,
// whom it trusts, and what drives it.
type ClientConfig struct {
	HandshakeTimeout time.Duration // Dial gives up after this

	// HostFingerprint is the fingerprint (see Fingerprint) of the only
	// host key Dial accepts, or its first MinPinLen or more hex digits (an
	// invite code's pin: see net/invite); "": any. Joining a game from the
	// LAN list sets it to the listing's, so that a responder that answers
	// for someone else's game cannot take its players.
	HostFingerprint string

	// Loop drives the client's socket and clock with many others' (see
	// Loop); nil, or a system without Loops: goroutines of its own. It is
	// no setting but a shared, running driver, passed here so that a
	// harness of many clients (the bots) hands it to every Dial with the
	// rest of their settings; Config's == compares it by pointer.
	Loop *Loop
}

// LAN returns the low-latency preset for a local network: KCP in nodelay mode
// with a 10 ms interval, fast resend after 2 acknowledgements and no
// congestion control, 128-segment windows, 1200-byte datagrams, a heartbeat
// every 250 ms and a 3 s timeout; 2,048 sessions, at most 32 from one
// address and 256 from one /24 or /64 (so that a handful of addresses
// cannot hold all of their network's: eight would be needed).
func LAN() Config {
	return Config{
		LinkConfig: LinkConfig{
			NoDelay:      true,
			Interval:     10 * time.Millisecond,
			FastResend:   2,
			NoCongestion: true,
			SendWindow:   128,
			RecvWindow:   128,
			MTU:          1200,
			Heartbeat:    250 * time.Millisecond,
			Timeout:      3 * time.Second,
			MaxQueue:     64 << 10,
		},
		ServerConfig: ServerConfig{
			MaxSessions:      2048,
			MaxPerIP:         32,
			MaxPerSubnet:     256,
			CookieRate:       50,
			MaxCookieRate:    20000,
			HandshakeRate:    50,
			MaxHandshakeRate: 2000,
		},
		ClientConfig: ClientConfig{
			HandshakeTimeout: 5 * time.Second,
		},
	}
}

// handshakeRetry is how often a client repeats an unanswered Hello or Connect.
const handshakeRetry = 250 * time.Millisecond

// dropLogEvery is the least time between two log lines about one drop
// reason: the first drop after a quiet spell is logged at once, the rest
// are counted and summed up in one line per reason per interval.
const dropLogEvery = 10 * time.Second

// withDefaults returns cfg with zero fields filled from LAN(), or an error
// naming the first field out of range.
func (cfg Config) withDefaults() (Config, error) {
	def := LAN()
	fill := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	fillD := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	// FastResend 0 means off, so it is not filled.
	fillD(&cfg.Interval, def.Interval)
	fill(&cfg.SendWindow, def.SendWindow)
	fill(&cfg.RecvWindow, def.RecvWindow)
	fill(&cfg.MTU, def.MTU)
	fillD(&cfg.Heartbeat, def.Heartbeat)
	fillD(&cfg.Timeout, def.Timeout)
	fill(&cfg.MaxSessions, def.MaxSessions)
	fill(&cfg.MaxPerIP, def.MaxPerIP)
	fill(&cfg.MaxPerSubnet, def.MaxPerSubnet)
	fill(&cfg.MaxQueue, def.MaxQueue)
	fill(&cfg.CookieRate, def.CookieRate)
	fill(&cfg.MaxCookieRate, def.MaxCookieRate)
	fill(&cfg.HandshakeRate, def.HandshakeRate)
	fill(&cfg.MaxHandshakeRate, def.MaxHandshakeRate)
	fillD(&cfg.HandshakeTimeout, def.HandshakeTimeout)

	bad := func(field string, v any) error {
		return fmt.Errorf("%w: %s = %v", ErrBadConfig, field, v)
	}
	switch {
	case cfg.Interval < 10*time.Millisecond || cfg.Interval > 5*time.Second:
		return cfg, bad("Interval", cfg.Interval)
	case cfg.FastResend < 0:
		return cfg, bad("FastResend", cfg.FastResend)
	case cfg.MTU < 128 || cfg.MTU > 1500:
		return cfg, bad("MTU", cfg.MTU)
	case cfg.SendWindow < 1 || cfg.SendWindow > 32768:
		return cfg, bad("SendWindow", cfg.SendWindow)
	case cfg.RecvWindow <= maxFragments(cfg.MTU) || cfg.RecvWindow > 32768:
		return cfg, bad("RecvWindow", cfg.RecvWindow)
	case cfg.Heartbeat < 0:
		return cfg, bad("Heartbeat", cfg.Heartbeat)
	case cfg.Timeout <= cfg.Heartbeat:
		return cfg, bad("Timeout", cfg.Timeout)
	case cfg.MaxSessions < 1:
		return cfg, bad("MaxSessions", cfg.MaxSessions)
	case cfg.MaxPerIP < 1:
		return cfg, bad("MaxPerIP", cfg.MaxPerIP)
	case cfg.MaxPerSubnet < 1:
		return cfg, bad("MaxPerSubnet", cfg.MaxPerSubnet)
	case cfg.MaxQueue < wire.MaxFrame:
		return cfg, bad("MaxQueue", cfg.MaxQueue)
	case cfg.CookieRate < 1 || cfg.MaxCookieRate < cfg.CookieRate:
		return cfg, bad("CookieRate", cfg.CookieRate)
	case cfg.HandshakeRate < 1 || cfg.MaxHandshakeRate < cfg.HandshakeRate:
		return cfg, bad("HandshakeRate", cfg.HandshakeRate)
	case cfg.HostFingerprint != "" && !ValidPin(cfg.HostFingerprint):
		return cfg, bad("HostFingerprint", cfg.HostFingerprint)
	case cfg.HandshakeTimeout < 0:
		return cfg, bad("HandshakeTimeout", cfg.HandshakeTimeout)
	}
	return cfg, nil
}

// kcpMTU is the KCP MTU for a datagram MTU: the sealed datagram's header
// and tag take their share.
func kcpMTU(mtu int) int { return mtu - sealedOverhead }

// segmentPayload is the largest KCP segment payload (mss) for a datagram MTU.
func segmentPayload(mtu int) int { return kcpMTU(mtu) - segmentHead }

// maxFragments is the largest KCP frg value of a wire.MaxFrame frame: the number
// of segments it takes, less one.
func maxFragments(mtu int) int {
	mss := segmentPayload(mtu)
	return (wire.MaxFrame+mss-1)/mss - 1
}
