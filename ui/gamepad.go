package ui

import (
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
)

// The game's own input layer works on snapshots: InputState holds what
// the keyboard and the gamepads were doing during one update, and
// inputMapper turns it into Intents. Only ebitenInput (ebiteninput.go)
// asks Ebiten; tests build snapshots by hand, so menus and games can be
// driven by gamepad state alone.

// InputState is the keyboard and the gamepads during one update.
type InputState struct {
	Held []ebiten.Key // keys down
	Just []ebiten.Key // keys that went down since the last update
	Pads []PadState   // gamepads with Ebiten's standard layout
	// Connected are the gamepads plugged in since the last update.
	Connected []PadInfo
	// Pointer is the mouse's state: where it is and whether a button or
	// the wheel moved (the menus' widgets read the mouse themselves; the
	// App only asks whether the player is doing something).
	Pointer PointerState
	// Chars are the characters typed since the last update, in order
	// (Ebiten queues every one, however slow the frames).
	Chars []rune
}

// PointerState is the mouse during one update.
type PointerState struct {
	X, Y    int  // in screen pixels
	Pressed bool // a button is down
	Wheel   bool // the wheel turned
}

// active reports whether st shows the player doing anything compared with
// the pointer at last: a key or a gamepad button down, a stick pushed, a
// character typed, the mouse moved, clicked or scrolled.
func (st *InputState) active(last PointerState) bool {
	if len(st.Held) > 0 || len(st.Just) > 0 || len(st.Chars) > 0 || st.Pointer.Pressed || st.Pointer.Wheel {
		return true
	}
	if st.Pointer.X != last.X || st.Pointer.Y != last.Y {
		return true
	}
	for i := range st.Pads {
		p := &st.Pads[i]
		for _, h := range p.Held {
			if h {
				return true
			}
		}
		for _, v := range p.Axes {
			if v >= stickDeadZone || v <= -stickDeadZone {
				return true
			}
		}
	}
	return false
}

// PadInfo describes a gamepad.
type PadInfo struct {
	Name     string // as the system names it
	Standard bool   // Ebiten knows its layout: it is used
}

// PadState is one gamepad in Ebiten's standard layout during one update.
type PadState struct {
	Held [ebiten.StandardGamepadButtonMax + 1]bool  // buttons down
	Just [ebiten.StandardGamepadButtonMax + 1]bool  // buttons that went down since the last update
	Axes [ebiten.StandardGamepadAxisMax + 1]float64 // −1 to 1
}

// heldKey and justKey are KeyPredicates over the snapshot.
func (st *InputState) heldKey(k ebiten.Key) bool { return hasKey(st.Held, k) }
func (st *InputState) justKey(k ebiten.Key) bool { return hasKey(st.Just, k) }

func hasKey(ks []ebiten.Key, k ebiten.Key) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// padHeld and padJust report whether button b is down (went down) on any
// gamepad.
func (st *InputState) padHeld(b ebiten.StandardGamepadButton) bool {
	for i := range st.Pads {
		if st.Pads[i].Held[b] {
			return true
		}
	}
	return false
}

func (st *InputState) padJust(b ebiten.StandardGamepadButton) bool {
	for i := range st.Pads {
		if st.Pads[i].Just[b] {
			return true
		}
	}
	return false
}

// stickDeadZone is how far a stick must lean, of its full travel, to
// count as pushed.
const stickDeadZone = 0.5

// stick returns the direction the left sticks lean on axis ax: −1, 0 or +1.
func (st *InputState) stick(ax ebiten.StandardGamepadAxis) int {
	for i := range st.Pads {
		switch v := st.Pads[i].Axes[ax]; {
		case v <= -stickDeadZone:
			return -1
		case v >= stickDeadZone:
			return 1
		}
	}
	return 0
}

// Gamepad buttons by the names settings.json uses for them.
var padButtonNames = []struct {
	name string
	b    ebiten.StandardGamepadButton
}{
	{"A", ebiten.StandardGamepadButtonRightBottom},
	{"B", ebiten.StandardGamepadButtonRightRight},
	{"X", ebiten.StandardGamepadButtonRightLeft},
	{"Y", ebiten.StandardGamepadButtonRightTop},
	{"LB", ebiten.StandardGamepadButtonFrontTopLeft},
	{"RB", ebiten.StandardGamepadButtonFrontTopRight},
	{"LT", ebiten.StandardGamepadButtonFrontBottomLeft},
	{"RT", ebiten.StandardGamepadButtonFrontBottomRight},
	{"Back", ebiten.StandardGamepadButtonCenterLeft},
	{"Start", ebiten.StandardGamepadButtonCenterRight},
	{"LS", ebiten.StandardGamepadButtonLeftStick},
	{"RS", ebiten.StandardGamepadButtonRightStick},
	{"DpadUp", ebiten.StandardGamepadButtonLeftTop},
	{"DpadDown", ebiten.StandardGamepadButtonLeftBottom},
	{"DpadLeft", ebiten.StandardGamepadButtonLeftLeft},
	{"DpadRight", ebiten.StandardGamepadButtonLeftRight},
	{"Home", ebiten.StandardGamepadButtonCenterCenter},
}

// Buttons with a fixed meaning: B goes back, Start opens the in-game
// menu. They cannot be bound to a ship control.
const (
	padBack  = ebiten.StandardGamepadButtonRightRight
	padStart = ebiten.StandardGamepadButtonCenterRight
	padA     = ebiten.StandardGamepadButtonRightBottom
)

// padButton returns the button named name.
func padButton(name string) (ebiten.StandardGamepadButton, bool) {
	for _, p := range padButtonNames {
		if p.name == name {
			return p.b, true
		}
	}
	return 0, false
}

// padButtonName returns the settings name of button b.
func padButtonName(b ebiten.StandardGamepadButton) string {
	for _, p := range padButtonNames {
		if p.b == b {
			return p.name
		}
	}
	return ""
}

// DefaultPad are the gamepad controls of a fresh install: the d-pad (and
// always the left stick) turns, the right trigger or shoulder raises the
// thrust, the left ones lower it, A charges and fires.
func DefaultPad() KeyBindings {
	return KeyBindings{
		Up:    []string{"RT", "RB"},
		Down:  []string{"LT", "LB"},
		Left:  []string{"DpadLeft"},
		Right: []string{"DpadRight"},
		Fire:  []string{"A"},
		Jump:  []string{"Y"},
	}
}

// PadMap maps each ship control to the gamepad buttons that hold it.
type PadMap controlMap[ebiten.StandardGamepadButton]

// NewPadMap returns the gamepad map of bindings; an unknown name is
// skipped (LoadSettings has already replaced such bindings).
func NewPadMap(b KeyBindings) PadMap { return PadMap(newControlMap(&b, controlButton)) }

// controlButton returns the button named name if it can hold a ship
// control: Back and Start cannot.
func controlButton(name string) (ebiten.StandardGamepadButton, bool) {
	p, ok := padButton(name)
	return p, ok && p != padBack && p != padStart
}

// shipAction is one ship control and its binding in a KeyBindings.
type shipAction struct {
	bit   game.Input
	key   string    // its field in settings.json
	label string    // what the Controls screen calls it
	names *[]string // its keys or buttons in the bindings
}

// shipActions returns every ship control with its binding in b, in the
// order the Controls screen lists them.
func shipActions(b *KeyBindings) []shipAction {
	return []shipAction{
		{game.Left, "left", "Turn left", &b.Left},
		{game.Right, "right", "Turn right", &b.Right},
		{game.Up, "up", "Thrust up", &b.Up},
		{game.Down, "down", "Thrust down", &b.Down},
		{game.Fire, "fire", "Charge and fire", &b.Fire},
		{game.Hyperspace, "hyperspace", "Hyperspace", &b.Jump},
	}
}

// controlMap maps each ship control to the keys or gamepad buttons that
// hold it: KeyMap and PadMap.
type controlMap[K any] []struct {
	Bit  game.Input
	Held []K
}

// newControlMap returns the map of every ship control in b, in
// shipActions' order, to what its names stand for: the keys of a keyboard
// binding or the buttons of a gamepad one. parse resolves a name; one it
// does not know is skipped.
func newControlMap[K any](b *KeyBindings, parse func(name string) (K, bool)) controlMap[K] {
	var m controlMap[K]
	for _, c := range shipActions(b) {
		var held []K
		for _, n := range *c.names {
			if k, ok := parse(n); ok {
				held = append(held, k)
			}
		}
		m = append(m, struct {
			Bit  game.Input
			Held []K
		}{c.bit, held})
	}
	return m
}

// inputMapper turns input snapshots into intents under the player's
// bindings. It remembers where the sticks leaned, so that a stick pushed
// and held moves a menu's focus once.
type inputMapper struct {
	stickX, stickY int
}

// intents returns the intents of snapshot st under keys and pad.
func (m *inputMapper) intents(keys KeyMap, pad PadMap, st *InputState) Intents {
	in := keys.Intents(st.heldKey, st.justKey)

	// Ship controls: the keyboard's, the pads' buttons and the left stick.
	ship := in.Ship
	for _, c := range pad {
		for _, b := range c.Held {
			if st.padHeld(b) {
				ship |= c.Bit
				break
			}
		}
	}
	sx, sy := st.stick(ebiten.StandardGamepadAxisLeftStickHorizontal), st.stick(ebiten.StandardGamepadAxisLeftStickVertical)
	switch sx {
	case -1:
		ship |= game.Left
	case 1:
		ship |= game.Right
	}
	in.Ship = shipControls(ship)

	// Menus: arrows, the d-pad, or a stick pushed (once per push).
	in.NavX = pair(st.justKey, ebiten.KeyArrowLeft, ebiten.KeyArrowRight)
	in.NavY = pair(st.justKey, ebiten.KeyArrowUp, ebiten.KeyArrowDown)
	if st.padJust(ebiten.StandardGamepadButtonLeftLeft) {
		in.NavX--
	}
	if st.padJust(ebiten.StandardGamepadButtonLeftRight) {
		in.NavX++
	}
	if st.padJust(ebiten.StandardGamepadButtonLeftTop) {
		in.NavY--
	}
	if st.padJust(ebiten.StandardGamepadButtonLeftBottom) {
		in.NavY++
	}
	if sx != m.stickX {
		in.NavX += sx
	}
	if sy != m.stickY {
		in.NavY += sy
	}
	m.stickX, m.stickY = sx, sy
	in.NavX, in.NavY = max(min(in.NavX, 1), -1), max(min(in.NavY, 1), -1)

	// A confirms; B goes back as Esc does; Start opens the in-game menu
	// (neither B nor Start can hold a control).
	if st.padJust(padA) {
		in.Confirm = true
	}
	if st.padJust(padBack) {
		in.Quit = true
	}
	if st.padJust(padStart) {
		in.Menu = true
	}
	return in
}

// repairPad replaces the gamepad bindings of a control that has none or
// names an unknown button (or B or Start, which have fixed meanings) with
// the defaults, and says which it replaced.
func repairPad(b *KeyBindings) []string {
	var fixed []string
	d := DefaultPad()
	def := shipActions(&d)
	for i, c := range shipActions(b) {
		if len(*c.names) == 0 {
			*c.names = *def[i].names
			continue
		}
		for _, n := range *c.names {
			if p, ok := padButton(n); !ok || p == padBack || p == padStart {
				fixed = append(fixed, "pad."+c.key+" ("+n+") replaced with the default buttons")
				*c.names = *def[i].names
				break
			}
		}
	}
	return fixed
}
