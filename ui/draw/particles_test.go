package draw

import (
	"testing"

	"rockstep/game"
)

func TestParticlesComeFromEventsAndDieOut(t *testing.T) {
	ps := NewParticles(1)
	ps.React([]game.Event{
		{Kind: game.RockDestroyed, Size: game.Big},
		{Kind: game.ShipDestroyed, Slot: 0},
	})
	if ps.n == 0 {
		t.Fatal("explosions made no particles")
	}
	for tick := 0; tick < 10*game.TicksPerSecond && ps.n > 0; tick++ {
		ps.Step()
		for i := 0; i < ps.n; i++ {
			q := &ps.p[i]
			if q.x < 0 || q.x >= FieldW || q.y < 0 || q.y >= FieldH {
				t.Fatalf("tick %d: particle at (%v, %v), off the field", tick, q.x, q.y)
			}
		}
	}
	if ps.n != 0 {
		t.Errorf("%d particles still alive after 10 s", ps.n)
	}
	for range maxParticles {
		ps.React([]game.Event{{Kind: game.ShipDestroyed}})
	}
	if ps.n != maxParticles {
		t.Errorf("%d particles after a flood of explosions, want the pool full (%d)", ps.n, maxParticles)
	}
}
