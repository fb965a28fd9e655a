package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// tickDur is one engine tick.
const tickDur = time.Second / game.TicksPerSecond

// maxDebt is how many ticks behind its clock a session may fall before the
// clock is moved instead: a client that fell behind catches up through the
// buffered turns, not by racing its clock.
const maxDebt = 6

// schedule is when ticks are due: tick n of the game (counted from its
// first turn here) is due n+1 ticks after start.
type schedule struct {
	start   time.Duration // when tick 0 was due
	ran     int64         // ticks executed since start
	stalled bool          // waiting since stallAt
	stallAt time.Duration
	// A stall waits for the network until a master turn arrives (fedAt);
	// what it lasts beyond is the machine not getting round to run it.
	// netStall adds up the waits for the network (the tick meter's).
	isFed    bool
	fedAt    time.Duration
	netStall time.Duration
}

func (c *schedule) begin(now time.Duration) { *c = schedule{start: now} }

// due returns how many ticks are due by now.
func (c *schedule) due(now time.Duration) int64 { return int64((now - c.start) / tickDur) }

// forgive moves the schedule so that done ticks are at most maxDebt behind.
func (c *schedule) forgive(now time.Duration, done int64) {
	if done < c.due(now)-maxDebt {
		c.start = now - time.Duration(done+maxDebt)*tickDur
	}
}

func (c *schedule) stall(now time.Duration) {
	if !c.stalled {
		c.stalled, c.stallAt, c.isFed = true, now, false
	}
}

// fed notes a master turn's arrival, which ends the network's part of a
// stall.
func (c *schedule) fed(now time.Duration) {
	if c.stalled && !c.isFed {
		c.isFed, c.fedAt = true, now
	}
}

// waited returns the time stalled waiting for the network, up to now.
func (c *schedule) waited(now time.Duration) time.Duration {
	w := c.netStall
	if c.stalled {
		end := now
		if c.isFed {
			end = c.fedAt
		}
		w += max(end-c.stallAt, 0)
	}
	return w
}

// unstall ends a stall, adding its length to st.
func (c *schedule) unstall(now time.Duration, st *Stats) {
	if c.stalled {
		d := now - c.stallAt
		st.Stall += d
		st.StallMax = max(st.StallMax, d)
		c.netStall = c.waited(now)
		c.stalled = false
	}
}

// lateness returns the Lateness bucket of the tick about to be counted as
// run: how late it runs against the schedule.
func (c *schedule) lateness(now time.Duration) int {
	late := now - (c.start + time.Duration(c.ran+1)*tickDur)
	i := 0
	for i < len(LatenessBuckets) && late > LatenessBuckets[i] {
		i++
	}
	return i
}

func (c *schedule) drift(now time.Duration) time.Duration {
	return now - (c.start + time.Duration(c.ran)*tickDur)
}

// NextTick returns when, on the session's clock, its next tick is due (to
// be run, or sampled when predicting): the caller updates the session then
// and the turn that tick completes goes out at once. Outside a game it is
// a moment from now.
func (s *Session) NextTick() time.Duration {
	if s.phase != Playing || s.game.ended {
		return s.now + 10*time.Millisecond
	}
	done := s.clock.ran
	if s.cfg.Predict {
		done = s.pred.sampled
	}
	return s.clock.start + time.Duration(done+1)*tickDur
}

// LatenessBuckets are the upper bounds of the Lateness histogram's
// buckets; the last bucket counts everything later. Besides round
// figures, the bounds fall on one and two turns of two ticks (33 and
// 67 ms), so that a quantile says whether ticks ran within a turn or two.
var LatenessBuckets = [...]time.Duration{
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
	20 * time.Millisecond, 2 * tickDur, 50 * time.Millisecond, 4 * tickDur, 100 * time.Millisecond,
	200 * time.Millisecond, 500 * time.Millisecond, time.Second,
}

// LatenessQuantile returns the upper bound of the bucket holding quantile
// q (0..1) of a lateness histogram, or 0 for an empty one.
func LatenessQuantile(h [len(LatenessBuckets) + 1]uint64, q float64) time.Duration {
	var total uint64
	for _, n := range h {
		total += n
	}
	if total == 0 {
		return 0
	}
	want := uint64(q * float64(total))
	var seen uint64
	for i, n := range h {
		seen += n
		if seen > want || seen == total {
			if i < len(LatenessBuckets) {
				return LatenessBuckets[i]
			}
			return 2 * LatenessBuckets[len(LatenessBuckets)-1]
		}
	}
	return 0
}

// runLockstep executes the ticks that are due by the session's clock,
// sampling the local input with each, plus some more when master turns
// have piled up (after a stall, or to catch up after joining from a
// snapshot).
func (s *Session) runLockstep(input InputSource) {
	g := &s.game
	due := s.clock.due(s.now)
	budget := due - s.clock.ran
	buffered := int64(g.masters.ack - g.turn)
	if lead := int64(g.timing.at(g.turn).delay) + 1; buffered > lead {
		budget += min(int64(s.cfg.MaxCatchUp), buffered-lead)
	}
	budget = min(budget, int64(4*wire.MaxK+s.cfg.MaxCatchUp))
	for ; budget > 0; budget-- {
		stalled := s.clock.stalled
		if !s.execTick(input) {
			if s.clock.ran < due {
				s.clock.stall(s.now)
			}
			break
		}
		if stalled {
			s.clock.unstall(s.now, &s.stats)
		}
	}
	s.clock.forgive(s.now, s.clock.ran)
}

// meter measures round trips, by ping and by turn, and the tick rate.
type meter struct {
	lastPing time.Duration
	pingID   uint32
	smooth   time.Duration
	pingWin  [8]time.Duration
	pingIdx  int
	turnWin  [32]time.Duration // the last turns' round trips
	turnIdx  int
	// The tick rate: ticks the session's clock advanced (run, or sampled
	// when predicting) over a window of at least a second, less the time
	// it stalled waiting for the network.
	tickOn    bool          // a window is open
	tickAt    time.Duration // when it opened
	tickDone  int64         // ticks done when it opened
	tickStall time.Duration // stall time when it opened
	tps       int           // ticks a second of the last window; 0: not measured
}

// ping sends a Ping now and then: less often while a game runs, when the
// turns measure the round trip too.
func (s *Session) ping() {
	m := &s.meter
	every := s.cfg.PingEvery
	if s.phase == Playing && !s.game.ended {
		every = max(every, s.cfg.PlayPingEvery)
	}
	if s.now-m.lastPing < every {
		return
	}
	m.lastPing = s.now
	m.pingID++
	s.stats.Pings++
	s.send(wire.Ping{ID: m.pingID, Time: int64(s.now / time.Microsecond)})
}

func (m *meter) pong(now time.Duration, p wire.Pong) {
	rtt := now - time.Duration(p.Time)*time.Microsecond
	if rtt < 0 || rtt > time.Minute {
		return
	}
	if m.smooth == 0 {
		m.smooth = rtt
	} else {
		m.smooth += (rtt - m.smooth) / 8
	}
	m.pingWin[m.pingIdx%len(m.pingWin)] = rtt
	m.pingIdx++
}

// turnArrived measures the round trip of own turn t, whose master turn has
// just arrived: from queueing the input to holding its master turn. It
// takes in latency, jitter, the resends that loss costs both ways and the
// room's wait for the slowest player: what the input delay must cover.
//
// A turn that took far longer than the network's round trip was held by
// the room for another reason (a player who vanished, a pause): more delay
// would not help with that, so it is not counted.
func (m *meter) turnArrived(now time.Duration, o *ownTurns, t uint32) {
	if t >= o.next || o.next-t > sentRing || o.sent[t%sentRing].Turn != t {
		return
	}
	rtt := now - o.sentAt[t%sentRing]
	if rtt > 2*m.pingMax()+stallRTT {
		return
	}
	m.turnWin[m.turnIdx%len(m.turnWin)] = rtt
	m.turnIdx++
}

// stallRTT is how much longer than twice the ping round trip a turn may
// take and still be the network's doing (loss, jitter, the slowest
// player's link): a few resends' worth.
const stallRTT = 150 * time.Millisecond

func (m *meter) pingMax() time.Duration {
	var d time.Duration
	for _, v := range m.pingWin {
		d = max(d, v)
	}
	return d
}

func (m *meter) turnMax() time.Duration {
	var d time.Duration
	for _, v := range m.turnWin {
		d = max(d, v)
	}
	return d
}

// turnSpread returns how much the recent turn round trips vary: the part
// of them that loss (resends) and jitter add. A constant part, such as
// this client sampling a little earlier than the others, is not in it: a
// longer delay would not help with that, and on a LAN it would cost the
// players a turn of delay for nothing.
func (m *meter) turnSpread() time.Duration {
	n := min(m.turnIdx, len(m.turnWin))
	if n < 2 {
		return 0
	}
	lo, hi := m.turnWin[0], m.turnWin[0]
	for _, v := range m.turnWin[:n] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return hi - lo
}

// reportRTT is the round trip the room should cover with the input delay:
// the longest recent ping, or the usual one plus what loss and jitter add
// to the turns, whichever is longer.
func (m *meter) reportRTT() time.Duration {
	return max(m.pingMax(), m.smooth+m.turnSpread())
}

// tickWindow is how long the tick rate is measured over, at least;
// tickSlack is how many ticks a window may miss and still count as full:
// a window's edges fall between a session's updates, so a machine that
// keeps up may see a tick or two fewer in it. Without the slack, a
// rate of 59 would ask the room for turns of two ticks.
const (
	tickWindow = 2 * time.Second
	tickSlack  = 2
)

// ticks measures the ticks a second the session sustains: the ticks its
// clock advanced over the time it was not stalled waiting for master
// turns to arrive (or, predicting, for the prediction window to free). It is what
// the room turns into ticks per turn (net/room/timing.go): a machine that
// cannot run 60 ticks a second needs longer turns, while one that draws
// few frames but ticks in time needs nothing of anyone, and a stall is the
// network's doing, which the input delay covers. Outside a running game
// the window closes, and the last rate stands.
func (m *meter) ticks(now time.Duration, playing bool, done int64, stall time.Duration) {
	if !playing {
		m.tickOn = false
		return
	}
	if !m.tickOn || done < m.tickDone || stall < m.tickStall {
		m.tickOn, m.tickAt, m.tickDone, m.tickStall = true, now, done, stall
		return
	}
	span := now - m.tickAt
	if span < tickWindow {
		return
	}
	// A window spent mostly stalled says little about the machine.
	if busy := span - (stall - m.tickStall); busy >= span/2 {
		m.tps = int((done - m.tickDone + tickSlack) * int64(time.Second) / int64(busy))
	}
	m.tickAt, m.tickDone, m.tickStall = now, done, stall
}

// measureTicks feeds the tick meter after an Update.
func (s *Session) measureTicks() {
	playing := s.phase == Playing && !s.game.ended && s.room.desync == nil
	done := s.clock.ran
	if s.cfg.Predict {
		done = s.pred.sampled
	}
	s.meter.ticks(s.now, playing, done, s.clock.waited(s.now))
}

// reportTPS is the tick rate a client packet reports: the measured one,
// or the full rate until there is one.
func (m *meter) reportTPS() uint8 {
	if m.tps <= 0 {
		return game.TicksPerSecond
	}
	return uint8(min(m.tps, 255))
}
