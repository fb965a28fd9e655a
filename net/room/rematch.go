package room

import (
	"time"

	"rockstep/net/wire"
)

// A rematch asked right after the end (a player's Ready while the room is
// finished) returns the room to setup, and a room in setup resends no
// master turn. A player that had not yet received the game's last turns
// would then never reach the end: its game would stay "playing" on a room
// that plays nothing. So the room holds such a Ready until every member
// that plays or watches the game has acknowledged the last master turn, or
// for SilenceTimeout at most (a member that acknowledges nothing for that
// long is not waited for: it gets its turns again if it comes back, as any
// late member does).
type rematchHold struct {
	held bool
	from time.Duration // r.now when the first Ready was held
}

// endOutstanding reports whether a connected member of the finished game
// still lacks some of its master turns.
func (r *Room) endOutstanding() bool {
	for _, m := range r.members {
		if m.connected && m.started && !m.needSnap && m.masterAck < r.nextTurn {
			return true
		}
	}
	return false
}

// holdRematch reports whether member m's Ready for a rematch must wait,
// and marks it held if so.
func (r *Room) holdRematch(m *member) bool {
	if !r.endOutstanding() {
		return false
	}
	if !r.rematch.held {
		r.rematch.held, r.rematch.from = true, r.now
	}
	if r.now-r.rematch.from > r.cfg.SilenceTimeout {
		return false
	}
	m.rematchWish = true
	return true
}

// tickRematch takes the Readys held by holdRematch once every member has
// the end, or the wait is over. It runs in the finished state.
func (r *Room) tickRematch() {
	if !r.rematch.held {
		return
	}
	if r.endOutstanding() && r.now-r.rematch.from <= r.cfg.SilenceTimeout {
		return
	}
	r.rematch.held = false
	if r.state == wire.StateFinished {
		r.reset() // a rematch: back to setup with the same players
	}
	for i := 0; i < len(r.members); i++ {
		m := r.members[i]
		if !m.rematchWish {
			continue
		}
		m.rematchWish = false
		r.takeReady(m, wire.Ready{Ready: true})
	}
}
