package ui

import (
	"testing"

	"rockstep/game"
)

// beatsIn runs hb over n ticks of w, one at a time, and returns the ticks
// at which it beat and the notes (true: high).
func beatsIn(hb *heartbeat, w *game.World, n int) (at []int, high []bool) {
	for i := 0; i < n; i++ {
		if b, hi := hb.step(w, 1); b {
			at, high = append(at, i), append(high, hi)
		}
	}
	return at, high
}

func TestHeartbeatQuickensAsRocksThinOut(t *testing.T) {
	full := game.StandardScene(1) // a wave's rocks, all there
	if full.NumRocks < 2 {
		t.Fatalf("the scene has %d rocks, want several", full.NumRocks)
	}
	few := *full
	few.NumRocks = 1
	few.Rocks[0].Size = game.Small
	over := *full
	over.Over = true
	none := *full
	none.NumRocks = 0

	var hb heartbeat
	at, high := beatsIn(&hb, full, 4*game.TicksPerSecond)
	if len(at) < 3 {
		t.Fatalf("a full wave: %d beats in 4 s, want at least 3", len(at))
	}
	slow := at[len(at)-1] - at[len(at)-2]
	for i := 1; i < len(high); i++ {
		if high[i] == high[i-1] {
			t.Errorf("beats %d and %d play the same note: want them by turns", i-1, i)
		}
	}
	at, _ = beatsIn(&hb, &few, 4*game.TicksPerSecond)
	if len(at) < 3 {
		t.Fatalf("one small rock left: %d beats in 4 s", len(at))
	}
	fast := at[len(at)-1] - at[len(at)-2]
	if fast*2 > slow {
		t.Errorf("beats every %d ticks with one small rock left, every %d with a full wave: want it at least twice as quick", fast, slow)
	}

	tests := []struct {
		name  string
		w     *game.World
		ticks int
	}{
		{"paused: no ticks run", full, 0},
		{"the game over", &over, 1},
		{"no rocks between waves", &none, 1},
	}
	for _, tt := range tests {
		var hb heartbeat
		for i := 0; i < 4*game.TicksPerSecond; i++ {
			if b, _ := hb.step(tt.w, tt.ticks); b {
				t.Errorf("%s: a beat at update %d, want none", tt.name, i)
				break
			}
		}
	}
}

func TestRocksLeftCountsTheHitsToClearTheWave(t *testing.T) {
	var w game.World
	w.NumRocks = 3
	w.Rocks[0].Size, w.Rocks[1].Size, w.Rocks[2].Size = game.Big, game.Medium, game.Small
	if got, want := rocksLeft(&w), 7+3+1; got != want {
		t.Errorf("rocksLeft = %d, want %d", got, want)
	}
}
