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
// the round trip. With prediction the local clock samples on its own, at
// most PredictWindow ticks ahead of what the confirmed world can show, and
// sends each local turn when it is complete, exactly as plain lockstep
// would send it. Confirmed ticks run as soon as their master turns arrive.
// After every update the displayed world is rebuilt: a copy of the
// confirmed world, stepped through the ticks whose own inputs are known
// (sent, or sampled in the local turn in progress), with every other
// player assumed to hold their last confirmed input. The confirmed world
// stays the only one hashed, reported and snapshotted.

// runPredicting is run for a predicting session.
func (s *Session) runPredicting(input InputSource) {
	// Confirmed ticks: as many as the held master turns allow.
	for n := 0; n < 8*wire.MaxK+s.cfg.MaxCatchUp && s.confirmTick(); n++ {
	}
	due := int64((s.now - s.clock) / tickDur)
	for s.sampled < due {
		if s.slot >= 0 && !s.canSample() {
			if !s.stalled {
				s.stalled, s.stallAt = true, s.now
			}
			break
		}
		s.endStall()
		s.sampleTick(input)
	}
	const maxDebt = 6
	if s.sampled < due-maxDebt {
		s.clock = s.now - time.Duration(s.sampled+maxDebt)*tickDur
	}
	s.predict()
}

// canSample reports whether the local clock may sample another tick: the
// world it would show must stay within the prediction window of the
// confirmed world.
func (s *Session) canSample() bool {
	t := s.timingAt(s.lturn)
	// The tick a new sample lands on, counted from the confirmed world.
	ahead := int64(0)
	for turn := s.execTurn; turn < s.lturn+uint32(t.delay); turn++ {
		ahead += int64(s.timingAt(turn).k)
	}
	ahead += int64(s.lidx) + 1 - int64(s.tickIn)
	return ahead <= int64(s.cfg.PredictWindow)
}

func (s *Session) endStall() {
	if s.stalled {
		d := s.now - s.stallAt
		s.stats.Stall += d
		s.stats.StallMax = max(s.stats.StallMax, d)
		s.stalled = false
	}
}

// sampleTick samples the local input for one tick of the local turn and
// sends the turn when it is complete.
func (s *Session) sampleTick(input InputSource) {
	s.sampled++
	if s.slot < 0 {
		return
	}
	var x game.Input
	if input != nil {
		x = input(uint32(s.sampled)) & game.ClientInputMask
	}
	s.lbuf[s.lidx] = x
	s.lidx++
	if s.lidx < int(s.timingAt(s.lturn).k) {
		return
	}
	c := s.lturn
	s.queueOwnTurn(c, s.lbuf[:s.lidx])
	s.lturn, s.lidx = c+1, 0
	s.sendClientPacket(false)
}

// queueOwnTurn queues the samples of local turn c for the turn the input
// delay makes them, filling a gap if the delay grew and dropping them if it
// shrank.
func (s *Session) queueOwnTurn(c uint32, samples []game.Input) {
	target := c + uint32(s.timingAt(c).delay)
	for s.nextSend < target {
		s.queueTurn(s.nextSend, nil)
	}
	if s.nextSend == target {
		s.queueTurn(target, samples)
	}
	if n := len(samples); n > 0 {
		s.lastIn = samples[n-1]
	}
}

// confirmTick executes one confirmed tick, if its master turn is held.
func (s *Session) confirmTick() bool {
	t := s.execTurn
	if !s.hasMaster(t) {
		return false
	}
	mt := &s.masters[t%masterRing]
	if s.tickIn == 0 {
		s.startTurn(mt)
	}
	var in [game.MaxPlayers]game.Input
	for i := range in {
		in[i] = mt.Inputs[i][s.tickIn]
	}
	s.lastConf = in
	s.syncSave(in)
	s.world.Step(in)
	s.syncCheck()
	s.checkPrediction()
	s.countLateness()
	s.collect()
	s.tickIn++
	s.ticksRun++
	s.stats.Ticks++
	if s.tickIn >= int(mt.Count) {
		s.completeTurn(mt)
	}
	return true
}

// checkPrediction counts a misprediction when the confirmed world reaches a
// tick that had been predicted differently.
func (s *Session) checkPrediction() {
	tick := s.world.Tick
	p := &s.predHash[tick%uint32(len(s.predHash))]
	if p.tick != tick || p.hash == 0 {
		return
	}
	if p.hash != s.world.Hash() {
		s.stats.Mispredicted++
	}
	p.hash = 0
}

// predict rebuilds the displayed world.
func (s *Session) predict() {
	if s.world == nil {
		return
	}
	if s.world.Tick != s.lastExec {
		s.lastExec = s.world.Tick
		s.stats.Resims++
	}
	s.pred = *s.world
	s.pred.NumEvents = 0
	s.predTicks = 0
	if s.slot < 0 {
		s.predOK = true
		return
	}
	partial := s.lturn + uint32(s.timingAt(s.lturn).delay) // the turn the samples in progress go to
	t, k := s.execTurn, s.tickIn
	var in [game.MaxPlayers]game.Input
	for s.predTicks < s.cfg.PredictWindow {
		tk := int(s.timingAt(t).k)
		if k >= tk {
			t, k = t+1, 0
			continue
		}
		var own game.Input
		switch {
		case t < s.nextSend && s.nextSend-t <= sentRing:
			own = s.sent[t%sentRing].Inputs[min(k, wire.MaxK-1)]
		case t == partial && k < s.lidx:
			own = s.lbuf[k]
		default:
			s.predOK = true
			return // no own input known beyond here
		}
		if s.hasMaster(t) {
			mt := &s.masters[t%masterRing]
			for i := range in {
				in[i] = mt.Inputs[i][k]
			}
		} else {
			in = s.lastConf
			for i := range in {
				in[i] &^= game.Leave // a departure happens once, when confirmed
			}
			in[s.slot] = own
		}
		s.pred.Step(in)
		s.pred.NumEvents = 0
		s.predTicks++
		h := &s.predHash[s.pred.Tick%uint32(len(s.predHash))]
		h.tick, h.hash = s.pred.Tick, s.pred.Hash()
		k++
	}
	s.predOK = true
}
