package migrate

import "time"

// A player whose own link failed while the host lives rejoins it
// (docs/ARCHITECTURE.md, "When the host goes away"). The connection to
// the host is lost without its word, and a fresh handshake with it still
// completes (Checking, HostAnswered ok): only this player's link failed,
// and moving the game would split it. The room holds the player's place
// for its vacancy (room.Config.VacancyTimeout, 30 s) and takes back a
// Join with its token, so the player dials the same host again (Redial)
// and its session joins the same room with its token (Rejoin), catching
// up from the room's snapshot if it is not in place. It is no move: the
// host and the moves stay as they were. A few tries are made within
// RejoinHold of the loss; a room that refuses the token (the place was
// given up, the room is gone) or that never takes the player in ends the
// game for it as before (ErrHostStillThere: it can rejoin by hand).

// Timings of the rejoin.
const (
	// RejoinHold: the host is rejoined this long after the loss at the
	// most; well within the room's hold of the place (30 s), so that the
	// last try still finds it.
	RejoinHold = 20 * time.Second
	// RejoinRetry is the pause between two tries.
	RejoinRetry = time.Second
	// RedialTimeout: a handshake with the host being rejoined that does
	// not complete in this time fails (the transport's own timeout: the
	// host answered a probe a moment ago, and a busy machine is slow).
	RedialTimeout = 3 * time.Second
)

// rejoinHost begins the rejoin of the host that answered Checking's probe.
func (m *Machine) rejoinHost(now time.Duration) []Action {
	m.walk.rejoin()
	m.deadline = m.lostAt + RejoinHold
	return m.redial(now)
}

// redial dials the host again, while the hold lasts.
func (m *Machine) redial(now time.Duration) []Action {
	if now >= m.deadline {
		return m.giveUp(ErrHostStillThere)
	}
	m.phase = Walking
	return []Action{{Kind: Redial, Timeout: min(RedialTimeout, m.deadline-now)}}
}

// redialled is Dialled for a Redial: the session rejoins over the new
// connection, or the next try comes after a pause.
func (m *Machine) redialled(now time.Duration, ok bool) []Action {
	if !ok {
		return m.retryRejoin(now)
	}
	m.phase, m.net = Joining, true
	return []Action{{Kind: Rejoin}}
}

// retryRejoin pauses until the next try (Tick, then beginWalk).
func (m *Machine) retryRejoin(now time.Duration) []Action {
	m.phase, m.wake = Pausing, now+RejoinRetry
	return []Action{{Kind: Wait, At: m.wake}}
}

// stepRejoin is Step while the session rejoins the host's room.
func (m *Machine) stepRejoin(now time.Duration, v View) []Action {
	switch {
	case m.cut:
	case !v.Migrating && !v.TurnedAway:
		// Back in the room it lost, with its token: the game goes on
		// where it was, with the same host. No move.
		m.phase, m.since, m.rejoins = Following, now, m.rejoins+1
		m.walk.end()
		m.silence = roomHeard
	case v.TurnedAway || now >= m.deadline:
		// The room refused the token, or did not take the player in
		// within the hold: the game ends for it as before.
		m.over(ErrHostStillThere)
		return m.cutWith(ErrHostStillThere)
	}
	return nil
}
