package transport

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/xtaci/kcp-go/v5"

	"rockstep/net/wire"
)

// session is one end of an established connection: a KCP state machine in
// message mode plus the bookkeeping for heartbeats, timeouts and the send
// queue bound. It is driven by its owner's loop (Server or Client) and is
// not safe for concurrent use.
//
// KCP reads its own millisecond clock; everything else here takes the
// owner's now. KCP flushes queued frames only on Update, on a grid of
// Config.Interval, so a frame waits at most one Interval before it leaves.
type session struct {
	conv  uint32
	addr  netip.AddrPort // where the peer's last newest datagram came from; where datagrams go
	local netip.Addr     // server side: the local address addr sends to, where answers leave from (zero: the system's choice)
	ch    *channel       // the session's keys: every datagram after the handshake is sealed
	kcp   *kcp.KCP
	idx   int // in the owner's list of sessions

	// Server side: the Connect that made the session, and the Accept it got,
	// sent again as it was if the Connect is repeated (the Accept was lost),
	// until the client's first sealed datagram shows it arrived.
	nonce     [nonceSize]byte
	clientPub [keySize]byte
	accept    []byte
	accepted  bool // a sealed datagram arrived: the client has its Accept

	mss      int       // largest segment payload, bytes
	maxFrg   int       // largest frg a frame may have
	lastRecv time.Time // last valid datagram from the peer
	aliveAt  time.Time // server side, a carried peer's: when its carrier last answered a ping (Pinger)
	heardAt  time.Time // server side: last authentic datagram from addr (see Server.established)

	// Server side: the path being validated (see Server.established). The
	// session moves to probe only when the challenge comes back from there;
	// until then probe is sent nothing but challenges, and no more than
	// amplification times the bytes of the authentic datagrams from it.
	probe       netip.AddrPort // invalid: none
	probeLocal  netip.Addr     // the local address probe sends to, where its challenges leave from
	challenge   [challengeSize]byte
	probeIn     int       // bytes of authentic datagrams from probe
	probeOut    int       // bytes sent to probe
	challengeAt time.Time // the last challenge sent (to any address)
	lastSend    time.Time // last datagram to the peer

	// Frames not yet acknowledged, oldest first, to bound the queue in
	// bytes: KCP only tells segments (WaitSnd), oldest first too.
	queue       []queuedFrame
	queueHead   int
	queuedSegs  int
	queuedBytes int

	inputSince bool // segments came in since KCP's last update: it owes acknowledgements
	sending    bool // KCP held unacknowledged segments after its last update, or a frame was sent since
	busy       bool // server side: in Server.busy, ticked until KCP has nothing left

	closing bool  // closed; waiting for the owner to forget it
	why     error // why it closed, for Disconnected
	fail    error // set when the session can go on no longer (its sequence numbers ran out): the owner ends it
}

type queuedFrame struct {
	segs  int // KCP segments the frame took
	bytes int
}

// newSession makes a session whose KCP datagrams go to output, to be
// sealed by output's caller.
func newSession(cfg Config, conv uint32, addr netip.AddrPort, ch *channel, now time.Time, output func(buf []byte, size int)) *session {
	k := kcp.NewKCP(conv, output)
	k.SetMtu(kcpMTU(cfg.MTU))
	k.WndSize(cfg.SendWindow, cfg.RecvWindow)
	k.NoDelay(b2i(cfg.NoDelay), int(cfg.Interval/time.Millisecond), cfg.FastResend, b2i(cfg.NoCongestion))
	return &session{
		conv:     conv,
		addr:     addr,
		ch:       ch,
		kcp:      k,
		mss:      segmentPayload(cfg.MTU),
		maxFrg:   maxFragments(cfg.MTU),
		lastRecv: now,
		heardAt:  now,
		lastSend: now,
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// send queues one frame, or fails if it is empty, larger than wire.MaxFrame or
// would take the queue over maxQueue bytes.
func (s *session) send(frame []byte, maxQueue int) error {
	if len(frame) == 0 || len(frame) > wire.MaxFrame {
		return fmt.Errorf("send %d bytes: %w", len(frame), ErrFrameSize)
	}
	s.trimQueue()
	if s.queuedBytes+len(frame) > maxQueue {
		return fmt.Errorf("send %d bytes with %d queued: %w", len(frame), s.queuedBytes, ErrQueueFull)
	}
	before := s.kcp.WaitSnd()
	if s.kcp.Send(frame) != 0 {
		return fmt.Errorf("send %d bytes: %w", len(frame), ErrFrameSize)
	}
	segs := s.kcp.WaitSnd() - before
	s.sending = true
	if s.queueHead > 0 && s.queueHead == len(s.queue) {
		s.queue, s.queueHead = s.queue[:0], 0
	} else if s.queueHead > 64 && s.queueHead*2 > len(s.queue) {
		n := copy(s.queue, s.queue[s.queueHead:])
		s.queue, s.queueHead = s.queue[:n], 0
	}
	s.queue = append(s.queue, queuedFrame{segs: segs, bytes: len(frame)})
	s.queuedSegs += segs
	s.queuedBytes += len(frame)
	return nil
}

// trimQueue forgets the frames KCP no longer holds.
func (s *session) trimQueue() {
	waiting := s.kcp.WaitSnd()
	for s.queueHead < len(s.queue) && s.queuedSegs-s.queue[s.queueHead].segs >= waiting {
		f := s.queue[s.queueHead]
		s.queuedSegs -= f.segs
		s.queuedBytes -= f.bytes
		s.queueHead++
	}
}

// queued returns the bytes of frames not yet acknowledged.
func (s *session) queued() int {
	s.trimQueue()
	return s.queuedBytes
}

// input feeds the opened payload of one Data datagram to KCP. It reports
// false if the segments are malformed for this session.
func (s *session) input(segs []byte) bool {
	if !checkSegments(segs, s.conv, s.mss, s.maxFrg) {
		return false
	}
	s.inputSince = true
	return s.kcp.Input(segs, kcp.IKCP_PACKET_REGULAR, false) == 0
}

// update runs KCP's timers (sends, resends, acknowledgements) when it has
// something to do: frames waiting to be sent or acknowledged, or segments
// that came in since its last update. An idle session costs nothing a tick:
// in a game, whose turns travel as datagrams, most sessions are idle most of
// the time. Whether it is idle is the session's own flag, not KCP's count of
// waiting segments: asking KCP would touch every session's KCP state every
// tick, which is what the flag is there to avoid.
func (s *session) update() {
	if s.inputSince || s.sending {
		s.inputSince = false
		s.kcp.Update()
		s.sending = s.kcp.WaitSnd() > 0
	}
}

// recvBufSize is the buffer recv needs: a wire.MaxFrame frame's segments, full.
func (s *session) recvBufSize() int { return (s.maxFrg + 1) * s.mss }

// recv returns the next whole frame into buf (of recvBufSize bytes), n == 0 if none is ready, or an
// error if the peer sent a message that cannot be a frame (too large, or
// fragments that never end).
func (s *session) recv(buf []byte) (int, error) {
	n := s.kcp.Recv(buf)
	switch {
	case n == -1:
		return 0, nil
	case n < 0:
		return 0, fmt.Errorf("receive: message larger than %d bytes", len(buf))
	case n > wire.MaxFrame:
		return 0, fmt.Errorf("receive %d bytes: %w", n, ErrFrameSize)
	}
	return n, nil
}
