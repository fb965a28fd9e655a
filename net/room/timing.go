package room

import (
	"rockstep/game"
	"rockstep/net/wire"
)

// How timing adapts (the Age of Empires way): from the round trips and
// frame rates the players report, the room picks the input delay that gets
// every player's packets to the room and the master packet back before it
// is needed, and the turn length the slowest machine keeps up with. A
// change is announced in master turn M for turn M+D+2+predictLead, so every
// client knows it before it sends a packet for a turn it affects (a
// predicting client samples up to its prediction window ahead of its
// confirmed world), and all switch at the same tick.
const (
	timingEvery  = 15 // master turns between timing decisions
	marginMs     = 12 // ms added to the slowest round trip for processing and jitter
	turnTicksMin = 2  // a LAN turn is never shorter than two ticks
	predictLead  = 6  // turns: covers a prediction window of up to 12 ticks at K=2
)

// wantTiming returns the K and delay the players' reports call for.
func (r *Room) wantTiming() (k, delay uint8) {
	maxRTT, minFPS := 0, game.TicksPerSecond
	for i := range r.slots {
		s := &r.slots[i]
		if !s.inGame || !s.live {
			continue
		}
		if int(s.rtt) > maxRTT {
			maxRTT = int(s.rtt)
		}
		if s.fps > 0 && int(s.fps) < minFPS {
			minFPS = int(s.fps)
		}
	}
	kk := (game.TicksPerSecond + minFPS - 1) / minFPS // ticks each frame must run
	kk = max(kk, r.cfg.K, turnTicksMin)
	kk = min(kk, wire.MaxK)
	turnMs := kk * 1000 / game.TicksPerSecond
	need := maxRTT*6/5 + marginMs // a LAN (round trips under ~17 ms) keeps one turn of delay
	d := (need + turnMs - 1) / turnMs
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
	if r.timingChecks%timingEvery != 0 {
		return
	}
	k, d := r.wantTiming()
	cur := r.cur
	switch {
	case k == cur.k && d == cur.delay:
		return
	case k == cur.k && d < cur.delay && cur.delay-d < 2:
		return // shrink the delay only when clearly too long: no flapping
	case d < cur.delay:
		d = cur.delay - 1 // shrink one turn at a time
	}
	at := t + uint32(cur.delay) + 2 + predictLead
	r.pending = timing{at: at, k: k, delay: d}
	r.hasPending = true
	mt.Events = append(mt.Events, wire.RoomEvent{Kind: wire.EventTiming, At: at, K: k, Delay: d})
}
