package room

import (
	"rockstep/game"
	"rockstep/net/wire"
)

// The referee (Config.Referee, `rockstep -server -referee`): a room that
// runs the engine itself on every master turn it compiles, with exactly
// the inputs the players execute, so that its world at the end of any
// turn is the engine's, not anyone's claim. Then:
//
//   - a player whose hash of a turn is not the referee's has strayed, with
//     or without a majority: there is no tie, no rewind, and a two-player
//     game settles who is right;
//   - a strayed player is repaired from the referee's world, a spectator
//     or returning player catches up from it, and a player back after the
//     game ended gets it: no player's world is asked for;
//   - lies are caught as ever (a strayed player's world of the turn it
//     strayed at must match its report), and a player repaired as often
//     as the room allows is sent away.
//
// A room resumed mid-game (host migration) has no world to start from and
// referees nothing. The cost: K Steps a turn (BenchmarkReferee, for 250
// rooms; BENCHMARKS.md).

// referee is the room's own engine.
type referee struct {
	on     bool
	world  game.World
	turn   uint32 // the next turn to execute: world is at the end of turn-1
	hashes [hashRing]refHash
	buf    []byte
}

type refHash struct {
	turn uint32
	ok   bool
	hash uint64
}

// startReferee starts the referee's world from the game's setup, as every
// player does at turn 0.
func (r *Room) startReferee() {
	buf := r.ref.buf
	r.ref = referee{buf: buf}
	if !r.cfg.Referee || r.nextTurn != 0 {
		return
	}
	w, err := game.New(r.setup)
	if err != nil {
		return
	}
	r.ref.world, r.ref.on = *w, true
}

// refereeTurn executes master turn mt on the referee's world, as a player
// does: every tick of it with every slot's input, in order.
func (r *Room) refereeTurn(mt *wire.MasterTurn) {
	f := &r.ref
	if !f.on || mt.Turn != f.turn {
		return
	}
	if !f.world.Over {
		var in [game.MaxPlayers]game.Input
		for k := 0; k < int(mt.Count); k++ {
			for i := range in {
				in[i] = mt.Inputs[i][k]
			}
			f.world.Step(in)
		}
		f.world.NumEvents = 0
	}
	f.hashes[mt.Turn%hashRing] = refHash{turn: mt.Turn, ok: true, hash: f.world.Hash()}
	f.turn++
}

// refereeHash returns the referee's hash of turn's end, if it has it.
func (r *Room) refereeHash(turn uint32) (uint64, bool) {
	h := &r.ref.hashes[turn%hashRing]
	if !r.ref.on || !h.ok || h.turn != turn {
		return 0, false
	}
	return h.hash, true
}

// refereeWorld returns the referee's world at the end of the last turn it
// executed: its snapshot's bytes (valid until the next call), the turn,
// and its checksum.
func (r *Room) refereeWorld() (data []byte, turn uint32, hash uint64, ok bool) {
	f := &r.ref
	if !f.on || f.turn == 0 {
		return nil, 0, 0, false
	}
	b, err := f.world.AppendBinary(f.buf[:0])
	if err != nil {
		return nil, 0, 0, false
	}
	f.buf = b
	return b, f.turn - 1, game.Sum64(b), true
}

// Refereed reports whether the room runs the engine on its turns.
func (r *Room) Refereed() bool { return r.cfg.Referee }
