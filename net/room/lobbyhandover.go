package room

import (
	"slices"
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// The lobby survives its host (docs/ARCHITECTURE.md, "When the host goes
// away"): while the room is in setup, the players with a standby port
// are its successors as in a running game, and when the host falls silent
// the first of them opens a room of its own with the lobby as it stood
// (ResumeLobby): the setup, the roster's names, colours and ready marks,
// and every seat held for its player's token, the crashed host's among
// them, so that it can come back with Rejoin.

// successionOpen reports whether the room names successors now: while a
// game runs, and in its lobby (setup), but not while the results show.
func (r *Room) successionOpen() bool {
	return r.state == wire.StateRunning || r.state == wire.StateSetup
}

// inSuccession reports whether slot s's player is a member of what the
// successors carry on: in a running game, a slot still in it; in the
// lobby, any seat held.
func (r *Room) inSuccession(s *slot) bool {
	if r.state == wire.StateSetup {
		return s.life.taken()
	}
	return s.life.staying()
}

// successionMembers counts the players in the succession
// (inSuccession): a successor is one a strict majority of them reach.
func (r *Room) successionMembers() int {
	n := 0
	for i := range r.slots {
		if r.inSuccession(&r.slots[i]) {
			n++
		}
	}
	return n
}

// lobbyHold is what a lobby carried on by ResumeLobby keeps for the
// players not back yet: their seats, until a time.
type lobbyHold struct {
	chat  []wire.Chat   // the old lobby's last lines (LobbyHandover.Chat)
	slots uint8         // seats held for a player who has not come back
	set   bool          // until is set (at the room's first tick: its clock starts there)
	until time.Duration // then the seats still held are freed
	said  time.Duration // when the status last said how long they are held
}

// LobbyHandover is what a successor's room needs to carry a lobby on
// (lockstep.LobbyState, host.LobbyHandoverOf).
type LobbyHandover struct {
	Game     uint32 // the game the lobby is for
	Name     string // the room's name ("" keeps the successor's Config.Name)
	Revision uint32 // the old room's last setup revision: the new room's come after it
	Setup    game.Setup
	MaxSlots uint8
	// Roster is the old room's roster: ids, names, colours, and the ready
	// marks as the players pressed them.
	Roster []wire.Player
	// Tokens are the hashes of the slots' tokens (wire.Successors.Tokens):
	// a seat is held only for a slot with one.
	Tokens [game.MaxPlayers][16]byte
	// Chat is the lobby's last chat lines, oldest first, as the
	// successor's session kept them: sent to a player who comes back on a
	// new program (a Rejoin), whose session has none (at most
	// maxLobbyChat are kept).
	Chat []wire.Chat
	// Host is the successor's slot: it hosts the new room.
	Host    uint8
	Listing [8]byte // the lobby's LAN listing id (wire.Successors.Listing)
}

// ResumeLobby returns a room in setup that carries on the lobby of a room
// that went away: the same game number, setup, seats, names, colours and
// ready marks, each seat held for its token (known by its hash) for
// Config.VacancyTimeout. Players come back with their tokens
// (Join.Resuming, or a plain Rejoin) and find their seat as they left it;
// the host is the successor (h.Host).
func ResumeLobby(cfg Config, h LobbyHandover) *Room {
	r := New(cfg)
	r.game = max(h.Game, 1)
	r.listing = h.Listing
	r.revision = h.Revision + 1
	r.setup = h.Setup
	r.setup.Players = 0 // the room fills in the players, as New does
	for _, p := range h.Roster {
		i := int(p.Slot)
		if i >= game.MaxPlayers || i >= r.cfg.MaxPlayers || h.Tokens[i] == ([16]byte{}) {
			continue
		}
		s := &r.slots[i]
		*s = slot{id: p.ID, name: p.Name, colour: p.Colour, ready: p.Ready, rtt: p.Ping, hashOnly: true, tokenHash: h.Tokens[i]}
		s.life.seat()
		r.lobbyHeld.slots |= 1 << i
	}
	if i := int(h.Host); i < game.MaxPlayers && r.slots[i].life.taken() {
		r.owner, r.ownerID = i, r.slots[i].id
	}
	r.handed = true
	chat := h.Chat[max(len(h.Chat)-maxLobbyChat, 0):]
	r.lobbyHeld.chat = append([]wire.Chat(nil), chat...)
	return r
}

// maxLobbyChat bounds the chat lines a resumed lobby keeps for players who
// come back on a new program.
const maxLobbyChat = 32

// lobbyChatTo sends the old lobby's chat lines to a player who took its
// seat back in a resumed lobby with a plain Rejoin (a new program, whose
// session holds no chat): a player that moved here with its session
// (Join.Resuming) still shows its own.
func (r *Room) lobbyChatTo(conn ConnID, j wire.Join) {
	if r.state != wire.StateSetup || j.Resuming {
		return
	}
	for _, c := range r.lobbyHeld.chat {
		r.send(conn, c)
	}
}

// tickLobbyHeld frees, once their time is over, the seats a resumed lobby
// held for players who did not come back, and tells everyone. While seats
// are held it says each second how long they still are (the status's
// Vacant and VacancyMs, lobbyHeldStatus): every lobby counts the same
// seconds down.
func (r *Room) tickLobbyHeld() {
	h := &r.lobbyHeld
	if h.slots == 0 {
		return
	}
	if !h.set {
		h.set, h.until = true, r.now+r.cfg.VacancyTimeout
	}
	before := h.slots
	for i := range r.slots {
		if h.slots&(1<<i) != 0 && !r.heldAway(i) {
			h.slots &^= 1 << i // taken back (or freed): no longer held
		}
	}
	if h.slots != 0 && r.now >= h.until {
		for i := range r.slots {
			if h.slots&(1<<i) != 0 {
				r.slots[i].free()
			}
		}
		h.slots = 0
		r.broadcastSetup()
	}
	if h.slots != before || r.now-h.said >= time.Second {
		h.said = r.now
		r.broadcastStatus()
	}
}

// heldAway reports whether slot i is a seat a resumed lobby holds for a
// player who has not come back: it keeps no Start off (allReady), and
// the host's Start releases it (releaseLobbyHeld).
func (r *Room) heldAway(i int) bool {
	s := &r.slots[i]
	return r.lobbyHeld.slots&(1<<i) != 0 && s.life.taken() && s.m == nil && s.hashOnly
}

// releaseLobbyHeld frees the seats still held for players who did not
// come back, as the host starts the game without them; the roster says
// so at once.
func (r *Room) releaseLobbyHeld() {
	freed := false
	for i := range r.slots {
		if r.heldAway(i) {
			r.slots[i].free()
			freed = true
		}
	}
	r.lobbyHeld.slots = 0
	if freed {
		r.broadcastSetup()
	}
}

// lobbyHeldStatus adds the seats a resumed lobby holds to its status: the
// slots (Vacant) and the time until they are freed (VacancyMs), which
// the lobbies show on those seats ("waiting 24 s").
func (r *Room) lobbyHeldStatus(st *wire.RoomStatus) {
	if r.state != wire.StateSetup {
		return
	}
	held := r.LobbyHeld()
	if held == 0 {
		return
	}
	st.Vacant |= held
	left := r.cfg.VacancyTimeout
	if r.lobbyHeld.set {
		left = max(r.lobbyHeld.until-r.now, 0)
	}
	st.VacancyMs = uint32(left.Milliseconds())
}

// LobbyHeld returns the seats a resumed lobby still holds for players who
// have not come back.
func (r *Room) LobbyHeld() uint8 {
	var out uint8
	for i := range r.slots {
		if r.heldAway(i) {
			out |= 1 << i
		}
	}
	return out
}

// handOverLobby is HandOver in the lobby: a host that goes by choice (its
// window closed, its Leave pressed) leaves its lobby to the first
// successor as a crash does, without the wait for its silence. The seats
// of the players on this machine (the Host button's own, over a pipe)
// are not held: they left by choice. With no successor (the host alone,
// or guests without standby ports) it does nothing and the room closes.
func (r *Room) handOverLobby(text string) bool {
	sc := r.successors()
	if r.cfg.AddrOf != nil {
		for i := range r.slots {
			if s := &r.slots[i]; s.life.taken() && s.m != nil && !r.addrOf(s.m).IsValid() {
				sc.Tokens[i] = [16]byte{}
			}
		}
	}
	sc.List = slices.DeleteFunc(sc.List, func(c wire.Successor) bool { return sc.Tokens[c.Slot&7] == [16]byte{} })
	if len(sc.List) == 0 {
		return false
	}
	r.lastSucc, r.lastSuccAt = sc, r.now
	for _, m := range r.members {
		if m.slot >= 0 && m.connected {
			r.send(m.conn, sc)
		}
		r.send(m.conn, wire.Leave{Reason: wire.LeaveHandover, Text: text})
	}
	r.state, r.gaveAway = wire.StateFinished, true // the guests' seats stay as handed (keepsRoster)
	return true
}
