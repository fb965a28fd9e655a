package lockstep

import (
	"rockstep/game"
	"rockstep/net/wire"
)

// awayEnd is the game that ended while this player was away: it rejoined
// with its token after the end, into the room's lobby, with no world of
// the game. The room sends the players' agreed world at the end of the
// final turn (net/room's final.go), and the session reads the results
// table from it, as the others read theirs (docs/ARCHITECTURE.md, "One
// host").
type awayEnd struct {
	asm     wire.Assembly
	have    bool
	turn    uint32 // the game's last turn
	world   game.World
	results game.Results
}

// onAwayChunk takes, in the lobby, a chunk of the ended game's world sent
// to a player back after the end; a world whose bytes do not hash to the
// hash sent with it, or do not decode, is dropped and counted.
func (s *Session) onAwayChunk(c wire.SnapshotChunk) {
	a := &s.away
	if s.room.slot < 0 || s.room.status.State == wire.StateRunning || (a.have && a.turn == c.Turn) {
		return // not a player of an ended game, or a repeat of what we have
	}
	data, turn, hash := a.asm.Add(c)
	if data == nil {
		return
	}
	if game.Sum64(data) != hash {
		s.stats.MalformedIn++
		return
	}
	if err := a.world.UnmarshalBinary(data); err != nil {
		s.stats.MalformedIn++
		return
	}
	// The table names the players as the roster does: this player was
	// not there when the game started (wire.Start.Names), the roster is
	// what it has.
	var names [game.MaxPlayers]string
	for _, p := range s.room.setup.Players {
		if int(p.Slot) < game.MaxPlayers {
			names[p.Slot] = p.Name
		}
	}
	a.results = a.world.Results(names)
	a.have, a.turn = true, turn
}

// AwayResults returns, in the lobby of a room this player came back to
// after its game ended, that game's results and its world at the end (ok
// false if none came, or once another game started).
func (s *Session) AwayResults() (r game.Results, w *game.World, ok bool) {
	a := &s.away
	if !a.have || s.phase != Lobby {
		return game.Results{}, nil, false
	}
	return a.results, &a.world, true
}
