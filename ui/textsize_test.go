package ui

import (
	"fmt"
	"reflect"

	"github.com/ebitenui/ebitenui/widget"
)

// minTextPx is the least size of any text on any screen, in pixels (the
// face's size, its em, as text.GoTextFace.Size counts it), at the
// smallest window the game is made for, 800×600, and so at every larger
// one: the screenshot walks fail on a face drawn smaller (walker.Update).
const minTextPx = 12

// smallText names the first text in c's tree (texts, buttons' labels,
// text inputs) whose face is under minTextPx, with its size, or returns ""
// if there is none.
func smallText(c *widget.Container) string {
	for _, ch := range c.Children() {
		if ch.GetWidget().GetVisibility() != widget.Visibility_Show {
			continue
		}
		var msg string
		switch x := ch.(type) {
		case *widget.Container:
			msg = smallText(x)
		case *widget.Text:
			msg = faceTooSmall(x, x.Label)
		case *widget.Button:
			if tx := x.Text(); tx != nil {
				msg = faceTooSmall(tx, "button "+tx.Label)
			}
		case *widget.TextInput:
			msg = faceTooSmall(x, "text input "+x.GetText())
		}
		if msg != "" {
			return msg
		}
	}
	return ""
}

// faceTooSmall reads the face ebitenui computed for widget w (its
// computedParams.Face, a *text.Face holding a *text.GoTextFace: ebitenui
// does not export it) and says what is too small, or "".
func faceTooSmall(w any, what string) string {
	v := reflect.ValueOf(w).Elem().FieldByName("computedParams")
	if !v.IsValid() {
		return ""
	}
	f := v.FieldByName("Face")
	if !f.IsValid() || f.IsNil() || f.Elem().IsNil() {
		return ""
	}
	face := f.Elem().Elem() // the interface's dynamic value: *text.GoTextFace
	if face.Kind() != reflect.Pointer || face.Elem().Kind() != reflect.Struct {
		return ""
	}
	size := face.Elem().FieldByName("Size")
	if !size.IsValid() || size.Kind() != reflect.Float64 {
		return ""
	}
	if px := size.Float(); px < minTextPx {
		return fmt.Sprintf("%q in a face of %.1f px", what, px)
	}
	return ""
}
