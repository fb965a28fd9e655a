package room

import (
	"time"

	"rockstep/net/wire"
)

// A rematch asked right after the end (a player's Ready while the room is
// finished) returns the room to setup, and a room in setup resends no
// master turn. A player that had not yet received the game's last turns
// would then never reach the end: its game would stay "playing" on a room
// that plays nothing. So the room holds such a Ready until every member
// that plays or watches the game has acknowledged the last master turn (and,
// while a player who may come back is away, sent the world at the end it
// was asked for: rematchWaits), or for SilenceTimeout at most (a member that acknowledges nothing for that
// long is not waited for: it gets its turns again if it comes back, as any
// late member does).
type rematchHold struct {
	held bool
	from time.Duration // r.now when the first Ready was held
}

// endOutstanding reports whether a connected member of the finished game
// still lacks some of its master turns.
func (r *Room) endOutstanding() bool {
	for _, m := range r.members {
		if m.connected && m.started && !m.needSnap && m.masterAck < r.nextTurn {
			return true
		}
	}
	return false
}

// EndUndelivered reports whether the room shows a finished game's
// results while a connected player of it has not run the game to its end
// yet: it lacks some of its master turns, or has not sent the world it
// was asked for at the end (final.go; it sends it once it ran the last
// turn). A host that stops then gives them a moment (host.Host's
// shutdown): a successor whose player ended the game and closed at once
// would otherwise say goodbye to the others a few turns before their end,
// and they would have played the game without finishing it.
func (r *Room) EndUndelivered() bool {
	return r.state == wire.StateFinished && (r.endOutstanding() || r.finalAwaited())
}

// finalAwaited reports whether a connected player of the finished game has
// not yet sent the world at its end it was asked for (final.go).
func (r *Room) finalAwaited() bool {
	if !r.finalHeld() {
		return false
	}
	for _, m := range r.members {
		if m.connected && m.slot >= 0 && r.fin.asked&(1<<m.slot) != 0 {
			return true
		}
	}
	return false
}

// awayMayReturn reports whether a player of the finished game is away,
// not connected, with its seat kept for its token (keepReturning would keep it for the
// rematch's lobby).
func (r *Room) awayMayReturn() bool {
	for i := range r.slots {
		s := &r.slots[i]
		if s.life.away() && !s.life.dropping() && (s.m == nil || !s.m.connected) {
			return true
		}
	}
	return false
}

// rematchWaits reports whether a rematch must wait: a player lacks some of
// the game's master turns, or, while a player who may come back is away,
// the world at the end it would read its results from is still on its
// way (a reset would drop it, and the returning player would read none).
func (r *Room) rematchWaits() bool {
	return r.endOutstanding() || r.awayMayReturn() && r.finalAwaited()
}

// holdRematch reports whether member m's Ready for a rematch must wait,
// and marks it held if so.
func (r *Room) holdRematch(m *member) bool {
	if !r.rematchWaits() {
		return false
	}
	if !r.rematch.held {
		r.rematch.held, r.rematch.from = true, r.now
	}
	if r.now-r.rematch.from > r.cfg.SilenceTimeout {
		return false
	}
	m.rematchWish = true
	return true
}

// tickRematch takes the Readys held by holdRematch once every member has
// the end, or the wait is over. It runs in the finished state.
func (r *Room) tickRematch() {
	if !r.rematch.held {
		return
	}
	if r.rematchWaits() && r.now-r.rematch.from <= r.cfg.SilenceTimeout {
		return
	}
	r.rematch.held = false
	if r.state == wire.StateFinished {
		r.reset() // a rematch: back to setup with the same players
	}
	for i := 0; i < len(r.members); i++ {
		m := r.members[i]
		if !m.rematchWish {
			continue
		}
		m.rematchWish = false
		r.takeReady(m, wire.Ready{Ready: true})
	}
}

// A player of the finished game who was away when the room went back to
// setup for the rematch (its machine crashed, its connection was lost, and
// its reconnect countdown had not run out) gives its slot up to the
// lobby: a vacant seat must not hold up the rematch. But the room still
// exists and has seats, so a late Rejoin with its token is no stranger's:
// the player is seated in the lobby, in its own slot if that is free (else
// the lowest free one), keeps its token, and is sent the last game's world
// at its end, from which it reads the results table the others read
// (final.go). Until the next game starts: then its game is truly over.

// returningSeat is such a player, by its slot in the finished game.
type returningSeat struct {
	game      uint32 // Room.game after the reset (the rematch's): 0, none
	token     [16]byte
	tokenHash [16]byte // TokenHash(token); a resumed game's slot knows only this
	hashOnly  bool
	id        [16]byte
	name      string
	colour    uint8
}

// keepReturning notes slot i's player, away, before the rematch's reset
// frees its slot (setup.go reset). game is the rematch's Room.game.
func (r *Room) keepReturning(i int, game uint32) {
	s := &r.slots[i]
	if !s.life.away() || s.life.dropping() {
		r.returning[i] = returningSeat{} // left, timed out or sent away: no way back
		return
	}
	r.returning[i] = returningSeat{game: game, token: s.token, tokenHash: s.tokenHash, hashOnly: s.hashOnly,
		id: s.id, name: s.name, colour: s.colour}
}

// returnsWith finds the returning seat whose token is tok, in the lobby
// of the rematch it was kept for: its slot in the finished game, or -1.
func (r *Room) returnsWith(tok [16]byte) int {
	if r.state != wire.StateSetup {
		return -1
	}
	for i := range r.returning {
		rs := &r.returning[i]
		if rs.game == 0 || rs.game != r.game {
			continue
		}
		if !rs.hashOnly && rs.token == tok || rs.hashOnly && TokenHash(tok) == rs.tokenHash {
			return i
		}
	}
	return -1
}

// seatReturning seats a player of the finished game who comes back with
// its token after the rematch's reset (see returningSeat). It reports
// false, having sent nothing, if tok is not such a player's; a full room
// refuses it.
func (r *Room) seatReturning(conn ConnID, j wire.Join) bool {
	was := r.returnsWith(j.Token)
	if was < 0 {
		return false
	}
	rs := r.returning[was]
	at := was
	if r.slots[at].life.taken() {
		at = r.freeSlot()
	}
	if at < 0 {
		r.send(conn, wire.Refuse{Reason: wire.RefuseFull, Text: "your place was taken while you were away"})
		return true
	}
	r.returning[was] = returningSeat{}
	s := &r.slots[at]
	*s = slot{id: rs.id, name: rs.name, colour: rs.colour, token: j.Token, tokenHash: TokenHash(j.Token)}
	if at != was {
		s.colour = uint8(at)
	}
	if j.Name != "" {
		s.name = j.Name
	}
	s.name = r.playerName(s.name, at, s.id)
	s.life.seat()
	m := r.addMember(conn, at)
	r.seated(m)
	r.broadcastSetup()
	if at == was && r.finalSent() {
		// Its results: the world is of the game it played in that slot.
		r.fin.to[at] = finalSend{conn: conn, left: finalSends, at: r.now - snapshotEvery}
		r.tickFinal()
	}
	return true
}
