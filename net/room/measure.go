package room

import (
	"fmt"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// What a member says of itself is checked against what the room sees
// (docs/ARCHITECTURE.md, "Timing adapts"). The room times every master turn from
// its compiling to the member's acknowledgement: the network's round trip
// both ways plus the member's wait until its next packet (a frame, or a
// turn). A member's reported round trip counts up to the longest such wait
// of the last one to two seconds and a quarter more (measureSlack on
// top). Its reported tick rate (the ticks a second its session sustains,
// whatever its frame rate) counts down to the rate at which its packets
// come in bursts of their own (burstGap apart): a machine that advances
// its clock f times a second sends at most f such bursts a second, so
// more bursts say it is faster than it claims; and down to the ticks of
// the new turns it sends a second (tickMeter): the rate its clock
// sustains, as the room sees it, whatever its frame rate. So a member
// whose turns come in time cannot claim a slow machine and lengthen the
// turns of everyone (K 2 to maxSlowK, 4, seen in issue 53): K follows what
// the room measures. Without a wait measured yet, a report counts up to
// the round trip the room pinged in the lobby; without a second of
// turns, a tick rate counts not at all.
const (
	measureBucket = time.Second          // the waits are kept as the extremes of two buckets this long
	measureSlack  = 20                   // ms allowed above the measured round trip and its quarter
	burstGap      = 4 * time.Millisecond // packets closer together than this were sent in one frame

	// maxSlowK is the longest turn, in ticks, that one member's tick
	// rate may ask of everyone (15 ticks a second). A member that needs
	// longer is told so (RoomStatus.Slow) and, after slowLimit, sent away.
	maxSlowK  = 4
	slowLimit = 30 * time.Second
)

// waitMeter keeps the extremes of a member's acknowledgement waits, in ms,
// over two buckets of measureBucket.
type waitMeter struct {
	at     time.Duration // when bucket 0 began
	hi, lo [2]uint16
	n      [2]uint16
	last   uint16 // the last round trip measured: holds while no wait comes
}

func (w *waitMeter) sample(now, d time.Duration) {
	if d < 0 {
		return
	}
	if now-w.at >= measureBucket {
		if now-w.at >= 2*measureBucket {
			w.n[1] = 0
		} else {
			w.hi[1], w.lo[1], w.n[1] = w.hi[0], w.lo[0], w.n[0]
		}
		w.n[0], w.at = 0, now
	}
	ms := uint16(min(d.Milliseconds(), 65535))
	if w.n[0] == 0 {
		w.hi[0], w.lo[0] = ms, ms
	} else {
		w.hi[0], w.lo[0] = max(w.hi[0], ms), min(w.lo[0], ms)
	}
	w.n[0] = min(w.n[0]+1, 65535)
}

// measured returns the longest wait, in ms, over the last one to two
// buckets; ok is false if none came in that time.
func (w *waitMeter) measured(now time.Duration) (rtt uint16, ok bool) {
	for i := range w.n {
		if w.n[i] == 0 || now-w.at >= time.Duration(i+1)*measureBucket {
			continue
		}
		rtt, ok = max(rtt, w.hi[i]), true
	}
	if ok {
		w.last = rtt
	}
	return rtt, ok
}

// burstMeter counts a member's packets that come apart from the one before
// (burstGap), a second at a time: at most the rate its clock advances.
type burstMeter struct {
	at, last time.Duration
	n        int
	rate     int // bursts a second in the last whole second (0: not yet known)
}

func (b *burstMeter) packet(now time.Duration) {
	if b.n == 0 && b.at == 0 && b.last == 0 {
		b.at = now
	}
	if b.n == 0 || now-b.last >= burstGap {
		b.n++
	}
	b.last = now
	if d := now - b.at; d >= time.Second {
		b.rate = int(int64(b.n) * int64(time.Second) / int64(d))
		b.n, b.at = 0, now
	}
}

// tickMeter counts the ticks of a member's new turns (each turn once, as
// the room stores it), a second at a time: the ticks a second its clock
// sustains, which no report can lower.
type tickMeter struct {
	at      time.Duration // when the second being counted began
	started bool
	n       int // ticks since at
	rate    int // ticks a second in the last whole second or more (0: not yet known)
}

func (c *tickMeter) add(now time.Duration, ticks int) {
	if !c.started {
		c.started, c.at = true, now
	}
	c.n += ticks
	if d := now - c.at; d >= time.Second {
		c.rate = int(min(int64(c.n)*int64(time.Second)/int64(d), 255))
		c.n, c.at = 0, now
	}
}

// trustRTT returns the round trip, in ms, that slot s may ask the input
// delay to cover when it reports rtt.
func (r *Room) trustRTT(s *slot, m *member, rtt uint16) uint16 {
	seen, ok := m.waits.measured(r.now)
	if !ok {
		seen = max(m.waits.last, s.pinged)
	}
	limit := int(seen) + int(seen)/4 + measureSlack
	return uint16(min(int(rtt), limit))
}

// trustFPS returns the tick rate a member's machine is taken to sustain
// when it reports fps (ClientPacket.FPS, ticks a second): no lower than
// the rate of its packets' bursts, nor than the ticks of turns it sent in
// the last second.
func (r *Room) trustFPS(m *member, fps uint8) uint8 {
	if m.ticks.rate == 0 {
		return game.TicksPerSecond // unproven (not a second of turns yet): it asks nothing of anyone
	}
	return uint8(min(max(int(fps), m.bursts.rate, m.ticks.rate), 255))
}

// fpsK returns the ticks a turn must have for a machine that sustains fps
// ticks a second to send every turn in time.
func fpsK(fps uint8) int {
	f := max(int(fps), 1)
	return (game.TicksPerSecond + f - 1) / f
}

// slowMask returns the live slots whose machines need longer turns than
// maxSlowK.
func (r *Room) slowMask() uint8 {
	var mask uint8
	for i := range r.slots {
		if s := &r.slots[i]; s.life.waitedOn() && s.fps > 0 && fpsK(s.fps) > maxSlowK {
			mask |= 1 << i
		}
	}
	return mask
}

// checkSlow tells everyone which machines do not keep up (RoomStatus.Slow)
// and sends away one that has not kept up for slowLimit.
func (r *Room) checkSlow() {
	mask := r.slowMask()
	if mask != r.slow {
		r.slow = mask
		r.statusDirty = true
	}
	for i := range r.slots {
		s := &r.slots[i]
		if mask&(1<<i) == 0 {
			s.slowSince = 0
			continue
		}
		if s.slowSince == 0 {
			s.slowSince = r.now
			if s.slowSince == 0 {
				s.slowSince = 1 // 0 means not slow
			}
			continue
		}
		if r.now-s.slowSince < slowLimit || s.m == nil {
			continue
		}
		m := s.m
		text := fmt.Sprintf("your computer ran %d game ticks a second for %d s; the game needs at least %d", s.fps, int(slowLimit/time.Second), (game.TicksPerSecond+maxSlowK-1)/maxSlowK)
		r.send(m.conn, wire.Leave{Reason: wire.LeaveTooSlow, Text: text})
		r.onLeave(m)
		return // onLeave may have finished the game; the rest at the next tick
	}
}
