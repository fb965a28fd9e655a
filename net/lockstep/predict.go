package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// Prediction, GGPO-style on top of lockstep.
//
// Without prediction the session samples the local input as it executes
// confirmed ticks, so a key shows on screen only after the input delay and
// the round trip. With prediction the local clock samples on its own and
// sends each local turn when it is complete, exactly as plain lockstep
// would send it; confirmed ticks run as soon as their master turns arrive.
// The displayed world is the confirmed world stepped through the ticks
// whose own inputs are known (sent, or sampled in the local turn in
// progress), with every other player assumed to hold their last confirmed
// input, at most PredictWindow ticks ahead. It is kept from update to
// update, GGPO's way: each confirmed tick is compared with the inputs its
// prediction was stepped with, and only when they differ is the displayed
// world rebuilt from the confirmed one; otherwise an update steps it only
// through the ticks it newly knows. The confirmed world stays the only one
// hashed, reported and snapshotted.
//
// The local clock may run at most PredictWindow ticks ahead of the
// confirmed world (its lead): beyond that it waits, as plain lockstep
// waits for a late master turn. The lead is measured between the tick the
// next sample is taken at and the confirmed world's tick, on the same turn
// numbering: it does not count the turns of input delay, nor the gap a
// grown delay opens (those are filled when the turn that opens them is
// complete). So no delay the room can choose stalls the clock: a longer
// delay only lowers the lead, as the confirmed world then runs nearer to
// the local clock.

// predictor is the local sampling clock and the displayed world.
type predictor struct {
	turn    uint32 // the local turn being sampled
	idx     int    // samples taken in it
	buf     [wire.MaxK]game.Input
	sampled int64 // local ticks sampled since the clock started

	world game.World // the displayed world
	ok    bool       // world is the confirmed world's future as far as it is predicted
	ticks int        // ticks world is ahead of the confirmed one
	// the turn and tick within it that world's next tick is
	nextTurn uint32
	nextK    int
	used     predictedTicks // the inputs each predicted tick was stepped with
}

// predictedTicks holds, by world tick, the inputs a predicted tick was
// stepped with, for the prediction window and then some.
type predictedTicks [32]struct {
	tick uint32
	in   [game.MaxPlayers]game.Input
}

func (p *predictor) begin(first uint32) {
	p.turn, p.idx, p.sampled = first, 0, 0
	p.ok, p.ticks = false, 0
}

// confirm compares confirmed tick tick, stepped with in, with its
// prediction: the displayed world stays only if the prediction used those
// inputs (then it is that world's future, by determinism).
func (p *predictor) confirm(tick uint32, in *[game.MaxPlayers]game.Input, st *Stats) {
	if !p.ok {
		return
	}
	u := &p.used[tick%uint32(len(p.used))]
	switch {
	case p.world.Tick < tick || u.tick != tick:
		p.ok = false // the prediction had not got this far
	case u.in != *in:
		p.ok = false
		st.Mispredicted++
	}
}

// runPredicting runs a predicting session: the confirmed ticks the held
// master turns allow, the local ticks the clock has made due, and the
// displayed world.
func (s *Session) runPredicting(input InputSource) {
	for n := 0; n < 8*wire.MaxK+s.cfg.MaxCatchUp && s.execTick(nil); n++ {
	}
	s.skipStaleTurns()
	due := s.clock.due(s.now)
	for s.pred.sampled < due && !s.game.ended {
		if s.room.slot >= 0 && s.lead() > int64(s.cfg.PredictWindow) {
			s.clock.stall(s.now)
			break
		}
		s.clock.unstall(s.now, &s.stats)
		s.sampleTick(input)
	}
	s.clock.forgive(s.now, s.pred.sampled)
	s.predict()
}

// skipStaleTurns moves the local clock past turns whose input would land
// on a turn the room has already compiled without waiting for it: a player
// the room did not wait for (one catching up after a rejoin) has sent
// nothing for the turns the room compiled. The others sample about a round
// trip ahead of the master turns we hold, so the clock jumps to where they
// are, and this player's input reaches the room in time for it to wait for
// them again.
//
// A player the room waits for never skips, even when its next local turn's
// input would land on a compiled turn: that is a shrinking delay, whose
// superseded turns are dropped as they are sampled (queueOwnTurn) while the
// room waits for the turns already sent. Skipping there would leave the
// turns between the last one sent and the jump unsent, with the clock held
// by the prediction window: the room would wait for them for ever.
func (s *Session) skipStaleTurns() {
	g, p := &s.game, &s.pred
	if s.room.slot < 0 || p.idx != 0 || p.turn+uint32(g.timing.at(p.turn).delay) >= g.masters.ack {
		return
	}
	if s.own.next >= g.masters.ack {
		return // the room has every turn it compiled from us: it waits for us
	}
	turnDur := time.Duration(g.timing.at(g.masters.ack).k) * tickDur
	ahead := min(uint32((s.meter.reportRTT()+turnDur-1)/turnDur), maxSkipAhead)
	target := g.masters.ack + ahead // the turn the others' input now goes to
	for d := uint32(g.timing.at(p.turn).delay); p.turn+d < target; d = uint32(g.timing.at(p.turn).delay) {
		p.turn++
	}
}

// maxSkipAhead bounds how many turns past the master turns held the local
// clock may jump at once (half a second at one tick a turn; it jumps again
// if that was not enough): the turns it fills must fit the sent ring.
const maxSkipAhead = sentRing / 2

// localTurnTicks returns the ticks of local turn c: those of the turn its
// input is for.
func (s *Session) localTurnTicks(c uint32) int {
	tl := &s.game.timing
	return int(tl.at(c + uint32(tl.at(c).delay)).k)
}

// lead returns how many ticks the next local sample lies ahead of the
// confirmed world (negative when the confirmed world is ahead of the local
// clock, as it is when the input delay covers the round trip): the local
// turns between the confirmed turn and the one being sampled, in the
// ticks of wall time they take. Plain lockstep samples turn c while it
// executes turn c; prediction may sample up to the window ahead of that.
func (s *Session) lead() int64 {
	g, p := &s.game, &s.pred
	sample := int64(p.idx) + 1
	for t := g.turn; t < p.turn; t++ {
		sample += int64(s.localTurnTicks(t))
	}
	for t := p.turn; t < g.turn; t++ {
		sample -= int64(s.localTurnTicks(t))
	}
	return sample - int64(g.tickIn)
}

// sampleTick samples the local input for one tick of the local turn and
// sends the turn when it is complete. A local turn has as many ticks as
// the turn it is for (the input delay later): so the local clock makes
// game time at the rate it is played, even across a change of K.
func (s *Session) sampleTick(input InputSource) {
	p := &s.pred
	p.sampled++
	if s.room.slot < 0 {
		return
	}
	var x game.Input
	if input != nil {
		x = input(uint32(p.sampled)) & game.ClientInputMask
	}
	p.buf[p.idx] = x
	p.idx++
	if p.idx < s.localTurnTicks(p.turn) {
		return
	}
	c := p.turn
	s.queueOwnTurn(c, p.buf[:p.idx])
	p.turn, p.idx = c+1, 0
	s.sendClientPacket(false)
}

// predict brings the displayed world up to date: rebuilt from the
// confirmed world if a confirmed tick differed from its prediction, then
// stepped through the ticks newly known, at most PredictWindow ahead of the
// confirmed world.
func (s *Session) predict() {
	g, p := &s.game, &s.pred
	if g.world == nil {
		return
	}
	if !p.ok || p.world.Tick < g.world.Tick {
		p.world = *g.world
		p.world.NumEvents = 0
		p.nextTurn, p.nextK = g.turn, g.tickIn
		p.ok = true
		s.stats.Resims++
	}
	p.ticks = int(p.world.Tick - g.world.Tick)
	if s.room.slot < 0 || g.ended {
		return
	}
	partial := p.turn + uint32(g.timing.at(p.turn).delay) // the turn the samples in progress go to
	var in [game.MaxPlayers]game.Input
	for p.ticks < s.cfg.PredictWindow {
		t, k := p.nextTurn, p.nextK
		if k >= int(g.timing.at(t).k) {
			p.nextTurn, p.nextK = t+1, 0
			continue
		}
		var own game.Input
		switch {
		case t < s.own.next && s.own.next-t <= sentRing:
			own = s.own.sent[t%sentRing].Inputs[min(k, wire.MaxK-1)]
		case t == partial && k < p.idx:
			own = p.buf[k]
		default:
			return // no own input known beyond here
		}
		if mt, ok := g.masters.get(t); ok {
			for i := range in {
				in[i] = mt.Inputs[i][k]
			}
		} else {
			in = g.lastIn
			for i := range in {
				in[i] &^= game.Leave // a departure happens once, when confirmed
			}
			in[s.room.slot] = own
		}
		p.world.Step(in)
		p.world.NumEvents = 0
		u := &p.used[p.world.Tick%uint32(len(p.used))]
		u.tick, u.in = p.world.Tick, in
		p.ticks++
		p.nextK = k + 1
	}
}
