package lockstep

import (
	"rockstep/game"
	"rockstep/net/wire"
)

// confirmed is the game every player agrees on: the world, the master
// turns held for it, where execution stands, and how the game ended.
type confirmed struct {
	world     *game.World
	start     wire.Start
	haveStart bool
	names     [game.MaxPlayers]string
	timing    timeline
	turn      uint32 // the turn being executed
	tickIn    int    // ticks of turn already executed
	masters   masterRing
	lastIn    [game.MaxPlayers]game.Input // every slot's input at the last confirmed tick

	hashTurn uint32 // the last completed turn, as reported
	hashLow  uint32
	hasHash  bool

	ended   bool // the game ended at the end of endTurn; nothing runs after it
	endTurn uint32
	results game.Results

	recent []recentWorld // the last turns' worlds, for desync reports
	events []game.Event  // engine events since the UI last asked
}

type recentWorld struct {
	turn uint32
	ok   bool
	w    game.World
}

func (g *confirmed) begin(st wire.Start) {
	g.names = st.Names
	g.timing.begin(st)
	g.turn, g.tickIn = st.FirstTurn, 0
	g.masters.reset(st.FirstTurn)
	g.lastIn = [game.MaxPlayers]game.Input{}
	g.ended, g.endTurn, g.results = false, 0, game.Results{}
	g.hasHash = false
	g.events = g.events[:0]
}

// timeline is the timing in force and a change announced for later.
type timeline struct {
	cur, pending timing
	hasPending   bool
}

type timing struct {
	at       uint32 // first turn of this timing
	k, delay uint8
}

func (tl *timeline) begin(st wire.Start) {
	tl.cur = timing{at: st.FirstTurn, k: st.K, delay: st.Delay}
	tl.hasPending = st.ChangeAt > st.FirstTurn
	if tl.hasPending {
		tl.pending = timing{at: st.ChangeAt, k: st.ChangeK, delay: st.ChangeDelay}
	}
}

// at returns the timing of turn t.
func (tl *timeline) at(t uint32) timing {
	if tl.hasPending && t >= tl.pending.at {
		return tl.pending
	}
	return tl.cur
}

// reached makes an announced change current once turn t is its first.
func (tl *timeline) reached(t uint32) {
	if tl.hasPending && t >= tl.pending.at {
		tl.cur, tl.hasPending = tl.pending, false
	}
}

// masterRing holds the master turns received ahead of execution.
type masterRing struct {
	turns [masterRingSize]wire.MasterTurn
	have  [masterRingSize]bool
	ack   uint32 // every master turn below this is held or executed
}

func (r *masterRing) init() {
	for i := range r.turns {
		r.turns[i].Events = make([]wire.RoomEvent, 0, wire.MaxEvents)
	}
}

func (r *masterRing) reset(first uint32) {
	r.have = [masterRingSize]bool{}
	r.ack = first
}

// get returns master turn t if it is held.
func (r *masterRing) get(t uint32) (*wire.MasterTurn, bool) {
	j := t % masterRingSize
	if r.have[j] && r.turns[j].Turn == t {
		return &r.turns[j], true
	}
	return nil, false
}

// store copies mt in unless it is held already or outside the ring as seen
// from exec, the turn being executed; it reports whether mt was new.
func (r *masterRing) store(mt *wire.MasterTurn, exec uint32) bool {
	if mt.Turn >= exec+masterRingSize {
		return false
	}
	if _, ok := r.get(mt.Turn); ok {
		return false
	}
	j := mt.Turn % masterRingSize
	dst := &r.turns[j]
	dst.Turn, dst.Count, dst.Players, dst.Inputs = mt.Turn, mt.Count, mt.Players, mt.Inputs
	dst.Events = append(dst.Events[:0], mt.Events...)
	r.have[j] = true
	return true
}

func (r *masterRing) release(t uint32) { r.have[t%masterRingSize] = false }

// advanceAck moves the acknowledgement past every turn held in a row.
func (r *masterRing) advanceAck(exec uint32) {
	if r.ack < exec {
		r.ack = exec
	}
	for r.ack < exec+masterRingSize {
		if _, ok := r.get(r.ack); !ok {
			break
		}
		r.ack++
	}
}

// InputSource returns the local player's input for the tick about to run
// (the world's Tick after it). The session calls it once per sampled tick.
type InputSource func(tick uint32) game.Input

// execTick executes the next confirmed tick if its master turn is held and
// the game has not ended. Every confirmed tick, with prediction or
// without, goes through here. sample, if not nil, is the local player's
// input source, sampled with the tick (plain lockstep samples as it
// executes; prediction samples on its own clock).
func (s *Session) execTick(sample InputSource) bool {
	g := &s.game
	if g.ended {
		return false
	}
	mt, ok := g.masters.get(g.turn)
	if !ok {
		return false
	}
	if g.tickIn == 0 {
		s.startTurn(mt)
	}
	var in [game.MaxPlayers]game.Input
	for i := range in {
		in[i] = mt.Inputs[i][g.tickIn]
	}
	if sample != nil && s.room.slot >= 0 && g.tickIn < wire.MaxK {
		s.own.samples[g.tickIn] = sample(g.world.Tick+1) & game.ClientInputMask
	}
	g.lastIn = in
	s.sync.before(s.game.world, in)
	if s.cfg.Shared != nil && s.cfg.SyncTest == 0 {
		s.cfg.Shared.step(g.world, in)
	} else {
		g.world.Step(in)
	}
	if s.sync.after(s.game.world) != nil {
		s.stats.SyncErrors++
	}
	s.injectFault()
	if s.cfg.Predict {
		s.pred.confirm(g.world.Tick, &in, &s.stats)
	}
	s.stats.Lateness[s.clock.lateness(s.now)]++
	for _, e := range g.world.LastEvents() {
		if len(g.events) < maxGameEvents {
			g.events = append(g.events, e)
		}
	}
	g.tickIn++
	s.clock.ran++
	s.stats.Ticks++
	if g.tickIn >= int(mt.Count) {
		s.completeTurn(mt)
	}
	return true
}

// startTurn tells the UI of the room's events in mt and learns of timing
// changes, as the turn's execution begins.
func (s *Session) startTurn(mt *wire.MasterTurn) {
	for _, e := range mt.Events {
		switch e.Kind {
		case wire.EventTiming:
			if e.At > mt.Turn {
				s.game.timing.pending, s.game.timing.hasPending = timing{at: e.At, k: e.K, delay: e.Delay}, true
				s.emit(Event{Kind: EvTiming, Turn: e.At})
			}
		case wire.EventVacant:
			s.emit(Event{Kind: EvVacant, Slot: int(e.Slot), Turn: mt.Turn})
		case wire.EventDrop:
			s.emit(Event{Kind: EvDropped, Slot: int(e.Slot), Turn: mt.Turn})
		case wire.EventStrayed:
			s.emit(Event{Kind: EvDropped, Slot: int(e.Slot), Turn: mt.Turn, Text: s.game.names[e.Slot%game.MaxPlayers] + " " + StrayedText})
		case wire.EventLeft:
			s.emit(Event{Kind: EvQuit, Slot: int(e.Slot), Turn: mt.Turn, Text: s.game.names[e.Slot%game.MaxPlayers]})
		case wire.EventJoin:
			s.emit(Event{Kind: EvRejoined, Slot: int(e.Slot), Turn: mt.Turn})
		case wire.EventPause:
			s.emit(Event{Kind: EvPaused, Turn: mt.Turn})
		case wire.EventResume:
			s.emit(Event{Kind: EvResumed, Turn: mt.Turn})
		}
	}
	if s.cfg.KeepHistory {
		s.hand.keep(mt)
	}
	if s.cfg.OnTurn != nil {
		s.cfg.OnTurn(mt)
	}
}

// completeTurn closes turn mt: it records the hash to report, answers a
// snapshot request, ends the game if this is its last turn, and sends what
// the turn completes.
func (s *Session) completeTurn(mt *wire.MasterTurn) {
	g := &s.game
	c := mt.Turn
	repaired := s.takePending(c) // a majority world of this turn came early (repair.go)
	var h uint64
	if s.cfg.Shared != nil {
		h = s.cfg.Shared.hash(g.world)
	} else {
		h = g.world.Hash()
	}
	g.hashTurn, g.hashLow, g.hasHash = c, s.reportedHash(h), true
	// Executed master turns stay in the ring until newer ones take their
	// place: a repair executes them again (repair.go).
	g.turn, g.tickIn = c+1, 0
	g.timing.reached(g.turn)
	if s.cfg.OnTurnEnd != nil {
		s.cfg.OnTurnEnd(c, h, g.world)
	}
	s.keepRecent(c)
	s.digestAt(c, g.world)
	if repaired {
		s.send(wire.Repair{Kind: wire.RepairDone, Turn: c, Upto: c})
	}
	if s.snap.want && c >= s.snap.wantTurn {
		s.snap.want = false
		s.sendWorld(g.world, c)
	}
	if s.isLastTurn(mt) {
		s.endGame(c)
	} else if !s.cfg.Predict && s.room.slot >= 0 {
		// Plain lockstep: the input sampled during turn c is for turn c+D.
		// A grown delay leaves a gap, filled holding the last input; a shrunk
		// one makes this turn's input superseded by what was already sent.
		s.queueOwnTurn(c, s.own.samples[:min(int(mt.Count), wire.MaxK)])
	}
	// Acknowledgements and the hash (and the end, if this was the last
	// turn); with prediction, own turns go as they are sampled.
	s.sendClientPacket(false)
}

// isLastTurn reports whether the game ends with turn mt: the confirmed
// world is over, or the room ended the game in this turn, or the room has
// finished with this as its last turn (everyone left).
func (s *Session) isLastTurn(mt *wire.MasterTurn) bool {
	if s.game.world.Over {
		return true
	}
	for _, e := range mt.Events {
		if e.Kind == wire.EventEnd {
			return true
		}
	}
	st := &s.room.status
	return st.State == wire.StateFinished && st.End != 0 && mt.Turn >= st.Final
}

// endGame stops the game at the end of turn: the results are read from the
// confirmed world there, and nothing runs after it.
func (s *Session) endGame(turn uint32) {
	g := &s.game
	g.ended, g.endTurn = true, turn
	g.results = g.world.Results(g.names)
	s.emit(Event{Kind: EvEnded, Turn: turn})
	if st := s.room.status.State; st == wire.StateFinished || st == wire.StateSetup {
		// Setup: a rematch was asked while our last turns were still to
		// run; the room has left this game's end behind, we just reached it.
		s.ackEnd()
		s.phase = Finished
	}
}

// GameEvents returns the engine events of the ticks executed since the last
// call, oldest first, and forgets them.
func (s *Session) GameEvents() []game.Event {
	ev := append([]game.Event(nil), s.game.events...)
	s.game.events = s.game.events[:0]
	return ev
}
