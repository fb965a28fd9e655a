package draw

import (
	"math"
	"testing"

	"rockstep/game"
	"rockstep/game/fixed"
)

func TestSmootherHidesSmallCorrections(t *testing.T) {
	w, _ := game.New(game.Setup{Seed: 1, Players: 1, Mode: game.Coop, Lives: 3, StartWave: 1})
	var s Smoother
	s.Update(w) // first frame: nothing to smooth
	// Next frame the prediction was rebuilt and the ship stands 10 units
	// to the right of where it was expected.
	w.Tick++
	w.Ships[0].Pos.X += fixed.Int(10)
	off := s.Update(w)
	if got := off[0][0]; math.Abs(got+10) > 0.01 {
		t.Fatalf("offset after a 10-unit correction = %.2f, want -10 (drawn where it was)", got)
	}
	// Then it fades out over a few frames.
	for i := 0; i < 20; i++ {
		w.Tick++
		off = s.Update(w)
	}
	if math.Abs(off[0][0]) > 0.1 {
		t.Errorf("offset after 20 frames = %.2f, want it faded", off[0][0])
	}
}

func TestSmootherShowsRealJumps(t *testing.T) {
	w, _ := game.New(game.Setup{Seed: 1, Players: 1, Mode: game.Coop, Lives: 3, StartWave: 1})
	var s Smoother
	s.Update(w)
	w.Tick++
	w.Ships[0].Pos.X += fixed.Int(300) // a respawn elsewhere
	if off := s.Update(w); off[0] != [2]float64{} {
		t.Errorf("a 300-unit jump was smoothed: %v", off[0])
	}
	// Crossing the edge of the field is no correction at all.
	w.Tick++
	w.Ships[0].Pos.X = 0
	w.Ships[0].Vel.X = -fixed.Int(2)
	s.Update(w)
	w.Tick++
	w.Ships[0].Pos.X = game.FieldW - fixed.Int(2)
	if off := s.Update(w); math.Abs(off[0][0]) > 0.01 {
		t.Errorf("wrapping across the edge counted as a correction: %v", off[0])
	}
}
