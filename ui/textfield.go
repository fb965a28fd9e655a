package ui

import (
	"slices"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
)

// Text fields are ebitenui's, which read the keyboard themselves; two
// things they miss are made good here.
//
// Ebitengine reads the keyboard once a frame and reports a key pressed
// since the last frame as just pressed, even when it was released again
// within the frame. ebitenui's field acts on a key held down, and waits
// for the key's release before it acts on the key again: when frames are
// slow (a busy machine, software rendering), a key tapped again within a
// frame is never seen released, and the field drops the press (under load,
// 5 of 15 quick Backspaces were kept). editKeys makes every press of
// Backspace and Delete Ebitengine reports count once.
//
// A click into a field that holds text (the address of the last game
// joined) selects the text, so that typing replaces it rather than
// appending to it.

// fieldEdit is the state of the focused field around one ui.Update.
type fieldEdit struct {
	field *widget.TextInput // focused before the update, or nil
	text  string            // its text then
	// clicked is a field focused by a press of the mouse, until the
	// button is released: then its text is selected.
	clicked *widget.TextInput
}

// focusedField returns the text field that has the focus, or nil.
func (a *App) focusedField() *widget.TextInput {
	f, _ := a.ui.GetFocusedWidget().(*widget.TextInput)
	if f != nil && !f.IsFocused() {
		return nil
	}
	return f
}

// before notes the focused field and its text before ui.Update.
func (e *fieldEdit) before(f *widget.TextInput) {
	e.field, e.text = f, ""
	if f != nil {
		e.text = f.GetText()
	}
}

// after makes good what the field missed in the update: a Backspace or
// Delete that Ebitengine reported just pressed (just) and the field left
// undone; and selects the text of a field clicked into once the button
// is up (pressed: a mouse button is down).
func (e *fieldEdit) after(now *widget.TextInput, just []ebiten.Key, pressed bool) {
	if f := e.field; f != nil && f == now && f.GetText() == e.text && !f.GetWidget().Disabled {
		switch {
		case slices.Contains(just, ebiten.KeyBackspace):
			f.Backspace()
		case slices.Contains(just, ebiten.KeyDelete):
			f.Delete()
		}
	}
	if now != nil && now != e.field && pressed {
		e.clicked = now // focused by this press
	}
	if c := e.clicked; c != nil && !pressed {
		if c == now && c.SelectedText() == "" && c.GetText() != "" {
			c.SelectAll()
		}
		e.clicked = nil
	}
}
