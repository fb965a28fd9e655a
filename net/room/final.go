package room

import (
	"time"

	"rockstep/game"
	"rockstep/net/wire"
)

// A player who comes back with its token after its game ended (its
// machine crashed and restarted while the others played on) has no world
// of that game, and the room runs no engine. So when a game ends the room
// keeps its final world: it asks every player still playing for its world
// at the end of the final turn and keeps one the players agree on, checked
// as every world is (judgeWorld): a strict majority of the voters' worlds
// have its digest (wire.WorldSum: a world forged to hash like theirs,
// game.Sum64, does not), and it matches what its sender reported of that
// turn. A player's world counts as its report of the final turn (its
// hash and its digest): a game the host ended finishes as its last turn
// is compiled, before anyone has run it, and the players report no hash
// after the end. While the room shows that game's results (finished),
// a player of the game who rejoins is sent the world, and reads the
// results table from it, the same table the others show
// (docs/ARCHITECTURE.md, "One host").

const (
	// finalSends is how many times a returning player is sent the final
	// world, snapshotEvery apart: it acknowledges nothing, so a lost
	// chunk is made good by the next sending.
	finalSends = 3
	// finalAsks bounds the rounds of asking the players for their worlds
	// (snapshotAsk apart) when not enough answer.
	finalAsks = 5
)

// finalWorld is the last game's world at its end, for a late rejoiner.
type finalWorld struct {
	game  uint32 // the game it is of (Room.game); 0: none
	turn  uint32 // the game's last turn: the world is at its end
	hash  uint64 // game.Sum64 of data, when ready
	data  []byte
	ready bool // data holds the agreed world

	asks   int           // rounds of asking so far
	askAt  time.Duration // the last round
	asked  uint8         // slots asked and not yet answered
	asm    [game.MaxPlayers]wire.Assembly
	worlds [game.MaxPlayers][]byte // each slot's world, as it sent it
	hashes [game.MaxPlayers]uint64 // and its game.Sum64
	sums   [game.MaxPlayers]wire.Sum

	to [game.MaxPlayers]finalSend // by slot: returning players to send it to
}

// finalSend is a returning player the final world is sent to.
type finalSend struct {
	conn ConnID
	left int           // sendings to go
	at   time.Duration // the last sending
}

// keepFinal starts keeping the world of the game that just ended at turn
// final (finish). A game every player left, or that desynced, has no
// world to keep.
func (r *Room) keepFinal(reason wire.EndReason, final uint32) {
	f := &r.fin
	data := f.data[:0]
	*f = finalWorld{data: data}
	if reason == wire.EndEmpty || r.desync != nil {
		return
	}
	f.game, f.turn = r.game, final
	if data, turn, hash, ok := r.refereeWorld(); ok && (turn == final || r.ref.world.Over) {
		// The room's own world at the end (referee.go; one that is over
		// stays as it was at the turn it ended).
		f.data, f.hash, f.ready = append(f.data, data...), hash, true
		return
	}
	r.askFinal()
}

// askFinal asks every player still playing, connected, that has not sent
// its world for its world at the end of the final turn.
func (r *Room) askFinal() {
	f := &r.fin
	f.asks++
	f.askAt = r.now
	for i := range r.slots {
		s := &r.slots[i]
		if !s.life.live() || s.m == nil || !s.m.connected || f.worlds[i] != nil {
			continue
		}
		f.asked |= 1 << i
		f.asm[i].Reset()
		r.send(s.m.conn, wire.SnapshotRequest{Turn: f.turn})
	}
}

// finalHeld reports whether the room, finished, keeps the world of the
// game it shows the results of.
func (r *Room) finalHeld() bool {
	return r.state == wire.StateFinished && r.fin.game == r.game && r.fin.game != 0
}

// finalSent reports whether the room sends the final world to a player who
// comes back: it keeps it (finalHeld), or it went back to setup for the
// rematch since that game ended, with the world agreed, and no game has
// started since (a player back after the others pressed Back to lobby:
// rematch.go's seatReturning).
func (r *Room) finalSent() bool {
	return r.finalHeld() || r.state == wire.StateSetup && r.fin.ready && r.fin.game != 0 && r.fin.game+1 == r.game
}

// tickFinal asks again for the worlds that did not come in time, and sends
// the agreed world to the returning players due a sending.
func (r *Room) tickFinal() {
	f := &r.fin
	if !r.finalSent() {
		return
	}
	if r.finalHeld() && !f.ready && f.asked != 0 && f.asks < finalAsks && r.now-f.askAt >= snapshotAsk {
		r.askFinal()
	}
	if !f.ready {
		return
	}
	for i := range f.to {
		d := &f.to[i]
		if d.left <= 0 || r.now-d.at < snapshotEvery {
			continue
		}
		d.left--
		d.at = r.now
		if m := r.conns[d.conn]; m == nil || m.slot != i || !m.connected {
			d.left = 0 // gone, or the slot is someone else's now
			continue
		}
		total := (len(f.data) + wire.MaxChunk - 1) / wire.MaxChunk
		for c := 0; c < total; c++ {
			end := min((c+1)*wire.MaxChunk, len(f.data))
			r.send(d.conn, wire.SnapshotChunk{Turn: f.turn, Hash: f.hash, Total: uint8(total), Index: uint8(c), Data: f.data[c*wire.MaxChunk : end]})
		}
	}
}

// onFinalChunk takes a chunk of a player's final world, asked for; anything
// else is dropped (DropSnapshot). A whole world counts as its sender's
// report of the final turn's hash; then the worlds are checked.
func (r *Room) onFinalChunk(m *member, c wire.SnapshotChunk) {
	f := &r.fin
	if !r.finalHeld() || m.slot < 0 || f.asked&(1<<m.slot) == 0 || c.Turn != f.turn {
		r.drop(DropSnapshot)
		return
	}
	data, turn, hash := f.asm[m.slot].Add(c)
	if data == nil {
		return
	}
	f.asked &^= 1 << m.slot
	if game.Sum64(data) != hash || turn != f.turn {
		r.drop(DropSnapshot)
		return
	}
	f.worlds[m.slot], f.hashes[m.slot], f.sums[m.slot] = append([]byte(nil), data...), hash, wire.WorldSum(data)
	r.noteFinalHash(m.slot, uint32(hash))
	r.noteWorldDigest(m.slot, f.turn, hash, f.sums[m.slot])
	r.checkFinal()
	r.tickFinal() // a player may be waiting for it already
}

// noteFinalHash records slot's hash of the final turn (its world's), as
// if reported, unless it reported one already (while the game ran: the
// end rule's reports). A hash that differs is no desync now (the game is
// over): it only keeps any world from being agreed.
func (r *Room) noteFinalHash(slot int, h uint32) {
	f := &r.fin
	if f.turn >= r.nextTurn || r.nextTurn-f.turn > hashRing {
		return
	}
	rec := &r.hashes[f.turn%hashRing]
	if rec.turn != f.turn || rec.mask == 0 {
		*rec = hashRecord{turn: f.turn}
	}
	if rec.mask&(1<<slot) == 0 {
		rec.mask |= 1 << slot
		rec.hashes[slot] = h
	}
}

// checkFinal keeps the first world the players agree on, once they do.
func (r *Room) checkFinal() {
	f := &r.fin
	if f.ready {
		return
	}
	for i := range f.worlds {
		if f.worlds[i] == nil {
			continue
		}
		switch r.judgeWorld(i, f.turn, f.hashes[i], f.sums[i]) {
		case worldAgreed:
			f.data = append(f.data[:0], f.worlds[i]...)
			f.hash, f.ready = f.hashes[i], true
			f.worlds = [game.MaxPlayers][]byte{} // the rest are not needed
			return
		case worldRefused:
			r.drop(DropSnapshot) // a world, or a report, the others do not share
			f.worlds[i] = nil
		case worldLie, worldForged:
			// Its world does not back its report, or was made to hash
			// like the others': refused and counted, and its world no
			// longer votes (the game is over: nobody is sent away from
			// the results).
			r.drop(DropSnapshot)
			r.stats.Lies++
			noteTime(r.repair.slots[i].lies[:], r.now)
			f.worlds[i] = nil
		}
	}
}

// sendFinal sends the final world to m, a player of the ended game who
// came back with its token while the room shows the results (catchUp);
// once the room has it, if it does not yet.
func (r *Room) sendFinal(m *member) {
	if !r.finalHeld() || m.slot < 0 || r.setup.Players&(1<<m.slot) == 0 {
		return
	}
	r.fin.to[m.slot] = finalSend{conn: m.conn, left: finalSends, at: r.now - snapshotEvery}
	r.tickFinal()
}
