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

// An explosion's flash never passes flashMax: a newborn spark, or one
// drawn a little before its first step, is as bright as they come.
func TestExplosionFlashIsCapped(t *testing.T) {
	for _, f := range []float64{0, 0.25, 0.5, 1, 1.3} {
		if a := flashAlpha(f); a > flashMax || a < 0 {
			t.Errorf("flashAlpha(%v) = %v, want within 0..%v", f, a, flashMax)
		}
	}
	if flashAlpha(1) != flashMax {
		t.Errorf("a newborn spark at %v, want %v", flashAlpha(1), flashMax)
	}
}

// A rock is hinted at the far edge in the last edgeWarnTicks before it
// shows there, and not before, nor when it moves away from the edge.
func TestEdgeTicks(t *testing.T) {
	const rad, size = 40.0, 1280.0
	tests := []struct {
		name  string
		p, v  float64
		ok    bool
		ticks float64
	}{
		{"moving right, 20 ticks out", size - rad - 40, 2, true, 20},
		{"moving right, far", 600, 2, false, 0},
		{"moving left, 10 ticks out", rad + 30, -3, true, 10},
		{"moving away from the near edge", size - rad - 40, -2, false, 0},
		{"still", size - rad - 1, 0, false, 0},
		{"already showing", size - rad + 5, 2, false, 0},
	}
	for _, tt := range tests {
		at, ok := edgeTicks(tt.p, tt.v, rad, size)
		if ok != tt.ok || (ok && at != tt.ticks) {
			t.Errorf("%s: %v ticks, hinted %v; want %v, %v", tt.name, at, ok, tt.ticks, tt.ok)
		}
	}
}
