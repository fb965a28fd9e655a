package room

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// How timing adapts (the Age of Empires way): from the round trips and
// tick rates the players report, the room picks the input delay that gets
// every player's packets to the room and the master packet back before it
// is needed, and the turn length the slowest machine keeps up with. A
// change is announced in master turn M for turn M+D+2 plus the turns of
// predictLead ticks, so every client knows it before it sends a packet for
// a turn it affects (a predicting client samples up to its prediction
// window ahead of its confirmed world), and all switch at the same tick;
// and never before the turns the players may have queued under a longer
// delay that has since shrunk (the horizon).
//
// On a LAN whose round trip fits in a tick with its margin, a turn is one
// tick and the delay one turn: a key takes effect at the next tick.
// Elsewhere a turn is at least two ticks (half the packets) and grows as
// the delay alone cannot cover the round trip.
const (
	timingEvery  = 15                     // master turns between timing decisions, at most
	timingPeriod = 250 * time.Millisecond // time between timing decisions, at most (slow turns)
	marginMs     = 12                     // ms added to the slowest round trip for processing and jitter
	wanTurnTicks = 2                      // ticks a turn has at least, unless the round trip fits in one tick
	predictLead  = 12                     // ticks: covers a prediction window of up to 12 ticks
	shrinkAfter  = 4                      // timing decisions in a row that must call for less delay before it shrinks
)

// wantTiming returns the K and delay the players' reports call for.
//
// Each player reports the longest round trip of its recent turns: from
// sending a turn's input to holding that turn's master packet. That takes
// in the network's latency and jitter, the resends that loss costs in
// either direction, and the wait for the slowest player, so the delay that
// covers it keeps every player fed. When even the longest delay cannot
// cover it at the current turn length, turns grow longer (K) instead: the
// game then keeps its real speed with coarser turns rather than crawling.
//
// A report is bounded by what the room sees of the player (measure.go):
// its round trip by the acknowledgement waits the room timed, its tick
// rate by how often its packets come; and one machine's tick rate makes
// turns of maxSlowK ticks at most (that machine is told, and in time sent
// away, rather than slowing everyone for ever).
func (r *Room) wantTiming() (k, delay uint8) {
	maxRTT, minFPS := 0, game.TicksPerSecond
	for i := range r.slots {
		s := &r.slots[i]
		if !s.life.live() {
			continue
		}
		if int(s.rtt) > maxRTT {
			maxRTT = int(s.rtt)
		}
		if s.fps > 0 && int(s.fps) < minFPS {
			minFPS = int(s.fps)
		}
	}
	kk := (game.TicksPerSecond + minFPS - 1) / minFPS // ticks a turn must have for the slowest machine to keep up
	kk = min(kk, maxSlowK)                            // a slower machine is told, not waited for (measure.go)
	kk = max(kk, r.cfg.K, 1)
	kk = min(kk, wire.MaxK)
	need := maxRTT*6/5 + marginMs // ms
	if kk == 1 && need <= 1000/game.TicksPerSecond {
		return 1, uint8(max(r.cfg.Delay, 1)) // a LAN: one tick a turn, one turn of delay
	}
	kk = max(kk, wanTurnTicks)
	turns := func(k int) int {
		turnMs := k * 1000 / game.TicksPerSecond
		return (need + turnMs - 1) / turnMs
	}
	for kk < wire.MaxK && turns(kk) > wire.MaxDelay {
		kk++
	}
	d := turns(kk)
	d = max(d, r.cfg.Delay, 1)
	d = min(d, wire.MaxDelay)
	return uint8(kk), uint8(d)
}

// adaptTiming decides, every timingEvery turns, whether master turn t
// announces a new timing.
func (r *Room) adaptTiming(t uint32, mt *wire.MasterTurn) {
	if r.cfg.FixedTiming || r.hasPending {
		return
	}
	r.timingChecks++
	if r.timingChecks < timingEvery && r.now-r.lastTiming < timingPeriod {
		return
	}
	r.timingChecks, r.lastTiming = 0, r.now
	k, d := r.wantTiming()
	cur := r.cur
	switch {
	case k == cur.k && d == cur.delay:
		r.shrinkVotes = 0
		return
	case int(k)*int(d) > int(cur.k)*int(cur.delay) || k > cur.k:
		r.shrinkVotes = 0 // grow at once: a stall costs more than delay
	default:
		// Shrink slowly, so that a passing burst of loss or jitter does
		// not make the delay flap: every shrink drops a turn of input.
		r.shrinkVotes++
		if r.shrinkVotes < shrinkAfter {
			return
		}
		r.shrinkVotes = 0
		if k == cur.k {
			if cur.delay-d < 2 {
				return // clearly too long only: no flapping
			}
			d = cur.delay - max(1, (cur.delay-d)/2) // halfway at a time
		}
	}
	slowest := min(cur.k, k) // turns of the shorter timing count for the lead
	at := t + uint32(cur.delay) + 2 + uint32((predictLead+int(slowest)-1)/int(slowest))
	// A delay that shrank leaves the turns sent under the longer one
	// beyond this one's reach: the change comes after every one of them.
	at = max(at, r.horizon+2)
	r.pending = timing{at: at, k: k, delay: d}
	r.hasPending = true
	mt.Events = append(mt.Events, wire.RoomEvent{Kind: wire.EventTiming, At: at, K: k, Delay: d})
}

// The room measures every member's round trip itself during setup, so that
// the lobby shows pings and a game starts with the delay the network
// needs; while a game runs, the players' own reports (which include the
// turn round trip) take over, bounded by the acknowledgement waits the
// room times (measure.go). A Ping is also the room's word in a quiet
// lobby: every quarter second, so that half a second without one is news
// (lockstep.Session.LobbySilence: "waiting for the host…").
const roomPingEvery = 250 * time.Millisecond

// pingMembers sends a Ping to every member now and then.
func (r *Room) pingMembers() {
	if r.now-r.lastPing < roomPingEvery {
		return
	}
	r.lastPing = r.now
	for _, m := range r.members {
		r.send(m.conn, wire.Ping{ID: uint32(m.conn), Time: int64(r.now / time.Microsecond)})
	}
}

// onPong takes a member's answer to the room's Ping as its round trip
// (outside a running game).
func (r *Room) onPong(m *member, p wire.Pong) {
	rtt := r.now - time.Duration(p.Time)*time.Microsecond
	if p.ID != uint32(m.conn) || rtt < 0 || rtt > time.Minute {
		r.drop(DropUnexpected)
		return
	}
	if m.slot < 0 || r.state == wire.StateRunning {
		return
	}
	s := &r.slots[m.slot]
	first := s.rtt == 0
	// At least 1 ms: a roster's 0 means not measured yet, and a round
	// trip on one machine takes well under a millisecond.
	s.rtt = uint16(min(max(rtt.Milliseconds(), 1), 65535))
	s.pinged = s.rtt
	if first && r.state == wire.StateSetup {
		// A player's first figure (a room that took a game over knows
		// none): every lobby shows it now, not at the next periodic
		// setup, a second later.
		r.broadcastSetup()
	}
}
