package lockstep

import (
	"fmt"

	"rockstep/game"
)

// Sim is what a sync test drives: the engine, or a stand-in for it.
type Sim interface {
	Step(in [game.MaxPlayers]game.Input)
	Hash() uint64
	Save() ([]byte, error) // a snapshot
	Load([]byte) error     // restore a snapshot
}

// WorldSim runs the engine's World as a Sim.
type WorldSim struct{ W *game.World }

// Step steps the world.
func (s WorldSim) Step(in [game.MaxPlayers]game.Input) { s.W.Step(in) }

// Hash returns the world's hash.
func (s WorldSim) Hash() uint64 { return s.W.Hash() }

// Save returns the world's snapshot.
func (s WorldSim) Save() ([]byte, error) { return s.W.MarshalBinary() }

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
	if rollback < 1 {
		rollback = 1
	}
	type saved struct {
		snap []byte
		in   [game.MaxPlayers]game.Input
		hash uint64 // after stepping with in
	}
	ring := make([]saved, rollback)
	for t := 0; t < ticks; t++ {
		snap, err := sim.Save()
		if err != nil {
			return fmt.Errorf("sync test: tick %d: save: %w", t, err)
		}
		in := inputs(t)
		sim.Step(in)
		ring[t%rollback] = saved{snap: snap, in: in, hash: sim.Hash()}
		if t+1 < rollback {
			continue
		}
		// Roll back to the oldest snapshot held and play forward again.
		first := t + 1 - rollback
		if err := sim.Load(ring[first%rollback].snap); err != nil {
			return fmt.Errorf("sync test: tick %d: load: %w", first, err)
		}
		for r := first; r <= t; r++ {
			s := &ring[r%rollback]
			sim.Step(s.in)
			if h := sim.Hash(); h != s.hash {
				return fmt.Errorf("sync test: tick %d re-simulated after a rollback of %d ticks: hash %016x, first time %016x", r+1, t+1-first, h, s.hash)
			}
		}
	}
	return nil
}

// syncCheck is the session's sync-test mode: called with the world before
// a confirmed tick and its inputs, it steps a copy restored from the
// snapshot taken SyncTest ticks ago through the same inputs and compares
// the hash with the real world's after this tick.
func (s *Session) syncSave(in [game.MaxPlayers]game.Input) {
	n := s.cfg.SyncTest
	if n <= 0 {
		return
	}
	if len(s.syncRing) != n {
		s.syncRing = make([]syncTick, n)
	}
	snap, err := s.world.AppendBinary(s.syncRing[s.world.Tick%uint32(n)].snap[:0])
	if err != nil {
		return
	}
	s.syncRing[s.world.Tick%uint32(n)] = syncTick{snap: snap, in: in}
}

func (s *Session) syncCheck() {
	n := s.cfg.SyncTest
	if n <= 0 || s.world.Tick < uint32(n) {
		if n > 0 {
			s.syncRing[(s.world.Tick-1)%uint32(n)].hash = s.world.Hash()
		}
		return
	}
	s.syncRing[(s.world.Tick-1)%uint32(n)].hash = s.world.Hash()
	first := s.world.Tick - uint32(n)
	var w game.World
	if err := w.UnmarshalBinary(s.syncRing[first%uint32(n)].snap); err != nil {
		s.stats.SyncErrors++
		return
	}
	for t := first; t < s.world.Tick; t++ {
		st := &s.syncRing[t%uint32(n)]
		w.Step(st.in)
		if w.Hash() != st.hash {
			s.stats.SyncErrors++
			return
		}
	}
}
