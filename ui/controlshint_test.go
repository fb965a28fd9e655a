package ui

import (
	"fmt"
	"strings"
	"testing"

	"rockstep/game"
	"rockstep/game/fixed"
	"rockstep/ui/draw"
)

// The controls hint says the player's own bindings, keys or pad, and what
// the thrust level means.
func TestControlsHintSaysTheBindings(t *testing.T) {
	rebound := DefaultKeys()
	rebound.Up, rebound.Fire = []string{"K"}, []string{"ControlLeft"}
	tests := []struct {
		name    string
		b       KeyBindings
		pad     bool
		network bool
		want    []string
		not     []string
	}{
		{"default keys, practice", DefaultKeys(), false, false, []string{"← / A", "→ / D", "↑ / W raises the level", "↓ / S lowers it", "stays set when you let go", "hold Space", "Shift", "P pause"}, []string{"F3"}},
		{"default keys, network", DefaultKeys(), false, true, []string{"↑ / W", "F3 network", "Esc menu"}, []string{"P pause"}},
		{"rebound keys", rebound, false, false, []string{"K raises the level", "hold ControlLeft"}, []string{"↑", "Space"}},
		{"gamepad", DefaultPad(), true, true, []string{"D-pad left", "left stick", "RT / RB raises the level", "LT / LB lowers it", "hold A", "HYPERSPACE  Y", "Start menu"}, []string{"Esc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(controlsText(tt.b, tt.pad, tt.network), "\n")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("hint %q: no %q", got, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("hint %q: says %q", got, n)
				}
			}
		})
	}
}

// The hint shows for hintTicks, fading, then is gone; show starts it again
// (the in-game menu's Controls).
func TestControlsHintFades(t *testing.T) {
	var c controlsHint
	c.show([]string{"a"})
	for range hintTicks - 1 {
		c.step(0)
	}
	if c.left != 1 {
		t.Fatalf("%d ticks left after %d, want 1", c.left, hintTicks-1)
	}
	c.step(0)
	c.step(0)
	if c.left != 0 {
		t.Fatalf("%d ticks left after the end, want 0", c.left)
	}
	c.show([]string{"a"})
	if c.left != hintTicks {
		t.Errorf("shown again: %d ticks left, want %d", c.left, hintTicks)
	}
}

// TestControlsHintFadesOnTheFirstInput: the first control the player
// holds starts the hint's last second.
func TestControlsHintFadesOnTheFirstInput(t *testing.T) {
	var c controlsHint
	c.show([]string{"a"})
	c.step(0)
	c.step(game.Up)
	for range game.TicksPerSecond {
		c.step(0)
	}
	if c.left != 0 {
		t.Errorf("a second after the first input the hint has %d ticks left, want 0", c.left)
	}
}

// TestControlsHintClearOfShips: the hint's box, as drawn at 800×600,
// 1280×720 and 2560×1440 (draw.HUD.LinesBox, in screen pixels), never
// covers a ship (its radius round it, and its copies drawn across the
// field's edges) while the hint shows, in the game's first seconds: with
// 1, 2, 4 and 8 players where the engine starts them, nobody steering for
// the hint's whole time, or every ship thrusting at full level from the
// first tick (the hint then fades within a second).
func TestControlsHintClearOfShips(t *testing.T) {
	a := newTestApp(t, nil)
	fw, fh := float64(game.FieldW)/float64(fixed.One), float64(game.FieldH)/float64(fixed.One)
	r := float64(game.ShipRadius) / float64(fixed.One)
	steers := []struct {
		name string
		in   game.Input
	}{{"nobody steering", 0}, {"all thrusting", game.Up}, {"all thrusting and turning", game.Up | game.Left}}
	for _, sz := range layoutSizes {
		v := draw.FitView(float64(sz.W), float64(sz.H))
		for _, network := range []bool{false, true} {
			var c controlsHint
			lines := controlsText(DefaultKeys(), false, network)
			bx, by, bw, bh := a.env.hud.LinesBox(v, c.labels[:], lines, hintBottom)
			box := [4]float64{float64(bx), float64(by), float64(bx + bw), float64(by + bh)}
			for _, n := range []int{1, 2, 4, 8} {
				for _, st := range steers {
					t.Run(fmt.Sprintf("%dx%d network=%v %d players %s", sz.W, sz.H, network, n, st.name), func(t *testing.T) {
						w, err := game.New(game.Setup{Seed: 3, Players: uint8(1<<n - 1), Lives: 3, StartWave: 1})
						if err != nil {
							t.Fatal(err)
						}
						c.show(lines)
						var in [game.MaxPlayers]game.Input
						for i := range n {
							in[i] = st.in
						}
						for tick := 0; c.left > 0; tick++ {
							c.step(in[0])
							w.Step(in)
							for i := range n {
								sh := &w.Ships[i]
								if !sh.Alive {
									continue
								}
								x, y := float64(sh.Pos.X)/float64(fixed.One), float64(sh.Pos.Y)/float64(fixed.One)
								for _, dx := range []float64{-fw, 0, fw} {
									for _, dy := range []float64{-fh, 0, fh} {
										sx, sy := v.X0+(x+dx)*v.Scale, v.Y0+(y+dy)*v.Scale
										d := r * v.Scale
										if sx+d > box[0] && sx-d < box[2] && sy+d > box[1] && sy-d < box[3] {
											t.Fatalf("tick %d: ship %d at (%.0f, %.0f) px, radius %.0f, under the hint's box %v (px)", tick, i, sx, sy, d, box)
										}
									}
								}
							}
						}
					})
				}
			}
		}
	}
}
