package room

import (
	"fmt"
	"time"

	"rockstep/net/wire"
)

// A player that stalls is not a player that is gone. A machine that is
// starved (a browser tab whose Go shares the page's one thread with
// software WebGL, a laptop swapping) can go seconds without a frame or an
// acknowledgement and then carry on where it was; giving it up, as a lost
// connection is, would end its session and leave its player out of the
// game. So in a running game a player silent for SilenceTimeout, or
// acknowledging nothing for SilenceTimeout while master turns are
// outstanding (ackSilent), stalls instead:
//
//   - its slot is held as for a lost connection (holdSlot: not waited for,
//     its inputs game.Away, the vacancy's countdown running), so the others
//     play on without it, as a majority;
//   - it stays a member on its connection: the master turns still go to it
//     (resends backing off), so that it has the game when it runs again;
//   - the first acknowledgement that advances (onMasterAck), or any frame
//     once it has acknowledged every turn there is (heardStalled: a paused
//     game), resumes it: its slot is rejoining, and waited for again from
//     its first turn near the game's (storeTurn), with no new handshake and
//     no snapshot, since its world never left the master stream. Its ship
//     was out of play for the stall's turns, identically everywhere.
//
// The bounds, so that a peer that sends but never acknowledges, or that
// never comes back, does not keep a place for ever (stallOver):
//
//   - silent: until its slot's vacancy ends (VacancyTimeout after the
//     stall), then it is told LeaveTimeout and lost, and its slot dropped;
//   - heard again but acknowledging nothing (it sends, and does not receive
//     the game or will not say so): SilenceTimeout after its first frame
//     since the stall, so at most 2 × SilenceTimeout of frames without an
//     acknowledgement (plus the silence between them) before it is told
//     LeaveTimeout and lost;
//   - heard again after more turns than the room keeps (masterRing: 512
//     turns, 17 s at 30 turns a second): at once, told so, since the
//     turns it lacks cannot be sent (a client takes a snapshot only when
//     it asks for one, on a Rejoin).
//
// A connection the transport loses is lost as before (Disconnected), its
// slot held for a Rejoin with its token. A game that ends during a stall
// keeps the stalled player's place by the same bounds (it may still reach
// the end, or come back for the results); in a rematch's lobby the stall
// ends and the lobby's silence rule applies.

// stall holds m's slot for it, keeping m as a member, where m is a player
// in a running game; it reports whether it did (if not, m is lost as
// before).
func (r *Room) stall(m *member) bool {
	if !r.stallable(m) {
		return false
	}
	s := &r.slots[m.slot]
	if s.life.live() {
		r.holdSlot(m.slot)
	} else {
		// Back from a stall and catching up, it stalls again: held
		// anew, its countdown from now.
		s.life.relapse(r.now + r.cfg.VacancyTimeout)
		r.statusDirty = true
	}
	m.stalled, m.stalledAt, m.spokeAt = true, r.now, 0
	r.stats.Stalls++
	r.compile() // the others may have been waiting for this player
	return true
}

// stallable reports whether m may stall rather than be lost: a player in
// its slot in a running game, playing, or back from a stall and catching
// up (not one catching up from a snapshot: that is a new connection's
// Rejoin, lost as before).
func (r *Room) stallable(m *member) bool {
	if r.state != wire.StateRunning || m.slot < 0 || m.needSnap {
		return false
	}
	s := &r.slots[m.slot]
	if s.m != m || s.life.dropping() {
		return false
	}
	return s.life.live() || s.life.rejoining()
}

// heardStalled notes a frame from a stalled member: the first since its
// stall starts the bound on frames without an acknowledgement. One that
// has acknowledged every master turn there is (a paused game compiles
// none) has nothing left to acknowledge: its frame is enough.
func (r *Room) heardStalled(m *member) {
	if !m.stalled {
		return
	}
	if m.masterAck >= r.nextTurn {
		r.resume(m)
		return
	}
	if m.spokeAt == 0 {
		m.spokeAt = r.now
	}
}

// resume ends m's stall: it acknowledged a master turn. Its slot, still
// held, is rejoining: waited for again from its first turn near the
// game's.
func (r *Room) resume(m *member) {
	m.stalled = false
	if r.state != wire.StateRunning || m.slot < 0 {
		return
	}
	s := &r.slots[m.slot]
	if s.m == m && s.life.away() && !s.life.dropping() && !s.life.rejoining() {
		s.life.rejoin()
		r.stats.Resumes++
		r.statusDirty = true
	}
}

// stallOver reports whether stalled m is to be lost now (see the bounds
// above). A game that finished while m stalled keeps its place the same
// way, so that it still reaches the end (the last master turns are resent
// to it) or, lost, can come back with its token for the results; in the
// lobby of a rematch its stall ends, and the lobby's silence rule decides.
func (r *Room) stallOver(m *member) bool {
	if r.state == wire.StateSetup {
		m.stalled = false
		return r.now-m.heard > r.cfg.SilenceTimeout
	}
	if m.slot < 0 {
		return true
	}
	s := &r.slots[m.slot]
	switch {
	case s.m != m || !s.life.away() || s.life.dropping():
		return true // its vacancy is over: its slot is dropped
	case m.spokeAt != 0 && r.nextTurn-m.masterAck > masterRing:
		return true // back, but the turns it lacks are no longer kept: it cannot catch up
	case m.spokeAt != 0 && r.now-m.spokeAt > r.cfg.SilenceTimeout:
		return true // it sends, and acknowledges nothing
	case r.now-m.stalledAt > r.cfg.VacancyTimeout:
		return true // the game ended while it was silent, and it still is
	}
	return false
}

// loseStalled loses stalled m: as any lost connection (lose), but a
// finished game's slot stays held for its player's Rejoin with its token,
// as it would had the connection been lost while the game ran.
func (r *Room) loseStalled(m *member) {
	if r.state != wire.StateFinished || m.slot < 0 || !r.slots[m.slot].life.away() {
		r.lose(m)
		return
	}
	m.connected = false
	r.removeMember(m)
	if s := &r.slots[m.slot]; s.m == m {
		s.m = nil
	}
	r.broadcastSetup()
}

// stallText is what a stalled member lost at stallOver is told.
func stallText(m *member, now, silence time.Duration, next uint32) string {
	if m.spokeAt != 0 && next-m.masterAck > masterRing {
		return "you were away longer than the room keeps the game's turns"
	}
	if m.spokeAt != 0 && now-m.spokeAt > silence {
		return "no acknowledgement from you for too long"
	}
	return fmt.Sprintf("no word from you for %v", (now - m.heard).Round(time.Second))
}
