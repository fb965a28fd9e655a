package ui

import (
	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
)

// Intents are what the player asks for during one update, read from the
// keyboard (or, in tests, from a script). Scenes act on intents, never on
// keys, so a scene can be driven without a window.
type Intents struct {
	Ship    game.Input // controls of the local ship held this update
	Confirm bool       // Enter was just pressed: start, play again
	Pause   bool       // P was just pressed: pause or resume
	Quit    bool       // Esc was just pressed: leave the game
}

// KeyPredicate reports whether a key is down (or was just pressed).
type KeyPredicate func(ebiten.Key) bool

// shipKeys maps each ship control to the keys that hold it: arrows and WASD
// steer, Space charges and fires.
var shipKeys = [...]struct {
	bit  game.Input
	keys [2]ebiten.Key
}{
	{game.Up, [2]ebiten.Key{ebiten.KeyArrowUp, ebiten.KeyW}},
	{game.Down, [2]ebiten.Key{ebiten.KeyArrowDown, ebiten.KeyS}},
	{game.Left, [2]ebiten.Key{ebiten.KeyArrowLeft, ebiten.KeyA}},
	{game.Right, [2]ebiten.Key{ebiten.KeyArrowRight, ebiten.KeyD}},
	{game.Fire, [2]ebiten.Key{ebiten.KeySpace, ebiten.KeySpace}},
}

// ShipInput returns the ship controls held according to pressed. Opposite
// keys held together cancel out, so the engine never sees Up with Down or
// Left with Right.
func ShipInput(pressed KeyPredicate) game.Input {
	var in game.Input
	for _, k := range shipKeys {
		if pressed(k.keys[0]) || pressed(k.keys[1]) {
			in |= k.bit
		}
	}
	if in&(game.Up|game.Down) == game.Up|game.Down {
		in &^= game.Up | game.Down
	}
	if in&(game.Left|game.Right) == game.Left|game.Right {
		in &^= game.Left | game.Right
	}
	return in
}

// ReadIntents returns the intents of one update: held is whether a key is
// down, just whether it went down since the last update.
func ReadIntents(held, just KeyPredicate) Intents {
	return Intents{
		Ship:    ShipInput(held),
		Confirm: just(ebiten.KeyEnter) || just(ebiten.KeyNumpadEnter),
		Pause:   just(ebiten.KeyP),
		Quit:    just(ebiten.KeyEscape),
	}
}
