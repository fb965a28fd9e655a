package lockstep

import (
	"fmt"

	"rockstep/game"
)

// Sim is what a sync test drives: the engine, or a stand-in for it.
type Sim interface {
	Step(in [game.MaxPlayers]game.Input)
	Hash() uint64
	Save(dst []byte) ([]byte, error) // appends a snapshot to dst
	Load([]byte) error               // restores a snapshot
}

// WorldSim runs the engine's World as a Sim.
type WorldSim struct{ W *game.World }

// Step steps the world.
func (s WorldSim) Step(in [game.MaxPlayers]game.Input) { s.W.Step(in) }

// Hash returns the world's hash.
func (s WorldSim) Hash() uint64 { return s.W.Hash() }

// Save appends the world's snapshot to dst.
func (s WorldSim) Save(dst []byte) ([]byte, error) { return s.W.AppendBinary(dst) }

// Load restores the world from a snapshot.
func (s WorldSim) Load(b []byte) error { return s.W.UnmarshalBinary(b) }

// SyncTest checks that a simulation is deterministic the way rollback needs
// it, as GGRS's sync test does: it steps ticks with inputs(tick), and after
// every tick (once rollback ticks have passed) restores the snapshot taken
// rollback ticks earlier, re-simulates those ticks with the same inputs, and
// compares every hash with the first run's. Hidden state outside the
// snapshot, a snapshot that loses something, or any nondeterminism makes it
// fail, naming the tick.
func SyncTest(sim Sim, inputs func(tick int) [game.MaxPlayers]game.Input, ticks, rollback int) error {
	c := syncChecker{n: max(rollback, 1)}
	for t := 0; t < ticks; t++ {
		in := inputs(t)
		if err := c.save(sim, in); err != nil {
			return err
		}
		sim.Step(in)
		// The re-simulation runs on sim itself: it ends where it began.
		if err := c.check(sim, sim); err != nil {
			return err
		}
	}
	return nil
}

// syncChecker is the sync test, for SyncTest and for a session's
// -synctest mode alike: before each tick it keeps a snapshot and the
// tick's inputs, after it the hash, and then re-simulates the last n ticks
// from the oldest snapshot, comparing every hash.
type syncChecker struct {
	n     int // ticks re-simulated; 0: off
	ring  []syncTick
	count int // ticks recorded
	err   error
	world game.World // the session's re-simulation, apart from its world
}

type syncTick struct {
	snap []byte
	in   [game.MaxPlayers]game.Input
	hash uint64 // after stepping with in
}

// save records the state sim is in before a tick, and the tick's inputs.
func (c *syncChecker) save(sim Sim, in [game.MaxPlayers]game.Input) error {
	if len(c.ring) != c.n {
		c.ring = make([]syncTick, c.n)
	}
	st := &c.ring[c.count%c.n]
	snap, err := sim.Save(st.snap[:0])
	if err != nil {
		return fmt.Errorf("sync test: tick %d: save: %w", c.count, err)
	}
	st.snap, st.in = snap, in
	return nil
}

// check records sim's hash after the tick and re-simulates the last n
// ticks on scratch from the oldest snapshot held; it returns an error
// naming the first tick that differs.
func (c *syncChecker) check(sim, scratch Sim) error {
	c.ring[c.count%c.n].hash = sim.Hash()
	c.count++
	if c.count < c.n {
		return nil
	}
	first := c.count - c.n
	if err := scratch.Load(c.ring[first%c.n].snap); err != nil {
		return fmt.Errorf("sync test: tick %d: load: %w", first, err)
	}
	for r := first; r < c.count; r++ {
		st := &c.ring[r%c.n]
		scratch.Step(st.in)
		if h := scratch.Hash(); h != st.hash {
			return fmt.Errorf("sync test: tick %d re-simulated after a rollback of %d ticks: hash %016x, first time %016x", r+1, c.count-first, h, st.hash)
		}
	}
	return nil
}

// before and after are the session's -synctest mode around one confirmed
// tick of w; the re-simulation runs on a world of the checker's own.
func (c *syncChecker) before(w *game.World, in [game.MaxPlayers]game.Input) {
	if c.n <= 0 {
		return
	}
	c.err = c.save(WorldSim{W: w}, in)
}

func (c *syncChecker) after(w *game.World) error {
	if c.n <= 0 {
		return nil
	}
	if c.err != nil {
		err := c.err
		c.err = nil
		return err
	}
	return c.check(WorldSim{W: w}, WorldSim{W: &c.world})
}
