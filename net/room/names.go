package room

import (
	"strconv"

	"rockstep/internal/peertext"
	"rockstep/net/wire"
)

// Players' names come from their Join, so from anyone: a name is made safe
// to show (peertext.Clean: no control, bidi or zero-width characters, NFC,
// one line, at most wire.MaxName bytes) and then told apart from the names
// already in the room that look the same (peertext.Skeleton: case, accents,
// Latin/Cyrillic/Greek look-alikes, 0/O, 1/l/I), by a suffix " (2)",
// " (3)" …, so that every screen can tell the players apart and nobody can
// pass for another in chat or the roster. The player who came last gets
// the suffix, and no player may choose a name that ends as if it had one.
// See docs/ARCHITECTURE.md, "Text from peers".

// playerName returns the name slot i's player, of player id id, goes by.
func (r *Room) playerName(name string, i int, id [16]byte) string {
	return r.distinctName(cleanName(name, i), i, id)
}

// cleanName makes a name safe to show, and unlike the names the room
// numbers (an ending that looks like " (N)" loses its parentheses:
// peertext.Unsuffixed); an empty name (or one of nothing but invisible
// characters) becomes "Player N".
func cleanName(name string, slotIdx int) string {
	if n := peertext.Unsuffixed(peertext.Clean(name, wire.MaxName)); n != "" {
		return n
	}
	return "Player " + string(rune('1'+slotIdx))
}

// distinctName returns name, or name with the first suffix " (N)" that
// makes it look like none of the names in the room: the other slots'
// players' and the spectators'. A spectator of player id id is the same
// player taking a seat (takeSeat), not another.
func (r *Room) distinctName(name string, slotIdx int, id [16]byte) string {
	taken := make(map[string]bool, len(r.slots)+len(r.members))
	for i := range r.slots {
		if s := &r.slots[i]; s.life.taken() && i != slotIdx {
			taken[peertext.Skeleton(s.name)] = true
		}
	}
	for _, m := range r.members {
		if m.slot < 0 && m.name != "" && m.id != id {
			taken[peertext.Skeleton(m.name)] = true
		}
	}
	if !taken[peertext.Skeleton(name)] {
		return name
	}
	// Each name taken rules out at most one suffix (the suffixes' digits
	// look like no other's), so one of the first len(taken)+1 is free.
	var cand string
	for n := 2; n <= len(taken)+2; n++ {
		suffix := " (" + strconv.Itoa(n) + ")"
		cand = peertext.Clean(name, wire.MaxName-len(suffix)) + suffix
		if !taken[peertext.Skeleton(cand)] {
			break
		}
	}
	return cand
}
