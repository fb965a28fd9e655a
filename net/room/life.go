package room

import "time"

// slotLife is where a slot is in its life (docs/ARCHITECTURE.md, "A slot's
// life"): one phase, a drop mark, and the time a vacant slot is held until.
// Its transitions below are its only writers; the room reads it through
// the predicates.
//
//	free                seat      → seated
//	seated (any held)   begin     → playing    a game starts
//	playing             vacate    → vacant     its connection is lost
//	vacant, rejoining   holdUntil → the same   its drop time set
//	vacant, rejoining   rejoin    → rejoining  back with its token, or from a stall, catching up
//	rejoining           relapse   → vacant     stalled again before it caught up
//	vacant, rejoining   play      → playing    caught up, or back where its own world stood
//	vacant, rejoining   timeOut   → marked     its vacancy is over
//	in the game         leave     → vacant, marked (left)
//	in the game         sendAway  → vacant, marked
//	seated, playing     toLobby   → seated     the finished game's rematch
//	vacant, rejoining   toLobby   → seated     the same, its player back (present) and not marked
//	marked              the next compiled turn drops it: free (slot.free)
//
// The drop mark sits beside the phase rather than being a phase of its
// own because a marked slot can still be reclaimed by its token before
// that turn is compiled (rejoin, play), and that turn drops it all the
// same.
type slotLife struct {
	phase   slotPhase
	leaving leaveKind
	dropAt  time.Duration // vacant or rejoining: when the slot is dropped (0: not yet set, a resumed room's slot before its first tick)
}

type slotPhase uint8

const (
	// free: no player holds the slot (the zero value).
	phaseFree slotPhase = iota
	// seated: a player holds the slot but is not in a game: the lobby, or
	// a finished game's rematch to come.
	phaseSeated
	// playing: in the running game, and the room waits for its turns.
	phasePlaying
	// vacant: in the running game, its connection lost: not waited for,
	// its inputs game.Away, held for a reconnect until dropAt.
	phaseVacant
	// rejoining: vacant, its player back and catching up: waited for again
	// from its first turn near the game's (storeTurn), or from the first
	// compiled turn that has its input.
	phaseRejoining
)

type leaveKind uint8

const (
	stays     leaveKind = iota
	dropped             // dropped by the room: vacant too long, or sent away
	leftByOwn           // the player left by its own choice (Leave)
)

var phaseNames = [...]string{"free", "seated", "playing", "vacant", "rejoining"}

func (p slotPhase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Predicates.

// taken reports whether a player holds the slot (connected or not).
func (l *slotLife) taken() bool { return l.phase != phaseFree }

// inGame reports whether the slot took part in the running (or last) game
// and was not dropped: playing, vacant or rejoining.
func (l *slotLife) inGame() bool { return l.phase >= phasePlaying }

// live reports whether the room waits for the slot's turns (it may be
// marked for a drop all the same: waitedOn).
func (l *slotLife) live() bool { return l.phase == phasePlaying }

// away reports whether the slot is held for its player: vacant, or
// rejoining and not yet caught up.
func (l *slotLife) away() bool { return l.phase == phaseVacant || l.phase == phaseRejoining }

// rejoining reports whether the slot's player is back and catching up.
func (l *slotLife) rejoining() bool { return l.phase == phaseRejoining }

// dropping reports whether the next compiled turn drops the slot.
func (l *slotLife) dropping() bool { return l.leaving != stays }

// left reports whether the drop is the player's own choice (Leave), not a
// timeout or the room sending it away.
func (l *slotLife) left() bool { return l.leaving == leftByOwn }

// waitedOn reports whether the next master turn waits for the slot's
// input: playing and not being dropped.
func (l *slotLife) waitedOn() bool { return l.live() && !l.dropping() }

// staying reports whether the slot is still in the game after the next
// compiled turn: playing, or held for a reconnect, and not being dropped.
func (l *slotLife) staying() bool { return l.inGame() && !l.dropping() }

// Transitions. Each returns false, and changes nothing, where it does not
// apply.

// seat gives a free slot to a player.
func (l *slotLife) seat() bool {
	if l.phase != phaseFree {
		return false
	}
	*l = slotLife{phase: phaseSeated}
	return true
}

// begin puts a held slot in the game that starts.
func (l *slotLife) begin() bool {
	if l.phase == phaseFree {
		return false
	}
	*l = slotLife{phase: phasePlaying, dropAt: l.dropAt}
	return true
}

// vacate holds a playing slot whose connection is lost, until dropAt.
func (l *slotLife) vacate(dropAt time.Duration) bool {
	if l.phase != phasePlaying {
		return false
	}
	l.phase, l.dropAt = phaseVacant, dropAt
	return true
}

// holdUntil sets when a held slot is dropped (a resumed room's, at its
// first tick).
func (l *slotLife) holdUntil(dropAt time.Duration) bool {
	if !l.away() {
		return false
	}
	l.dropAt = dropAt
	return true
}

// rejoin marks a held slot's player back, catching up.
func (l *slotLife) rejoin() bool {
	if !l.away() {
		return false
	}
	l.phase = phaseRejoining
	return true
}

// relapse holds again, until dropAt, a slot whose player came back and
// stalled again before it caught up (stall.go).
func (l *slotLife) relapse(dropAt time.Duration) bool {
	if l.phase != phaseRejoining {
		return false
	}
	l.phase, l.dropAt = phaseVacant, dropAt
	return true
}

// play makes a held slot's player waited for again: it caught up, or came
// back where its own world stood.
func (l *slotLife) play() bool {
	if !l.away() {
		return false
	}
	l.phase = phasePlaying
	return true
}

// timeOut marks a held slot, not already marked, to be dropped: its
// vacancy is over.
func (l *slotLife) timeOut() bool {
	if !l.away() || l.dropping() {
		return false
	}
	l.leaving = dropped
	return true
}

// leave marks a slot in the game to be dropped because its player left
// (Leave): no longer waited for, nor held.
func (l *slotLife) leave() bool {
	if !l.inGame() {
		return false
	}
	l.phase, l.leaving = phaseVacant, leftByOwn
	return true
}

// sendAway marks a slot in the game to be dropped by the room (a player
// that strayed too often). A player who had already left keeps its word.
func (l *slotLife) sendAway() bool {
	if !l.inGame() {
		return false
	}
	l.phase = phaseVacant
	if l.leaving == stays {
		l.leaving = dropped
	}
	return true
}

// toLobby takes a slot out of the finished game into the lobby of the
// rematch: a connected one, or one held (away) whose player came back while
// the results showed (present), unless it is being dropped. A held slot
// with no one there has no one to take (the room frees it, and keeps its
// token for a late Rejoin: rematch.go).
func (l *slotLife) toLobby(present bool) bool {
	if l.phase == phaseFree || l.away() && (!present || l.dropping()) {
		return false
	}
	*l = slotLife{phase: phaseSeated, dropAt: l.dropAt}
	return true
}

// free empties the slot: its player, token and inputs are gone, and its
// life is free (the zero slotLife).
func (s *slot) free() { *s = slot{} }
