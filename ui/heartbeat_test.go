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

// TestHeartbeatHoldsOverFramesWithoutTicks: frames that run no tick (a
// network game's frame while it waits for a turn, or an uneven frame rate
// running 0 and then 2 ticks) hold the beat: it falls on the same ticks as
// with one tick a frame, rather than starting its wait over (which made the
// beat stumble, or fall silent, in a network game).
func TestHeartbeatHoldsOverFramesWithoutTicks(t *testing.T) {
	w := game.StandardScene(1)
	var steady heartbeat
	want, _ := beatsIn(&steady, w, 6*game.TicksPerSecond)
	for _, pattern := range [][]int{{2, 0}, {0, 1}, {3, 0, 0}, {1, 0, 0, 0, 1, 1, 1}} {
		var hb heartbeat
		var got []int
		tick := 0
		for f := 0; tick < 6*game.TicksPerSecond; f++ {
			n := pattern[f%len(pattern)]
			if b, _ := hb.step(w, n); b {
				got = append(got, tick+n-1) // the beat falls in the last of the frame's ticks at the latest
			}
			tick += n
		}
		if len(got) != len(want) {
			t.Errorf("ticks a frame %v: beats at %v, want %v", pattern, got, want)
			continue
		}
		for i := range want {
			if d := got[i] - want[i]; d < 0 || d >= max(pattern[0], 3) {
				t.Errorf("ticks a frame %v: beat %d at tick %d, want %d (within the frame)", pattern, i, got[i], want[i])
			}
		}
	}
}
