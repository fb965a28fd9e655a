package lockstep

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// lobbyWish is what the local player asks of the room during setup. Each
// request is repeated until the room's setup state shows it, so a lost
// packet only delays it. Wishes are forgotten when a game starts: a start
// request made for one game never starts the next.
type lobbyWish struct {
	ready, haveReady bool
	start            bool
	startGame        uint32 // the room's game number the start was asked for
	setup            game.Setup
	haveSetup        bool
	last             time.Duration
}

const lobbyRetry = 300 * time.Millisecond

// SetReady says whether the local player is ready to start. After a game,
// a ready player asks for a rematch: the room returns to setup. A
// spectator's ready asks to play the next game: the room seats it if a
// slot is free (a Welcome gives it the slot and its token), else it
// watches the next game too.
func (s *Session) SetReady(ready bool) {
	s.lobby.ready, s.lobby.haveReady = ready, true
	if s.phase == Finished && ready {
		s.phase = Lobby // a rematch
	}
	s.send(wire.Ready{Ready: ready})
	s.lobby.last = s.now
}

// RequestStart asks the room to start its next game (the host only;
// everyone must be ready).
func (s *Session) RequestStart() {
	s.lobby.start, s.lobby.startGame = true, s.room.setup.Game
	s.send(wire.StartGame{Game: s.lobby.startGame})
	s.lobby.last = s.now
}

// ChangeSetup asks the room to use setup (the host only).
func (s *Session) ChangeSetup(setup game.Setup) {
	setup = setup.Options()
	s.lobby.setup, s.lobby.haveSetup = setup, true
	s.send(wire.SetupChange{Setup: setup})
	s.lobby.last = s.now
}

// EndGame asks the room to end the game early (the host only): every
// client stops at the end of the turn that carries the end.
func (s *Session) EndGame() { s.send(wire.EndGame{}) }

// Kick asks the room to remove the player in slot from the lobby (the host
// only); the room refuses that player from then on.
func (s *Session) Kick(slot uint8) { s.send(wire.Kick{Slot: slot}) }

// Pause asks the room to pause or resume (the host only).
func (s *Session) Pause(paused bool) { s.send(wire.Pause{Paused: paused}) }

// Leave tells the room the player quits, and stops the session. The Leave
// is queued like any frame: the caller flushes it and keeps the connection
// until it is delivered (client.Close does).
func (s *Session) Leave() {
	if s.phase != Left && s.phase != Refused {
		s.send(wire.Leave{Reason: wire.LeaveQuit})
	}
	s.phase = Left
}

// IsHost reports whether the room lists the local player as host.
func (s *Session) IsHost() bool {
	for _, p := range s.room.setup.Players {
		if int(p.Slot) == s.room.slot {
			return p.Host
		}
	}
	return false
}

// setupSeen takes what a new setup state from the room answers. A player
// not ready there means the room refuses a Start: the host's is not
// repeated, or the game would start by itself once everyone is ready (the
// host presses Start again). A changed setup clears the Ready of every
// player but the host: a Ready given for the old setup is not repeated for
// the new one (the player confirms it again, or not).
func (w *lobbyWish) setupSeen(old, cur wire.SetupState, slot int) {
	changed := old.RoomID == cur.RoomID && old.Setup.Options() != cur.Setup.Options()
	for _, p := range cur.Players {
		if p.Ready {
			continue
		}
		w.start = false
		if changed && int(p.Slot) == slot {
			w.haveReady = false
		}
	}
}

// retryLobby repeats lobby requests the setup state does not yet reflect.
func (s *Session) retryLobby() {
	if s.phase != Lobby || s.now-s.lobby.last < lobbyRetry {
		return
	}
	w := &s.lobby
	var me *wire.Player
	for i := range s.room.setup.Players {
		if int(s.room.setup.Players[i].Slot) == s.room.slot {
			me = &s.room.setup.Players[i]
		}
	}
	if me == nil {
		return
	}
	sent := false
	if w.haveReady && me.Ready != w.ready {
		s.send(wire.Ready{Ready: w.ready})
		sent = true
	}
	if w.haveSetup && me.Host && s.room.setup.Setup.Options() != w.setup {
		s.send(wire.SetupChange{Setup: w.setup})
		sent = true
	}
	if w.start && me.Host && w.startGame == s.room.setup.Game {
		s.send(wire.StartGame{Game: w.startGame})
		sent = true
	}
	if sent {
		w.last = s.now
	}
}

// Say sends a chat line, cut to the protocol's limit on a character
// boundary.
func (s *Session) Say(text string) {
	s.send(wire.Chat{Text: wire.Truncate(text, wire.MaxChat)})
}

func (s *Session) onChat(m wire.Chat) {
	if len(s.chat) >= maxChat {
		copy(s.chat, s.chat[1:])
		s.chat = s.chat[:len(s.chat)-1]
	}
	s.chat = append(s.chat, m)
	s.emit(Event{Kind: EvChat, Slot: int(m.From), Text: m.Text})
}
