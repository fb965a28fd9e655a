package room

import (
	"math/bits"

	"rockstep/game"
	"rockstep/net/wire"
)

// World digests (docs/ARCHITECTURE.md §1, "The room runs no engine
// code"). The room relays worlds it cannot compute: a repair, a
// spectator's or returning player's snapshot, the final world. It accepts
// one only if its digest (wire.WorldSum, SHA-256 of its bytes: no edit can
// be solved to match it, as one can for the world hash game.Sum64) is the
// one a strict majority of the voters computed for its turn. It asks
// them for a turn ahead of everyone's (checkTurn), when it asks for the
// world, and each answers as it completes that turn (wire.Digest, with
// the checksum of the same bytes). The world's sender votes with the
// world itself; its own digest and hash reports of that turn must match
// it, or it lied.

// digestRing is how many turns' digests the room holds: the turns it asks
// for at once (a repair, a snapshot), a few apart.
const digestRing = 8

// digestRecord is the digests the players sent of one turn.
type digestRecord struct {
	turn  uint32
	asked uint8 // slots asked
	mask  uint8 // slots that answered
	hash  [game.MaxPlayers]uint64
	sum   [game.MaxPlayers]wire.Sum
}

// askDigests asks every playing, connected player that was not asked yet
// for its digest of turn.
func (r *Room) askDigests(turn uint32) {
	d := &r.digests[turn%digestRing]
	if d.turn != turn || d.asked == 0 {
		*d = digestRecord{turn: turn}
	}
	for i := range r.slots {
		s := &r.slots[i]
		m := s.m
		if !s.life.live() || m == nil || !m.connected || m.needSnap || d.asked&(1<<i) != 0 {
			continue
		}
		d.asked |= 1 << i
		r.send(m.conn, wire.DigestRequest{Turn: turn})
	}
}

// digestsOf returns the digests held of turn, or nil.
func (r *Room) digestsOf(turn uint32) *digestRecord {
	d := &r.digests[turn%digestRing]
	if d.turn != turn || d.asked == 0 {
		return nil
	}
	return d
}

// onDigest takes a player's digest of a turn it was asked for; anything
// else (not asked, a repeat, a spectator's) is dropped and counted.
func (r *Room) onDigest(m *member, msg wire.Digest) {
	d := r.digestsOf(msg.Turn)
	if m.slot < 0 || d == nil || d.asked&(1<<m.slot) == 0 || d.mask&(1<<m.slot) != 0 {
		r.drop(DropUnexpected)
		return
	}
	d.mask |= 1 << m.slot
	d.hash[m.slot], d.sum[m.slot] = msg.Hash, msg.Sum
	switch r.state {
	case wire.StateRunning:
		r.checkRepairWorld()
		r.checkSnapshot()
		r.relaySnapshots()
	case wire.StateFinished:
		r.checkFinal()
	}
}

// noteWorldDigest records a world a player sent of turn as its digest of
// that turn, if it sent none (the final worlds, which every player sends).
func (r *Room) noteWorldDigest(slot int, turn uint32, h uint64, sum wire.Sum) {
	d := &r.digests[turn%digestRing]
	if d.turn != turn || d.asked == 0 {
		*d = digestRecord{turn: turn}
	}
	d.asked |= 1 << slot
	if d.mask&(1<<slot) == 0 {
		d.mask |= 1 << slot
		d.hash[slot], d.sum[slot] = h, sum
	}
}

// worldVerdict is what the room makes of a world a player sent.
type worldVerdict uint8

const (
	worldUnknown worldVerdict = iota // not enough digests of its turn yet
	worldAgreed                      // a strict majority of the voters has its digest
	worldRefused                     // not the voters' world, or none can be agreed on
	worldLie                         // it contradicts its sender's own reports of that turn
	worldForged                      // it hashes like the voters' world and is not it
)

// judgeWorld judges a world of turn that slot src sent, whose bytes have
// checksum h and digest sum. Its sender's reports of that turn (its
// digest, its hash) must match it; a voter's world is its vote. It is
// agreed once a strict majority of the voters has its digest, refused
// once another digest has one or every voter answered with no majority.
// A world whose checksum is that of another world (the majority's, or the
// one its sender reported) and whose digest is not was forged to collide.
func (r *Room) judgeWorld(src int, turn uint32, h uint64, sum wire.Sum) worldVerdict {
	if src < 0 || src >= game.MaxPlayers {
		return worldRefused // only a player's world is judged
	}
	d := r.digestsOf(turn)
	voters := r.voters()
	need := bits.OnesCount8(voters)
	var in uint8 // the voters whose digest is in, the sender's left out (its world is its vote)
	if d != nil {
		in = d.mask & voters &^ (1 << src)
	}
	// The digest a strict majority of the voters reported, if any.
	agreed, has := -1, false
	for i := 0; i < game.MaxPlayers && !has; i++ {
		if in&(1<<i) == 0 {
			continue
		}
		n := 0
		for j := 0; j < game.MaxPlayers; j++ {
			if in&(1<<j) != 0 && d.sum[j] == d.sum[i] {
				n++
			}
		}
		if voters&(1<<src) != 0 && sum == d.sum[i] {
			n++
		}
		if 2*n > need {
			agreed, has = i, true
		}
	}
	if has && d.sum[agreed] != sum && d.hash[agreed] == h {
		return worldForged // whatever it reported: no fault makes a collision
	}
	if d != nil && d.mask&(1<<src) != 0 && d.sum[src] != sum {
		if d.hash[src] == h {
			return worldForged // it reported another world with the same checksum
		}
		return worldLie
	}
	if hr := &r.hashes[turn%hashRing]; hr.turn == turn && hr.mask&(1<<src) != 0 && hr.hashes[src] != uint32(h) {
		return worldLie
	}
	switch {
	case need == 0:
		return worldUnknown
	case has && d.sum[agreed] == sum:
		return worldAgreed
	case !has && need == 1 && voters == 1<<src:
		return worldAgreed // the only voter
	case has, in|voters&(1<<src) == voters:
		return worldRefused // another world is the voters', or none can be
	}
	return worldUnknown
}
