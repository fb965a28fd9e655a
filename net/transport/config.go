package transport

import (
	"fmt"
	"log/slog"
	"time"

	"rockstep/net/wire"
)

// Config is the settings of a UDP transport, server or client. Listen and
// Dial take a zero numeric field as LAN()'s value; NoDelay, FastResend,
// NoCongestion and Log are taken as given.
type Config struct {
	NoDelay      bool          // KCP nodelay mode: 30 ms minimum retransmission timeout instead of 100 ms
	Interval     time.Duration // loop period: KCP flush, heartbeats, timeouts and Tick; 10 ms to 5 s (KCP's range)
	FastResend   int           // resend a segment after this many later segments are acknowledged; 0: off
	NoCongestion bool          // turn off KCP's congestion window (send at the full window at once)

	SendWindow, RecvWindow int // KCP windows, segments (packets); RecvWindow must hold a wire.MaxFrame frame's fragments

	MTU int // largest datagram sent, bytes, 128 to 1500; larger ones received are dropped as oversize

	Heartbeat time.Duration // send a Ping when nothing was sent for this long
	Timeout   time.Duration // a peer silent for this long is gone

	MaxSessions   int // server: sessions in total
	MaxPerIP      int // server: sessions per source IP
	MaxQueue      int // bytes of frames queued unacknowledged per session before Send fails
	HandshakeRate int // server: handshake datagrams (Hello, Connect) per second per source IP; bursts of one second's worth

	HandshakeTimeout time.Duration // client: Dial gives up after this

	Log *slog.Logger // nil: no log; dropped datagrams are logged at most once per second per reason
}

// LAN returns the low-latency preset for a local network: KCP in nodelay mode
// with a 10 ms interval, fast resend after 2 acknowledgements and no
// congestion control, 128-segment windows, 1200-byte datagrams, a heartbeat
// every 250 ms and a 3 s timeout.
func LAN() Config {
	return Config{
		NoDelay:          true,
		Interval:         10 * time.Millisecond,
		FastResend:       2,
		NoCongestion:     true,
		SendWindow:       128,
		RecvWindow:       128,
		MTU:              1200,
		Heartbeat:        250 * time.Millisecond,
		Timeout:          3 * time.Second,
		MaxSessions:      2048,
		MaxPerIP:         64,
		MaxQueue:         64 << 10,
		HandshakeRate:    50,
		HandshakeTimeout: 5 * time.Second,
	}
}

// handshakeRetry is how often a client repeats an unanswered Hello or Connect.
const handshakeRetry = 250 * time.Millisecond

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
	fill(&cfg.MaxQueue, def.MaxQueue)
	fill(&cfg.HandshakeRate, def.HandshakeRate)
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
	case cfg.MaxQueue < wire.MaxFrame:
		return cfg, bad("MaxQueue", cfg.MaxQueue)
	case cfg.HandshakeRate < 1:
		return cfg, bad("HandshakeRate", cfg.HandshakeRate)
	case cfg.HandshakeTimeout < 0:
		return cfg, bad("HandshakeTimeout", cfg.HandshakeTimeout)
	}
	return cfg, nil
}

// kcpMTU is the KCP MTU for a datagram MTU: the kind byte comes first.
func kcpMTU(mtu int) int { return mtu - 1 }

// segmentPayload is the largest KCP segment payload (mss) for a datagram MTU.
func segmentPayload(mtu int) int { return kcpMTU(mtu) - segmentHead }

// maxFragments is the largest KCP frg value of a wire.MaxFrame frame: the number
// of segments it takes, less one.
func maxFragments(mtu int) int {
	mss := segmentPayload(mtu)
	return (wire.MaxFrame+mss-1)/mss - 1
}
