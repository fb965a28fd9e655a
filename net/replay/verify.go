package replay

import (
	"errors"
	"fmt"

	"rockstep/game"
	"rockstep/net/wire"
)

// Result is what re-simulating a replay found.
type Result struct {
	Turns     int    // turns simulated
	Ticks     uint32 // world ticks at the end
	LastTurn  uint32
	FinalHash uint64 // the world's hash after LastTurn
	Checked   int    // reported hashes compared
	// Repaired counts the reported hashes not compared: a player's, of
	// the turns from the one its world strayed at to the one it was
	// repaired at (the room noted each repair: room.RepairNoteText).
	Repaired   int
	Mismatches []Mismatch
	// Ended is set when the game ended within the replay (its world over,
	// or the room's EventEnd) at LastTurn; Results is then the table
	// every player was shown. Otherwise Results is the standing at LastTurn.
	Ended   bool
	Results game.Results
}

// Mismatch is a reported hash that differs from the re-simulation.
type Mismatch struct {
	Turn     uint32
	Slot     uint8
	Reported uint32
	Computed uint32
}

// OK reports whether every recorded hash matched.
func (r Result) OK() bool { return len(r.Mismatches) == 0 }

// Sim re-simulates a replay turn by turn.
type Sim struct {
	rp   *Replay
	w    *game.World
	next int // index into rp.Turns of the next turn to play
}

// NewSim returns a simulation at the start of the replay's game.
func NewSim(rp *Replay) (*Sim, error) {
	if rp == nil || rp.Setup.Validate() != nil {
		return nil, errors.New("replay has no valid start record")
	}
	w, err := game.New(rp.Setup)
	if err != nil {
		return nil, err
	}
	if len(rp.Turns) > 0 && rp.Turns[0].Turn != 0 {
		return nil, fmt.Errorf("replay starts at turn %d, not 0", rp.Turns[0].Turn)
	}
	return &Sim{rp: rp, w: w}, nil
}

// World returns the simulated world (the caller must not keep it past the
// next Step).
func (s *Sim) World() *game.World { return s.w }

// Done reports whether every recorded turn has been played.
func (s *Sim) Done() bool { return s.next >= len(s.rp.Turns) }

// Next returns the number of the next turn to play.
func (s *Sim) Next() uint32 {
	if s.Done() {
		return 0
	}
	return s.rp.Turns[s.next].Turn
}

// Step plays one turn and returns it.
func (s *Sim) Step() *Turn {
	if s.Done() {
		return nil
	}
	t := &s.rp.Turns[s.next]
	s.next++
	StepTurn(s.w, &t.MasterTurn)
	return t
}

// EndsGame reports whether the game ends with turn t, whose ticks left w:
// the world is over, or the room ended the game in this turn. Every client
// stops there (lockstep.Session does the same).
func EndsGame(w *game.World, t *wire.MasterTurn) bool {
	if w.Over {
		return true
	}
	for _, e := range t.Events {
		if e.Kind == wire.EventEnd {
			return true
		}
	}
	return false
}

// StepTurn executes a master turn's ticks on w, as a client does.
func StepTurn(w *game.World, mt *wire.MasterTurn) {
	var in [game.MaxPlayers]game.Input
	for k := 0; k < int(mt.Count); k++ {
		for i := range in {
			in[i] = mt.Inputs[i][k]
		}
		w.Step(in)
	}
}

// Verify re-simulates the replay up to its end turn (or its last turn, if
// it has no end record) and compares every hash the players reported.
func Verify(rp *Replay) (Result, error) {
	sim, err := NewSim(rp)
	if err != nil {
		return Result{}, err
	}
	var res Result
	repaired := repairedSpans(rp.Notes)
	for !sim.Done() {
		if rp.EndReason != 0 && sim.Next() > rp.EndTurn {
			break
		}
		t := sim.Step()
		h := sim.w.Hash()
		res.Turns++
		res.LastTurn, res.FinalHash, res.Ticks = t.Turn, h, sim.w.Tick
		for _, e := range rp.Hashes[t.Turn] {
			if repaired.covers(e.Slot, t.Turn) {
				res.Repaired++
				continue
			}
			res.Checked++
			if e.HashLow != uint32(h) {
				res.Mismatches = append(res.Mismatches, Mismatch{Turn: t.Turn, Slot: e.Slot, Reported: e.HashLow, Computed: uint32(h)})
			}
		}
		if EndsGame(sim.w, &t.MasterTurn) {
			res.Ended = true
			break
		}
	}
	res.Results = sim.w.Results(rp.Names)
	return res, nil
}

// repairSpan is a player's hashes of a world that strayed and was
// repaired: those of turns from..upto.
type repairSpan struct {
	slot     uint8
	from, to uint32
}

type repairSpans []repairSpan

// repairedSpans reads the room's repair notes (room.RepairNoteText).
func repairedSpans(notes []string) repairSpans {
	var out repairSpans
	for _, n := range notes {
		var sp repairSpan
		if _, err := fmt.Sscanf(n, "repair slot=%d turns=%d-%d", &sp.slot, &sp.from, &sp.to); err == nil && sp.from <= sp.to {
			out = append(out, sp)
		}
	}
	return out
}

func (s repairSpans) covers(slot uint8, turn uint32) bool {
	for _, sp := range s {
		if sp.slot == slot && turn >= sp.from && turn <= sp.to {
			return true
		}
	}
	return false
}

// WorldAt re-simulates the replay to the end of turn and returns the world.
func WorldAt(rp *Replay, turn uint32) (*game.World, error) {
	sim, err := NewSim(rp)
	if err != nil {
		return nil, err
	}
	for !sim.Done() && sim.Next() <= turn {
		sim.Step()
	}
	if len(rp.Turns) == 0 || sim.next == 0 || rp.Turns[sim.next-1].Turn != turn {
		return nil, fmt.Errorf("turn %d is not in the replay", turn)
	}
	return sim.w, nil
}
