package bots

import (
	"rockstep/net/lockstep"
	"rockstep/net/wire"
)

// oneGame follows the one game a bot plays across its connections, to tell
// a game that ended while the bot was away from one still to come. A bot
// that lost its connection near the end comes back with its token; by then
// the game may be over, and the room has no game for it to catch up on.
type oneGame struct {
	game   uint32 // the room's game the bot came for (0: not known yet)
	played bool   // the bot's session has played it
}

// missed notes where s stands and reports whether the bot's game ended
// while it was away (back: this connection came back with a token). A
// player's client in the same place forgets its kept session (ui/app.go):
//   - in the lobby after playing, or back in the lobby of a later game
//     than the one it waited for: the game ended and the rematch's lobby
//     is what is left;
//   - finished without a world of its own: the game ended while the bot
//     was catching up from a snapshot;
//   - its token unknown after playing: the game ended and the room, empty,
//     forgot its players.
func (o *oneGame) missed(s *lockstep.Session, back bool) bool {
	ph := s.Phase()
	if ph == lockstep.Playing {
		o.played = true
	}
	switch ph {
	case lockstep.Lobby:
		g := s.SetupState().Game
		switch {
		case o.played:
			return true
		case back:
			return o.game != 0 && g > o.game
		case g != 0:
			o.game = g // a first connection waits for the lobby's game, whatever came before
		}
		return false
	case lockstep.Finished:
		_, ended := s.Ended()
		return (!ended || s.World() == nil) && s.Desync() == nil
	case lockstep.Refused:
		return back && o.played && s.Refusal().Reason == wire.RefuseBadToken
	}
	return false
}
