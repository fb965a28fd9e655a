package ui

import (
	"image"

	"github.com/ebitenui/ebitenui/widget"
)

// prompt is a question over the screen (Leave the room?), in a modal
// ebitenui window: Esc, B or its first button closes it, the other
// button emits its intent.
type prompt struct {
	win    *widget.Window
	remove widget.RemoveWindowFunc
	box    *widget.Container
}

// ask shows question with a Stay button, in focus, and a button yes that
// emits in.
func (a *App) ask(question, detail, yes string, in Intent) {
	a.closePrompt()
	t := a.theme()
	box := t.panelColumn(14)
	box.AddChild(t.heading(question))
	if detail != "" {
		box.AddChild(t.dim(detail))
	}
	buttons := t.hbox(12, widget.ContainerOpts.WidgetOpts(widget.WidgetOpts.LayoutData(widget.RowLayoutData{Position: widget.RowLayoutPositionEnd})))
	stay := t.buttonFunc("Stay", a.closePrompt, t.size(140, 0))
	buttons.AddChild(stay, t.buttonFunc(yes, func() { a.closePrompt(); a.emit(in) }, t.size(140, 0)))
	box.AddChild(buttons)
	w := widget.NewWindow(widget.WindowOpts.Contents(box), widget.WindowOpts.Modal(), widget.WindowOpts.CloseMode(widget.NONE))
	screen := a.ui.Container.GetWidget().Rect
	pw, ph := box.PreferredSize()
	at := image.Pt(screen.Min.X+(screen.Dx()-pw)/2, screen.Min.Y+(screen.Dy()-ph)/2)
	w.SetLocation(image.Rectangle{Min: at, Max: at.Add(image.Pt(pw, ph))})
	a.prompt = &prompt{win: w, remove: a.ui.AddWindow(w), box: box}
	a.ui.SetFocusedWidget(stay)
}

// closePrompt closes the prompt, if one is open.
func (a *App) closePrompt() {
	if a.prompt == nil {
		return
	}
	a.prompt.remove()
	a.prompt = nil
	a.ui.ClearFocus()
}
