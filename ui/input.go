package ui

import (
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
)

// Intents are what the player asks for during one update, read from the
// keyboard (or, in tests, from a script). Scenes act on intents, never on
// keys, so a scene can be driven without a window.
type Intents struct {
	Ship       game.Input // controls of the local ship held this update
	Confirm    bool       // Enter (or a gamepad's A) was just pressed: start, play again, press the focused button
	Pause      bool       // P was just pressed: pause or resume
	Quit       bool       // Esc (or a gamepad's B) was just pressed: back, the in-game menu
	Menu       bool       // a gamepad's Start was just pressed: the in-game menu
	Graph      bool       // F3 was just pressed: show or hide the network graph
	Fullscreen bool       // F11 was just pressed: toggle full screen

	// The replay viewer's keys.
	Space     bool // Space was just pressed: pause or resume
	SeekBy    int  // ← (−1) or → (+1) was just pressed: jump 10 s
	SpeedStep int  // ↓ or − (−1), ↑ or + (+1) was just pressed: slower, faster
	Speed     int  // 1 to 5 was just pressed: that speed (0.5× to 8×); 0: none
	Leave     bool // Q was just pressed: leave the viewer

	// Menus: the focus moves by NavX (← −1, → +1) and NavY (↑ −1, ↓ +1),
	// from the arrows, a gamepad's d-pad or its left stick.
	NavX, NavY int
}

// KeyPredicate reports whether a key is down (or was just pressed).
type KeyPredicate func(ebiten.Key) bool

// KeyMap maps each ship control to the keys that hold it.
type KeyMap controlMap[ebiten.Key]

// defaultKeyMap: arrows and WASD steer, Space charges and fires, Shift
// jumps into hyperspace.
var defaultKeyMap = KeyMap{
	{game.Up, []ebiten.Key{ebiten.KeyArrowUp, ebiten.KeyW}},
	{game.Down, []ebiten.Key{ebiten.KeyArrowDown, ebiten.KeyS}},
	{game.Left, []ebiten.Key{ebiten.KeyArrowLeft, ebiten.KeyA}},
	{game.Right, []ebiten.Key{ebiten.KeyArrowRight, ebiten.KeyD}},
	{game.Fire, []ebiten.Key{ebiten.KeySpace}},
	{game.Hyperspace, []ebiten.Key{ebiten.KeyShift}},
}

// NewKeyMap returns the key map of bindings; a key name Ebiten does not
// know is skipped (LoadSettings has already replaced such bindings).
func NewKeyMap(b KeyBindings) KeyMap { return KeyMap(newControlMap(&b, keyNamed)) }

// keyNamed returns the key Ebiten calls name.
func keyNamed(name string) (ebiten.Key, bool) {
	var k ebiten.Key
	return k, k.UnmarshalText([]byte(name)) == nil
}

// Input returns the ship controls held according to pressed. Opposite
// keys held together cancel out, so the engine never sees Up with Down or
// Left with Right.
func (m KeyMap) Input(pressed KeyPredicate) game.Input {
	var in game.Input
	for _, c := range m {
		for _, k := range c.Held {
			if pressed(k) {
				in |= c.Bit
				break
			}
		}
	}
	return shipControls(in)
}

// shipControls returns the ship controls in held for the engine: opposite
// controls held together cancel out, so the engine never sees Up with Down
// or Left with Right.
func shipControls(held game.Input) game.Input {
	if held&(game.Up|game.Down) == game.Up|game.Down {
		held &^= game.Up | game.Down
	}
	if held&(game.Left|game.Right) == game.Left|game.Right {
		held &^= game.Left | game.Right
	}
	return held & game.ClientInputMask
}

// ShipInput returns the ship controls held according to pressed, with the
// default keys.
func ShipInput(pressed KeyPredicate) game.Input { return defaultKeyMap.Input(pressed) }

// ReadIntents returns the intents of one update with the default keys:
// held is whether a key is down, just whether it went down since the last
// update.
func ReadIntents(held, just KeyPredicate) Intents { return defaultKeyMap.Intents(held, just) }

// Intents returns the intents of one update under key map m.
func (m KeyMap) Intents(held, just KeyPredicate) Intents {
	return Intents{
		Ship:       m.Input(held),
		Confirm:    just(ebiten.KeyEnter) || just(ebiten.KeyNumpadEnter),
		Pause:      just(ebiten.KeyP),
		Quit:       just(ebiten.KeyEscape),
		Graph:      just(ebiten.KeyF3),
		Fullscreen: just(ebiten.KeyF11),
		Space:      just(ebiten.KeySpace),
		SeekBy:     pair(just, ebiten.KeyArrowLeft, ebiten.KeyArrowRight),
		SpeedStep:  pair(just, ebiten.KeyArrowDown, ebiten.KeyArrowUp) + pair(just, ebiten.KeyMinus, ebiten.KeyEqual) + pair(just, ebiten.KeyNumpadSubtract, ebiten.KeyNumpadAdd),
		Speed:      digit(just),
		Leave:      just(ebiten.KeyQ),
	}
}

// pair returns −1 if less was just pressed, +1 if more, 0 for neither or
// both.
func pair(just KeyPredicate, less, more ebiten.Key) int {
	n := 0
	if just(less) {
		n--
	}
	if just(more) {
		n++
	}
	return n
}

// digit returns which of the keys 1 to 5 was just pressed, or 0.
func digit(just KeyPredicate) int {
	for i, k := range []ebiten.Key{ebiten.KeyDigit1, ebiten.KeyDigit2, ebiten.KeyDigit3, ebiten.KeyDigit4, ebiten.KeyDigit5} {
		if just(k) {
			return i + 1
		}
	}
	return 0
}
