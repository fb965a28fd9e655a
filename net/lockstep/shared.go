package lockstep

import (
	"sync"

	"rockstep/game"
	"rockstep/game/rng"
)

// SharedSim lets the sessions of one process that play the same game share
// its simulation: the first session to execute a tick steps its world and
// leaves the result here; the others, holding the same world before the
// tick (same tick, same random state) and the same inputs, copy the result
// instead of stepping, and take the turn's hash from it too. A load test
// runs hundreds of bots in one process, four to a game: with a SharedSim per
// game, it simulates each game once, as the four machines of a real room
// would each do once, and spends its CPU on the network the test measures.
//
// Sharing hides a divergence between the sharing sessions (a session that
// copies a world agrees with it by construction), so only bots share: a
// player's session never does. A SharedSim is safe for concurrent use.
type SharedSim struct {
	mu   sync.Mutex
	ring [sharedTicks]sharedTick
	hits uint64 // ticks copied rather than stepped
}

// sharedTicks is how many recent ticks a SharedSim holds: the sessions of
// one game execute a tick within a few milliseconds of each other.
const sharedTicks = 16

// sharedTick is one tick's result: the world after it, given what it was
// stepped from and with.
type sharedTick struct {
	ok     bool
	tick   uint32 // the world's tick before the step
	rand   rng.Rand
	in     [game.MaxPlayers]game.Input
	after  game.World
	hashed bool
	hash   uint64
}

// NewSharedSim returns an empty SharedSim.
func NewSharedSim() *SharedSim { return new(SharedSim) }

// Hits returns how many ticks sessions copied rather than stepped.
func (sh *SharedSim) Hits() uint64 {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.hits
}

// step advances w by one tick with in, copying the result if another
// session has stepped the same world with the same inputs.
func (sh *SharedSim) step(w *game.World, in [game.MaxPlayers]game.Input) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := &sh.ring[(w.Tick+1)%sharedTicks]
	if t.ok && t.tick == w.Tick && t.rand == w.Rand && t.in == in {
		*w = t.after
		sh.hits++
		return
	}
	t.ok, t.tick, t.rand, t.in, t.hashed = true, w.Tick, w.Rand, in, false
	w.Step(in)
	t.after = *w
}

// hash returns w's hash, computed once for every session whose world is
// the shared result of w's tick.
func (sh *SharedSim) hash(w *game.World) uint64 {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := &sh.ring[w.Tick%sharedTicks]
	if !t.ok || t.tick+1 != w.Tick || t.after != *w {
		return w.Hash()
	}
	if !t.hashed {
		t.hash, t.hashed = w.Hash(), true
	}
	return t.hash
}
