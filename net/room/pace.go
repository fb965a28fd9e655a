package room

import (
	"time"

	"rockstep/net/wire"
)

// Lobby requests at a person's pace (docs/ARCHITECTURE.md §3, "Rates").
//
// Every Ready and SetupChange the room takes is broadcast to every member
// (a SetupState), and every game started opens a replay: a member sending
// them as fast as its link allows costs everyone else. Each is taken from
// a bucket that a person's clicking never empties. A Ready or SetupChange
// beyond it is not lost but held, one per member, the newest replacing
// the older (counted as dropped), and taken when the bucket allows: the
// room always ends on the player's last click, at most one refill later.
// A start beyond the room's game rate waits the same way, while everyone
// stays ready; the games a room plays bound its ends, rematches and
// replays too (an end is taken once per game).
const (
	ReadyPerS  = 2.0 // Ready a second one member may send, in bursts of ReadyBurst
	ReadyBurst = 10
	SetupPerS  = 5.0 // SetupChange a second the host may send, in bursts of SetupBurst
	SetupBurst = 20
	GamesPerS  = 1.0 / 6 // games a second a room may start, in bursts of GameBurst
	GameBurst  = 5
)

// bucket is a token bucket on the room's clock: burst tokens at first,
// refilled at perS a second.
type bucket struct {
	tokens float64
	at     time.Duration // when tokens was last brought up to date
	used   bool          // tokens is in use (a fresh bucket is full)
}

// refill brings b up to date at now.
func (b *bucket) refill(now time.Duration, perS float64, burst int) {
	if !b.used {
		b.tokens, b.used, b.at = float64(burst), true, now
		return
	}
	if now > b.at {
		b.tokens = min(float64(burst), b.tokens+(now-b.at).Seconds()*perS)
		b.at = now
	}
}

// take takes one token if there is one.
func (b *bucket) take(now time.Duration, perS float64, burst int) bool {
	b.refill(now, perS, burst)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// memberPace is one member's lobby buckets and the requests they hold.
type memberPace struct {
	ready, setup bucket
	heldReady    bool // a Ready beyond the rate waits: readyWish
	readyWish    bool
	heldSetup    bool // a SetupChange beyond the rate waits: setupWish
	setupWish    wire.SetupChange
}

// roomPace is the room's game bucket.
type roomPace struct {
	games     bucket
	startHeld bool // the host asked to start (or AutoStart was met) beyond the game rate
}

// onReady takes a Ready at the member's pace, or holds it.
func (r *Room) onReady(m *member, rd wire.Ready) {
	if !m.pace.ready.take(r.now, ReadyPerS, ReadyBurst) {
		m.pace.heldReady, m.pace.readyWish = true, rd.Ready
		r.drop(DropReadyRate)
		return
	}
	m.pace.heldReady = false
	r.takeReady(m, rd)
}

// onSetupChange takes a SetupChange at the member's pace, or holds it.
func (r *Room) onSetupChange(m *member, c wire.SetupChange) {
	if !m.pace.setup.take(r.now, SetupPerS, SetupBurst) {
		m.pace.heldSetup, m.pace.setupWish = true, c
		r.drop(DropSetupRate)
		return
	}
	m.pace.heldSetup = false
	r.takeSetupChange(m, c)
}

// startPaced starts the game if the room's game rate allows, or holds the
// start until it does (tickPace).
func (r *Room) startPaced() {
	if !r.pace.games.take(r.now, GamesPerS, GameBurst) {
		r.drop(DropStartRate)
		r.pace.startHeld = true
		return
	}
	r.pace.startHeld = false
	r.start()
}

// tickPace takes the requests held back by their rate once it allows.
func (r *Room) tickPace() {
	for i := 0; i < len(r.members); i++ {
		m := r.members[i]
		if m.pace.heldReady && m.pace.ready.take(r.now, ReadyPerS, ReadyBurst) {
			m.pace.heldReady = false
			r.takeReady(m, wire.Ready{Ready: m.pace.readyWish})
		}
		if m.pace.heldSetup && m.pace.setup.take(r.now, SetupPerS, SetupBurst) {
			m.pace.heldSetup = false
			r.takeSetupChange(m, m.pace.setupWish)
		}
	}
	if !r.pace.startHeld {
		return
	}
	if r.state != wire.StateSetup || !r.allReady() {
		r.pace.startHeld = false // someone is no longer ready: the start is off
		return
	}
	if r.pace.games.take(r.now, GamesPerS, GameBurst) {
		r.pace.startHeld = false
		r.start()
	}
}
