package ui

import (
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/assets/palette"
	"rockstep/game"
	"rockstep/ui/draw"
)

// The first seconds of every game show the player's own controls, from
// the bindings the Controls screen edits, then fade: the thrust level that
// stays where it was set is what new players die of first.

// hintTicks is how long the controls hint shows: 8 s, the last fading.
const hintTicks = 8 * game.TicksPerSecond

// hintBottom is where the controls hint's box ends, in field units from
// the top: the hint sits at the top of the field, clear of the ships,
// which start on a circle of 160 units around the centre (game's
// homeSpot), and of the wave's banner in the middle.
const hintBottom = 96

// controlsHint is the box of the controls at the top of the field.
type controlsHint struct {
	lines  []string
	labels [4]draw.Label
	left   int // ticks it has left on screen
}

// show (re)starts the hint with lines.
func (c *controlsHint) show(lines []string) { c.lines, c.left = lines, hintTicks }

// step runs the hint down by a tick; the player's first control (ship
// held this tick) starts its fading: it has been read, or is not needed.
func (c *controlsHint) step(ship game.Input) {
	if ship != 0 && c.left > game.TicksPerSecond {
		c.left = game.TicksPerSecond
	}
	if c.left > 0 {
		c.left--
	}
}

// draw draws the hint, fading over its last second.
func (c *controlsHint) draw(e *env, field *ebiten.Image, v draw.View) {
	if c.left <= 0 {
		return
	}
	a := min(float32(c.left)/game.TicksPerSecond, 1)
	e.hud.Lines(field, e.draw, v, c.labels[:], c.lines, hintBottom, palette.Text, a)
}

// controlsLines returns the lines of the controls hint: the gamepad's
// bindings if one is connected, else the keyboard's; network says the
// game is a network one (F3 shows the graph, P does not pause).
func (a *App) controlsLines(network bool) []string {
	pad := a.state != nil && len(a.state.Pads) > 0
	b := a.settings.Keys
	if pad {
		b = a.settings.Pad
	}
	return controlsText(b, pad, network)
}

// controlsText writes the controls of bindings b (a gamepad's if pad).
func controlsText(b KeyBindings, pad, network bool) []string {
	turn := names(b.Left, pad) + "  and  " + names(b.Right, pad)
	if pad {
		turn += " (or the left stick)"
	}
	keys := "Esc menu   ·   P pause"
	switch {
	case pad:
		keys = "Start menu"
	case network:
		keys = "Esc menu   ·   F3 network"
	}
	return []string{
		"TURN  " + turn + "      HYPERSPACE  " + names(b.Jump, pad),
		"THRUST  " + names(b.Up, pad) + " raises the level, " + names(b.Down, pad) + " lowers it: it stays set when you let go",
		"FIRE  hold " + names(b.Fire, pad) + " to charge, release to shoot      " + keys,
	}
}

// names writes the keys (or buttons) of one control, "↑ / W".
func names(ns []string, pad bool) string {
	out := make([]string, 0, len(ns))
	for _, n := range ns {
		out = append(out, shortName(n, pad))
	}
	if len(out) == 0 {
		return "(none)"
	}
	return strings.Join(out, " / ")
}

// shortName is how the hint writes a key or button: arrows as arrows.
func shortName(n string, pad bool) string {
	if !pad {
		switch n {
		case "ArrowUp":
			return "↑"
		case "ArrowDown":
			return "↓"
		case "ArrowLeft":
			return "←"
		case "ArrowRight":
			return "→"
		}
	}
	return displayName(n, pad)
}
