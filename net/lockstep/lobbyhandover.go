package lockstep

import (
	"time"

	"rockstep/net/wire"
)

// The lobby survives its host, the session's side (docs/ARCHITECTURE.md,
// "When the host goes away"). In the lobby the room names successors as
// in a game; when it falls silent, the session either carries the lobby
// on in a room of its own (LobbyState) or joins the successor's lobby with
// its token (Migrate, which in the lobby sends a resuming Join and keeps
// everything else: the setup shown, the chat, the Ready wished).

// LobbyState is what a successor's room needs from this session to carry
// the lobby on.
type LobbyState struct {
	Game       uint32 // the game the lobby is for
	Room       string // the room's name
	Revision   uint32
	Setup      wire.SetupState // the setup and the roster, ready marks as the room last said
	Slot       int
	Token      [16]byte
	Successors wire.Successors
	Chat       []wire.Chat // the chat lines this session holds, oldest first
}

// LobbyState returns what a successor's room needs to carry the lobby on;
// ok is false unless this session is a player in a room's lobby.
func (s *Session) LobbyState() (st LobbyState, ok bool) {
	if s.phase != Lobby || s.room.slot < 0 || s.room.setup.Game != s.hand.list.Game {
		return LobbyState{}, false
	}
	su := s.room.setup
	su.Players = append([]wire.Player(nil), su.Players...)
	return LobbyState{
		Game: su.Game, Room: su.Name, Revision: su.Revision, Setup: su,
		Slot: s.room.slot, Token: s.room.token, Successors: s.hand.list,
		Chat: append([]wire.Chat(nil), s.chat...),
	}, true
}

// migrateLobby makes the session join a successor's lobby (the caller has
// moved the transport there): a resuming Join with its token, repeated
// until the room answers. Nothing else changes: the lobby the player sees
// stays until the new room's setup replaces it. It reports false, doing
// nothing, if this session holds no seat.
func (s *Session) migrateLobby() bool {
	if s.phase != Lobby || s.room.slot < 0 {
		return false
	}
	s.hand.asked, s.hand.migrating, s.hand.resume, s.hand.away = false, true, 0, false
	s.hand.fresh, s.hand.yield = false, false
	s.room.lastJoin = -1 << 62 // at once
	s.sendJoin()
	return true
}

// onLobbyResumed handles the successor lobby's Welcome: the player has its
// seat back, and tells the room where it would host in turn.
func (s *Session) onLobbyResumed(w wire.Welcome) {
	s.hand.migrating, s.hand.fresh, s.hand.away = false, false, false
	s.room.roomID = w.RoomID
	if w.Slot != wire.SpectatorSlot {
		s.room.slot, s.room.token = int(w.Slot), w.Token
	}
	s.room.wordAt = s.now // the new room's word: its silence starts now
	s.lobby.last = -lobbyRetry
	s.emit(Event{Kind: EvWelcome, Slot: s.room.slot})
	s.sendStandby()
}

// LobbySilence returns how long the room has said nothing at all (it pings
// every member of its lobby four times a second, and repeats the setup
// every second) while this player sits in its lobby; 0 otherwise. Read it
// against SilentAfter, as RoomSilence in a game: the screens say "waiting
// for the host…".
func (s *Session) LobbySilence() time.Duration {
	if s.phase != Lobby || s.room.slot < 0 || !s.room.word || s.hand.migrating {
		return 0
	}
	return max(s.now-s.room.wordAt, 0)
}

// lobbyHandedOver handles the room's word that its host is going
// (LeaveHandover) while this player sits in its lobby: with a successor
// list for this lobby the player follows it as it would a silent host's,
// at once (HandoverAsked: the machine walks the list without probing the
// host that said it is going). It reports false, changing nothing, if
// there is no lobby to carry on here, or this player keeps no standby
// port (a browser tab): nothing would walk the list for it, and it reads
// that the host left, as before.
func (s *Session) lobbyHandedOver() bool {
	if s.phase != Lobby || s.room.slot < 0 || !s.haveStandby || len(s.hand.list.List) == 0 || s.hand.list.Game != s.room.setup.Game {
		return false
	}
	s.hand.asked, s.hand.yield = true, false
	s.emit(Event{Kind: EvHandover})
	return true
}
