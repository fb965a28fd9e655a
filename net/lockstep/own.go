package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/internal/ackclock"
	"rockstep/net/wire"
)

// ownTurns are the local player's turns: queued for the turn the input
// delay makes them, sent until the room acknowledges them.
type ownTurns struct {
	sent     [sentRing]wire.TurnInput
	sentAt   [sentRing]time.Duration // when each was queued, for the turn round trip
	next     uint32                  // the next own turn to queue
	ack      uint32                  // every own turn below this reached the room
	lastIn   game.Input              // the last input sampled, held over gaps
	samples  [wire.MaxK]game.Input   // plain lockstep: sampled during the executing turn
	lastSend time.Duration
	packets  int            // client packets sent (stats ride on every eighth)
	resentTo uint32         // own turns below this may have been sent more than once
	clock    ackclock.Clock // how long the room takes to acknowledge: when to resend
}

func (o *ownTurns) begin(first uint32) {
	o.next, o.ack, o.resentTo = first, first, first
	o.lastIn = 0
}

// onClientAck takes the room's acknowledgement of the own turns below ack:
// they are no longer sent, and the wait for the newest of them goes into
// the ack clock that times resends (as a sample if it was sent only once).
func (s *Session) onClientAck(ack uint32) {
	o := &s.own
	if ack <= o.ack {
		return
	}
	if t := ack - 1; t < o.next && o.next-t <= sentRing {
		o.clock.Acked(s.now-o.sentAt[t%sentRing], t >= o.resentTo)
	}
	// Beyond own.next when the room compiled turns without us (after a
	// reconnect): those turns are done and must not be sent.
	o.ack = ack
}

// queueTurn records own turn t with the given samples, fitted to the turn's
// tick count (the last sample repeats; with fewer ticks the last sample is
// kept so that a release is not lost). nil samples hold the last input.
func (s *Session) queueTurn(t uint32, samples []game.Input) {
	k := int(s.game.timing.at(t).k)
	ti := wire.TurnInput{Turn: t, Count: uint8(k)}
	for i := 0; i < k; i++ {
		switch {
		case len(samples) == 0:
			ti.Inputs[i] = s.own.lastIn
		case i == k-1:
			ti.Inputs[i] = samples[len(samples)-1]
		case i < len(samples):
			ti.Inputs[i] = samples[i]
		default:
			ti.Inputs[i] = samples[len(samples)-1]
		}
	}
	s.own.sent[t%sentRing] = ti
	s.own.sentAt[t%sentRing] = s.now
	s.own.next = t + 1
	if s.cfg.OnSend != nil {
		s.cfg.OnSend(ti)
	}
}

// queueOwnTurn queues the samples of local turn c for the turn the input
// delay makes them, filling a gap if the delay grew and dropping them if it
// shrank.
//
// Turns the room has already compiled need nothing from us (a player it did
// not wait for, catching up): the queue starts after them. And it never
// holds more than sentRing unacknowledged turns, so that none is forgotten
// before the room has it; a fill that would overrun it (a delay grown by
// more than the ring while nothing is acknowledged) goes on at the next
// turn, with the input held.
func (s *Session) queueOwnTurn(c uint32, samples []game.Input) {
	target := c + uint32(s.game.timing.at(c).delay)
	if held := s.game.masters.ack; s.own.next < held {
		s.own.next = held
		s.own.ack = max(s.own.ack, held)
	}
	room := func() bool { return s.own.next-s.own.ack < sentRing }
	for s.own.next < target && room() {
		s.queueTurn(s.own.next, nil)
	}
	if s.own.next == target && room() {
		s.queueTurn(target, samples)
	}
	if n := len(samples); n > 0 {
		s.own.lastIn = samples[n-1]
	}
}

// sendClientPacket sends the unacknowledged own turns (oldest first, up to
// a batch), the master acknowledgement and the latest hash (with the end of
// the game, once it ended here). resend marks a packet sent by the timer
// rather than by a new turn.
//
// A packet carries turns of one tick count; around a change of K the
// turns of each count go in a packet of their own, at once, so that the
// turns after the change never wait for the ones before it to be
// acknowledged.
func (s *Session) sendClientPacket(resend bool) {
	if s.phase != Playing || s.hand.migrating {
		return
	}
	o, g := &s.own, &s.game
	if o.next > o.ack && o.next-o.ack > sentRing {
		o.ack = o.next - sentRing // bounded: older turns are gone
	}
	from := o.ack
	for part := 0; part < maxParts; part++ {
		p := &s.cp
		p.Turns = p.Turns[:0]
		for t := from; t < o.next && len(p.Turns) < wire.MaxBatch; t++ {
			ti := &o.sent[t%sentRing]
			if len(p.Turns) > 0 && ti.Count != p.Turns[0].Count {
				break
			}
			p.Turns = append(p.Turns, *ti)
		}
		from += uint32(len(p.Turns))
		if part > 0 && len(p.Turns) == 0 {
			return
		}
		if resend && len(p.Turns) == 0 && s.room.slot >= 0 && !g.ended {
			return // nothing to repeat (an ended game repeats its last hash until the room confirms it)
		}
		s.queueClientPacket(resend)
		if from >= o.next {
			return
		}
	}
}

// maxParts bounds the client packets one send may take: a K change
// splits the unacknowledged turns in two, rarely more.
const maxParts = 3

// queueClientPacket fills in and queues s.cp, whose turns are set.
func (s *Session) queueClientPacket(resend bool) {
	o, g, p := &s.own, &s.game, &s.cp
	p.MasterAck = g.masters.ack
	p.HasHash, p.HashTurn, p.HashLow = g.hasHash, g.hashTurn, g.hashLow
	p.Ended = g.ended && g.hasHash && g.hashTurn == g.endTurn
	o.packets++
	p.HasStats = o.packets%8 == 1
	if p.HasStats {
		rtt := s.meter.reportRTT()
		if s.cfg.Predict {
			// The room sets the input delay to cover the round trip; a
			// predicting client hides up to its window of it itself.
			rtt = max(0, rtt-time.Duration(s.cfg.PredictWindow)*tickDur)
		}
		p.RTT = uint16(min(rtt.Milliseconds(), 65535))
		p.FPS = s.meter.reportTPS() // ticks a second, whatever the frame rate
	}
	if resend {
		s.stats.Resends++
		if len(p.Turns) > 0 {
			last := p.Turns[len(p.Turns)-1].Turn
			o.resentTo = max(o.resentTo, last+1) // their waits now say nothing of the round trip
		}
	}
	o.lastSend = s.now
	b, err := p.AppendFrame(s.buf())
	if err != nil {
		return
	}
	if len(s.out) < maxOut {
		s.out = append(s.out, b)
	}
}

// ackEnd sends the room, once, the acknowledgement of every master turn
// this session holds, as its game ends here on the room's word: a
// Finished session sends no client packets, and the room holds a rematch
// until every player acknowledged the last turns (room.Room.holdRematch,
// up to its silence timeout: 3 s). A player whose room's "finished" came
// with the last turn (the host's own, over a pipe, which ended the game)
// would otherwise never acknowledge it, and every lobby would wait.
func (s *Session) ackEnd() {
	if s.phase != Playing || s.hand.migrating || s.room.slot < 0 {
		return
	}
	s.game.masters.advanceAck(s.game.turn) // the turns executed to the end count
	s.cp.Turns = s.cp.Turns[:0]
	s.queueClientPacket(false)
}
