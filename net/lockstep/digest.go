package lockstep

import (
	"rockstep/game"
	"rockstep/net/wire"
)

// The digest of a world (wire.WorldSum), the session's side. The room
// accepts a world one machine hands another (a repair, a snapshot, the
// final world) only if its digest is the one a majority of the players
// computed for its turn: it asks them (wire.DigestRequest) for a turn
// ahead of everyone's, and each answers (wire.Digest) as it completes
// that turn, with the checksum the turn's hash report is cut from and
// the digest of the same bytes. A turn already completed is answered
// from the recent worlds kept, or not at all (a session that keeps none,
// SharedSim's bots). Its cost, per turn the room checks: BenchmarkDigest,
// BENCHMARKS.md.

// maxDigestWants bounds the turns a session remembers to answer: the room
// asks for one or two at a time.
const maxDigestWants = 4

// digestIO is the turns the room asked for and this session has not
// completed yet.
type digestIO struct {
	wants [maxDigestWants]uint32
	n     int
	buf   []byte // a world's bytes, reused
}

func (s *Session) onDigestRequest(turn uint32) {
	g := &s.game
	if g.world == nil || s.room.slot < 0 {
		return
	}
	switch {
	case g.ended && turn == g.endTurn:
		s.sendDigest(g.world, turn)
		return
	case turn >= g.turn && !g.ended:
		d := &s.digest
		for i := 0; i < d.n; i++ {
			if d.wants[i] == turn {
				return
			}
		}
		if d.n == maxDigestWants {
			copy(d.wants[:], d.wants[1:]) // the oldest gives way
			d.n--
		}
		d.wants[d.n] = turn
		d.n++
		return
	}
	if n := len(g.recent); n > 0 {
		if r := &g.recent[turn%uint32(n)]; r.ok && r.turn == turn {
			s.sendDigest(&r.w, turn)
		}
	}
}

// digestAt answers the room's requests for turn c, just completed, w the
// world at its end.
func (s *Session) digestAt(c uint32, w *game.World) {
	d := &s.digest
	j := 0
	for i := 0; i < d.n; i++ {
		switch {
		case d.wants[i] == c:
			s.sendDigest(w, c)
		case d.wants[i] > c:
			d.wants[j] = d.wants[i]
			j++
		}
	}
	d.n = j
}

// sendDigest sends the digest of w, the world at the end of turn.
func (s *Session) sendDigest(w *game.World, turn uint32) {
	h, sum, ok := s.worldDigest(w)
	if !ok {
		return
	}
	h, sum = s.reportedDigest(h, sum)
	s.send(wire.Digest{Turn: turn, Hash: h, Sum: sum})
}

// worldDigest returns w's checksum and digest, of its snapshot's bytes.
func (s *Session) worldDigest(w *game.World) (uint64, wire.Sum, bool) {
	b, err := w.AppendBinary(s.digest.buf[:0])
	if err != nil {
		return 0, wire.Sum{}, false
	}
	s.digest.buf = b
	return game.Sum64(b), wire.WorldSum(b), true
}

// WorldDigest returns w's checksum (game.Sum64 of its snapshot) and its
// digest (wire.WorldSum of the same bytes): what a player reports of its
// world at a turn the room checks.
func WorldDigest(w *game.World) (uint64, wire.Sum, error) {
	b, err := w.MarshalBinary()
	if err != nil {
		return 0, wire.Sum{}, err
	}
	return game.Sum64(b), wire.WorldSum(b), nil
}

// reportedDigest is h and sum as reported: wrong on purpose under a hash
// fault (a player that lies about its world, not one whose world is
// wrong).
func (s *Session) reportedDigest(h uint64, sum wire.Sum) (uint64, wire.Sum) {
	if f := s.cfg.Fault.HashFrom; f != 0 && s.game.world.Tick >= f {
		sum[0] ^= 0x5e
		return h ^ 0x5eed, sum
	}
	return h, sum
}
