package room

import (
	"math/bits"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// onClientPacket stores a player's turn inputs, acknowledgements, hash and
// statistics, then compiles every master turn that has become complete.
func (r *Room) onClientPacket(m *member, p *wire.ClientPacket) {
	if r.state != wire.StateRunning {
		if r.state == wire.StateFinished {
			// Late packets of the last turns: only their acknowledgement
			// matters, so that resending the final turns stops.
			r.onMasterAck(m, p.MasterAck)
			return
		}
		r.drop(DropUnexpected)
		return
	}
	r.onMasterAck(m, p.MasterAck)
	if m.needSnap && p.MasterAck > m.snapTurn {
		m.needSnap = false // the snapshot arrived and was restored
		// The turns since the snapshot go out now, long after they were
		// compiled: their waits say nothing of the round trip.
		m.resentTo = max(m.resentTo, r.nextTurn)
		m.sampleFrom, m.sampleGame = r.nextTurn, r.game
	}
	if m.slot < 0 {
		if len(p.Turns) > 0 {
			r.drop(DropSpoof) // spectators have no inputs
		}
		m.started = true
		return
	}
	if !m.started {
		m.started = true
	}
	s := &r.slots[m.slot]
	if !s.life.staying() {
		return
	}
	m.bursts.packet(r.now)
	if p.HasStats {
		s.rtt, s.fps = r.trustRTT(s, m, p.RTT), r.trustFPS(m, p.FPS)
	}
	for i := range p.Turns {
		r.storeTurn(m.slot, &p.Turns[i])
	}
	if p.HasHash {
		r.recordHash(m.slot, p.HashTurn, p.HashLow, p.Ended)
		r.checkEnded()
	}
	r.compile()
}

func (r *Room) storeTurn(slotIdx int, t *wire.TurnInput) {
	s := &r.slots[slotIdx]
	if s.life.rejoining() && t.Turn+rejoinSlack >= r.nextTurn {
		// A returning player whose inputs come within a few turns of the
		// game's: the room waits for it again from the next turn on. Its
		// turns arrive in order from there (each is resent until
		// acknowledged); the others wait at most rejoinSlack turns, once.
		s.life.play()
		r.queueEvent(wire.RoomEvent{Kind: wire.EventJoin, Slot: uint8(slotIdx)})
		r.statusDirty = true
		r.broadcastSetup() // no longer vacant: it may be the host again
	}
	switch {
	case t.Turn < r.nextTurn:
		r.stats.Duplicates++ // redundancy: the turn was already compiled
		return
	case t.Turn >= r.nextTurn+turnWindow:
		r.drop(DropTurnWindow)
		return
	case t.Count != r.timingAt(t.Turn).k:
		r.drop(DropBadCount)
		return
	}
	i := t.Turn % clientRing
	if s.have[i] && s.in[i].Turn == t.Turn {
		r.stats.Duplicates++
		return
	}
	s.in[i], s.have[i] = *t, true
	if s.m != nil {
		s.m.ticks.add(r.now, int(t.Count)) // measure.go: the tick rate it may claim
	}
	if s.ack < r.nextTurn {
		s.ack = r.nextTurn
	}
	for s.ack < r.nextTurn+turnWindow && s.has(s.ack) {
		s.ack++
	}
}

func (s *slot) has(turn uint32) bool {
	i := turn % clientRing
	return s.have[i] && s.in[i].Turn == turn
}

// timingAt returns the timing in force for turn t.
func (r *Room) timingAt(t uint32) timing {
	if r.hasPending && t >= r.pending.at {
		return r.pending
	}
	return r.cur
}

// compile emits every master turn for which all live players' inputs are
// in, in order.
//
// The game advances only where a strict majority of its members are
// together (Majority): with half of them or more held vacant, the room
// holds, its status counting down their vacancy, until they come back or
// are dropped at its end. So a group cut apart never plays on as two
// games: the side without a majority waits, and learns at the end of the
// countdown that the others were dropped. With no live player there is no
// one to wait for and nothing to compile either.
func (r *Room) compile() {
	for r.state == wire.StateRunning && r.child != wire.ChildDesynced && r.child != wire.ChildPaused {
		missing, live := uint8(0), 0
		for i := range r.slots {
			s := &r.slots[i]
			if s.life.waitedOn() {
				live++
				if !s.has(r.nextTurn) {
					missing |= 1 << i
				}
			}
		}
		if missing != 0 || live == 0 || !r.Majority() && !r.ending {
			return // the host's end is compiled all the same: it ends, it does not advance, the game here
		}
		r.compileTurn()
	}
}

// Majority reports whether a strict majority of the game's members are
// together in this room: members are the slots still in the game (not
// gone by choice and not dropped at the end of their vacancy), together
// those the room waits for (playing, not held vacant) and those back in
// it with their tokens, connected, catching up from a snapshot. Half is not a majority: of two players, one alone waits for the other's
// countdown (docs/ARCHITECTURE.md, "When the host goes away").
func (r *Room) Majority() bool {
	members, together := 0, 0
	for i := range r.slots {
		l := &r.slots[i].life
		if l.staying() {
			members++
			// Playing, or back in this room with its token and catching
			// up: it is with this side, and the snapshot it waits for is
			// a world at a turn ahead (checkTurn), which needs this room
			// to compile on; counting it only once caught up would hold a
			// majority that came back this way for ever.
			if l.waitedOn() || l.rejoining() && r.slots[i].m != nil && r.slots[i].m.connected {
				together++
			}
		}
	}
	return 2*together > members
}

// remaining returns how many slots are still in the game: playing, or
// vacant and held for a reconnect.
func (r *Room) remaining() int {
	n := 0
	for i := range r.slots {
		if r.slots[i].life.staying() {
			n++
		}
	}
	return n
}

func (r *Room) compileTurn() {
	t := r.nextTurn
	tm := r.timingAt(t)
	// A player that completes turn t queues its input for t + delay.
	r.horizon = max(r.horizon, t+uint32(tm.delay))
	mt := &r.master[t%masterRing]
	mt.Turn, mt.Count, mt.Players = t, tm.k, 0
	mt.Inputs = [game.MaxPlayers][wire.MaxK]game.Input{}
	mt.Events = mt.Events[:0]
	ending := r.ending
	if ending {
		// First, so that no other event can crowd it out.
		mt.Events = append(mt.Events, wire.RoomEvent{Kind: wire.EventEnd})
	}
	live, roster := r.turnInputs(t, tm.k, mt)
	r.adaptTiming(t, mt)
	for _, e := range r.events {
		if len(mt.Events) < wire.MaxEvents {
			mt.Events = append(mt.Events, e)
		}
	}
	r.events = r.events[:0]
	if r.rec != nil {
		r.rec.Turn(mt, TurnLog{Live: live, Wait: r.now - r.lastCompile})
	}
	if r.child == wire.ChildLagging {
		r.stats.LateTurns++
		r.child = wire.ChildIterating
		r.lagging = 0
		r.statusDirty = true
	}
	r.refereeTurn(mt) // with Config.Referee, the room's own engine (referee.go)
	r.compiledAt[t%masterRing] = r.now
	r.nextTurn++
	r.stats.Turns++
	r.lastCompile = r.now
	if r.hasPending && r.nextTurn >= r.pending.at {
		r.cur, r.hasPending = r.pending, false
	}
	if r.pausing {
		r.pausing = false
		r.child = wire.ChildPaused
		r.statusDirty = true
	}
	r.settleChild()
	r.sendMasters(false)
	if roster {
		r.broadcastSetup()
	}
	if ending {
		r.ending = false
		r.finish(wire.EndByHost, t)
		return
	}
	if r.statusDirty {
		r.broadcastStatus()
	}
}

// turnInputs fills master turn t (of k ticks) with each slot's inputs:
// a leaving player's Leave, a live player's inputs, an away player's
// ship taken out of play. It returns the slots whose inputs it carries
// (live) and whether the roster changed (a slot freed, or a player back).
func (r *Room) turnInputs(t uint32, k uint8, mt *wire.MasterTurn) (live uint8, roster bool) {
	for i := range r.slots {
		s := &r.slots[i]
		if !s.life.inGame() {
			continue
		}
		mt.Players |= 1 << i
		switch {
		case s.life.dropping():
			mt.Inputs[i][0] = game.Leave
			kind := wire.EventDrop
			if s.life.left() {
				kind = wire.EventLeft
			}
			if r.repair.out&(1<<i) != 0 {
				kind = wire.EventStrayed // sent away for straying (repair.go)
				r.repair.out &^= 1 << i
			}
			if len(mt.Events) < wire.MaxEvents {
				mt.Events = append(mt.Events, wire.RoomEvent{Kind: kind, Slot: uint8(i)})
			}
			s.free() // the slot and its token are gone
			roster = true
			r.statusDirty = true
			continue
		case s.has(t) && (s.life.live() || s.life.rejoining()):
			mt.Inputs[i] = s.in[t%clientRing].Inputs
			live |= 1 << i
			if s.life.rejoining() {
				s.life.play()
				if len(mt.Events) < wire.MaxEvents {
					mt.Events = append(mt.Events, wire.RoomEvent{Kind: wire.EventJoin, Slot: uint8(i)})
				}
				r.statusDirty = true
				roster = true // no longer vacant: it may be the host again
			}
		case s.life.away():
			// Every engine takes the ship out of play on the ticks of this
			// turn, and brings it back on the first turn without it.
			for j := range mt.Inputs[i][:k] {
				mt.Inputs[i][j] = game.Away
			}
		}
		s.have[t%clientRing] = false
		if s.ack <= t {
			s.ack = t + 1
		}
	}
	return live, roster
}

// settleChild moves between iterating and vacancy as slots empty and fill.
func (r *Room) settleChild() {
	v := r.vacancies() > 0
	switch {
	case r.child == wire.ChildIterating && v:
		r.child = wire.ChildVacancy
		r.statusDirty = true
	case r.child == wire.ChildVacancy && !v:
		r.child = wire.ChildIterating
		r.statusDirty = true
	}
}

// onMasterAck takes a member's acknowledgement of the master turns below
// ack: the resends stop, and the wait for the newest of them goes into the
// member's ack clock (as a sample if it was sent only once).
func (r *Room) onMasterAck(m *member, ack uint32) {
	if ack <= m.masterAck || ack > r.nextTurn {
		return
	}
	m.masterAck = ack
	m.waitFrom, m.backoff = r.now, 0 // the member hears us: resends go back to its usual pace
	if m.stalled {
		r.resume(m) // it receives the game again: back in its place (stall.go)
	}
	if t := ack - 1; r.nextTurn-t <= masterRing {
		m.ackClock.Acked(r.now-r.compiledAt[t%masterRing], t >= m.resentTo)
		// Every wait, a resent turn's too (from its first sending: the
		// longer for the loss): a bound must not be below the truth, and
		// past ackclock.Max every turn is resent.
		if t >= r.resumedAt && (m.sampleGame != r.game || t >= m.sampleFrom) {
			m.waits.sample(r.now, r.now-r.compiledAt[t%masterRing])
		}
	}
}

// Resends to a member whose acknowledgements do not advance fall in rate:
// the wait doubles with every resend after the first that brought no
// acknowledgement, up to maxResendWait. A member that acknowledges nothing
// for SilenceTimeout while turns are outstanding is lost as silent
// (ackSilent), through the vacancy path like any silent connection: its
// frames alone (keep-alives from an address that never receives) do not
// keep it in the game. See docs/ARCHITECTURE.md, "Master packet".
const (
	maxResendWait = 2 * time.Second
	maxBackoff    = 6 // doublings: 50 ms floor × 2⁵ = 1.6 s, then maxResendWait
)

// resendWait returns how long after the last master frame m is sent the
// unacknowledged turns again.
func (r *Room) resendWait(m *member) time.Duration {
	w := m.ackClock.Timeout(r.cfg.ResendEvery)
	if m.backoff > 1 {
		w <<= min(m.backoff-1, maxBackoff)
	}
	return min(w, max(maxResendWait, r.cfg.ResendEvery))
}

// ackSilent reports whether a running game's member has acknowledged
// nothing for SilenceTimeout while master turns were outstanding.
func (r *Room) ackSilent(m *member) bool {
	return r.state == wire.StateRunning && m.connected && m.started && !m.needSnap &&
		m.masterAck < m.sentTo && r.now-m.waitFrom > r.cfg.SilenceTimeout
}

// sendMasters sends each playing or watching client the master turns it
// has not acknowledged, oldest first, at most wire.MaxBatch per frame: new
// turns at once while fewer than wire.MaxBatch are outstanding, and
// unacknowledged ones again when the member's acknowledgement is overdue
// (its ack clock, ResendEvery at the least, backing off while nothing is
// acknowledged: resendWait).
func (r *Room) sendMasters(resend bool) {
	for _, m := range r.members {
		if m.needSnap || !m.connected {
			continue
		}
		if m.masterAck >= r.nextTurn {
			continue
		}
		if m.masterAck >= m.sentTo {
			m.waitFrom, m.backoff = r.now, 0 // nothing was outstanding: the wait starts now
		}
		// A full batch outstanding is a full window: the next frame would
		// repeat it, not carry the new turn, so it waits for a resend.
		fresh := m.sentTo < r.nextTurn && m.sentTo-m.masterAck < wire.MaxBatch
		if !fresh && !(resend && r.now-m.lastMaster >= r.resendWait(m)) {
			continue
		}
		if !fresh {
			r.stats.Resends++
			m.backoff = min(m.backoff+1, maxBackoff+1)
		}
		from := m.masterAck
		if r.nextTurn-from > masterRing {
			from = r.nextTurn - masterRing // cannot happen for a live client; bounded anyway
		}
		to := r.nextTurn
		if to-from > wire.MaxBatch {
			to = from + wire.MaxBatch
		}
		p := &r.scratch
		p.Turns = p.Turns[:0]
		for t := from; t < to; t++ {
			p.Turns = append(p.Turns, r.master[t%masterRing])
		}
		p.ClientAck = 0
		if m.slot >= 0 {
			p.ClientAck = r.slots[m.slot].ack
		}
		r.sendMaster(m.conn, p)
		m.lastMaster = r.now
		if !fresh {
			m.resentTo = max(m.resentTo, to) // their waits now say nothing of the round trip
		}
		if to > m.sentTo {
			m.sentTo = to
		}
	}
}

func (r *Room) tickRunning() {
	now := r.now
	if r.resumed && r.awaitUntil == 0 {
		r.tickResumed() // the resumed room's clock starts: drop times are set
	}
	for i := range r.slots {
		s := &r.slots[i]
		if !s.life.away() || s.life.dropping() || now < s.life.dropAt {
			continue
		}
		// A player coming back holds its slot while it catches up, unless
		// there is no world to catch up from (everyone else is gone too):
		// then its slot goes like any vacant one, and the room, empty,
		// finishes.
		if s.life.rejoining() && !r.stranded() {
			continue
		}
		s.life.timeOut() // dropped by the next master turn, identically everywhere
		r.statusDirty = true
	}
	if r.remaining() == 0 {
		r.finish(wire.EndEmpty, r.lastCompiled()) // everyone left or was dropped
		return
	}
	r.checkEnded() // a player who had not reported may be gone now
	if r.state != wire.StateRunning {
		return
	}
	r.tickResumed()
	if r.now-r.succCheck >= successorsCheck {
		r.succCheck = r.now
		r.updateSuccessors(false)
	}
	r.sendStarts()
	r.relaySnapshots()
	r.tickRepair()
	r.checkSlow()
	if r.state != wire.StateRunning {
		return // the last player was sent away
	}
	if r.child == wire.ChildIterating || r.child == wire.ChildVacancy || r.child == wire.ChildLagging {
		// Vacant slots that must be dropped do not wait for anyone.
		r.compile()
		missing := uint8(0)
		for i := range r.slots {
			s := &r.slots[i]
			if s.life.waitedOn() && !s.has(r.nextTurn) {
				missing |= 1 << i
			}
		}
		if missing != 0 && now-r.lastCompile > r.cfg.LagAfter {
			if r.child != wire.ChildLagging || r.lagging != missing {
				r.child, r.lagging = wire.ChildLagging, missing
				r.statusDirty = true
			}
		}
	}
	r.sendMasters(true)
	every := r.cfg.StatusEvery
	if r.child == wire.ChildIterating {
		// Nothing to count down or wait for: the master turns say the game
		// goes on, and a change is sent at once (statusDirty).
		every = max(every, quietStatusEvery)
	}
	if r.statusDirty || now-r.lastStatus >= every {
		r.broadcastStatus()
	}
}

// quietStatusEvery is how often a running game's status is repeated while
// every player is there and the turns flow (StatusEvery otherwise).
const quietStatusEvery = 5 * time.Second

// sendStarts repeats Start to every member that has not yet answered it:
// the players, and the spectators who stayed from the last game.
func (r *Room) sendStarts() {
	for _, m := range r.members {
		if m.started || m.needSnap || !m.connected {
			continue
		}
		if r.now-m.lastStart < 4*r.cfg.ResendEvery {
			continue
		}
		m.lastStart = r.now
		r.send(m.conn, r.startMessage())
	}
}

// makeVacant holds slot i for a reconnect: the room stops waiting for it,
// fills its inputs with game.Away (its ship out of play), and tells everyone in the next master turn.
func (r *Room) makeVacant(i int) {
	r.holdSlot(i)
	r.compile()
}

// holdSlot marks slot i vacant: not waited for, inputs game.Away, dropped at
// the vacancy timeout unless reclaimed; everyone hears of it in the next
// master turn.
func (r *Room) holdSlot(i int) {
	s := &r.slots[i]
	s.life.vacate(r.now + r.cfg.VacancyTimeout)
	r.queueEvent(wire.RoomEvent{Kind: wire.EventVacant, Slot: uint8(i)})
	if r.child == wire.ChildIterating || r.child == wire.ChildLagging {
		r.child = wire.ChildVacancy
	}
	r.statusDirty = true
}

func (r *Room) vacancies() int {
	n := 0
	for i := range r.slots {
		if r.slots[i].life.away() {
			n++
		}
	}
	return n
}

// finish ends the game at turn final: the room stops compiling, tells
// everyone why and where the game ended (resending the last master turns
// to whoever lacks them), and, once a player asks for a rematch, returns to
// setup.
func (r *Room) finish(reason wire.EndReason, final uint32) {
	rec := EndFinished
	if reason == wire.EndEmpty {
		rec = EndClosed
	}
	r.end, r.final = reason, final
	r.stopRecording(rec, final)
	r.state, r.child = wire.StateFinished, wire.ChildIterating
	r.ending, r.pausing = false, false
	r.keepFinal(reason, final) // for a player who rejoins after the end (final.go)
	r.broadcastStatus()
	// Ready was for the game that ended. A player back in the lobby before
	// the rematch's setup comes, or one joining now, sees no one ready and
	// no Start to press for a game that is over.
	for i := range r.slots {
		r.slots[i].ready = false
	}
	r.broadcastSetup()
}

// EndGame ends a running game early (the host's choice): the next master
// turn carries EventEnd, every client stops at the end of it, and the room
// finishes there. A game stopped by a desync ends at once.
func (r *Room) EndGame() {
	if r.state != wire.StateRunning || r.ending {
		return
	}
	if r.child == wire.ChildDesynced {
		r.finish(wire.EndByHost, r.lastCompiled())
		return
	}
	r.ending = true
	r.unpause() // the last turn has to be compiled: resume for it
	r.compile()
}

// checkEnded finishes the game at the first turn a strict majority of the
// players still playing reported their confirmed worlds ended at: the game
// over is a fact the room confirms, never one it predicts, and never one
// player's word. The hashes of that turn were compared as they came
// (recordHash): a disagreement is a desync, not an end; and as the end is
// a function of the world, players whose hashes agree agree on it. A claim
// at a turn the others' worlds went on from ("my world ended here", with a
// true hash) is outvoted and forgotten, and holds nothing back: each
// player's latest claim is a candidate of its own.
func (r *Room) checkEnded() {
	if r.state != wire.StateRunning || !r.endSeen || r.child == wire.ChildDesynced {
		return
	}
	need := r.liveMask()
	if need == 0 {
		return
	}
	found, at := false, uint32(0)
	for i := range r.endClaims {
		if r.endClaimed&(1<<i) == 0 {
			continue
		}
		t := r.endClaims[i]
		rec := &r.hashes[t%hashRing]
		if rec.turn != t || t >= r.nextTurn || 2*bits.OnesCount8(rec.ended&need) <= bits.OnesCount8(need) {
			continue
		}
		if !found || t < at {
			found, at = true, t
		}
	}
	if found {
		r.finish(wire.EndGameOver, at)
	}
}

// recordHash compares slot's hash for turn with the others reported for
// the same turn; a difference is judged (repair.go): the players that
// strayed from a majority are repaired, a split rewinds everyone, and
// with repairs off (Config.NoRepair) it stops the game as desynced.
// ended says the slot's world ended at the end of turn.
func (r *Room) recordHash(slotIdx int, turn uint32, h uint32, ended bool) {
	if turn >= r.nextTurn || r.nextTurn-turn > hashRing {
		return // a turn that was never compiled, or too old to compare
	}
	rec := &r.hashes[turn%hashRing]
	if rec.turn != turn || rec.mask == 0 {
		*rec = hashRecord{turn: turn}
	}
	if rec.mask&(1<<slotIdx) != 0 {
		return // the same report again, by redundancy
	}
	if r.hashIgnored(slotIdx, turn) {
		return // of a world being repaired, or of its world before (repair.go)
	}
	rec.mask |= 1 << slotIdx
	rec.hashes[slotIdx] = h
	if ended {
		rec.ended |= 1 << slotIdx
		if !r.endSeen {
			r.endClaimed = 0 // the claims of an earlier game
		}
		r.endSeen = true
		r.endClaims[slotIdx] = turn
		r.endClaimed |= 1 << slotIdx
	}
	if r.rec != nil {
		r.rec.Hash(turn, slotIdx, h)
	}
	if r.hashesDiffer(rec) {
		r.judgeTurn(rec) // a verdict, a repair or a desync (repair.go)
	}
	if w := &r.repair.world; w.phase == worldHeld && turn == w.turn {
		r.checkRepairWorld() // its sender's report of its turn came
	}
}

func (r *Room) declareDesync(rec *hashRecord) {
	if r.child == wire.ChildDesynced {
		return
	}
	d := &DesyncInfo{Turn: rec.turn}
	for i := 0; i < game.MaxPlayers; i++ {
		if rec.mask&(1<<i) != 0 {
			d.Entries = append(d.Entries, wire.HashEntry{Slot: uint8(i), HashLow: rec.hashes[i]})
		}
	}
	r.desync = d
	r.child = wire.ChildDesynced
	rep := wire.DesyncReport{Turn: d.Turn, Entries: d.Entries}
	for _, m := range r.members {
		r.send(m.conn, rep)
	}
	if r.rec != nil {
		r.rec.Desync(d)
		// Ask every player for its world at the diverging turn, for the
		// report (clients keep a few recent turns for this).
		for i := range r.desyncAsm {
			r.desyncAsm[i].Reset()
		}
		r.desyncDone = 0
		for _, m := range r.members {
			if m.slot >= 0 {
				r.send(m.conn, wire.SnapshotRequest{Turn: d.Turn})
			}
		}
	}
	r.broadcastStatus()
}

func (r *Room) broadcastStatus() {
	r.statusDirty = false
	r.lastStatus = r.now
	st := r.status()
	for _, m := range r.members {
		r.send(m.conn, st)
	}
	if r.hostSlot() != r.lastHost {
		// The host changed (it was held for a reconnect, or came back):
		// the roster says who may end, pause or start, for everyone.
		r.broadcastSetup()
	}
}

func (r *Room) status() wire.RoomStatus {
	st := wire.RoomStatus{State: r.state, Child: r.child, Turn: r.nextTurn}
	if r.state == wire.StateRunning {
		st.Slow = r.slow
	}
	if r.state == wire.StateFinished && r.end != 0 {
		st.End, st.Final = r.end, r.final
	}
	if r.child == wire.ChildLagging {
		st.Lagging = r.lagging
	}
	first := r.now
	for i := range r.slots {
		s := &r.slots[i]
		if s.life.away() && !s.life.dropping() { // one gone by choice is no longer waited for
			st.Vacant |= 1 << i
			if s.life.dropAt > first || st.VacancyMs == 0 {
				if left := s.life.dropAt - r.now; left > 0 && (st.VacancyMs == 0 || uint32(left.Milliseconds()) < st.VacancyMs) {
					st.VacancyMs = uint32(left.Milliseconds())
				}
			}
		}
	}
	if st.Vacant != 0 && st.Child == wire.ChildIterating {
		st.Child = wire.ChildVacancy
	}
	r.lobbyHeldStatus(&st) // lobbyhandover.go
	return st
}

// Status returns what the room would broadcast as its status now.
func (r *Room) Status() wire.RoomStatus { return r.status() }
