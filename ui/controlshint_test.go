package ui

import (
	"fmt"
	"strings"
	"testing"

	"rockstep/game"
	"rockstep/game/fixed"
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

// TestControlsHintClearOfShips: the hint's box, at the top of the field,
// never covers a ship where the game starts them (1 to 8 players), nor the
// room a ship needs around it.
func TestControlsHintClearOfShips(t *testing.T) {
	// The box ends half its padding (12 px at 1:1, draw.HUD.Lines) below
	// hintBottom.
	boxBottom := float64(hintBottom) + 6
	for _, n := range []int{1, 2, 4, 8} {
		t.Run(fmt.Sprint(n, " players"), func(t *testing.T) {
			w, err := game.New(game.Setup{Seed: 3, Players: uint8(1<<n - 1), Lives: 3, StartWave: 1})
			if err != nil {
				t.Fatal(err)
			}
			for range 3 * game.TicksPerSecond { // the first seconds, nobody steering
				w.Step([game.MaxPlayers]game.Input{})
			}
			for i := range n {
				sh := &w.Ships[i]
				if !sh.Alive {
					continue
				}
				top := float64(sh.Pos.Y-game.ShipRadius) / float64(fixed.One)
				if top <= boxBottom {
					t.Errorf("ship %d's top at %.0f, under the hint's box (to %.0f)", i, top, boxBottom)
				}
			}
		})
	}
}
