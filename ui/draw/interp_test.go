package draw

import (
	"math"
	"testing"

	"rockstep/game"
	"rockstep/game/fixed"
)

func units(u float64) fixed.Num { return fixed.Num(math.Round(u * float64(fixed.One))) }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-3 }

func TestLerpCoord(t *testing.T) {
	w := game.FieldW
	tests := []struct {
		name string
		a, b float64 // units
		t    float64
		want float64
	}{
		{"start", 100, 110, 0, 100},
		{"end", 100, 110, 1, 110},
		{"middle", 100, 110, 0.5, 105},
		{"backwards", 110, 100, 0.25, 107.5},
		{"fraction of a unit", 10, 10.5, 0.5, 10.25},
		{"across the right edge goes the short way", 1278, 2, 0.25, 1279},
		{"across the right edge, past it", 1278, 2, 0.75, 1},
		{"across the left edge", 1, 1277, 0.5, 1279},
		{"a jump is drawn at once", 100, 900, 0.5, 900},
		{"a jump just over the limit", 100, 100 + jumpUnits + 1, 0.5, 100 + jumpUnits + 1},
		{"a move at the limit is motion", 100, 100 + jumpUnits, 0.5, 100 + jumpUnits/2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lerpCoord(units(tc.a), units(tc.b), w, tc.t)
			if !near(got, tc.want) {
				t.Errorf("lerpCoord(%v, %v, t=%v) = %v, want %v", tc.a, tc.b, tc.t, got, tc.want)
			}
			if got < 0 || got >= FieldW {
				t.Errorf("lerpCoord(%v, %v, t=%v) = %v, outside the field [0, %v)", tc.a, tc.b, tc.t, got, FieldW)
			}
		})
	}
}

func TestLerpPosJumpsAsAWhole(t *testing.T) {
	a := fixed.Vec{X: units(100), Y: units(100)}
	b := fixed.Vec{X: units(104), Y: units(500)} // respawned: far on Y only
	x, y := lerpPos(a, b, 0.5)
	if !near(x, 104) || !near(y, 500) {
		t.Errorf("lerpPos over a jump = (%v, %v), want the new position (104, 500)", x, y)
	}
	c := fixed.Vec{X: units(1279), Y: units(719)}
	d := fixed.Vec{X: units(1), Y: units(1)} // wrapped over a corner
	x, y = lerpPos(c, d, 0.5)
	if !near(x, 0) || !near(y, 0) {
		t.Errorf("lerpPos across the corner = (%v, %v), want (0, 0)", x, y)
	}
}

func TestLerpAngleTakesTheShortWay(t *testing.T) {
	tests := []struct {
		name string
		a, b fixed.Angle
		t    float64
		want float64
	}{
		{"clockwise", 1000, 2000, 0.5, 1500},
		{"counter-clockwise", 2000, 1000, 0.5, 1500},
		{"through zero, clockwise", 65000, 500, 0.5, 65000 + 518},
		{"through zero, counter-clockwise", 500, 65000, 0.5, 500 - 518},
		{"end", 65000, 500, 1, 66036},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lerpAngle(tc.a, tc.b, tc.t)
			if !near(got, tc.want) {
				t.Errorf("lerpAngle(%v, %v, t=%v) = %v, want %v", tc.a, tc.b, tc.t, got, tc.want)
			}
			// The same direction on the screen, whatever the turn count.
			if tc.t == 1 && !near(math.Mod(got, fixed.Turn), float64(tc.b)) {
				t.Errorf("lerpAngle(%v, %v, 1) = %v, not angle %v", tc.a, tc.b, got, tc.b)
			}
		})
	}
}

func TestTrackerMatchesByID(t *testing.T) {
	prev := []game.Rock{{ID: 2}, {ID: 3}, {ID: 5}, {ID: 8}}
	cur := []game.Rock{{ID: 3}, {ID: 5}, {ID: 9}, {ID: 10}} // 2 and 8 broke; 9 and 10 are fragments
	want := []int{1, 2, -1, -1}
	tr := tracker[game.Rock]{before: prev, key: rockKey}
	for k, r := range cur {
		got := -1
		was := tr.find(r.ID)
		for i := range prev {
			if was == &prev[i] {
				got = i
			}
		}
		if got != want[k] {
			t.Errorf("rock %d: found entry %d, want %d", r.ID, got, want[k])
		}
	}
	empty := tracker[game.Bullet]{key: bulletKey}
	if empty.find(1) != nil {
		t.Error("tracker found an ID in an empty list")
	}
}

// The engine keeps rocks and bullets in ascending ID order; the renderer's
// one-pass matching relies on it, so check it on a played game.
func TestEngineKeepsIDsAscending(t *testing.T) {
	w, err := game.New(game.Setup{Seed: 3, Players: 1, Mode: game.Coop, Lives: 3, StartWave: 4})
	if err != nil {
		t.Fatal(err)
	}
	var in [game.MaxPlayers]game.Input
	for tick := 0; tick < 3000; tick++ {
		in[0] = game.Right
		if tick%20 < 10 {
			in[0] |= game.Fire
		}
		w.Step(in)
		rocks := w.LiveRocks()
		for k := 1; k < len(rocks); k++ {
			if rocks[k].ID <= rocks[k-1].ID {
				t.Fatalf("tick %d: rock IDs %d then %d", w.Tick, rocks[k-1].ID, rocks[k].ID)
			}
		}
		bullets := w.LiveBullets()
		for k := 1; k < len(bullets); k++ {
			if bullets[k].ID <= bullets[k-1].ID {
				t.Fatalf("tick %d: bullet IDs %d then %d", w.Tick, bullets[k-1].ID, bullets[k].ID)
			}
		}
	}
}
