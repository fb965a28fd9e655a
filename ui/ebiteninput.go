package ui

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// ebitenInput reads the keyboard and the gamepads from Ebiten into an
// InputState: the one place that asks Ebiten about keys and gamepads.
// It only copies; what the input means is inputMapper's business.
type ebitenInput struct {
	st  InputState
	ids []ebiten.GamepadID
}

// read returns this update's snapshot; it is valid until the next read.
func (r *ebitenInput) read() *InputState {
	st := &r.st
	st.Held = inpututil.AppendPressedKeys(st.Held[:0])
	st.Just = inpututil.AppendJustPressedKeys(st.Just[:0])
	st.Chars = ebiten.AppendInputChars(st.Chars[:0])
	st.Pointer.X, st.Pointer.Y = ebiten.CursorPosition()
	st.Pointer.Pressed = ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft) || ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight) || ebiten.IsMouseButtonPressed(ebiten.MouseButtonMiddle)
	wx, wy := ebiten.Wheel()
	st.Pointer.Wheel = wx != 0 || wy != 0
	st.Connected = st.Connected[:0]
	r.ids = inpututil.AppendJustConnectedGamepadIDs(r.ids[:0])
	for _, id := range r.ids {
		st.Connected = append(st.Connected, PadInfo{Name: ebiten.GamepadName(id), Standard: ebiten.IsStandardGamepadLayoutAvailable(id)})
	}
	r.ids = ebiten.AppendGamepadIDs(r.ids[:0])
	st.Pads = st.Pads[:0]
	for _, id := range r.ids {
		if !ebiten.IsStandardGamepadLayoutAvailable(id) {
			continue
		}
		var p PadState
		for b := range p.Held {
			sb := ebiten.StandardGamepadButton(b)
			p.Held[b] = ebiten.IsStandardGamepadButtonPressed(id, sb)
			p.Just[b] = inpututil.IsStandardGamepadButtonJustPressed(id, sb)
		}
		for ax := range p.Axes {
			p.Axes[ax] = ebiten.StandardGamepadAxisValue(id, ebiten.StandardGamepadAxis(ax))
		}
		st.Pads = append(st.Pads, p)
	}
	return st
}
