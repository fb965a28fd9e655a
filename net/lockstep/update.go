package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// InputSource returns the local player's input for the tick about to run
// (the world's Tick after it). The session calls it once per executed tick.
type InputSource func(tick uint32) game.Input

// tickDur is one engine tick.
const tickDur = time.Second / game.TicksPerSecond

// Update advances the session to now: it repeats what has not been
// answered, executes every tick that is due and whose master turn is held,
// and queues the client packets that follow. Call it once per frame.
func (s *Session) Update(now time.Duration, input InputSource) {
	s.advance(now)
	s.frames++
	if s.now-s.frameAt >= time.Second {
		if !s.fpsSet {
			s.fps = s.frames * int(time.Second) / int(s.now-s.frameAt)
		}
		s.frames, s.frameAt = 0, s.now
	}
	switch s.phase {
	case Joining:
		if s.now-s.lastJoin >= s.cfg.JoinEvery {
			s.lastJoin = s.now
			s.send(wire.Join{Cookie: s.cfg.Cookie, RoomID: s.cfg.RoomID, PlayerID: s.cfg.PlayerID, Name: s.cfg.Name, Token: s.token, Spectate: s.cfg.Spectate})
		}
		return
	case Refused, Left:
		return
	}
	if s.now-s.lastPing >= s.cfg.PingEvery {
		s.lastPing = s.now
		s.pingID++
		s.send(wire.Ping{ID: s.pingID, Time: int64(s.now / time.Microsecond)})
	}
	s.retryLobby()
	if s.phase != Playing || s.desync != nil {
		return
	}
	s.run(input)
	if s.now-s.lastSend >= s.cfg.ResendEvery {
		s.sendClientPacket(true)
	}
}

// SetFPS reports the frame rate the player's machine achieves, when the
// session is updated on a loop of its own rather than once per frame.
func (s *Session) SetFPS(fps int) {
	if fps > 0 {
		s.fps, s.fpsSet = fps, true
	}
}

// run executes the ticks that are due by the session's clock, plus some
// more when master turns have piled up (after a stall, or to catch up after
// joining from a snapshot).
func (s *Session) run(input InputSource) {
	if s.cfg.Predict {
		s.runPredicting(input)
		return
	}
	due := int64((s.now - s.clock) / tickDur)
	budget := due - s.ticksRun
	buffered := int64(s.mAck - s.execTurn)
	if lead := int64(s.timingAt(s.execTurn).delay) + 1; buffered > lead {
		budget += min(int64(s.cfg.MaxCatchUp), buffered-lead)
	}
	budget = min(budget, int64(4*wire.MaxK+s.cfg.MaxCatchUp))
	for ; budget > 0; budget-- {
		if !s.stepTick(input) {
			if s.ticksRun < due && !s.stalled {
				s.stalled, s.stallAt = true, s.now
			}
			break
		}
	}
	// Forgive a debt of more than a few ticks: a client that fell behind
	// catches up through the buffered turns, not by racing its clock.
	const maxDebt = 6
	if s.ticksRun < due-maxDebt {
		s.clock = s.now - time.Duration(s.ticksRun+maxDebt)*tickDur
	}
}

// stepTick executes one tick, if its master turn is held.
func (s *Session) stepTick(input InputSource) bool {
	t := s.execTurn
	if !s.hasMaster(t) {
		return false
	}
	mt := &s.masters[t%masterRing]
	if s.tickIn == 0 {
		s.startTurn(mt)
	}
	if s.stalled {
		d := s.now - s.stallAt
		s.stats.Stall += d
		s.stats.StallMax = max(s.stats.StallMax, d)
		s.stalled = false
	}
	var in [game.MaxPlayers]game.Input
	for i := range in {
		in[i] = mt.Inputs[i][s.tickIn]
	}
	if s.slot >= 0 && s.tickIn < wire.MaxK {
		var x game.Input
		if input != nil {
			x = input(s.world.Tick+1) & game.ClientInputMask
		}
		s.samples[s.tickIn] = x
	}
	s.syncSave(in)
	s.world.Step(in)
	s.syncCheck()
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

func (s *Session) startTurn(mt *wire.MasterTurn) {
	for _, e := range mt.Events {
		switch e.Kind {
		case wire.EventTiming:
			if e.At > mt.Turn {
				s.pending, s.hasPend = timing{at: e.At, k: e.K, delay: e.Delay}, true
				s.emit(Event{Kind: EvTiming, Turn: e.At})
			}
		case wire.EventVacant:
			s.emit(Event{Kind: EvVacant, Slot: int(e.Slot), Turn: mt.Turn})
		case wire.EventDrop:
			s.emit(Event{Kind: EvDropped, Slot: int(e.Slot), Turn: mt.Turn})
		case wire.EventJoin:
			s.emit(Event{Kind: EvRejoined, Slot: int(e.Slot), Turn: mt.Turn})
		case wire.EventPause:
			s.emit(Event{Kind: EvPaused, Turn: mt.Turn})
		case wire.EventResume:
			s.emit(Event{Kind: EvResumed, Turn: mt.Turn})
		}
	}
	if s.cfg.OnTurn != nil {
		s.cfg.OnTurn(mt)
	}
}

// completeTurn reports the turn's hash, answers a snapshot request, and
// sends the input sampled during the turn for the turn the delay makes it.
func (s *Session) completeTurn(mt *wire.MasterTurn) {
	c := mt.Turn
	h := s.world.Hash()
	s.hashTurn, s.hashLow, s.hasHash = c, uint32(h), true
	s.haveM[c%masterRing] = false
	s.execTurn, s.tickIn = c+1, 0
	if s.hasPend && s.execTurn >= s.pending.at {
		s.cur, s.hasPend = s.pending, false
	}
	if s.cfg.OnTurnEnd != nil {
		s.cfg.OnTurnEnd(c, h, s.world)
	}
	if n := len(s.recent); n > 0 {
		r := &s.recent[c%uint32(n)]
		r.turn, r.ok, r.w = c, true, *s.world
		r.w.NumEvents = 0
	}
	if s.snapWant && c >= s.snapTurn {
		s.sendSnapshot(c)
	}
	if s.cfg.Predict {
		s.sendClientPacket(false) // acknowledgements and the hash; own turns go as sampled
		return
	}
	if s.slot >= 0 {
		// Plain lockstep: the input sampled during turn c is for turn c+D.
		// A grown delay leaves a gap, filled holding the last input; a shrunk
		// one makes this turn's input superseded by what was already sent.
		s.queueOwnTurn(c, s.samples[:min(int(mt.Count), wire.MaxK)])
	}
	s.sendClientPacket(false)
}

// queueTurn records own turn t with the given samples, fitted to the turn's
// tick count (the last sample repeats; with fewer ticks the last sample is
// kept so that a release is not lost). nil samples hold the last input.
func (s *Session) queueTurn(t uint32, samples []game.Input) {
	k := int(s.timingAt(t).k)
	ti := wire.TurnInput{Turn: t, Count: uint8(k)}
	for i := 0; i < k; i++ {
		switch {
		case len(samples) == 0:
			ti.Inputs[i] = s.lastIn
		case i == k-1:
			ti.Inputs[i] = samples[len(samples)-1]
		case i < len(samples):
			ti.Inputs[i] = samples[i]
		default:
			ti.Inputs[i] = samples[len(samples)-1]
		}
	}
	s.sent[t%sentRing] = ti
	s.nextSend = t + 1
	if s.cfg.OnSend != nil {
		s.cfg.OnSend(ti)
	}
}

// sendClientPacket sends the unacknowledged own turns (oldest first, up to
// a batch), the master acknowledgement and the latest hash. resend marks a
// packet sent by the timer rather than by a new turn.
func (s *Session) sendClientPacket(resend bool) {
	if s.phase != Playing {
		return
	}
	if s.nextSend > s.cAck && s.nextSend-s.cAck > sentRing {
		s.cAck = s.nextSend - sentRing // bounded: older turns are gone
	}
	p := &s.cp
	p.Turns = p.Turns[:0]
	for t := s.cAck; t < s.nextSend && len(p.Turns) < wire.MaxBatch; t++ {
		ti := &s.sent[t%sentRing]
		if len(p.Turns) > 0 && ti.Count != p.Turns[0].Count {
			break // one tick count per packet; the rest goes next time
		}
		p.Turns = append(p.Turns, *ti)
	}
	if resend && len(p.Turns) == 0 && s.slot >= 0 {
		return // nothing to repeat
	}
	p.MasterAck = s.mAck
	p.HasHash, p.HashTurn, p.HashLow = s.hasHash, s.hashTurn, s.hashLow
	s.packets++
	p.HasStats = s.packets%8 == 1
	if p.HasStats {
		rtt := s.Stats().RTTMax
		if s.cfg.Predict {
			// The room sets the input delay to cover the round trip; a
			// predicting client hides up to its window of it itself.
			rtt = max(0, rtt-time.Duration(s.cfg.PredictWindow)*tickDur)
		}
		p.RTT = uint16(min(rtt.Milliseconds(), 65535))
		p.FPS = uint8(min(max(s.fps, 1), 255))
		if s.fps == 0 {
			p.FPS = game.TicksPerSecond
		}
	}
	if resend {
		s.stats.Resends++
	}
	s.lastSend = s.now
	b, err := p.AppendFrame(s.buf())
	if err != nil {
		return
	}
	s.out = append(s.out, b)
}

func (s *Session) collect() {
	// Game events are read by the UI from the world after each Update;
	// multiple ticks per Update are merged here.
	for _, e := range s.world.LastEvents() {
		if len(s.gameEvents) < maxGameEvents {
			s.gameEvents = append(s.gameEvents, e)
		}
	}
}

const maxGameEvents = 512

// GameEvents returns the engine events of the ticks executed since the last
// call, oldest first, and forgets them.
func (s *Session) GameEvents() []game.Event {
	ev := append([]game.Event(nil), s.gameEvents...)
	s.gameEvents = s.gameEvents[:0]
	return ev
}

// countLateness files the tick just run by how late it ran against the
// session's schedule: tick n is due once n+1 ticks' time has passed since
// the clock started.
func (s *Session) countLateness() {
	late := s.now - (s.clock + time.Duration(s.ticksRun+1)*tickDur)
	i := 0
	for i < len(LatenessBuckets) && late > LatenessBuckets[i] {
		i++
	}
	s.stats.Lateness[i]++
}
