package ui

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"rockstep/game"
)

// keys returns a predicate that reports the given keys as pressed.
func keys(down ...ebiten.Key) KeyPredicate {
	return func(k ebiten.Key) bool {
		for _, d := range down {
			if d == k {
				return true
			}
		}
		return false
	}
}

func TestShipInputMapsKeysToControls(t *testing.T) {
	tests := []struct {
		name string
		down []ebiten.Key
		want game.Input
	}{
		{"nothing", nil, 0},
		{"arrow up", []ebiten.Key{ebiten.KeyArrowUp}, game.Up},
		{"W", []ebiten.Key{ebiten.KeyW}, game.Up},
		{"arrow down", []ebiten.Key{ebiten.KeyArrowDown}, game.Down},
		{"S", []ebiten.Key{ebiten.KeyS}, game.Down},
		{"arrow left", []ebiten.Key{ebiten.KeyArrowLeft}, game.Left},
		{"A", []ebiten.Key{ebiten.KeyA}, game.Left},
		{"arrow right", []ebiten.Key{ebiten.KeyArrowRight}, game.Right},
		{"D", []ebiten.Key{ebiten.KeyD}, game.Right},
		{"space", []ebiten.Key{ebiten.KeySpace}, game.Fire},
		{"shift: hyperspace", []ebiten.Key{ebiten.KeyShift}, game.Hyperspace},
		{"arrow and its WASD twin", []ebiten.Key{ebiten.KeyArrowLeft, ebiten.KeyA}, game.Left},
		{"turn, thrust and fire", []ebiten.Key{ebiten.KeyD, ebiten.KeyArrowUp, ebiten.KeySpace}, game.Right | game.Up | game.Fire},
		{"left and right cancel", []ebiten.Key{ebiten.KeyArrowLeft, ebiten.KeyD}, 0},
		{"up and down cancel, fire stays", []ebiten.Key{ebiten.KeyW, ebiten.KeyArrowDown, ebiten.KeySpace}, game.Fire},
		{"unmapped keys", []ebiten.Key{ebiten.KeyQ, ebiten.KeyEnter, ebiten.KeyEscape}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ShipInput(keys(tc.down...))
			if got != tc.want {
				t.Errorf("ShipInput(%v) = %05b, want %05b", tc.down, got, tc.want)
			}
			if got&^game.ClientInputMask != 0 {
				t.Errorf("ShipInput(%v) = %08b sets bits a client may not send", tc.down, got)
			}
		})
	}
}

func TestReadIntentsSeparatesHeldFromJustPressed(t *testing.T) {
	tests := []struct {
		name       string
		held, just []ebiten.Key
		want       Intents
	}{
		{"idle", nil, nil, Intents{}},
		{"held controls steer", []ebiten.Key{ebiten.KeyArrowUp, ebiten.KeySpace}, nil, Intents{Ship: game.Up | game.Fire}},
		{"Enter confirms", nil, []ebiten.Key{ebiten.KeyEnter}, Intents{Confirm: true}},
		{"keypad Enter confirms", nil, []ebiten.Key{ebiten.KeyNumpadEnter}, Intents{Confirm: true}},
		{"Enter held down does not repeat", []ebiten.Key{ebiten.KeyEnter}, nil, Intents{}},
		{"P pauses", nil, []ebiten.Key{ebiten.KeyP}, Intents{Pause: true}},
		{"Esc quits", nil, []ebiten.Key{ebiten.KeyEscape}, Intents{Quit: true}},
		{"steer while quitting", []ebiten.Key{ebiten.KeyA}, []ebiten.Key{ebiten.KeyEscape}, Intents{Ship: game.Left, Quit: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReadIntents(keys(tc.held...), keys(tc.just...)); got != tc.want {
				t.Errorf("ReadIntents = %+v, want %+v", got, tc.want)
			}
		})
	}
}
